/**
 * The admin dashboard at scale, for `npm run bench`: 100,000 waitlist entries over a year, a year
 * of page views (12 pages × 20 sources a day) and 100,000 outbox rows in an embedded database;
 * how long the dashboard's figures take for the last 30 days and for the last year (median of 5).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "#db/client.ts";
import { createDashboard } from "#server/operations/dashboard.ts";

const ENTRIES = 100_000;

export type DashboardFigures = { entries: number; viewRows: number; month: number; year: number };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export async function benchDashboard(): Promise<DashboardFigures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tieout-dashboard-bench-"));
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    const { db } = database;
    await db.execute(sql`
      INSERT INTO waitlist_entries (name, email, utm_source, referrer, created_at, state, confirmed_at)
      SELECT 'Bench ' || i, 'bench-' || i || '@example.com',
        CASE WHEN i % 3 = 0 THEN 'campaign-' || (i % 20) END,
        CASE WHEN i % 3 = 1 THEN 'https://site-' || (i % 20) || '.example/' END,
        now() - make_interval(secs => (i * 315.36)::double precision),
        CASE WHEN i % 4 = 0 THEN 'confirmed' ELSE 'waiting' END,
        CASE WHEN i % 4 = 0 THEN now() END
      FROM generate_series(1, ${ENTRIES}) AS i`);
    await db.execute(sql`
      INSERT INTO page_views (day, path, source, views)
      SELECT current_date - d, '/page-' || p, 'source-' || s, 1 + (d * p * s) % 50
      FROM generate_series(0, 364) AS d, generate_series(1, 12) AS p, generate_series(1, 20) AS s`);
    await db.execute(sql`
      INSERT INTO outbox (key, channel, payload, status, sent_at, failed_at, last_error)
      SELECT 'bench-' || i, 'email', '{}',
        CASE WHEN i % 50 = 0 THEN 'failed' WHEN i % 97 = 0 THEN 'pending' ELSE 'sent' END,
        CASE WHEN i % 50 <> 0 AND i % 97 <> 0 THEN now() - make_interval(secs => i * 300) END,
        CASE WHEN i % 50 = 0 THEN now() - make_interval(secs => i * 300) END,
        CASE WHEN i % 50 = 0 THEN '550 Mailbox unavailable' END
      FROM generate_series(1, ${ENTRIES}) AS i`);
    await db.execute(sql`ANALYZE`);

    const dashboard = createDashboard(db);
    const time = async (days: 30 | 365) => {
      const runs: number[] = [];
      await dashboard.overview(days);
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        await dashboard.overview(days);
        runs.push(performance.now() - t0);
      }
      return median(runs);
    };
    return {
      entries: ENTRIES,
      viewRows: 365 * 12 * 20,
      month: await time(30),
      year: await time(365),
    };
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchDashboard());
