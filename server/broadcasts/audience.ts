/**
 * Who a broadcast goes to (decision 041): the kind's consent, then the entry states and the admin
 * list's search that the administrator chose, and a saved audience when one was (decision 044). Written once as SQL, so the count shown before
 * sending, the recipients fixed when sending starts, and the check made as each mail is written
 * all mean the same people.
 */
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { BROADCAST_KINDS } from "#db/schema.ts";
import { searchableText } from "#src/features/waitlist/schema.ts";
import { ANY_ENTRY, entryFilterOf } from "#src/features/waitlist/entry-filter.ts";
import { entryFilterCondition } from "#server/waitlist/entry-filter-sql.ts";

type Kind = (typeof BROADCAST_KINDS)[number];

/**
 * The states a broadcast may go to: a confirmed address that is still on the list. Waiting
 * entries never confirmed theirs; a declined one was told it would hear no more about the list.
 */
const AUDIENCE_STATES = ["confirmed", "invited", "joined"] as const;

export const AudienceSchema = z.object({
  states: z
    .array(z.enum(AUDIENCE_STATES))
    .min(1, "Choose at least one state.")
    .transform((states) => [...new Set(states)].sort()),
  /** The admin list's search: names, addresses and companies. */
  search: z
    .string()
    .max(200, "Keep the search under 200 characters.")
    .transform((s) => searchableText(s).trim()),
  /**
   * A saved audience it is aimed at too (decision 044): its name and its filter as they were when
   * the draft was saved, so a later change of the list's audiences changes no broadcast.
   */
  saved: z
    .object({
      id: z.number().int().positive(),
      name: z.string().max(80),
      filter: z.string().max(2000),
    })
    .nullable()
    .optional(),
});
export type Audience = z.infer<typeof AudienceSchema>;

/** The condition on waitlist_entries `e` for the kind's consent and the audience's choices. */
export function audienceCondition(kind: Kind, audience: Audience): SQL {
  const states = sql.join(
    audience.states.map((state) => sql`${state}`),
    sql`, `,
  );
  const consent =
    kind === "waitlist-news"
      ? sql`e.waitlist_news_stopped_at IS NULL`
      : sql`e.product_news_at IS NOT NULL`;
  // The admin list's search, as the list's own filter reads it (server/waitlist/entry-filter-sql.ts).
  const search = entryFilterCondition({ ...ANY_ENTRY, query: audience.search }, "e");
  // A broadcast saved before audiences existed has no `saved` at all.
  const saved = audience.saved
    ? entryFilterCondition(entryFilterOf(new URLSearchParams(audience.saved.filter)), "e")
    : sql`TRUE`;
  return sql`e.confirmed_at IS NOT NULL AND e.state IN (${states}) AND ${consent} AND ${search} AND ${saved}`;
}
