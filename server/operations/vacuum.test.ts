import { sql } from "drizzle-orm";
import { pino } from "pino";
import { expect, test } from "vitest";
import { queryRows, type Db } from "#db/client.ts";
import { startVacuum, vacuumOnce } from "#server/operations/vacuum.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

const database = databaseForThisFile();

/** The pages the outbox worker's claim reads to find the due rows, by PostgreSQL's own account. */
async function pagesReadByClaim(db: Db): Promise<number> {
  const plan = await queryRows<{ "QUERY PLAN": string }>(
    db,
    sql`EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT)
        SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at, id LIMIT 10 FOR UPDATE SKIP LOCKED`,
  );
  const first = plan.map((row) => row["QUERY PLAN"]).find((line) => /Buffers:/.test(line));
  return (
    Number(/hit=(\d+)/.exec(first ?? "")?.[1] ?? 0) +
    Number(/read=(\d+)/.exec(first ?? "")?.[1] ?? 0)
  );
}

test("a pass vacuums every table of the site's schema", async () => {
  const { db } = database();
  const result = await vacuumOnce(db);
  const tables = await queryRows<{ relname: string; last_vacuum: string | null }>(
    db,
    sql`SELECT relname, last_vacuum FROM pg_stat_user_tables WHERE schemaname = current_schema()`,
  );
  expect(result.tables).toBe(tables.length);
  expect(tables.length).toBeGreaterThan(20);
  expect(tables.filter((t) => t.last_vacuum === null).map((t) => t.relname)).toEqual([]);
});

test("after a pass, the outbox's claim no longer reads the rows already sent", async () => {
  const { db } = database();
  await db.execute(sql`
    INSERT INTO outbox (key, channel, payload)
    SELECT 'vacuum-test:' || i, 'slack', jsonb_build_object('text', repeat('x', 500))
    FROM generate_series(1, 3000) AS i`);
  // Each one leased, then sent, as the worker does: two old versions of every row are left.
  await db.execute(sql`
    UPDATE outbox SET attempts = 1, next_attempt_at = now() + interval '5 minutes'
    WHERE key LIKE 'vacuum-test:%'`);
  await db.execute(sql`
    UPDATE outbox SET status = 'sent', sent_at = now() WHERE key LIKE 'vacuum-test:%'`);
  const before = await pagesReadByClaim(db);
  await vacuumOnce(db);
  const after = await pagesReadByClaim(db);
  expect(before).toBeGreaterThan(50);
  expect(after).toBeLessThan(before / 10);
});

test("the timer vacuums on its own", async () => {
  const { db } = database();
  await db.execute(
    sql`INSERT INTO rate_limit_windows (key, window_start, hits) VALUES ('vacuum-timer', now(), 1)`,
  );
  await db.execute(sql`DELETE FROM rate_limit_windows WHERE key = 'vacuum-timer'`);
  const lastVacuum = async () =>
    (
      await queryRows<{ at: string | null }>(
        db,
        sql`SELECT last_vacuum AS at FROM pg_stat_user_tables WHERE relname = 'rate_limit_windows'`,
      )
    )[0]?.at ?? null;
  const since = new Date();
  const vacuum = startVacuum({ db, log: pino({ level: "silent" }), everyMs: 50 });
  await expect
    .poll(async () => new Date((await lastVacuum()) ?? 0) >= since, { timeout: 10_000 })
    .toBe(true);
  await vacuum.stop();
}, 15_000);
