/**
 * An administrator's session verified with a passkey on a test server, over HTTP, as the admin
 * pages need since decision 039: the first time for an address on a server, the code mailed to it
 * and a new passkey of a software authenticator (soft-authenticator.ts); after that, an assertion
 * of that passkey. The authenticator is kept in the server's data folder, per address, so every
 * worker that uses the server uses the same passkey; a lock file keeps two from enrolling at once.
 * The browser's own ceremonies are tested with Chromium's virtual authenticator (admin-passkeys
 * spec); this is for every other spec that needs an administrator.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import type { BrowserContext } from "@playwright/test";
import {
  createSoftAuthenticator,
  restoreSoftAuthenticator,
  type SoftAuthenticator,
  type SoftAuthenticatorJSON,
} from "#tests/support/soft-authenticator.ts";
import { BASE_URL, E2E_DATA_DIR, E2E_INBOX_URL } from "#tests/support/e2e-env.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";

/** Where a server's mailed admin codes can be read: the newest code for an address, or null. */
export type CodeSource = (email: string) => Promise<string | null>;

const CODE_SUBJECT = /admin code: (\d{6})/;

/** Codes caught by a server's local inbox (no SMTP_URL): its list page, newest first. */
export function codesFromInbox(inboxUrl: string): CodeSource {
  return async (email) => {
    const html = await (await fetch(inboxUrl)).text();
    for (const row of html.split("<tr>")) {
      if (!row.includes(`<td>${email.toLowerCase()}</td>`) && !row.includes(`<td>${email}</td>`))
        continue;
      const code = CODE_SUBJECT.exec(row)?.[1];
      if (code) return code;
    }
    return null;
  };
}

/** Codes received by a spec's SMTP sink (SMTP_URL): the newest. */
export function codesFromSink(smtp: TestSmtp): CodeSource {
  return (email) => {
    const mails = smtp.received.filter((m) => m.to.includes(email.toLowerCase()));
    for (const mail of [...mails].reverse()) {
      const code = CODE_SUBJECT.exec(mail.parsed.subject ?? "")?.[1];
      if (code) return Promise.resolve(code);
    }
    return Promise.resolve(null);
  };
}

type Server = { url: string; dataDir: string };

const json = (cookie: string) => ({ "Content-Type": "application/json", Cookie: cookie });

/** The session cookie (`name=value`) a response sets, or null. */
function cookieFrom(response: Response): string | null {
  const set = response.headers.get("set-cookie");
  return set ? (set.split(";")[0] ?? null) : null;
}

/** POSTs JSON as the browser would, with the session cookie; the answer as status and body. */
export async function postAdmin(
  server: Server,
  cookie: string,
  apiPath: string,
  body: unknown = {},
): Promise<{ status: number; body: Record<string, unknown>; cookie: string | null }> {
  const response = await fetch(`${server.url}${apiPath}`, {
    method: "POST",
    headers: { ...json(cookie), "Sec-Fetch-Site": "same-origin" },
    body: JSON.stringify(body),
  });
  const parsed = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, body: parsed, cookie: cookieFrom(response) };
}

const fileOf = (server: Server, email: string) =>
  path.join(server.dataDir, "e2e-passkeys", `${email.toLowerCase()}.json`);

/** The software authenticator kept for an address on a server, or a new one. */
function authenticatorFor(server: Server, email: string): SoftAuthenticator {
  const file = fileOf(server, email);
  // A restarted server may listen on another port: its passkeys answer for its origin now.
  if (existsSync(file))
    return restoreSoftAuthenticator({
      ...(JSON.parse(readFileSync(file, "utf8")) as SoftAuthenticatorJSON),
      origin: new URL(server.url).origin,
    });
  return createSoftAuthenticator({ origin: new URL(server.url).origin });
}

function keepAuthenticator(server: Server, email: string, authenticator: SoftAuthenticator) {
  const file = fileOf(server, email);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(authenticator.toJSON()));
  // A rename is atomic: another worker reads the old file or the new one, never half of one.
  renameSync(`${file}.tmp`, file);
}

/** Runs `work` while holding a lock directory beside the address's file (other workers wait). */
async function locked<T>(server: Server, email: string, work: () => Promise<T>): Promise<T> {
  const lock = `${fileOf(server, email)}.lock`;
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`waited a minute for ${lock}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * The first passkey of an address on a server: the mailed code, then a registration. The session
 * behind `cookie` must have typed the password in the last 5 minutes. Resolves with the new
 * session cookie (the id changes on verification) and the recovery codes.
 */
export async function enrolAdmin(
  server: Server,
  email: string,
  cookie: string,
  codes: CodeSource,
  authenticator = createSoftAuthenticator({ origin: new URL(server.url).origin }),
): Promise<{ cookie: string; recoveryCodes: string[]; authenticator: SoftAuthenticator }> {
  const before = await codes(email);
  const sent = await postAdmin(server, cookie, "/api/admin/verify/code");
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        code = await codes(email);
        return code !== null && code !== before;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const checked = await postAdmin(server, cookie, "/api/admin/verify/code/check", { code });
  expect(checked.status, JSON.stringify(checked.body)).toBe(200);
  const options = await postAdmin(server, cookie, "/api/admin/passkeys/options");
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const response = authenticator.register(options.body as never);
  const registered = await postAdmin(server, cookie, "/api/admin/passkeys", {
    response,
    name: "Test authenticator",
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  return {
    cookie: registered.cookie!,
    recoveryCodes: registered.body.recoveryCodes as string[],
    authenticator,
  };
}

/** A passkey assertion on the session behind `cookie`; the new session cookie. */
export async function assertAdmin(
  server: Server,
  cookie: string,
  authenticator: SoftAuthenticator,
): Promise<string> {
  const options = await postAdmin(server, cookie, "/api/admin/verify/options");
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const verified = await postAdmin(server, cookie, "/api/admin/verify", {
    response: authenticator.assert(options.body as never),
  });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return verified.cookie!;
}

/**
 * Verifies the administrator's session behind `cookie` (signed in within 5 minutes) with the
 * address's passkey on this server, enrolling one first when the server has none for it (a new
 * server, or one restored). Resolves with the new session cookie.
 */
export async function verifyAdmin(
  server: Server,
  email: string,
  cookie: string,
  codes: CodeSource,
): Promise<string> {
  return locked(server, email, async () => {
    const options = await postAdmin(server, cookie, "/api/admin/verify/options");
    const known = (options.body.allowCredentials as { id: string }[] | undefined) ?? [];
    let authenticator = authenticatorFor(server, email);
    if (options.status === 200 && known.some((c) => authenticator.credentialIds().includes(c.id))) {
      const verified = await assertAdmin(server, cookie, authenticator);
      // Its signature counter moved on: the next worker starts from there.
      keepAuthenticator(server, email, authenticator);
      return verified;
    }
    expect(
      options.status,
      `the server holds passkeys for ${email} this test suite does not know`,
    ).toBe(409);
    authenticator = createSoftAuthenticator({ origin: new URL(server.url).origin });
    const enrolled = await enrolAdmin(server, email, cookie, codes, authenticator);
    keepAuthenticator(server, email, enrolled.authenticator);
    return enrolled.cookie;
  });
}

/** Puts a session cookie (`name=value`) into a browser context for the server, replacing any. */
export async function useCookie(context: BrowserContext, serverUrl: string, cookie: string) {
  const [name = "", value = ""] = cookie.split(/=(.*)/s);
  await context.addCookies([{ name, value, url: serverUrl, httpOnly: true, sameSite: "Lax" }]);
}

/** The suite's main server (playwright.config.ts), with its local inbox. */
const MAIN_SERVER = { url: BASE_URL, dataDir: E2E_DATA_DIR };

/** Verifies an administrator's session on the main server; the new session cookie. */
export function verifyMainAdmin(email: string, cookie: string): Promise<string> {
  return verifyAdmin(MAIN_SERVER, email, cookie, codesFromInbox(E2E_INBOX_URL));
}

/**
 * The mails an administrator's verification sent through a spec's sink once they have all
 * arrived: none when the passkey was already there, or the code and the new passkey's notice when
 * it enrolled (the notice follows the code). For tests that count a server's mail.
 */
export async function adminMailsSettled(smtp: TestSmtp, email: string): Promise<number> {
  const count = () => smtp.received.filter((m) => m.to.includes(email.toLowerCase())).length;
  await expect.poll(() => count() % 2, { timeout: 20_000 }).toBe(0);
  return count();
}
