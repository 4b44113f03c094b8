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
  expect(results.filter((r) => r.created)).toHaveLength(unique);
  // The first request for an address is the one told it was new.
  const firstIndex = new Map<string, number>();
  emails.forEach((e, i) => firstIndex.set(e.toLowerCase(), firstIndex.get(e.toLowerCase()) ?? i));
  emails.forEach((e, i) => expect(results[i]?.created).toBe(firstIndex.get(e.toLowerCase()) === i));
});

test("a row that cannot be written fails alone: the rest of its batch is stored", async () => {
  const insert = createInsertBatcher(database.db);
  // Sent in one turn of the event loop: they share one statement and one commit, which fails.
  const outcome = await Promise.allSettled([
    insert({ name: "Fine", email: "fine-in-bad-batch@example.com" }),
    // Violates NOT NULL: the shared statement fails, and so does this row on its own.
    insert({ name: null as unknown as string, email: "broken@example.com" }),
    insert({ name: "Also fine", email: "also-fine@example.com" }),
  ]);
  expect(outcome.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  const rows = await queryRows<{ email: string }>(
    database.db,
    sql`SELECT email FROM waitlist_entries WHERE email IN ('fine-in-bad-batch@example.com', 'broken@example.com', 'also-fine@example.com') ORDER BY email`,
  );
  expect(rows.map((r) => r.email)).toEqual([
    "also-fine@example.com",
    "fine-in-bad-batch@example.com",
  ]);
  await expect(
    insert({ name: "Fine", email: "fine-in-bad-batch@example.com" }),
  ).resolves.toMatchObject({ created: false, paused: false });
});

test("every address is told its entry's referral code, and an entry made through a code names its sharer", async () => {
  const insert = createInsertBatcher(database.db);
  const sharer = await insert({ name: "Sharer", email: "sharer@example.com" });
  expect(sharer.referralCode).toMatch(/^[0-9a-f]{16}$/);
  const code = sharer.referralCode!;
  // In one batch: two entries through the link, one through a code nobody has, and the sharer's
  // own address again through its own link (already there, so nothing changes).
  const [colleague, other, unknown, again] = await Promise.all([
    insert({ name: "Colleague", email: "colleague@example.com", referral: code }),
    insert({ name: "Other", email: "other-colleague@example.com", referral: code }),
    insert({ name: "Unknown", email: "unknown-code@example.com", referral: "ffffffffffffffff" }),
    insert({ name: "Sharer", email: "SHARER@example.com", referral: code }),
  ]);
  expect(again).toEqual({ created: false, paused: false, referralCode: code });
  const codes = [colleague, other, unknown].map((w) => w?.referralCode);
  expect(new Set([...codes, code]).size).toBe(4);
  const rows = await queryRows<{ email: string; referrer: string | null }>(
    database.db,
    sql`SELECT e.email, r.email AS referrer FROM waitlist_entries e
        LEFT JOIN waitlist_entries r ON r.id = e.referred_by
        WHERE e.email IN ('sharer@example.com', 'colleague@example.com',
          'other-colleague@example.com', 'unknown-code@example.com')
        ORDER BY e.email`,
  );
  expect(rows).toEqual([
    { email: "colleague@example.com", referrer: "sharer@example.com" },
    { email: "other-colleague@example.com", referrer: "sharer@example.com" },
    { email: "sharer@example.com", referrer: null },
    { email: "unknown-code@example.com", referrer: null },
  ]);
  // Erasing the sharer leaves the entries it brought, naming nobody.
  await database.db.execute(sql`DELETE FROM waitlist_entries WHERE email = 'sharer@example.com'`);
  const left = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM waitlist_entries
        WHERE email IN ('colleague@example.com', 'other-colleague@example.com')
          AND referred_by IS NULL`,
  );
  expect(left).toEqual([{ n: 2 }]);
});
