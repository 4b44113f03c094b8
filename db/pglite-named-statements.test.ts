/**
 * Statements the embedded database keeps parsed (db/pglite-named-statements.ts, decision 059): a
 * statement run again through its name answers exactly as PGlite's own `query` does, whatever
 * happened in between (a column added, an error, a transaction, the limit reached).
 */
import { PGlite } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { keepStatements, type KeptStatements } from "#db/pglite-named-statements.ts";

let client: PGlite;
let statements: KeptStatements;

beforeEach(async () => {
  client = await PGlite.create();
  statements = keepStatements(client);
  await client.exec(`
    CREATE TABLE people (id int PRIMARY KEY, name text NOT NULL UNIQUE, tags text[],
      data jsonb, seen timestamptz, big bigint);
    INSERT INTO people VALUES
      (1, 'Ada', '{a,b}', '{"x": 1}', '2026-12-01T10:00:00Z', 9007199254740993),
      (2, 'Grace', NULL, NULL, NULL, NULL);`);
});

afterEach(async () => {
  await client.close();
});

/** As the database's thread asks: Drizzle keeps timestamps as PostgreSQL wrote them. */
const raw = { 1184: (value: string) => value };

describe("statements kept by name", () => {
  test("a statement run again answers as PGlite's own query does, in both row modes", async () => {
    const cases: [string, unknown[]][] = [
      ["SELECT * FROM people WHERE id = $1", [1]],
      ["SELECT id, name, tags, data, seen, big FROM people ORDER BY id", []],
      [
        "SELECT $1::jsonb AS doc, $2::text[] AS list, $3::int AS nothing",
        [{ a: [1, 2] }, ["x", "y"], null],
      ],
      ["UPDATE people SET name = name WHERE id > $1", [0]],
      [
        "INSERT INTO people (id, name) VALUES ($1, 'Lin') ON CONFLICT (id) DO UPDATE SET name = excluded.name",
        [3],
      ],
      ["DELETE FROM people WHERE id > $1", [100]],
    ];
    for (const rowMode of ["object", "array"] as const)
      for (const [text, params] of cases) {
        const expected = await client.query(text, params, { rowMode, parsers: raw });
        for (let run = 0; run < 3; run++) {
          const answer = await statements.query(text, params, { rowMode, parsers: raw }, false);
          expect(answer.rows).toEqual(expected.rows);
          expect(answer.fields).toEqual(expected.fields);
          expect(answer.affectedRows).toBe(expected.affectedRows);
        }
      }
    expect(statements.size).toBe(cases.length);
  });

  test("a statement run often is planned once for all values, as PostgreSQL plans any prepared statement", async () => {
    // Forcing a plan per run holds for the whole session: every foreign key's check and every
    // trigger's statement would be replanned for each row too (decision 065).
    const text = "SELECT name FROM people WHERE id = $1";
    for (let run = 0; run < 10; run++)
      await statements.query(text, [1 + (run % 2)], { parsers: raw }, false);
    const { rows } = await client.query<{ generic_plans: number; custom_plans: number }>(
      "SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement = $1",
      [text],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.generic_plans).toBeGreaterThan(0);
    expect(rows[0]!.generic_plans + rows[0]!.custom_plans).toBe(10);
  });

  test("a column added after a statement was kept is in its next answer, by exec or by a statement", async () => {
    const everything = "SELECT * FROM people WHERE id = $1";
    await statements.query(everything, [2], {}, false);
    await client.exec("ALTER TABLE people ADD COLUMN firm text DEFAULT 'Hopper LLP'");
    statements.invalidate();
    expect((await statements.query(everything, [2], {}, false)).rows[0]).toMatchObject({
      name: "Grace",
      firm: "Hopper LLP",
    });
    await statements.query(
      "ALTER TABLE people ADD COLUMN city text DEFAULT 'Austin'",
      [],
      {},
      false,
    );
    expect((await statements.query(everything, [2], {}, false)).rows[0]).toMatchObject({
      firm: "Hopper LLP",
      city: "Austin",
    });
  });

  test("a change the statement's text does not show is refused, never answered with the old rows, and the next run sees it", async () => {
    const everything = "SELECT * FROM people WHERE id = $1";
    await statements.query(everything, [1], {}, false);
    // Behind its back: nothing tells the kept statements.
    await client.query("ALTER TABLE people ADD COLUMN firm text DEFAULT 'Lovelace & Co'");
    await expect(statements.query(everything, [1], {}, false)).rejects.toMatchObject({
      code: "0A000",
    });
    expect((await statements.query(everything, [1], {}, false)).rows[0]).toMatchObject({
      firm: "Lovelace & Co",
    });
  });

  test("an error carries PostgreSQL's fields, first run and kept, and the statement works after it", async () => {
    const insert = "INSERT INTO people (id, name) VALUES ($1, $2)";
    for (const id of [3, 4])
      await expect(statements.query(insert, [id, "Ada"], {}, false)).rejects.toMatchObject({
        code: "23505",
        constraint: "people_name_key",
        query: insert,
      });
    await statements.query(insert, [3, "Katherine"], {}, false);
    expect((await client.query("SELECT name FROM people WHERE id = 3")).rows).toEqual([
      { name: "Katherine" },
    ]);
    const kept = statements.size;
    await expect(statements.query("SELEC 1", [], {}, false)).rejects.toMatchObject({
      code: "42601",
    });
    expect(statements.size).toBe(kept);
  });

  test("inside a transaction: its statements see it, a failed one ends it, and kept statements work after the rollback", async () => {
    const count = "SELECT count(*)::int AS n FROM people";
    const insert = "INSERT INTO people (id, name) VALUES ($1, $2)";
    await expect(
      client.transaction(async () => {
        await statements.query(insert, [5, "Mary"], {}, true);
        expect((await statements.query(count, [], {}, true)).rows).toEqual([{ n: 3 }]);
        await statements.query(insert, [6, "Mary"], {}, true);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect((await statements.query(count, [], {}, false)).rows).toEqual([{ n: 2 }]);
    await statements.query(insert, [5, "Mary"], {}, false);
    expect((await statements.query(count, [], {}, false)).rows).toEqual([{ n: 3 }]);
  });

  test("made stale while a transaction is open, statements run unnamed until it ends, then are kept afresh", async () => {
    const byId = "SELECT name FROM people WHERE id = $1";
    await statements.query(byId, [1], {}, false);
    expect(statements.size).toBe(1);
    statements.invalidate();
    await client.transaction(async () => {
      expect((await statements.query(byId, [2], {}, true)).rows).toEqual([{ name: "Grace" }]);
      expect(statements.size).toBe(1);
    });
    expect((await statements.query(byId, [1], {}, false)).rows).toEqual([{ name: "Ada" }]);
    expect(statements.size).toBe(1);
    const names = await client.query<{ name: string }>("SELECT name FROM pg_prepared_statements");
    expect(names.rows).toHaveLength(1);
  });

  test("past the limit, a new statement runs unnamed and answers all the same", async () => {
    await client.close();
    client = await PGlite.create();
    statements = keepStatements(client, 2);
    for (let n = 1; n <= 4; n++)
      for (let run = 0; run < 2; run++)
        expect((await statements.query(`SELECT $1::int + ${n} AS v`, [n], {}, false)).rows).toEqual(
          [{ v: 2 * n }],
        );
    expect(statements.size).toBe(2);
    const names = await client.query("SELECT name FROM pg_prepared_statements");
    expect(names.rows).toHaveLength(2);
  });

  test("alone, a statement waits for an open transaction, as PGlite's query does", async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query("UPDATE people SET name = 'Ada L.' WHERE id = 1");
      await held;
      order.push("transaction ended");
    });
    const alone = statements
      .query("SELECT name FROM people WHERE id = $1", [1], {}, false)
      .then((answer) => {
        order.push("statement answered");
        return answer.rows;
      });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect(await alone).toEqual([{ name: "Ada L." }]);
    expect(order).toEqual(["transaction ended", "statement answered"]);
  });
});
