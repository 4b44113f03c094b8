/**
 * The embedded database's `background` handle (db/client.ts): the same data as `db`, with each
 * statement run only after the event loop has had its turn, so work no visitor waits on cannot
 * hold the thread through a run of statements.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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

describe("the embedded database's background handle", () => {
  test("reads and writes the same data as the visitors' handle, in and out of transactions", async () => {
    await database.background.execute(sql`INSERT INTO turns VALUES (1)`);
    await database.background.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO turns VALUES (2)`);
      await tx.execute(sql`INSERT INTO turns VALUES (3)`);
    });
    await expect(
      database.background.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO turns VALUES (4)`);
        throw new Error("changed its mind");
      }),
    ).rejects.toThrow("changed its mind");
    const rows = await queryRows<{ n: number }>(database.db, sql`SELECT n FROM turns ORDER BY n`);
    expect(rows.map((r) => r.n)).toEqual([1, 2, 3]);
  });

  test("lets what waits on the event loop run between two statements of a transaction", async () => {
    const seen: string[] = [];
    await database.background.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      seen.push("first statement");
      // Due at once: the visitors' handle would run the next statement before this.
      setImmediate(() => seen.push("a waiting callback"));
      await tx.execute(sql`SELECT 2`);
      seen.push("second statement");
    });
    expect(seen).toEqual(["first statement", "a waiting callback", "second statement"]);
  });

  test("the visitors' handle runs its statements without waiting for the event loop", async () => {
    const seen: string[] = [];
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      setImmediate(() => seen.push("a waiting callback"));
      await tx.execute(sql`SELECT 2`);
      seen.push("second statement");
    });
    expect(seen).toEqual(["second statement"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["second statement", "a waiting callback"]);
  });
});

describe("the embedded database's values", () => {
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
