/**
 * An entry filter (src/features/waitlist/entry-filter.ts) as a condition on waitlist_entries, the
 * one translation the admin list, the audiences' counts, an audience's invitation batch and a
 * broadcast's recipients all use (decision 044). `table` is how the query names the table: the
 * table itself, or an alias.
 */
import { sql, type SQL } from "drizzle-orm";
import { answersFilterDocuments } from "#src/features/waitlist/answers.ts";
import type { EntryFilter } from "#src/features/waitlist/entry-filter.ts";
import { searchableText } from "#src/features/waitlist/schema.ts";

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `waitlist_entries` or an alias: a word, never text from a request. */
type TableName = "waitlist_entries" | "e";

export function entryFilterCondition(filter: EntryFilter, table: TableName): SQL {
  const t = sql.raw(table);
  const parts: SQL[] = [];
  // A NUL or broken UTF-8 in a search is a search for nothing, not an outage.
  const q = searchableText(filter.query);
  if (q) {
    const pattern = `%${escapeLike(q)}%`;
    parts.push(
      sql`(${t}.name ILIKE ${pattern} OR ${t}.email ILIKE ${pattern} OR ${t}.company ILIKE ${pattern})`,
    );
  }
  if (filter.state) parts.push(sql`${t}.state = ${filter.state}`);
  if (filter.source) parts.push(sql`${t}.source = ${filter.source}`);
  // Days in UTC, both ends included.
  if (filter.from)
    parts.push(sql`${t}.created_at >= ${filter.from}::date::timestamp AT TIME ZONE 'UTC'`);
  if (filter.to)
    parts.push(sql`${t}.created_at < (${filter.to}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  // Any of a question's choices, every question asked: each `@>` is the GIN index's (0019).
  for (const documents of answersFilterDocuments(filter.answers))
    parts.push(
      sql`(${sql.join(
        documents.map((doc) => sql`${t}.answers @> ${doc}::jsonb`),
        sql` OR `,
      )})`,
    );
  return parts.length === 0 ? sql`TRUE` : sql.join(parts, sql` AND `);
}
