/**
 * A server session lasts only while Firebase vouches for its account (decision 011). A deleted,
 * disabled or signed-out-everywhere account loses its sessions (at once for admin, within
 * SESSION_RECHECK_SECONDS for pages), Firebase being unreachable is a 503, never a 401, the
 * emulator's unsigned tokens are believed only on this machine, and an admin's odd search is no
 * outage. Each test starts its own servers, so it runs alone and in any order.
 */
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createVerifiedAccount,
  idTokenFor,
  signIn,
  startSession,
  exportTokenOf,
  signInVerified,
} from "#tests/support/accounts.ts";
import { deleteUser, disableUser, revokeSessions } from "#tests/support/emulator.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { runServerExpectingExit, startServer, type RunningServer } from "#tests/support/server.ts";

/** A new verified account, signed in on `server`. */
async function signedIn(server: RunningServer, label: string) {
  const account = await createVerifiedAccount(label);
  return { ...account, ...(await signIn(server.url, account)) };
}

/** Whether `cookie` is a live session on `server`: its pages are private to it. */
async function signedInPage(server: RunningServer, cookie: string): Promise<boolean> {
  const answer = await fetch(`${server.url}/contact`, { headers: { cookie } });
  expect(answer.status).toBe(200);
  return answer.headers.get("cache-control") === "private, no-store";
}

function adminPage(server: RunningServer, cookie: string) {
  return fetch(`${server.url}/admin/waitlist`, { headers: { cookie }, redirect: "manual" });
}

function adminExport(server: RunningServer, auth: { cookie: string } | { token: string }) {
  return fetch(`${server.url}/api/admin/waitlist.csv`, {
    headers:
      "cookie" in auth
        ? { cookie: auth.cookie, "Sec-Fetch-Site": "same-origin" }
        : { Authorization: `Bearer ${auth.token}` },
  });
}

test("a disabled administrator loses the admin at once: page, export by cookie and by token", async ({
  newUser: admin,
}) => {
  // Each server has the test's own account as its administrator.
  const server = await startServer({ ADMIN_EMAILS: admin.email });
  try {
    const idToken = await idTokenFor(admin);
    const { cookie } = await signInVerified(server, admin);
    const token = await exportTokenOf(server, cookie);
    expect((await adminPage(server, cookie)).status).toBe(200);
    expect((await adminExport(server, { cookie })).status).toBe(200);
    expect((await adminExport(server, { token })).status).toBe(200);

    await disableUser(admin.uid);

    // No waiting for a re-check: every admin request asks Firebase.
    const page = await adminPage(server, cookie);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/login");
    expect((await adminExport(server, { cookie })).status).toBe(401);
    expect((await adminExport(server, { token })).status).toBe(401);
    // The session is over everywhere, not only on admin pages.
    expect(await signedInPage(server, cookie)).toBe(false);
    // And the disabled account cannot sign in again with a token it still holds.
    const again = await startSession(server.url, idToken);
    expect(again.status).toBe(401);
    expect(server.output()).toContain('"event":"session.account_ended"');
  } finally {
    await server.stop();
  }
});

test("a deleted account, or one signed out everywhere, loses its sessions on its next page", async () => {
  // Pages re-check the account on every request here, so the test needs no clock.
  const server = await startServer({ SESSION_RECHECK_SECONDS: "0" });
  try {
    const deleted = await signedIn(server, "deleted");
    const revoked = await signedIn(server, "revoked");
    const untouched = await signedIn(server, "untouched");
    expect(await signedInPage(server, deleted.cookie)).toBe(true);
    expect(await signedInPage(server, revoked.cookie)).toBe(true);

    await deleteUser(deleted.uid);
    // Firebase's "valid since" counts in whole seconds: sign out everywhere a second later.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await revokeSessions(revoked.uid);

    expect(await signedInPage(server, deleted.cookie)).toBe(false);
    expect(await signedInPage(server, revoked.cookie)).toBe(false);
    expect(await signedInPage(server, untouched.cookie)).toBe(true);

    // Signing in again after being signed out everywhere starts a good session.
    const { cookie } = await signIn(server.url, revoked);
    expect(await signedInPage(server, cookie)).toBe(true);
  } finally {
    await server.stop();
  }
});

test("with Firebase unreachable, signing in and the admin answer 503, and pages keep their session", async ({
  newUser: admin,
}) => {
  // Two servers start one after the other: 30 s is too little on a busy machine.
  test.setTimeout(90_000);
  const first = await startServer({ ADMIN_EMAILS: admin.email });
  let cookie: string;
  let token: string;
  let idToken: string;
  try {
    idToken = await idTokenFor(admin);
    ({ cookie } = await signInVerified(first, admin));
    token = await exportTokenOf(first, cookie);
    expect((await adminPage(first, cookie)).status).toBe(200);
  } finally {
    await first.stop();
  }

  // The same data (sessions and their secret), but Firebase goes away once the server is up. In
  // emulator mode the server starts an emulator unless one answers at the address, so something
  // answers there while it starts, and then stops listening: the SDK's requests are refused.
  const standIn = createServer((_req, res) => res.end("{}"));
  await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
  let cut: RunningServer;
  try {
    cut = await startServer(
      {
        ADMIN_EMAILS: admin.email,
        FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${(standIn.address() as AddressInfo).port}`,
        SESSION_RECHECK_SECONDS: "0",
      },
      { dataDir: first.dataDir },
    );
  } finally {
    standIn.close();
    standIn.closeAllConnections();
  }
  try {
    const page = await adminPage(cut, cookie);
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("30");
    const text = await page.text();
    expect(text).toContain("Sign-in checks are unavailable for a moment");
    // The apology names the request, as the log line does.
    expect(text).toContain("Request reference");
    expect(text).toContain(page.headers.get("x-request-id")!);
    // A client-side navigation's data request is refused the same way.
    const data = await fetch(`${cut.url}/admin/waitlist.data`, { headers: { cookie } });
    expect(data.status).toBe(503);
    expect(await data.text()).toContain(data.headers.get("x-request-id")!);

    const byCookie = await adminExport(cut, { cookie });
    expect(byCookie.status).toBe(503);
    expect(((await byCookie.json()) as { message: string }).message).toMatch(/unavailable/);
    expect((await adminExport(cut, { token })).status).toBe(503);

    expect((await startSession(cut.url, idToken)).status).toBe(503);

    // An ordinary page does not sign anyone out because Firebase is away.
    expect(await signedInPage(cut, cookie)).toBe(true);
  } finally {
    await cut.stop();
  }
});

test("the emulator's unsigned tokens are believed only on this machine: any other set-up does not start", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tieout-refuse-"));
  const base = { DATA_DIR: dataDir, FIREBASE_PROJECT_ID: "demo-tieout-e2e" };
  // A public http SITE_URL without a real Firebase project: a forged token would be an admin.
  const publicSite = await runServerExpectingExit({
    ...base,
    SITE_URL: "http://tieout.example",
    FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9199",
  });
  expect(publicSite.code).not.toBe(0);
  expect(publicSite.output).toContain("SITE_URL and FIREBASE_API_KEY");
  // An emulator elsewhere on the network.
  const remoteEmulator = await runServerExpectingExit({
    ...base,
    SITE_URL: "http://localhost:3999",
    FIREBASE_AUTH_EMULATOR_HOST: "10.1.2.3:9099",
  });
  expect(remoteEmulator.code).not.toBe(0);
  expect(remoteEmulator.output).toContain("FIREBASE_AUTH_EMULATOR_HOST");
});

test("an administrator's search with a NUL or broken UTF-8 finds nothing, and is never an outage", async ({
  newUser: admin,
}) => {
  const server = await startServer({ ADMIN_EMAILS: admin.email });
  try {
    const { cookie } = await signInVerified(server, admin);
    for (const q of ["%00", "a%00b", "%C3%28", "%FF%FE", "%ED%A0%80"]) {
      const page = await fetch(`${server.url}/admin/waitlist?q=${q}`, { headers: { cookie } });
      expect(page.status, q).toBe(200);
      expect(await page.text(), q).toContain("Waitlist");
    }
    expect(server.output()).not.toContain("database unavailable");
  } finally {
    await server.stop();
  }
});
