/**
 * A PostgreSQL server that goes away while a transaction holds one of the pool's connections
 * between two statements: that transaction fails, the process goes on, and the database answers
 * again once the server is back (db/client.ts).
 */
import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { openDatabase, queryRows } from "#db/client.ts";
import { startPostgres } from "#tests/support/postgres.ts";

test("a connection lost between two statements of a transaction fails it, and the process goes on", async () => {
  const postgres = startPostgres(25_700 + Math.floor(Math.random() * 90));
  const database = await openDatabase({ dataDir: "", databaseUrl: postgres.url });
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on("uncaughtException", onUncaught);
  try {
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      // The server stops while this transaction holds its connection and runs no statement.
      postgres.stop();
      await new Promise((resolve) => setTimeout(resolve, 500));
      await tx.execute(sql`SELECT 2`);
    });
    await expect(transaction).rejects.toThrow();
    expect(uncaught).toEqual([]);
    postgres.start();
    await expect
      .poll(async () => (await queryRows<{ n: number }>(database.db, sql`SELECT 3 AS n`))[0]?.n, {
        timeout: 15_000,
      })
      .toBe(3);
  } finally {
    process.off("uncaughtException", onUncaught);
    await database.close().catch(() => {});
    postgres.remove();
  }
}, 60_000);
