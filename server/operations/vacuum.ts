/**
 * VACUUM for the embedded database (decision 060). PostgreSQL's autovacuum is a background worker
 * of a server; PGlite is one backend in this process, so nothing ever vacuums it on its own. Every
 * UPDATE and DELETE leaves the row's old version behind, in the table and in each of its indexes,
 * until a VACUUM removes it. The outbox shows it first: each mail is written, leased and marked
 * sent, and a broadcast of ten thousand leaves ten thousand old entries in the index the worker
 * claims by, read again by every claim. The tables' own size estimates, which the planner reads,
 * are also only kept by VACUUM and ANALYZE.
 *
 * So the site vacuums the embedded database itself, on a timer: a plain VACUUM (never FULL, which
 * would rewrite the tables) of each table in turn, one statement each. A VACUUM reads only the
 * pages changed since the last one, so a table's minute of churn costs a few milliseconds. While
 * it runs, the database's thread runs nothing else; between two tables, whatever waited runs.
 * PostgreSQL (DATABASE_URL) is left to its own autovacuum.
 */
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { queryRows, type Db } from "#db/client.ts";
import { runEvery } from "#server/background/periodic.ts";

/** Often enough that a broadcast at 3,000 a minute leaves a few thousand old rows at most. */
const EVERY_MS = 60_000;

/** One pass over every table of the site's schema: how many, and the longest VACUUM, ms. */
export async function vacuumOnce(db: Db): Promise<{ tables: number; longestMs: number }> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY c.relname`,
  );
  let longestMs = 0;
  for (const { name } of tables) {
    const began = performance.now();
    await db.execute(sql`VACUUM ${sql.identifier(name)}`);
    longestMs = Math.max(longestMs, performance.now() - began);
  }
  return { tables: tables.length, longestMs };
}

export function startVacuum({
  db,
  log,
  everyMs = EVERY_MS,
}: {
  db: Db;
  log: FastifyBaseLogger;
  everyMs?: number;
}) {
  // The first after a full interval: a server starting has other work for the database. A pass
  // still under way when the next is due makes that one wait for the following minute.
  const { stop } = runEvery({
    everyMs,
    work: async () => {
      const { tables, longestMs } = await vacuumOnce(db);
      log.debug(
        { event: "database.vacuumed", tables, longestMs: Math.round(longestMs) },
        "database vacuumed",
      );
    },
    onError: (error) =>
      log.warn({ err: error, event: "database.vacuum_failed" }, "database not vacuumed"),
  });
  /** Lets a VACUUM under way finish, then runs no more. */
  return { stop };
}
