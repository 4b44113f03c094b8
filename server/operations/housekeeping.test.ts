import { sql } from "drizzle-orm";
import { pino } from "pino";
import { expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import { sweepExpired } from "#server/operations/housekeeping.ts";
import { createSubprocessorSubscriptions } from "#server/subprocessors/subscriptions.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { SUBPROCESSORS } from "#src/content/subprocessors.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { testAnswers, testLedger } from "#tests/support/erasure-ledger.ts";

const database = databaseForThisFile();

test("a pass deletes closed rate-limit windows (a day's after its day) and sessions a day past their expiry, and nothing else", async () => {
  const { db } = database();
  await db.execute(sql`
    INSERT INTO rate_limit_windows (key, window_start, hits) VALUES
      ('waitlist:203.0.113.7', now() - interval '1 hour', 3),
      ('waitlist:203.0.113.8', now() - interval '1 minute', 1),
      ('daily:confirmation-mail:a1', now() - interval '1 day 1 hour', 3),
      ('daily:confirmation-mail:b2', now() - interval '20 hours', 3)`);
  await db.execute(sql`
    INSERT INTO sessions (id, uid, expires_at, revoked_at, email) VALUES
      ('long-gone', 'u1', now() - interval '2 days', NULL, 'pat@firm.example'),
      ('just-expired', 'u1', now() - interval '1 hour', NULL, 'pat@firm.example'),
      ('ended-early', 'u2', now() + interval '13 days', now(), 'lee@firm.example'),
      ('live', 'u3', now() + interval '14 days', NULL, 'sam@firm.example')`);

  expect(await sweepExpired(db)).toMatchObject({ rateLimitWindows: 2, sessions: 1 });
  const windows = await queryRows<{ key: string }>(
    db,
    sql`SELECT key FROM rate_limit_windows ORDER BY key`,
  );
  // A day's window stays through its day.
  expect(windows.map((w) => w.key)).toEqual(["daily:confirmation-mail:b2", "waitlist:203.0.113.8"]);
  const sessions = await queryRows<{ id: string }>(db, sql`SELECT id FROM sessions ORDER BY id`);
  // An ended session stays until it would have expired: its owner's download lists it.
  expect(sessions.map((s) => s.id)).toEqual(["ended-early", "just-expired", "live"]);

  expect(await sweepExpired(db)).toMatchObject({ rateLimitWindows: 0, sessions: 0 });
});

test("entries and subscriptions never confirmed go 14 days on, with their tokens and mail, once no link to confirm them works; the rest stay", async () => {
  const { db } = database();
  // The database was migrated long before these entries were made.
  await db.execute(sql`UPDATE schema_migrations SET applied_at = now() - interval '1 year'`);
  const env = parseEnv({ WAITLIST_RATE_LIMIT: "0", SITE_URL: "http://localhost:3000" });
  const log = pino({ level: "silent" });
  const ledger = testLedger(log);
  const waitlist = createWaitlistService({ db, env, log, ledger, answers: testAnswers(db) });
  const subscriptions = createSubprocessorSubscriptions({
    db,
    env,
    log,
    ledger,
    list: SUBPROCESSORS,
  });
  const meta = { clientKey: "test", requestId: "r1" };
  const idOf = async (email: string) =>
    (
      await queryRows<{ id: number }>(
        db,
        sql`SELECT id::int AS id FROM waitlist_entries WHERE email = ${email}`,
      )
    )[0]!.id;
  for (const email of [
    "old@firm.example",
    "relinked@firm.example",
    "kept@firm.example",
    "restored@firm.example",
  ])
    expect((await waitlist.submit({ name: "Lead", email }, meta)).kind).toBe("created");
  // Mail to this mailbox is paused for the day: its entry is kept, with no link at all.
  for (const email of ["pat+1@firm.example", "pat+2@firm.example", "pat+3@firm.example"])
    await waitlist.submit({ name: "Pat", email }, meta);
  expect((await waitlist.submit({ name: "Pat", email: "pat@firm.example" }, meta)).kind).toBe(
    "paused",
  );
  const confirmedEmail = "done@firm.example";
  await waitlist.submit({ name: "Done", email: confirmedEmail }, meta);
  await db.execute(
    sql`UPDATE waitlist_entries SET state = 'confirmed', confirmed_at = now() WHERE email = ${confirmedEmail}`,
  );
  expect((await subscriptions.subscribe("sub-old@firm.example", meta)).kind).toBe("accepted");
  expect((await subscriptions.subscribe("sub-new@firm.example", meta)).kind).toBe("accepted");

  // Fifteen days pass for all but "kept" and "sub-new"; "relinked" was mailed a new link since.
  const aged = ["old@firm.example", "relinked@firm.example", "pat@firm.example", confirmedEmail];
  for (const email of aged) {
    const id = await idOf(email);
    await db.execute(
      sql`UPDATE waitlist_entries SET created_at = now() - interval '15 days' WHERE id = ${id}`,
    );
    await db.execute(
      sql`UPDATE waitlist_tokens SET expires_at = now() - interval '1 day', created_at = now() - interval '15 days'
          WHERE entry_id = ${id} AND purpose = 'confirm'`,
    );
  }
  // Made 15 days ago and mailed again 3 days ago; a restore then ended that link (decision 035):
  // its owner keeps the days left to submit again.
  const restoredId = await idOf("restored@firm.example");
  await db.execute(
    sql`UPDATE waitlist_entries SET created_at = now() - interval '15 days' WHERE id = ${restoredId}`,
  );
  await db.execute(
    sql`UPDATE waitlist_tokens SET created_at = now() - interval '3 days', expires_at = now()
        WHERE entry_id = ${restoredId} AND purpose = 'confirm'`,
  );
  await db.execute(
    sql`UPDATE subprocessor_subscribers SET created_at = now() - interval '15 days' WHERE email = 'sub-old@firm.example'`,
  );
  expect((await waitlist.submit({ name: "Lead", email: "relinked@firm.example" }, meta)).kind).toBe(
    "exists",
  );
  const oldId = await idOf("old@firm.example");
  const patId = await idOf("pat@firm.example");

  // One entry per pass: the rest wait for the next.
  expect(await sweepExpired(db, 1)).toMatchObject({
    unconfirmedEntries: 1,
    unconfirmedSubscribers: 1,
  });
  expect(await sweepExpired(db)).toMatchObject({
    unconfirmedEntries: 1,
    unconfirmedSubscribers: 0,
  });
  expect(await sweepExpired(db)).toMatchObject({ unconfirmedEntries: 0 });

  const left = await queryRows<{ email: string }>(
    db,
    sql`SELECT email FROM waitlist_entries WHERE email NOT LIKE 'pat+%' ORDER BY email`,
  );
  expect(left.map((row) => row.email)).toEqual([
    confirmedEmail,
    "kept@firm.example",
    "relinked@firm.example",
    "restored@firm.example",
  ]);
  const leftovers = await queryRows<{ n: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM waitlist_tokens WHERE entry_id IN (${oldId}, ${patId}))::int
             + (SELECT count(*) FROM outbox WHERE key LIKE ${`waitlist-%:${oldId}%`}
                  OR key LIKE ${`waitlist-%:${patId}%`}
                  OR payload::text LIKE '%sub-old@%')::int AS n`,
  );
  expect(leftovers[0]!.n).toBe(0);
  const subscribers = await queryRows<{ email: string }>(
    db,
    sql`SELECT email FROM subprocessor_subscribers ORDER BY email`,
  );
  expect(subscribers.map((row) => row.email)).toEqual(["sub-new@firm.example"]);
});

test("entries from before double opt-in (never asked to confirm) are not taken for unconfirmed ones", async () => {
  const { db } = database();
  await db.execute(sql`UPDATE schema_migrations SET applied_at = now() - interval '100 days'`);
  await db.execute(sql`
    INSERT INTO waitlist_entries (name, email, created_at)
    VALUES ('Early', 'early@firm.example', now() - interval '200 days')`);
  expect(await sweepExpired(db)).toMatchObject({ unconfirmedEntries: 0 });
  const early = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM waitlist_entries WHERE email = 'early@firm.example'`,
  );
  expect(early[0]!.n).toBe(1);
});

test("a sheet uploaded and never imported, or refused, is gone after a day; an import made stays", async () => {
  const { db } = database();
  await db.execute(sql`
    INSERT INTO waitlist_imports (id, file_name, content, refusal, uploaded_by, uploaded_at, imported_at) VALUES
      (repeat('b', 32), 'old.csv', '\\x45'::bytea, NULL, 'ops@example.com', now() - interval '25 hours', NULL),
      (repeat('c', 32), 'new.csv', '\\x45'::bytea, NULL, 'ops@example.com', now() - interval '1 hour', NULL),
      (repeat('d', 32), 'refused.csv', NULL, 'Row 2 starts like a formula', 'ops@example.com', now() - interval '25 hours', NULL),
      (repeat('e', 32), 'made.csv', NULL, NULL, 'ops@example.com', now() - interval '40 days', now() - interval '40 days')`);
  expect(await sweepExpired(db)).toMatchObject({ stagedImports: 2 });
  expect(
    await queryRows(db, sql`SELECT file_name FROM waitlist_imports ORDER BY file_name`),
  ).toEqual([{ file_name: "made.csv" }, { file_name: "new.csv" }]);
});
