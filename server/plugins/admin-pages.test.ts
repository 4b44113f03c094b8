/**
 * The admin's pages through the pages plugin and React Router's own route modules (loaded by Vite,
 * as `npm run dev` loads them), on a real PGlite database, with real accounts in the Firebase Auth
 * emulator: the one admin guard decides what a page answers, and what an administrator sees.
 */
import { createImports, importsPort } from "#server/waitlist/import/imports.ts";
import { createWebhookEndpoints } from "#server/webhooks/endpoints.ts";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import { pino } from "pino";
import type { ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAccountService } from "#server/account/account.ts";
import { createAdminGuard } from "#server/identity/admin-guard.ts";
import { createAdminCredentials } from "#server/identity/admin-credentials.ts";
import { createAdminVerification } from "#server/identity/admin-verification.ts";
import { createActivity } from "#server/audit/audit-log.ts";
import { startEmulatorFor, type StopEmulator } from "#server/identity/auth-emulator.ts";
import { parseEnv } from "#server/env.ts";
import { createDashboard } from "#server/operations/dashboard.ts";
import { createDeliveries } from "#server/outbox/deliveries.ts";
import { openMail } from "#server/broadcasts/mail-service.ts";
import { enqueue } from "#server/outbox/outbox.ts";
import errors from "#server/plugins/errors.ts";
import pages from "#server/plugins/pages.ts";
import session from "#server/plugins/session.ts";
import { createPrivacyRequests } from "#server/privacy/requests.ts";
import { createPageRenderer } from "#server/pages/render-page.ts";
import { createSubprocessorSubscriptions } from "#server/subprocessors/subscriptions.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { testAnswers, testLedger } from "#tests/support/erasure-ledger.ts";
import {
  createVerifiedAccount,
  deleteAccount,
  ensureUnverifiedAdmin,
  idTokenFor,
  type Account,
} from "#tests/support/accounts.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { E2E_EMULATOR_HOST, E2E_PROJECT_ID } from "#tests/support/e2e-env.ts";
import { sessionsFor } from "#tests/support/unit-app.ts";

const database = databaseForThisFile();

const FIREBASE = {
  FIREBASE_PROJECT_ID: E2E_PROJECT_ID,
  FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR_HOST,
};
const REFUSED = "SMTP 550: Mailbox unavailable";

let vite: ViteDevServer;
let stopEmulator: StopEmulator;
let admin: Account;
let member: Account;
let unverifiedAdmin: Account;
let server: FastifyInstance;
let store: ReturnType<typeof sessionsFor>["store"];

beforeAll(async () => {
  // Only the server build is loaded: no browser bundles to optimise.
  vite = await createServer({
    server: { middlewareMode: true, hmr: false },
    appType: "custom",
    logLevel: "silent",
    optimizeDeps: { noDiscovery: true },
  });
  stopEmulator = await startEmulatorFor(parseEnv(FIREBASE));
  [admin, member, unverifiedAdmin] = await Promise.all([
    createVerifiedAccount("deliveries-admin"),
    createVerifiedAccount("deliveries-member"),
    ensureUnverifiedAdmin(),
  ]);

  const deps = sessionsFor(database(), {
    ...FIREBASE,
    ADMIN_EMAILS: `${admin.email},${unverifiedAdmin.email}`,
  });
  const getBuild = () =>
    vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  const log = pino({ level: "silent" });
  const ledger = testLedger(log);
  store = deps.store;
  const adminGuard = createAdminGuard(deps);
  const mail = openMail({
    db: database().db,
    env: deps.env,
    log,
    secrets: ["a key for this file's tests, 32 characters or more"],
    onEnqueued: () => {},
  });
  server = Fastify();
  await server.register(errors);
  await server.register(session, deps);
  await server.register(pages, {
    render: createPageRenderer({
      env: deps.env,
      mode: "development",
      getBuild,
      stylesheets: new Map(),
      waitlist: createWaitlistService({
        db: database().db,
        env: deps.env,
        log,
        ledger,
        answers: testAnswers(database().db),
      }),
      subprocessors: createSubprocessorSubscriptions({
        db: database().db,
        env: deps.env,
        log,
        ledger,
      }),
      privacyRequests: createPrivacyRequests({
        db: database().db,
        env: deps.env,
        log,
        ledger,
        accounts: deps.accounts,
        store: deps.store,
      }),
      deliveries: createDeliveries(database().db),
      mail: mail.port,
      webhooks: createWebhookEndpoints({ db: database().db, env: deps.env, onEnqueued: () => {} }),
      imports: importsPort(
        createImports({
          db: database().db,
          env: deps.env,
          suppressions: mail.suppressions,
          onEnqueued: () => {},
        }),
      ),
      dashboard: createDashboard(database().db),
      activity: createActivity(database().db),
      adminGuard,
      sessions: deps.sessions,
      account: createAccountService({ db: database().db, ...deps, log, ledger }),
      adminVerification: createAdminVerification({
        db: database().db,
        env: deps.env,
        log,
        credentials: createAdminCredentials(database().db),
        store: deps.store,
        codeKey: "a key for mailed codes in one unit test",
        onEnqueued: () => {},
        accounts: deps.accounts,
      }),
    }),
    sessions: deps.sessions,
    routes: (await getBuild()).routes,
    cache: false,
    requireAdminPost: adminGuard.requireAdminPost,
  });

  // What the worker leaves behind: a mail the relay refused, and a collector post given up.
  await database().db.transaction((tx) =>
    enqueue(tx, [
      {
        key: "refused-mail",
        channel: "email",
        email: {
          category: "notice",
          from: { name: "Tieout", address: "hello@tieout.ai" },
          to: { name: "Fay", address: "fay@example.com" },
          subject: "Confirm",
          text: "Confirm",
        },
      },
      {
        key: "refused-post",
        channel: "forward",
        payload: { name: "Lee Lead", email: "lee@example.com", company: null, message: null },
      },
    ]),
  );
  await database().db.execute(sql`
    UPDATE outbox SET status = 'failed', attempts = 1, failed_at = now(),
      last_error = CASE key WHEN 'refused-mail' THEN ${REFUSED} ELSE 'collector answered 404' END`);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await Promise.all([admin, member].filter(Boolean).map(deleteAccount));
  await stopEmulator?.();
  await vite?.close();
}, 30_000);

/** The text a reader sees in a piece of server-rendered HTML, one space between the parts. */
function textOf(html: string | undefined): string {
  return (html ?? "")
    .replace(/<!--.*?-->/gs, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Signs the account in as the browser does (its ID token for a session); the cookie's pair. */
async function cookieFor(account: Account): Promise<string> {
  const answer = await server.inject({
    method: "POST",
    url: "/api/session",
    headers: { authorization: `Bearer ${await idTokenFor(account)}` },
  });
  expect(answer.statusCode).toBe(200);
  const [cookie] = answer.cookies;
  return `${cookie!.name}=${cookie!.value}`;
}

/**
 * An administrator's session as a passkey assertion leaves it (decision 039): the session store's
 * own verification, which ends the signed-in row and makes a verified one under a new id.
 */
async function verifiedCookieFor(account: Account): Promise<string> {
  const [name, signed] = (await cookieFor(account)).split(/=(.*)/s) as [string, string];
  const id = server.unsignCookie(decodeURIComponent(signed)).value!;
  const verified = await store.verifyAdmin(id, "passkey");
  return `${name}=${encodeURIComponent(server.signCookie(verified!))}`;
}

describe("/admin/deliveries", () => {
  test("signed out, the page sends the visitor to sign in", async () => {
    const answer = await server.inject({ url: "/admin/deliveries" });
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe("/login");
    expect(answer.body).not.toContain(REFUSED);
  });

  test("a signed-in account that is not an administrator gets 403, and none of the outbox", async () => {
    const answer = await server.inject({
      url: "/admin/deliveries",
      headers: { cookie: await cookieFor(member) },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.headers["cache-control"]).toBe("private, no-store");
    expect(answer.body).toContain("This account may not see the deliveries.");
    expect(answer.body).not.toContain(REFUSED);
    expect(answer.body).not.toContain("fay@example.com");
  });

  test("an administrator's address not verified yet gets 403 that says to verify it, and none of the outbox", async () => {
    const answer = await server.inject({
      url: "/admin/deliveries",
      headers: { cookie: await cookieFor(unverifiedAdmin) },
    });
    expect(answer.statusCode).toBe(403);
    expect(textOf(answer.body)).toContain(
      "This address is an administrator's, but it is not verified yet.",
    );
    expect(answer.body).not.toContain(REFUSED);
  });

  test("an administrator signed in with the password alone is sent to verify with a passkey", async () => {
    const answer = await server.inject({
      url: "/admin/deliveries",
      headers: { cookie: await cookieFor(admin) },
    });
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe("/admin/verify?next=%2Fadmin%2Fdeliveries");
    expect(answer.body).not.toContain(REFUSED);
  });

  test("an administrator sees the counts and each failed delivery with its reason; a collector post shows no lead", async () => {
    const answer = await server.inject({
      url: "/admin/deliveries",
      headers: { cookie: await verifiedCookieFor(admin) },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["cache-control"]).toBe("private, no-store");
    const html = answer.body;
    expect(textOf(/<ul aria-label="Messages by state".*?<\/ul>/s.exec(html)?.[0])).toBe(
      "2 failed 0 waiting to be sent 0 sent",
    );
    const rows = [...html.matchAll(/<tr.*?<\/tr>/gs)].map((row) => textOf(row[0]));
    expect(rows.find((row) => row.includes("fay@example.com"))).toMatch(
      new RegExp(`^Email fay@example\\.com 1 .+ ${REFUSED}$`),
    );
    expect(rows.find((row) => row.includes("The form collector"))).toMatch(
      /^Form collector The form collector 1 .+ collector answered 404$/,
    );
    // A collector post carries a lead's name and address: the page names only the channel.
    expect(html).not.toContain("lee@example.com");
    expect(html).toContain('href="/admin/waitlist"');
  });
});

describe("the header's Admin link", () => {
  test("the sign-in's answer says whether the account is an administrator", async () => {
    for (const [account, isAdmin] of [
      [admin, true],
      [member, false],
    ] as const) {
      const answer = await server.inject({
        method: "POST",
        url: "/api/session",
        headers: { authorization: `Bearer ${await idTokenFor(account)}` },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ uid: account.uid, admin: isAdmin });
    }
  });

  test("a page shows it to an administrator only, and is then kept by no cache", async () => {
    const adminPage = await server.inject({
      url: "/contact",
      headers: { cookie: await cookieFor(admin) },
    });
    expect(adminPage.headers["cache-control"]).toBe("private, no-store");
    expect(adminPage.body).toMatch(/<a [^>]*href="\/admin"[^>]*>Admin<\/a>/);

    const memberPage = await server.inject({
      url: "/contact",
      headers: { cookie: await cookieFor(member) },
    });
    expect(memberPage.body).toContain(">Account<");
    expect(memberPage.body).not.toContain('href="/admin"');

    const anonymous = await server.inject({ url: "/contact" });
    expect(anonymous.body).toContain(">Sign In<");
    expect(anonymous.body).not.toContain('href="/admin"');
  });
});
