/**
 * A failing database never puts personal data in the logs. With PostgreSQL
 * stopped under a running server, a waitlist submission, a sign-in and an admin export fail; the
 * log lines say what failed, and none holds a value the visitor sent or a secret.
 */
import { idTokenFor, signIn, startSession } from "#tests/support/accounts.ts";
import { postAdmin, verifyAdmin } from "#tests/support/admin-passkey.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { startPostgres } from "#tests/support/postgres.ts";
import { startServer } from "#tests/support/server.ts";

test("with the database down, submissions, sign-ins and exports fail with logs that hold no personal data", async ({
  newUser: admin,
}) => {
  test.setTimeout(90_000);
  // Below the ephemeral port range, like postgres.spec.ts.
  const pg = startPostgres(25480 + Number(process.env.TEST_PARALLEL_INDEX ?? 0));
  const server = await startServer({
    DATABASE_URL: pg.url,
    ADMIN_EMAILS: admin.email,
    // Everything the server would say, not only warnings.
    LOG_LEVEL: "info",
  });
  try {
    // The administrator verified with a passkey, with an export token (decision 039).
    const { cookie: signedIn } = await signIn(server.url, admin);
    const cookie = await verifyAdmin(server, admin.email, signedIn, server.adminCodes);
    const made = await postAdmin(server, cookie, "/api/admin/export-tokens", {
      label: "Nightly export",
      days: 1,
    });
    expect(made.status).toBe(200);
    const exportToken = made.body.token as string;
    const cookieValue = cookie.slice(cookie.indexOf("=") + 1);
    // The cookie is the session's id and its signature.
    const sessionId = cookieValue.split(".")[0]!;
    const token = await idTokenFor(admin);
    const lead = {
      name: "Philippa Leakproof",
      email: uniqueEmail("leak-lead"),
      company: "Leakproof Tax Partners",
      message: "Please keep this sentence out of any log file.",
    };

    pg.stop();

    const submitted = await fetch(`${server.url}/api/waitlist`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(lead),
    });
    expect(submitted.status).toBe(503);
    const session = await startSession(server.url, token);
    expect(session.status).toBe(503);
    const byToken = await fetch(`${server.url}/api/admin/waitlist.csv`, {
      headers: { Authorization: `Bearer ${exportToken}` },
    });
    expect(byToken.status).toBe(503);
    const byCookie = await fetch(`${server.url}/api/admin/waitlist.csv`, {
      headers: { cookie, "Sec-Fetch-Site": "same-origin" },
    });
    expect(byCookie.status).toBe(503);
    const page = await fetch(`${server.url}/admin/waitlist`, { headers: { cookie } });
    expect(page.status).toBe(503);

    const log = server.output();
    // The failures are there, as structured lines with a cause...
    expect(log).toMatch(/"level":50/);
    expect(log).toContain("Failed query");
    // ...and nothing anyone sent or holds.
    const secrets = {
      "lead name": lead.name,
      "lead email": lead.email,
      "lead company": lead.company,
      "lead message": lead.message,
      "admin email": admin.email,
      password: admin.password,
      "ID token": token,
      "ID token (signature)": token.split(".")[2] || token.slice(-40),
      "session id": sessionId,
      "session cookie": cookieValue,
      "session cookie before the passkey": signedIn.slice(signedIn.indexOf("=") + 1),
      "export token": exportToken,
    };
    const found = Object.entries(secrets)
      .filter(([, value]) => value && log.toLowerCase().includes(value.toLowerCase()))
      .map(([name]) => name);
    expect(found, "personal data or secrets in the log").toEqual([]);
  } finally {
    await server.stop();
    pg.remove();
  }
});
