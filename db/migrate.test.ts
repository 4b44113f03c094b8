/**
 * Migrations over data an older schema held, on a real PGlite database: the database is migrated
 * up to the last migration before the change, filled as the site of that time filled it, then
 * migrated to the end.
 */
import { PGlite } from "@electric-sql/pglite";
import { afterEach, expect, test } from "vitest";
import { runMigrations } from "#db/migrate.ts";

let db: PGlite | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

function migrate(database: PGlite, through?: string, inTransaction = false) {
  return runMigrations(
    {
      exec: async (script) => {
        await database.exec(script);
      },
      names: async (query) =>
        (await database.query<{ name: string }>(query)).rows.map((r) => r.name),
    },
    { through, inTransaction },
  );
}

test("migrating stops after the migration named, and the next run applies the rest", async () => {
  db = await PGlite.create();
  expect(await migrate(db, "0002")).toEqual(["0001_waitlist.sql", "0002_sessions.sql"]);
  const rest = await migrate(db);
  expect(rest[0]).toBe("0003_session_account_checks.sql");
  expect(rest).toContain("0005_outbox.sql");
  expect(await migrate(db)).toEqual([]);
  await expect(migrate(db, "0999")).rejects.toThrow("No migration 0999");
  // Every migration, twice over, in a fresh PGlite: seconds on a busy machine.
}, 60_000);

test("inside a caller's transaction (a restore), the migrations join it: rolled back, nothing of them stays", async () => {
  db = await PGlite.create();
  await migrate(db, "0002");
  await db.exec("BEGIN");
  const applied = await migrate(db, undefined, true);
  expect(applied[0]).toBe("0003_session_account_checks.sql");
  await db.exec("ROLLBACK");
  const names = async () =>
    (await db!.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY 1")).rows.map(
      (r) => r.name,
    );
  expect(await names()).toEqual(["0001_waitlist.sql", "0002_sessions.sql"]);
  await db.exec("BEGIN");
  expect(await migrate(db, undefined, true)).toEqual(applied);
  await db.exec("COMMIT");
  expect(await names()).toEqual(["0001_waitlist.sql", "0002_sessions.sql", ...applied]);
}, 60_000);

test("0005 carries every forwarded entry into the outbox, state and history included, and none that was never forwarded", async () => {
  db = await PGlite.create();
  await migrate(db, "0004");
  // The forwarder's own outbox, as the site before 0005 left it: one entry in each state.
  await db.exec(`
    INSERT INTO waitlist_entries
      (name, email, company, message, forward_status, forward_attempts, forward_next_at,
       forward_last_error, forwarded_at)
    VALUES
      ('Nell None', 'nell@example.com', NULL, NULL, 'none', 0, NULL, NULL, NULL),
      ('Pat Pending', 'pat@example.com', 'Pat & Co', 'Month-end close', 'pending', 2,
       '2026-11-20T10:05:00Z', 'collector answered 503', NULL),
      ('Sid Sent', 'sid@example.com', 'Sid LLP', NULL, 'sent', 1, NULL, NULL,
       '2026-11-19T08:00:00Z'),
      ('Fay Failed', 'fay@example.com', NULL, 'Tax season', 'failed', 7, '2026-11-18T12:00:00Z',
       'collector answered 404', NULL)`);
  const ids = new Map(
    (
      await db.query<{ email: string; id: number }>("SELECT email, id FROM waitlist_entries")
    ).rows.map((r) => [r.email, Number(r.id)]),
  );

  const applied = await migrate(db);
  expect(applied[0]).toBe("0005_outbox.sql");

  const rows = await db.query(
    `SELECT key, channel, payload, status, attempts, last_error, sent_at, message_id
     FROM outbox ORDER BY id`,
  );
  expect(rows.rows).toEqual([
    {
      key: `waitlist-forward:${ids.get("pat@example.com")}`,
      channel: "forward",
      payload: {
        name: "Pat Pending",
        email: "pat@example.com",
        company: "Pat & Co",
        message: "Month-end close",
      },
      status: "pending",
      attempts: 2,
      last_error: "collector answered 503",
      sent_at: null,
      message_id: null,
    },
    {
      key: `waitlist-forward:${ids.get("sid@example.com")}`,
      channel: "forward",
      payload: { name: "Sid Sent", email: "sid@example.com", company: "Sid LLP", message: null },
      status: "sent",
      attempts: 1,
      last_error: null,
      sent_at: new Date("2026-11-19T08:00:00Z"),
      message_id: null,
    },
    {
      key: `waitlist-forward:${ids.get("fay@example.com")}`,
      channel: "forward",
      payload: {
        name: "Fay Failed",
        email: "fay@example.com",
        company: null,
        message: "Tax season",
      },
      status: "failed",
      attempts: 7,
      last_error: "collector answered 404",
      sent_at: null,
      message_id: null,
    },
  ]);
  // The pending row is due when it was due before, and its 24 hours start at the migration.
  const pending = await db.query<{ next_attempt_at: Date; fresh: boolean }>(
    `SELECT next_attempt_at, created_at > now() - interval '1 minute' AS fresh
     FROM outbox WHERE status = 'pending'`,
  );
  expect(pending.rows).toEqual([
    { next_attempt_at: new Date("2026-11-20T10:05:00Z"), fresh: true },
  ]);

  // The forwarder's columns are gone; the entries themselves are all still there.
  const columns = await db.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
     WHERE table_name = 'waitlist_entries' AND column_name LIKE 'forward%'`,
  );
  expect(columns.rows).toEqual([]);
  const entries = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM waitlist_entries");
  expect(entries.rows[0]?.n).toBe(4);
}, 60_000);
