/** An entry filter as the database reads it (decision 044): each part, and all of them at once. */
import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { ANY_ENTRY, type EntryFilter } from "#src/features/waitlist/entry-filter.ts";
import { entryFilterCondition } from "#server/waitlist/entry-filter-sql.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

const database = databaseForThisFile();

test("search, state, source, days (UTC, both ends included) and answers each narrow, and together", async () => {
  const db = database().db;
  await db.execute(sql`
    INSERT INTO waitlist_entries (name, email, company, state, confirmed_at, utm_source, created_at, answers)
    VALUES
      ('Ann', 'ann@a.example', 'Ledger & Co', 'confirmed', now(), 'LinkedIn', '2026-11-01 00:00:00+00', '{"firmSize":"2-5","software":["drake","xero"]}'),
      ('Bo', 'bo@b.example', NULL, 'waiting', NULL, NULL, '2026-11-01 23:59:59+00', '{}'),
      ('Cy', 'cy@c.example', '100%_Tax', 'confirmed', now(), 'newsletter', '2026-11-02 00:00:00+00', '{"firmSize":"solo","software":["xero"]}')`);
  const names = async (filter: Partial<EntryFilter>) =>
    (
      await queryRows<{ name: string }>(
        db,
        sql`SELECT e.name FROM waitlist_entries e
            WHERE ${entryFilterCondition({ ...ANY_ENTRY, ...filter }, "e")} ORDER BY e.name`,
      )
    ).map((r) => r.name);

  expect(await names({})).toEqual(["Ann", "Bo", "Cy"]);
  expect(await names({ query: "ledger" })).toEqual(["Ann"]);
  expect(await names({ query: "100%_" })).toEqual(["Cy"]);
  expect(await names({ query: "%" })).toEqual(["Cy"]);
  expect(await names({ state: "waiting" })).toEqual(["Bo"]);
  expect(await names({ source: "linkedin" })).toEqual(["Ann"]);
  expect(await names({ source: "(direct)" })).toEqual(["Bo"]);
  expect(await names({ from: "2026-11-01", to: "2026-11-01" })).toEqual(["Ann", "Bo"]);
  expect(await names({ from: "2026-11-02" })).toEqual(["Cy"]);
  expect(await names({ answers: { software: ["xero"] } })).toEqual(["Ann", "Cy"]);
  expect(await names({ answers: { software: ["drake"], firmSize: ["solo"] } })).toEqual([]);
  expect(await names({ answers: { firmSize: ["solo", "2-5"] } })).toEqual(["Ann", "Cy"]);
  expect(
    await names({ state: "confirmed", to: "2026-11-01", answers: { software: ["xero"] } }),
  ).toEqual(["Ann"]);
});
