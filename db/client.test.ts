/**
 * The embedded database on a thread of its own (db/client.ts, db/pglite-thread.ts, decision 055):
 * the same statements and transactions as PGlite run in place, with the thread that answers
 * visitors free while they run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, queryRows, type Database } from "#db/client.ts";

let dir: string;
let database: Database;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "tieout-client-"));
  database = await openDatabase({ dataDir: dir, databaseUrl: undefined });
  await database.db.execute(sql`CREATE TABLE turns (n int PRIMARY KEY)`);
}, 60_000);

afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

const numbers = async () =>
  (await queryRows<{ n: number }>(database.db, sql`SELECT n FROM turns ORDER BY n`)).map(
    (r) => r.n,
  );

describe("the embedded database on a thread of its own", () => {
  test("commits a transaction that ends well and rolls back one that throws or asks to", async () => {
    await database.db.execute(sql`INSERT INTO turns VALUES (1)`);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO turns VALUES (2)`);
      await tx.execute(sql`INSERT INTO turns VALUES (3)`);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO turns VALUES (4)`);
        throw new Error("changed its mind");
      }),
    ).rejects.toThrow("changed its mind");
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO turns VALUES (5)`);
        tx.rollback();
      }),
    ).rejects.toThrow();
    expect(await numbers()).toEqual([1, 2, 3]);
    await database.db.execute(sql`DELETE FROM turns`);
  });

  test("a statement outside a transaction waits for it to end, and sees what it committed", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO turns VALUES (10)`);
      await held;
    });
    // Give the transaction time to begin before the statement outside it is asked.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outside = numbers();
    const first = await Promise.race([
      outside.then(() => "the statement outside"),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 100)),
    ]);
    expect(first).toBe("still waiting");
    release();
    await transaction;
    expect(await outside).toEqual([10]);
    await database.db.execute(sql`DELETE FROM turns`);
  });

  test("the visitors' thread keeps answering while a long statement runs", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await database.db.execute(sql`SELECT pg_sleep(0.3)`);
    clearInterval(timer);
    // In place, PGlite would hold the thread for the whole 300 ms: no tick at all.
    expect(ticks).toBeGreaterThan(10);
  });

  test("an error keeps what PostgreSQL said: its code and the constraint", async () => {
    await database.db.execute(sql`INSERT INTO turns VALUES (20)`);
    const refused = await database.db.execute(sql`INSERT INTO turns VALUES (20)`).then(
      () => null,
      (error: unknown) => error as { cause?: { code?: string; constraint?: string } },
    );
    expect(refused?.cause).toMatchObject({ code: "23505", constraint: "turns_pkey" });
    await database.db.execute(sql`DELETE FROM turns`);
  });
});

describe("the embedded database's values", () => {
  test("a parser that changes values cannot cross to the database's thread, and says so", async () => {
    await expect(
      (database.db as unknown as { $client: PGlite }).$client.query("SELECT 1 AS one", [], {
        parsers: { 23: (value: string) => Number(value) * 2 },
      }),
    ).rejects.toThrow("A parser for type 23 cannot cross to the database's thread.");
  });

  test("arrays of values come back as arrays of parsed values", async () => {
    const [row] = await queryRows<Record<string, unknown>>(
      database.db,
      sql`SELECT ARRAY[1, 2]::int[] AS ints, ARRAY['a', 'b,c']::text[] AS texts,
        ARRAY['{"k": 1}'::jsonb] AS documents, ARRAY[true, false] AS flags,
        ARRAY[10::bigint] AS bigs, ARRAY['x'::name] AS names`,
    );
    expect(row).toEqual({
      ints: [1, 2],
      texts: ["a", "b,c"],
      documents: [{ k: 1 }],
      flags: [true, false],
      bigs: [10],
      names: ["x"],
    });
  });
});
