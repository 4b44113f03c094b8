/**
 * The admin's list of the waitlist (decision 024): newest first, narrowed by an entry filter
 * (search, state, source, dates, answers: decision 044), one page at a time. Pages are found by keyset, not by offset:
 * a page starts right after (or before) the row that ended the last one, on the indexes
 * (created_at, id) and (state, created_at, id), so the thousandth page costs what the first does.
 * A cursor is that row's created_at (to the microsecond) and id.
 */
import { and, asc, desc, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { outbox, waitlistEntries, waitlistStateCounts, type WaitlistRow } from "#db/schema.ts";
import { ENTRY_STATES, type EntryState } from "#src/features/waitlist/lifecycle.ts";
import { readStoredAnswers } from "#src/features/waitlist/answers.ts";
import { entryFilterCondition } from "#server/waitlist/entry-filter-sql.ts";
import type {
  AdminEntry,
  AdminListPage,
  AdminListQuery,
  ListPosition,
} from "#src/features/waitlist/types.ts";

type ForwardStatus = AdminEntry["forwardStatus"];

/** The entries with their forwarding state, joined on the outbox row that carries it. */
export function selectWithForwarding(db: Db) {
  return db
    .select({
      ...getTableColumns(waitlistEntries),
      forwardStatus: sql<ForwardStatus>`coalesce(${outbox.status}, 'none')`,
      forwardAttempts: sql<number>`coalesce(${outbox.attempts}, 0)::int`,
      forwardLastError: outbox.lastError,
      // Referrals (decision 045): the address of the entry whose link brought this one, and how many
      // entries this one's link brought, on the index of referred_by.
      referredByEmail: sql<
        string | null
      >`(SELECT r.email FROM waitlist_entries r WHERE r.id = ${waitlistEntries.referredBy})`,
      referrals: sql<number>`(SELECT count(*) FROM waitlist_entries r WHERE r.referred_by = ${waitlistEntries.id})::int`,
      cursorAt: sql<string>`to_char(${waitlistEntries.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(waitlistEntries)
    .leftJoin(outbox, eq(outbox.key, sql`'waitlist-forward:' || ${waitlistEntries.id}`));
}

/** `2026-11-23T10:11:12.123456Z_42`: a row's created_at to the microsecond, and its id. */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_(\d{1,15})$/;

/** A cursor's row, or null for one this list never wrote (it then starts at the newest). */
function parseCursor(cursor: string): { at: string; id: number } | null {
  const match = CURSOR.exec(cursor);
  if (!match) return null;
  const at = match[1]!;
  // A time that is not on the calendar (February 30th) is one no row was written at; the
  // database would refuse it.
  const time = Date.parse(at);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 19) !== at.slice(0, 19))
    return null;
  return { at, id: Number(match[2]) };
}

const cursorOf = (row: { cursorAt: string; id: number }) => `${row.cursorAt}_${row.id}`;

function sourceOf(row: WaitlistRow): string | null {
  const utm = [row.utmSource, row.utmMedium, row.utmCampaign].filter(Boolean).join(" / ");
  return utm || row.referrer || null;
}

/** Where a page starts, as a condition and an order; the newest page when there is no cursor. */
function keyset(position: ListPosition) {
  const at = position && parseCursor("after" in position ? position.after : position.before);
  if (!position || !at) return { where: undefined, newestFirst: true, from: null };
  const row = sql`(${waitlistEntries.createdAt}, ${waitlistEntries.id})`;
  const cursor = sql`(${at.at}::timestamptz, ${at.id}::bigint)`;
  return "after" in position
    ? { where: sql`${row} < ${cursor}`, newestFirst: true, from: "after" as const }
    : { where: sql`${row} > ${cursor}`, newestFirst: false, from: "before" as const };
}

export async function listPage(
  db: Db,
  { filter, position, limit }: AdminListQuery,
): Promise<AdminListPage> {
  const narrowed = entryFilterCondition(filter, "waitlist_entries");
  const start = keyset(position);
  const order = start.newestFirst
    ? [desc(waitlistEntries.createdAt), desc(waitlistEntries.id)]
    : [asc(waitlistEntries.createdAt), asc(waitlistEntries.id)];

  const [fetched, counted] = await Promise.all([
    selectWithForwarding(db)
      .where(and(narrowed, start.where))
      .orderBy(...order)
      .limit(limit + 1),
    // Kept by the database as entries change (db/migrations/0008): no entry is read for them.
    db
      .select({ state: waitlistStateCounts.state, n: waitlistStateCounts.entries })
      .from(waitlistStateCounts),
  ]);

  const more = fetched.length > limit;
  const rows = fetched.slice(0, limit);
  if (!start.newestFirst) rows.reverse();
  const first = rows[0];
  const last = rows.at(-1);
  const counts = Object.fromEntries(ENTRY_STATES.map((s) => [s, 0])) as Record<EntryState, number>;
  for (const { state: s, n } of counted) if (s in counts) counts[s as EntryState] = Number(n);

  return {
    entries: rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      name: row.name,
      email: row.email,
      company: row.company,
      message: row.message,
      source: sourceOf(row),
      state: row.state,
      confirmedAt: row.confirmedAt?.toISOString() ?? null,
      inviteSentAt: row.inviteSentAt?.toISOString() ?? null,
      forwardStatus: row.forwardStatus,
      forwardAttempts: row.forwardAttempts,
      forwardLastError: row.forwardLastError,
      answers: readStoredAnswers(row.answers),
      referredBy: row.referredByEmail,
      referrals: row.referrals,
    })),
    counts,
    // Going back from a later page there are older rows (the one we came from, at least); going
    // on, only when a row past this page was found.
    older: last && (start.from === "before" || more) ? cursorOf(last) : null,
    newer:
      first && (start.from === "after" || (start.from === "before" && more))
        ? cursorOf(first)
        : null,
  };
}
