/**
 * People who can sign in, and signing them in as a browser does: the Firebase SDK signs in with
 * the password, then POSTs the fresh ID token to /api/session and keeps the cookie it gets back.
 * Every function takes the server's URL, so specs that start servers of their own sign in with
 * the same code as the fixtures in fixtures.ts, which use the suite's main server.
 */
import { codesFromInbox, postAdmin, useCookie, verifyAdmin } from "#tests/support/admin-passkey.ts";
import type { RunningServer } from "#tests/support/server.ts";
import type { BrowserContext } from "@playwright/test";
import { EMULATOR_API_KEY } from "#server/pages/public-env.ts";
import {
  BASE_URL,
  E2E_ADMIN_EMAIL,
  E2E_DATA_DIR,
  E2E_INBOX_URL,
  E2E_UNVERIFIED_ADMIN_EMAIL,
} from "#tests/support/e2e-env.ts";
import {
  createUser,
  deleteUser,
  ensureUser,
  signInWithPassword,
  uniqueEmail,
  verifyEmail,
} from "#tests/support/emulator.ts";

export type Account = { email: string; password: string; uid: string };

/** The server's answer to a sign-in: its status and, when it made a session, the cookie's pair. */
type SessionAnswer = { status: number; cookie: string };

const ADMIN_PASSWORD = "admin-password-1";

/** A new account with its own address, its email verified: a person who finished signing up. */
export async function createVerifiedAccount(label = "member"): Promise<Account> {
  const email = uniqueEmail(label);
  const password = `${label}-password-1`;
  const { uid } = await createUser(email, password);
  await verifyEmail(uid);
  return { email, password, uid };
}

/**
 * The administrator of the suite's main server (E2E_ADMIN_EMAIL is in its ADMIN_EMAILS). Its
 * address is fixed, so whichever test needs it first creates it; no test changes it, signs it out
 * everywhere or deletes it, since tests that run beside each other share it.
 */
export async function ensureAdmin(): Promise<Account> {
  const uid = await ensureUser(E2E_ADMIN_EMAIL, ADMIN_PASSWORD, { verified: true });
  return { email: E2E_ADMIN_EMAIL, password: ADMIN_PASSWORD, uid };
}

/** An address in ADMIN_EMAILS whose owner never verified it: not an administrator. */
export async function ensureUnverifiedAdmin(): Promise<Account> {
  const uid = await ensureUser(E2E_UNVERIFIED_ADMIN_EMAIL, ADMIN_PASSWORD, { verified: false });
  return { email: E2E_UNVERIFIED_ADMIN_EMAIL, password: ADMIN_PASSWORD, uid };
}

/** A fresh ID token for the account, as the SDK holds one right after signing in. */
export async function idTokenFor(account: Account): Promise<string> {
  return (await signInWithPassword(account.email, account.password)).idToken;
}

/**
 * Exchanges an ID token for a server session, whatever the answer: for tests about refusals.
 * `cookie` is the session cookie the browser already holds, if any.
 */
export async function startSession(
  serverUrl: string,
  idToken: string,
  cookie?: string,
): Promise<SessionAnswer> {
  const answer = await fetch(`${serverUrl}/api/session`, {
    method: "POST",
    headers: { Authorization: `Bearer ${idToken}`, ...(cookie ? { Cookie: cookie } : {}) },
  });
  return { status: answer.status, cookie: (answer.headers.get("set-cookie") ?? "").split(";")[0]! };
}

/**
 * Signs the account in on the server at `serverUrl` with a fresh ID token; returns the session
 * cookie's pair (`name=value`). `replacing` is the cookie of a session the browser already has.
 */
export async function signIn(
  serverUrl: string,
  account: Account,
  options: { replacing?: string } = {},
): Promise<{ cookie: string }> {
  const answer = await startSession(serverUrl, await idTokenFor(account), options.replacing);
  if (answer.status !== 200 || !answer.cookie.includes("="))
    throw new Error(`signing ${account.email} in on ${serverUrl} answered ${answer.status}`);
  return { cookie: answer.cookie };
}

/** Ends the session behind `cookie`, as Sign Out does. */
export async function signOut(serverUrl: string, cookie: string): Promise<void> {
  const answer = await fetch(`${serverUrl}/api/session`, {
    method: "DELETE",
    headers: { Cookie: cookie },
  });
  if (!answer.ok) throw new Error(`signing out on ${serverUrl} answered ${answer.status}`);
}

/**
 * Makes a browser context signed in as the account, as it is after the sign-in form: the server's
 * session cookie, and the Firebase SDK's own record of the user. Both are needed: once a page's
 * app starts, Firebase is the judge, and a cookie without a Firebase user is signed out at once
 * (src/features/auth/auth-provider.tsx). Firebase keeps that record under one key in local storage
 * or IndexedDB; the value is what its User.toJSON() writes.
 */
export async function signInBrowser(
  context: BrowserContext,
  serverUrl: string,
  account: Account,
): Promise<{ cookie: string }> {
  const signedIn = await signInWithPassword(account.email, account.password);
  const answer = await startSession(serverUrl, signedIn.idToken);
  if (answer.status !== 200)
    throw new Error(`signing ${account.email} in on ${serverUrl} answered ${answer.status}`);
  const [name = "", value = ""] = answer.cookie.split(/=(.*)/s);
  await context.addCookies([{ name, value, url: serverUrl, httpOnly: true, sameSite: "Lax" }]);

  const user = {
    uid: account.uid,
    email: account.email,
    emailVerified: true,
    isAnonymous: false,
    providerData: [
      {
        providerId: "password",
        uid: account.email,
        displayName: null,
        email: account.email,
        phoneNumber: null,
        photoURL: null,
      },
    ],
    stsTokenManager: {
      refreshToken: signedIn.refreshToken,
      accessToken: signedIn.idToken,
      expirationTime: Date.now() + signedIn.expiresIn * 1000,
    },
    apiKey: EMULATOR_API_KEY,
    appName: "[DEFAULT]",
  };
  // Written once, from a page of the site's origin; the app moves it into IndexedDB when it starts.
  const page = await context.newPage();
  try {
    await page.goto(`${serverUrl}/robots.txt`);
    await page.evaluate(([key, json]) => localStorage.setItem(key, json), [
      `firebase:authUser:${EMULATOR_API_KEY}:[DEFAULT]`,
      JSON.stringify(user),
    ] as const);
  } finally {
    await page.close();
  }
  return { cookie: answer.cookie };
}

/**
 * Runs `run` with the administrator (E2E_ADMIN_EMAIL) signed in and verified on `server` in
 * `context`, as after the sign-in form; signed out after it, as the administrator's live sessions
 * are capped (server/session-store.ts).
 */
export async function asAdmin(
  context: BrowserContext,
  server: RunningServer,
  run: () => Promise<void>,
): Promise<void> {
  const admin = await ensureAdmin();
  const { cookie } = await signInBrowser(context, server.url, admin);
  // The admin opens to a session verified with a passkey (decision 039).
  const verified = await verifyAdmin(server, admin.email, cookie, server.adminCodes);
  await useCookie(context, server.url, verified);
  try {
    await run();
  } finally {
    await signOut(server.url, verified);
  }
}

/** Deletes an account made for one test; one the test deleted itself is already gone. */
export async function deleteAccount(account: Account): Promise<void> {
  await deleteUser(account.uid).catch((error: unknown) => {
    if (!String(error).includes("USER_NOT_FOUND")) throw error;
  });
}

const exportTokens = new Map<string, Promise<string>>();

/**
 * An export token of the administrator (E2E_ADMIN_EMAIL) on `server` (decision 039), made once per
 * server in this worker, as an administrator makes one on the admin page: signed in, verified with
 * the passkey, then asked for one. For tests that read the list through the CSV export.
 */
export function adminExportToken(
  server: Pick<RunningServer, "url" | "dataDir" | "adminCodes">,
): Promise<string> {
  let token = exportTokens.get(server.url);
  if (!token) {
    token = (async () => {
      const admin = await ensureAdmin();
      const { cookie } = await signIn(server.url, admin);
      const verified = await verifyAdmin(server, admin.email, cookie, server.adminCodes);
      const made = await postAdmin(server, verified, "/api/admin/export-tokens", {
        label: "End-to-end tests",
        days: 1,
      });
      await signOut(server.url, verified);
      if (made.status !== 200) throw new Error(`no export token: ${JSON.stringify(made.body)}`);
      return made.body.token as string;
    })();
    exportTokens.set(server.url, token);
    token.catch(() => exportTokens.delete(server.url));
  }
  return token;
}

/** The suite's main server, as `adminExportToken` and `verifyAdmin` need it. */
export const MAIN_SERVER = {
  url: BASE_URL,
  dataDir: E2E_DATA_DIR,
  adminCodes: codesFromInbox(E2E_INBOX_URL),
};

/**
 * `account` signed in on `server` and verified with its passkey there (decision 039), as an
 * administrator is before any admin page opens: the session cookie (`name=value`).
 */
export async function signInVerified(
  server: Pick<RunningServer, "url" | "dataDir" | "adminCodes">,
  account: Account,
): Promise<{ cookie: string }> {
  const { cookie } = await signIn(server.url, account);
  return { cookie: await verifyAdmin(server, account.email, cookie, server.adminCodes) };
}

/** An export token the verified administrator behind `cookie` makes, as on the admin page. */
export async function exportTokenOf(
  server: Pick<RunningServer, "url" | "dataDir">,
  cookie: string,
): Promise<string> {
  const made = await postAdmin(server, cookie, "/api/admin/export-tokens", {
    label: "Nightly script",
    days: 1,
  });
  if (made.status !== 200) throw new Error(`no export token: ${JSON.stringify(made.body)}`);
  return made.body.token as string;
}

/**
 * `account` signed in through the browser context on `server` as after the sign-in form, and its
 * session verified with its passkey there (decision 039), as an administrator's is before any
 * admin page opens. The browser holds the verified session's cookie.
 */
export async function signInBrowserVerified(
  context: BrowserContext,
  server: Pick<RunningServer, "url" | "dataDir" | "adminCodes">,
  account: Account,
): Promise<{ cookie: string }> {
  const { cookie } = await signInBrowser(context, server.url, account);
  const verified = await verifyAdmin(server, account.email, cookie, server.adminCodes);
  await useCookie(context, server.url, verified);
  return { cookie: verified };
}
