import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { sweepExpired } from "#server/housekeeping.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

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

  expect(await sweepExpired(db)).toEqual({ rateLimitWindows: 2, sessions: 1 });
  const windows = await queryRows<{ key: string }>(
    db,
    sql`SELECT key FROM rate_limit_windows ORDER BY key`,
  );
  // A day's window stays through its day.
  expect(windows.map((w) => w.key)).toEqual(["daily:confirmation-mail:b2", "waitlist:203.0.113.8"]);
  const sessions = await queryRows<{ id: string }>(db, sql`SELECT id FROM sessions ORDER BY id`);
  // An ended session stays until it would have expired: its owner's download lists it.
  expect(sessions.map((s) => s.id)).toEqual(["ended-early", "just-expired", "live"]);

  expect(await sweepExpired(db)).toEqual({ rateLimitWindows: 0, sessions: 0 });
});
