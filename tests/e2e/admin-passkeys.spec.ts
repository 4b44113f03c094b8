/**
 * The admin behind a passkey (decision 039). In Chromium with its virtual authenticator (CDP
 * WebAuthn), on the suite's main server and its local inbox: the first passkey with a mailed code,
 * then a sign-in the passkey verifies. Over HTTP with a software authenticator, on a server of this
 * spec's own with its mail on a real SMTP server: every admin route refusing an unverified session,
 * hostile assertions, the lock, the step-up after 15 minutes, recovery codes, a reset, the session
 * id changing on verification, export tokens and the operator's commands.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { openDatabase, queryRows } from "#db/client.ts";
import { idTokenFor, signIn, signInBrowser, signOut } from "#tests/support/accounts.ts";
import {
  assertAdmin,
  codesFromInbox,
  codesFromSink,
  enrolAdmin,
  postAdmin,
} from "#tests/support/admin-passkey.ts";
import {
  E2E_EMULATOR_HOST,
  E2E_INBOX_URL,
  E2E_PASSKEY_ADMINS,
  E2E_PROJECT_ID,
} from "#tests/support/e2e-env.ts";
import { ensureUser } from "#tests/support/emulator.ts";
import { inboxSubjects } from "#tests/support/local-inbox.ts";
import { axeViolations, expect, HYDRATED_PAGE, test } from "#tests/support/fixtures.ts";
import type { RestartableServer } from "#tests/support/server.ts";
import {
  createSoftAuthenticator,
  restoreSoftAuthenticator,
} from "#tests/support/soft-authenticator.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";

const PASSWORD = "passkey-admin-password-1";
/** This spec's own server's administrators. */
const OWNER = "owner-a@tieout.test";
const OTHER = "owner-b@tieout.test";
const LOCKED = "owner-c@tieout.test";
/** One administrator per test beyond these, so none asks for more mailed codes than a minute allows. */
const STEPPING = "owner-d@tieout.test";
const SCRIPTER = "owner-e@tieout.test";
const WATCHER = "owner-f@tieout.test";
const ADMINS = [OWNER, OTHER, LOCKED, STEPPING, SCRIPTER, WATCHER].join(",");

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ ownServerEnv: { ADMIN_EMAILS: ADMINS, TRUST_PROXY: "loopback" } });

const account = async (email: string) => ({
  email,
  password: PASSWORD,
  uid: await ensureUser(email, PASSWORD, { verified: true }),
});

/** A virtual platform authenticator in this tab, as a laptop's fingerprint reader would be. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** The subjects of the mails a sink received for an address, oldest first. */
const sinkSubjects = (smtp: TestSmtp, email: string) =>
  smtp.received.filter((m) => m.to.includes(email)).map((m) => m.parsed.subject ?? "");

test("the first passkey with a mailed code; after signing out and in, /admin asks for it and opens", async ({
  page,
  context,
  baseURL,
}) => {
  const admin = await account(E2E_PASSKEY_ADMINS[0]!);
  await signInBrowser(context, baseURL!, admin);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/verify\?next=%2Fadmin$/);
  await expect(page.getByRole("heading", { level: 1, name: "Set up your passkey" })).toBeVisible();
  await page.locator(HYDRATED_PAGE).waitFor();
  await addVirtualAuthenticator(page);

  await page.getByRole("button", { name: `Email a code to ${admin.email}` }).click();
  await expect(page.getByRole("status")).toContainText(`We mailed a code to ${admin.email}`);
  const codes = codesFromInbox(E2E_INBOX_URL);
  await expect.poll(() => codes(admin.email), { timeout: 20_000 }).toMatch(/^\d{6}$/);
  await page.getByLabel("Code from the email").fill((await codes(admin.email))!);
  await page.getByRole("button", { name: "Check the code" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Create your passkey" })).toBeVisible();
  await page.getByLabel("Passkey name (optional)").fill("Work laptop");
  await page.getByRole("button", { name: "Create a passkey" }).click();
  await expect(page.getByRole("heading", { name: "Your recovery codes" })).toBeFocused();
  const shown = await page
    .getByRole("list", { name: "Recovery codes" })
    .getByRole("listitem")
    .allTextContents();
  expect(shown).toHaveLength(10);
  for (const code of shown)
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){5}$/);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download as a text file" }).click(),
  ]);
  const file = await readFile(await download.path(), "utf8");
  for (const code of shown) expect(file).toContain(code);
  await page.getByRole("button", { name: "I have saved them: open the admin" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect
    .poll(() => inboxSubjects(admin.email))
    .toContain("A passkey was added to your admin access");

  // Signed out and in again: the password alone no longer opens the admin.
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
  await signInBrowser(context, baseURL!, admin);
  await page.goto("/admin/waitlist");
  await expect(page).toHaveURL(/\/admin\/verify\?next=%2Fadmin%2Fwaitlist$/);
  await expect(page.getByRole("heading", { level: 1, name: "Verify it's you" })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.locator(HYDRATED_PAGE).waitFor();
  await page.getByRole("button", { name: "Use my passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Waitlist" })).toBeVisible();

  // The passkey on the account page: renamed, new recovery codes, and never removed as the last.
  await page.goto("/account");
  const access = page.getByRole("region", { name: "Admin access" });
  await expect(access.getByRole("table", { name: "Your passkeys" })).toContainText("Work laptop");
  await page.locator(HYDRATED_PAGE).waitFor();
  expect(await axeViolations(page)).toEqual([]);
  await access.getByRole("button", { name: "Rename Work laptop" }).click();
  await access.getByLabel("New name for Work laptop").fill("Home laptop");
  await access.getByRole("button", { name: "Save" }).click();
  await expect(access.getByRole("status")).toHaveText('Renamed to "Home laptop".');
  await expect(access.getByRole("button", { name: "Remove Home laptop" })).toBeDisabled();
  await expect(access).toContainText("Your only passkey: add another to remove it.");
  await access.getByRole("button", { name: "Make new recovery codes" }).click();
  await expect(page.getByRole("heading", { name: "Your recovery codes" })).toBeFocused();
  const newCodes = await page
    .getByRole("list", { name: "Recovery codes" })
    .getByRole("listitem")
    .allTextContents();
  expect(newCodes).toHaveLength(10);
  expect(newCodes.filter((code) => shown.includes(code))).toEqual([]);
  await page.getByRole("button", { name: "I have saved them" }).click();
  await expect(access).toContainText("10 of 10 left.");
  await expect
    .poll(() => inboxSubjects(admin.email))
    .toContain("New recovery codes for your admin access");
});

test("with JavaScript off, /admin/verify says passkeys need it, and its button sends nothing", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const admin = await account(E2E_PASSKEY_ADMINS[1]!);
    await signInBrowser(context, baseURL!, admin);
    const page = await context.newPage();
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/verify/);
    // Chromium with scripts turned off through DevTools still parses <noscript> as a browser
    // that runs scripts does (its content is not shown), so the words are read from the HTML.
    const html = await (await context.request.get(page.url())).text();
    expect(html).toMatch(
      /<noscript><p [^>]*>Passkeys need JavaScript\. Turn it on for this site to verify your admin access\.<\/p><\/noscript>/,
    );
    const before = (await inboxSubjects(admin.email)).length;
    await page.getByRole("button", { name: `Email a code to ${admin.email}` }).click();
    await expect(page).toHaveURL(/\/admin\/verify/);
    expect((await inboxSubjects(admin.email)).length).toBe(before);
  } finally {
    await context.close();
  }
});

test("every admin route, its data and its posts refuse a session no passkey verified; the API says what is missing", async ({
  ownServer: server,
}) => {
  const admin = await account(OWNER);
  const { cookie } = await signIn(server.url, admin);
  const build = (await import(path.resolve("build/server/index.js"))) as {
    routes: Record<string, { path?: string }>;
  };
  const adminPaths = Object.values(build.routes)
    .map((route) => route.path)
    .filter((p): p is string => p !== undefined && /^admin(\/|$)/.test(p));
  // The verify page is the one admin route for a session not verified yet.
  expect(adminPaths).toContain("admin/verify");
  expect(adminPaths.length).toBeGreaterThanOrEqual(6);
  const get = (target: string) =>
    fetch(`${server.url}${target}`, { headers: { cookie }, redirect: "manual" });
  // A path with a parameter is asked for as a page of it would be: a broadcast by its number.
  for (const routePath of adminPaths.map((p) => p.replace(/:id$/, "1"))) {
    const page = await get(`/${routePath}`);
    if (routePath === "admin/verify") {
      expect(page.status).toBe(200);
      continue;
    }
    expect(page.status, `/${routePath}`).toBe(302);
    expect(page.headers.get("location"), `/${routePath}`).toBe(
      `/admin/verify?next=${encodeURIComponent(`/${routePath}`)}`,
    );
    const data = await get(`/${routePath}.data`);
    const body = await data.text();
    expect(body, `/${routePath}.data`).toContain("/admin/verify");
    expect(body, `/${routePath}.data`).not.toContain("@tieout.test");
    const posted = await fetch(`${server.url}/${routePath}`, {
      method: "POST",
      headers: { cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: "act=invite-selected&id=1",
    });
    expect(posted.status, `POST /${routePath}`).toBe(401);
    expect(await posted.text()).toBe("Verify with your passkey first: open /admin/verify.");
  }
  const exported = await get("/api/admin/waitlist.csv");
  expect(exported.status).toBe(401);
  expect(await exported.json()).toMatchObject({ missing: "needs-passkey" });
  // A broadcast's preview, the one admin document outside the pages (decision 042).
  const preview = await get("/admin/broadcasts/1/preview");
  expect(preview.status).toBe(401);
  expect(await preview.json()).toMatchObject({ missing: "needs-passkey" });
  for (const api of [
    "/api/admin/recovery-codes",
    "/api/admin/export-tokens",
    "/api/admin/reset-passkeys",
  ]) {
    const answer = await postAdmin(server, cookie, api);
    expect(answer.status, api).toBe(401);
    expect(answer.body.missing, api).toBe("needs-passkey");
  }
  await signOut(server.url, cookie);
});

test("refused, each with its own answer and log line, changing nothing: no user verification, a replayed assertion, another session's challenge, a removed passkey, another origin, another account's passkey", async ({
  ownServer: server,
  mailSink: smtp,
}) => {
  const owner = await account(OWNER);
  const other = await account(OTHER);
  const codes = codesFromSink(smtp);
  let ownerCookie = (await signIn(server.url, owner)).cookie;
  const enrolled = await enrolAdmin(server, owner.email, ownerCookie, codes);
  ownerCookie = enrolled.cookie;
  const keys = enrolled.authenticator;

  const fresh = async () => (await signIn(server.url, owner)).cookie;
  const options = async (cookie: string) => {
    const answer = await postAdmin(server, cookie, "/api/admin/verify/options");
    expect(answer.status).toBe(200);
    return answer.body as never;
  };
  const verify = (cookie: string, response: unknown) =>
    postAdmin(server, cookie, "/api/admin/verify", { response });

  // User verification absent (no PIN, fingerprint or face).
  let session = await fresh();
  let answer = await verify(session, keys.assert(await options(session), { userVerified: false }));
  expect(answer.status).toBe(401);
  expect(answer.body.reason).toBe("user-verification-missing");

  // A replayed assertion: its challenge was taken when it was first used.
  session = await fresh();
  const first = keys.assert(await options(session));
  const verified = await verify(session, first);
  expect(verified.status).toBe(200);
  session = await fresh();
  await options(session);
  answer = await verify(session, first);
  expect(answer.status).toBe(400);
  expect(answer.body.reason).toBe("challenge-unknown");

  // An assertion made for another session's challenge.
  const mine = await fresh();
  const theirs = await fresh();
  answer = await verify(theirs, keys.assert(await options(mine)));
  expect(answer.status).toBe(400);
  expect(answer.body.reason).toBe("challenge-unknown");

  // A second passkey added, the first removed: the first no longer verifies.
  const added = await postAdmin(server, verified.cookie!, "/api/admin/passkeys/options");
  expect(added.status).toBe(200);
  const removedId = keys.credentialIds()[0]!;
  // A security key of its own: an authenticator holds one passkey for the site, as a browser does.
  const spare = createSoftAuthenticator({ origin: new URL(server.url).origin });
  const registered = await postAdmin(server, verified.cookie!, "/api/admin/passkeys", {
    response: spare.register(added.body as never),
    name: "Spare key",
  });
  expect(registered.status).toBe(200);
  expect(registered.body.recoveryCodes).toBeNull();
  const removed = await postAdmin(server, registered.cookie!, "/api/admin/passkeys/remove", {
    id: removedId,
  });
  expect(removed.status).toBe(200);
  session = await fresh();
  answer = await verify(session, keys.assert(await options(session), { credentialId: removedId }));
  expect(answer.status).toBe(401);
  expect(answer.body.reason).toBe("credential-unknown");

  // Another administrator's session presenting this one's passkey, and another origin: the other
  // administrator's failures, so this one stays below the lock.
  const otherEnrolled = await enrolAdmin(
    server,
    other.email,
    (await signIn(server.url, other)).cookie,
    codes,
  );
  const otherSession = (await signIn(server.url, other)).cookie;
  const otherOptions = await options(otherSession);
  answer = await verify(
    otherSession,
    spare.assert({ ...(otherOptions as object), allowCredentials: [] } as never),
  );
  expect(answer.status).toBe(401);
  expect(answer.body.reason).toBe("credential-of-another-account");
  const otherAgain = (await signIn(server.url, other)).cookie;
  answer = await verify(
    otherAgain,
    otherEnrolled.authenticator.assert(await options(otherAgain), {
      origin: "https://tieout.example",
    }),
  );
  expect(answer.status).toBe(401);
  expect(answer.body.reason).toBe("wrong-origin");

  // Each refusal is one security line in the log, naming its reason.
  const refusals = server
    .output()
    .split("\n")
    .filter((line) => line.includes('"event":"admin.verify_refused"'));
  for (const reason of [
    "user-verification-missing",
    "challenge-unknown",
    "credential-unknown",
    "credential-of-another-account",
    "wrong-origin",
  ])
    expect(
      refusals.some((line) => line.includes(`"reason":"${reason}"`)),
      reason,
    ).toBe(true);
  // The passkey left still verifies; nothing else changed.
  session = await fresh();
  expect((await verify(session, spare.assert(await options(session)))).status).toBe(200);
  expect(sinkSubjects(smtp, owner.email)).toContain("A passkey was removed from your admin access");
});

test("five failures in 15 minutes lock verification for 15 minutes, mail the administrator and show on Activity", async ({
  ownServer: server,
  mailSink: smtp,
}) => {
  const locked = await account(LOCKED);
  const codes = codesFromSink(smtp);
  const enrolled = await enrolAdmin(
    server,
    locked.email,
    (await signIn(server.url, locked)).cookie,
    codes,
  );
  for (let n = 1; n <= 5; n++) {
    const cookie = (await signIn(server.url, locked)).cookie;
    const answer = await postAdmin(server, cookie, "/api/admin/verify/recovery", {
      code: "AAAA-AAAA-AAAA-AAAA-AAAA-AAAA",
    });
    expect(answer.status, `attempt ${n}`).toBe(401);
  }
  const cookie = (await signIn(server.url, locked)).cookie;
  const refused = await postAdmin(server, cookie, "/api/admin/verify/options");
  expect(refused.status).toBe(423);
  expect(refused.body.message).toMatch(
    /^Too many failed attempts: verification is locked for 1[45] more minutes\.$/,
  );
  // A right answer waits too: the lock is on the administrator, not on a guess.
  const right = await postAdmin(server, cookie, "/api/admin/verify/recovery", {
    code: enrolled.recoveryCodes[0],
  });
  expect(right.status).toBe(423);
  await expect
    .poll(() => sinkSubjects(smtp, locked.email))
    .toContain("Your admin access is locked for a while");
  // Another administrator sees it on Activity.
  const owner = await account(WATCHER);
  const { cookie: ownerCookie } = await enrolAdmin(
    server,
    owner.email,
    (await signIn(server.url, owner)).cookie,
    codes,
  );
  const activity = await fetch(`${server.url}/admin/activity`, {
    headers: { cookie: ownerCookie },
  });
  expect(activity.status).toBe(200);
  const rows = (await activity.text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  expect(rows).toMatch(
    new RegExp(
      `${LOCKED.replace(".", "\\.")} Verification locked Admin access locked for 15 minutes`,
    ),
  );
});

test("the export asks for the passkey again 16 minutes after it was used, and the session id changes on every verification", async ({
  ownServer: server,
  mailSink: smtp,
}) => {
  const owner = await account(STEPPING);
  const enrolled = await enrolAdmin(
    server,
    owner.email,
    (await signIn(server.url, owner)).cookie,
    codesFromSink(smtp),
  );
  const keys = enrolled.authenticator;
  const signedIn = (await signIn(server.url, owner)).cookie;
  const cookie = await assertAdmin(server, signedIn, keys);
  // The cookie from before the verification opens nothing now.
  const before = await fetch(`${server.url}/admin`, {
    headers: { cookie: signedIn },
    redirect: "manual",
  });
  expect(before.status).toBe(302);
  expect(before.headers.get("location")).toBe("/login");

  const exportWith = (c: string) =>
    fetch(`${server.url}/api/admin/waitlist.csv`, {
      headers: { cookie: c, "Sec-Fetch-Site": "same-origin" },
      redirect: "manual",
    });
  expect((await exportWith(cookie)).status).toBe(200);

  // The clock moves on: the session's last passkey is now 16 minutes old.
  await server.stop();
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: undefined });
  try {
    const moved = await queryRows<{ n: number }>(
      database.db,
      sql`WITH moved AS (UPDATE sessions SET admin_step_up_at = admin_step_up_at - interval '16 minutes'
            WHERE admin_step_up_at IS NOT NULL AND revoked_at IS NULL RETURNING 1)
          SELECT count(*)::int AS n FROM moved`,
    );
    expect(moved[0]!.n).toBeGreaterThan(0);
  } finally {
    await database.close();
  }
  await server.restart();
  const stale = await exportWith(cookie);
  expect(stale.status).toBe(401);
  expect(await stale.json()).toMatchObject({ missing: "step-up" });
  const navigated = await fetch(`${server.url}/api/admin/waitlist.csv`, {
    // A browser following the link (fetch cannot send Sec-Fetch-Mode: navigate; Accept says it).
    headers: { cookie, Accept: "text/html,application/xhtml+xml", "Sec-Fetch-Site": "same-origin" },
    redirect: "manual",
  });
  expect(navigated.status).toBe(303);
  expect(navigated.headers.get("location")).toBe(
    "/admin/verify?next=%2Fadmin%2Fwaitlist&confirm=export",
  );
  // The admin's pages still open (verified within 12 hours, used within the hour)...
  expect(
    (await fetch(`${server.url}/admin`, { headers: { cookie }, redirect: "manual" })).status,
  ).toBe(200);
  // ...and a passkey again steps up, under a new session id.
  // The restarted site listens on another port: the passkey answers for its origin now.
  const stepped = await assertAdmin(
    server,
    cookie,
    restoreSoftAuthenticator({ ...keys.toJSON(), origin: new URL(server.url).origin }),
  );
  expect(stepped).not.toBe(cookie);
  expect((await exportWith(stepped)).status).toBe(200);
  expect((await exportWith(cookie)).status).toBe(401);
});

/** `npm run admin -- …` against this spec's server, configured as it is. */
async function runAdminCommand(server: RestartableServer, args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "scripts/admin.ts", ...args],
      {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          DATA_DIR: server.dataDir,
          SITE_URL: server.url,
          ADMIN_EMAILS: ADMINS,
          FIREBASE_PROJECT_ID: E2E_PROJECT_ID,
          FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR_HOST,
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

test("a recovery code lets its administrator in once and asks for a new passkey first; another administrator can reset", async ({
  ownServer: server,
  mailSink: smtp,
}) => {
  const other = await account(OTHER);
  const owner = await account(OWNER);
  const codes = codesFromSink(smtp);
  // OTHER starts from nothing: the operator's reset, then a first passkey.
  expect((await runAdminCommand(server, ["reset-passkeys", other.email])).code).toBe(0);
  const enrolled = await enrolAdmin(
    server,
    other.email,
    (await signIn(server.url, other)).cookie,
    codes,
  );
  const [code] = enrolled.recoveryCodes;

  // The passkeys are lost: a recovery code, once.
  let cookie = (await signIn(server.url, other)).cookie;
  const used = await postAdmin(server, cookie, "/api/admin/verify/recovery", {
    code: code!.toLowerCase(),
  });
  expect(used.status).toBe(200);
  cookie = used.cookie!;
  // Nothing but a new passkey: the admin sends it back to /admin/verify.
  const page = await fetch(`${server.url}/admin`, { headers: { cookie }, redirect: "manual" });
  expect(page.status).toBe(302);
  expect(page.headers.get("location")).toBe("/admin/verify?next=%2Fadmin");
  const newKeys = createSoftAuthenticator({ origin: new URL(server.url).origin });
  const options = await postAdmin(server, cookie, "/api/admin/passkeys/options");
  expect(options.status).toBe(200);
  const registered = await postAdmin(server, cookie, "/api/admin/passkeys", {
    response: newKeys.register(options.body as never),
  });
  expect(registered.status).toBe(200);
  expect(
    (
      await fetch(`${server.url}/admin`, {
        headers: { cookie: registered.cookie! },
        redirect: "manual",
      })
    ).status,
  ).toBe(200);
  // The same code a second time: refused.
  const again = await postAdmin(
    server,
    (await signIn(server.url, other)).cookie,
    "/api/admin/verify/recovery",
    { code },
  );
  expect(again.status).toBe(401);
  await expect
    .poll(() => sinkSubjects(smtp, other.email))
    .toContain("A recovery code was used for your admin access");

  // OWNER resets OTHER, after a step-up: OTHER's passkeys and sessions end, and OTHER is mailed.
  expect((await runAdminCommand(server, ["reset-passkeys", owner.email])).code).toBe(0);
  const ownerEnrolled = await enrolAdmin(
    server,
    owner.email,
    (await signIn(server.url, owner)).cookie,
    codes,
  );
  const reset = await postAdmin(server, ownerEnrolled.cookie, "/api/admin/reset-passkeys", {
    email: other.email,
  });
  expect(reset.status).toBe(200);
  // The passkey of its enrolment and the one after the recovery code.
  expect(reset.body.removed).toBe(2);
  expect(
    (
      await fetch(`${server.url}/admin`, {
        headers: { cookie: registered.cookie! },
        redirect: "manual",
      })
    ).headers.get("location"),
  ).toBe("/login");
  await expect
    .poll(() => sinkSubjects(smtp, other.email))
    .toContain("Your admin passkeys were reset");
  const afterReset = await postAdmin(
    server,
    (await signIn(server.url, other)).cookie,
    "/api/admin/verify/options",
  );
  expect(afterReset.status).toBe(409);
});

test("export tokens: a Firebase ID token no longer exports; a token made after a step-up does until revoked; the operator's command prints one alone", async ({
  ownServer: server,
  mailSink: smtp,
}) => {
  const owner = await account(SCRIPTER);
  const exportWith = (token: string) =>
    fetch(`${server.url}/api/admin/waitlist.csv`, {
      headers: { Authorization: `Bearer ${token}` },
    });
  const byIdToken = await exportWith(await idTokenFor(owner));
  expect(byIdToken.status).toBe(401);
  expect(await byIdToken.json()).toMatchObject({ missing: "export-token" });

  const { cookie } = await enrolAdmin(
    server,
    owner.email,
    (await signIn(server.url, owner)).cookie,
    codesFromSink(smtp),
  );
  const made = await postAdmin(server, cookie, "/api/admin/export-tokens", {
    label: "Nightly import",
    days: "7",
  });
  expect(made.status).toBe(200);
  const token = made.body.token as string;
  expect(token).toMatch(/^tieout_export_[A-Za-z0-9_-]{43}$/);
  const exported = await exportWith(token);
  expect(exported.status).toBe(200);
  expect(exported.headers.get("content-type")).toContain("text/csv");
  // Read-only: the token opens nothing but the export.
  const page = await fetch(`${server.url}/admin`, {
    headers: { Authorization: `Bearer ${token}` },
    redirect: "manual",
  });
  expect(page.status).toBe(302);

  const listed = await fetch(`${server.url}/admin/waitlist`, { headers: { cookie } });
  const html = await listed.text();
  expect(html).toContain("Nightly import");
  expect(html).not.toContain(token);

  const revoked = await postAdmin(server, cookie, "/api/admin/export-tokens/revoke", {
    id: made.body.id,
  });
  expect(revoked.status).toBe(200);
  expect((await exportWith(token)).status).toBe(401);

  // The operator's command: the token alone on standard output, and it works.
  const command = await runAdminCommand(server, ["export-token", owner.email, "--days", "2"]);
  expect(command.code).toBe(0);
  expect(command.stdout).toMatch(/^tieout_export_[A-Za-z0-9_-]{43}\n$/);
  expect((await exportWith(command.stdout.trim())).status).toBe(200);
  const bad = await runAdminCommand(server, ["export-token", "nobody@example.com"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("That address is not an administrator's.");
  await expect
    .poll(
      () =>
        sinkSubjects(smtp, owner.email).filter(
          (s) => s === "An export token was made for your admin access",
        ).length,
    )
    .toBe(2);
});
