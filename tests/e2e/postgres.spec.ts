import { exportTokenOf, idTokenFor, signInVerified } from "#tests/support/accounts.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { ALL_PAGES } from "#tests/support/pages.ts";
import { startPostgres, type Postgres } from "#tests/support/postgres.ts";
import { runServerExpectingExit, startServer } from "#tests/support/server.ts";
import { countsByEmail, submitToWaitlist } from "#tests/support/waitlist-db.ts";

// A real PostgreSQL server from Debian's packages, shared by two instances of the site.
test.describe.configure({ mode: "serial", timeout: 120_000 });

let pg: Postgres;
test.beforeAll(() => {
  // Below Linux's ephemeral range (32768 and up), so no outgoing connection can hold the port.
  pg = startPostgres(25432 + Number(process.env.TEST_PARALLEL_INDEX ?? 0));
});
test.afterAll(() => pg?.remove());

const post = submitToWaitlist;

test("two instances on one PostgreSQL share the list and the rate limit", async () => {
  const a = await startServer({ DATABASE_URL: pg.url });
  const b = await startServer({ DATABASE_URL: pg.url });
  try {
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const target = i % 2 === 0 ? a : b;
        // Every address is sent twice, once to each instance, in a different case.
        const email = i < 30 ? `shared-${i}@example.com` : `SHARED-${i - 30}@EXAMPLE.COM`;
        return post(target.url, { name: `Shared ${i}`, email }).then((r) => r.status);
      }),
    );
    // New and repeated addresses get the same answer (decision 023); the rows below tell them apart.
    expect(results).toEqual(Array<number>(60).fill(202));
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
  const counts = await countsByEmail({ dataDir: a.dataDir, databaseUrl: pg.url });
  const shared = [...counts.entries()].filter(([email]) => email.startsWith("shared-"));
  expect(shared).toHaveLength(30);
  expect(shared.every(([, n]) => n === 1)).toBe(true);

  const limitedA = await startServer({ DATABASE_URL: pg.url, WAITLIST_RATE_LIMIT: "5" });
  const limitedB = await startServer({ DATABASE_URL: pg.url, WAITLIST_RATE_LIMIT: "5" });
  try {
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      const target = i % 2 === 0 ? limitedA : limitedB;
      statuses.push(
        (await post(target.url, { name: `Flood ${i}`, email: `flood-${i}@example.com` })).status,
      );
    }
    // One client flooding both instances is limited as one: five accepted in all, not five each.
    expect(statuses.filter((s) => s === 202)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  } finally {
    await Promise.all([limitedA.stop(), limitedB.stop()]);
  }
});

test("when the database goes away: 503 and never a false success; back when it returns", async ({
  newUser: admin,
}) => {
  const server = await startServer({ DATABASE_URL: pg.url, ADMIN_EMAILS: admin.email });
  const adminToken = await idTokenFor(admin);
  try {
    // A script's export token, made while the database is there (decision 039).
    const exportToken = await exportTokenOf(server, (await signInVerified(server, admin)).cookie);
    expect(
      (await post(server.url, { name: "Before", email: "before-outage@example.com" })).status,
    ).toBe(202);
    pg.stop();
    const during = await post(server.url, { name: "During", email: "during-outage@example.com" });
    expect(during.status).toBe(503);
    expect(during.headers.get("retry-after")).toBeTruthy();
    expect(((await during.json()) as { ok: boolean }).ok).toBe(false);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(503);
    // Everything else either works without the database or says 503: never another 5xx.
    for (const page of ALL_PAGES) {
      expect((await fetch(`${server.url}${page.path}`)).status, page.path).toBe(200);
    }
    const form = await fetch(`${server.url}/waitlist`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ name: "Form", email: "form-outage@example.com" }).toString(),
    });
    expect(form.status).toBe(503);
    expect(await form.text()).toContain("There was an error submitting your request.");
    const bearer = { Authorization: `Bearer ${adminToken}` };
    const signIn = await fetch(`${server.url}/api/session`, { method: "POST", headers: bearer });
    expect(signIn.status).toBe(503);
    const csv = await fetch(`${server.url}/api/admin/waitlist.csv`, {
      headers: { Authorization: `Bearer ${exportToken}` },
    });
    expect(csv.status).toBe(503);
    pg.start();
    await expect
      .poll(async () => (await fetch(`${server.url}/api/health`)).status, { timeout: 15_000 })
      .toBe(200);
    expect(
      (await post(server.url, { name: "After", email: "after-outage@example.com" })).status,
    ).toBe(202);
  } finally {
    await server.stop();
  }
  const counts = await countsByEmail({ dataDir: server.dataDir, databaseUrl: pg.url });
  expect(counts.has("during-outage@example.com")).toBe(false);
  expect(counts.get("after-outage@example.com")).toBe(1);
});

test("an unreachable DATABASE_URL stops start-up with a clear error", async () => {
  const { code, output } = await runServerExpectingExit({
    DATABASE_URL: "postgresql://tieout@127.0.0.1:9/nowhere",
    SITE_URL: "http://127.0.0.1:1",
  });
  expect(code).toBe(1);
  expect(output).toContain(
    "Cannot reach the PostgreSQL server in DATABASE_URL (127.0.0.1:9/nowhere)",
  );
});
