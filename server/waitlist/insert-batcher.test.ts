import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase, queryRows, type Database } from "#db/client.ts";
import { createInsertBatcher } from "#server/waitlist/insert-batcher.ts";

let database: Database;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "tieout-batcher-"));
  database = await openDatabase({ dataDir: dir, databaseUrl: undefined });
}, 30_000);
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

test("concurrent inserts share commits, and each address is created exactly once, first caller first", async () => {
  const insert = createInsertBatcher(database.db);
  const emails = Array.from({ length: 120 }, (_, i) =>
    i % 3 === 0 ? `Dup-${i % 30}@Example.com` : `lead-${i}@example.com`,
  );
  emails.push("dup-0@example.com", "DUP-3@EXAMPLE.COM");
  const results = await Promise.all(emails.map((email) => insert({ name: "Lead", email })));

  const [row] = await queryRows<{ n: number; distinct: number }>(
    database.db,
    sql`SELECT count(*)::int AS n, count(DISTINCT lower(email))::int AS distinct FROM waitlist_entries`,
  );
  const unique = new Set(emails.map((e) => e.toLowerCase())).size;
  expect(row).toEqual({ n: unique, distinct: unique });
  expect(results.filter(Boolean)).toHaveLength(unique);
  // The first request for an address is the one told it was new.
  const firstIndex = new Map<string, number>();
  emails.forEach((e, i) => firstIndex.set(e.toLowerCase(), firstIndex.get(e.toLowerCase()) ?? i));
  emails.forEach((e, i) => expect(results[i]).toBe(firstIndex.get(e.toLowerCase()) === i));
});

test("a failed commit rejects every caller in its batch and stores none of them; the next batch is fine", async () => {
  const insert = createInsertBatcher(database.db);
  // Sent in one turn of the event loop: they share one statement and one commit.
  const outcome = await Promise.allSettled([
    insert({ name: "Fine", email: "fine-in-bad-batch@example.com" }),
    // Violates NOT NULL: the whole statement fails.
    insert({ name: null as unknown as string, email: "broken@example.com" }),
  ]);
  expect(outcome.map((o) => o.status)).toEqual(["rejected", "rejected"]);
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM waitlist_entries WHERE email = 'fine-in-bad-batch@example.com'`,
  );
  expect(row?.n).toBe(0);
  await expect(insert({ name: "Fine", email: "fine-in-bad-batch@example.com" })).resolves.toBe(
    true,
  );
});
