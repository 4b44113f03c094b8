import Fastify from "fastify";
import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { createAdminGuard } from "#server/identity/admin-guard.ts";
import { createAdminCredentials } from "#server/identity/admin-credentials.ts";
import { recordExport } from "#server/audit/audit-log.ts";
import admin from "#server/plugins/admin.ts";
import errors from "#server/plugins/errors.ts";
import session from "#server/plugins/session.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { testAnswers, testLedger } from "#tests/support/erasure-ledger.ts";
import { sessionsFor } from "#tests/support/unit-app.ts";

const database = databaseForThisFile();

async function app() {
  const deps = sessionsFor(database());
  const server = Fastify();
  await server.register(errors);
  await server.register(session, deps);
  await server.register(admin, {
    waitlist: createWaitlistService({
      db: database().db,
      env: deps.env,
      log: pino({ level: "silent" }),
      ledger: testLedger(),
      answers: testAnswers(database().db),
    }),
    requireAdmin: createAdminGuard(deps).requireAdmin,
    useExportToken: (token, from) =>
      createAdminCredentials(database().db).exportTokens.use(token, from),
    recordExport: (record) => recordExport(database().db, record),
  });
  return { server, ...deps };
}

const CSV = "/api/admin/waitlist.csv";

describe("the admin plugin: every route behind the one guard", () => {
  test("no session: 401, and not a byte of the list", async () => {
    const { server } = await app();
    const answer = await server.inject({ url: CSV });
    expect(answer.statusCode).toBe(401);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.json()).toEqual({
      ok: false,
      message: "Sign in as an administrator.",
      missing: "signed-out",
    });
  });

  test("a cookie naming a session that does not exist is no session", async () => {
    const { server, sessions } = await app();
    const cookie = `${sessions.cookieName}=${server.signCookie("made-up-session")}`;
    const answer = await server.inject({ url: CSV, headers: { cookie } });
    expect(answer.statusCode).toBe(401);
  });

  test("anything but a live export token is refused: a malformed one, a made-up one, a Firebase ID token", async () => {
    const { server } = await app();
    for (const authorization of [
      "Bearer !",
      "Basic abc",
      `Bearer tieout_export_${"A".repeat(43)}`,
      "Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl",
    ]) {
      const answer = await server.inject({ url: CSV, headers: { authorization } });
      expect(answer.statusCode, authorization).toBe(401);
      expect(answer.json()).toMatchObject({ ok: false, missing: "export-token" });
    }
  });

  test("a link from another site does not carry the admin's cookie in", async () => {
    const { server } = await app();
    const answer = await server.inject({
      url: CSV,
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual({
      ok: false,
      message: "Open this from the admin pages of the site.",
    });
  });
});
