/**
 * Saved audiences (decision 044): a filter of the entry list under a name. Saving and deleting one
 * are Activity rows. An audience's invitation batch invites its confirmed entries, oldest first,
 * at most INVITE_BATCH_MAX at a time, and only when the number the administrator was shown is the
 * number there is now; each invitation is its own Activity row, as from the list.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { queryRows } from "#db/client.ts";
import { audiences } from "#db/schema.ts";
import { recordAudit } from "#server/audit/audit-log.ts";
import { entryFilterCondition } from "#server/waitlist/entry-filter-sql.ts";
import {
  entryFilterOf,
  entryFilterText,
  INVITE_BATCH_MAX,
  type EntryFilter,
} from "#src/features/waitlist/entry-filter.ts";
import type {
  AdminActionRequest,
  AdminActionResult,
  AdminMeta,
  AudienceReply,
  SavedAudience,
} from "#src/features/waitlist/types.ts";

/** The audiences the list shows; more are refused at saving. */
const AUDIENCES_MAX = 50;

const filterOf = (text: string): EntryFilter => entryFilterOf(new URLSearchParams(text));

/**
 * The filter as the append-only audit log keeps it: without the search's text, which may name
 * someone (the log names entries by number only, decision 024).
 */
const auditedFilter = (filter: EntryFilter) => {
  const rest = entryFilterText({ ...filter, query: "" });
  const parts = [filter.query ? "a search" : "", rest].filter(Boolean);
  return parts.join(" and ");
};

/** Entries of the filter that an invitation batch would invite: confirmed, oldest first. */
const invitable = (filter: EntryFilter) =>
  sql`${entryFilterCondition(filter, "e")} AND e.state = 'confirmed' AND e.confirmed_at IS NOT NULL`;

export function createAudiences({
  db,
  act,
}: {
  db: Db;
  /** The admin list's own action, through which a batch invites (its rows, its mail). */
  act: (request: AdminActionRequest, meta: AdminMeta) => Promise<AdminActionResult>;
}) {
  async function counts(filter: EntryFilter) {
    const [row] = await queryRows<{ entries: number; invitable: number }>(
      db,
      sql`SELECT count(*)::int AS entries,
            count(*) FILTER (WHERE e.state = 'confirmed' AND e.confirmed_at IS NOT NULL)::int AS invitable
          FROM waitlist_entries e WHERE ${entryFilterCondition(filter, "e")}`,
    );
    return { entries: row?.entries ?? 0, invitable: row?.invitable ?? 0 };
  }

  return {
    /** Every saved audience by name, with how many entries it holds now and how many it invites. */
    async list(): Promise<SavedAudience[]> {
      const rows = await db
        .select()
        .from(audiences)
        .orderBy(asc(sql`lower(${audiences.name})`))
        .limit(AUDIENCES_MAX);
      return Promise.all(
        rows.map(async (row) => {
          const filter = filterOf(row.filter);
          return {
            id: row.id,
            name: row.name,
            filter: entryFilterText(filter),
            createdBy: row.createdBy,
            createdAt: row.createdAt.toISOString(),
            ...(await counts(filter)),
          };
        }),
      );
    },

    /** Every saved audience's id and name, by name: for the composer's list, without counts. */
    async names(): Promise<{ id: number; name: string }[]> {
      return db
        .select({ id: audiences.id, name: audiences.name })
        .from(audiences)
        .orderBy(asc(sql`lower(${audiences.name})`))
        .limit(AUDIENCES_MAX);
    },

    /** The audience's filter, by id; null when there is none. */
    async get(id: number): Promise<{ name: string; filter: string } | null> {
      const [row] = await db.select().from(audiences).where(eq(audiences.id, id));
      return row ? { name: row.name, filter: entryFilterText(filterOf(row.filter)) } : null;
    },

    async save(name: string, filter: EntryFilter, meta: AdminMeta): Promise<AudienceReply> {
      const trimmed = name.trim().replace(/\s+/g, " ");
      if (trimmed === "") return { ok: false, message: "Name the audience." };
      if (trimmed.length > 80) return { ok: false, message: "Keep the name under 80 characters." };
      const text = entryFilterText(filter);
      if (text === "")
        return {
          ok: false,
          message: "Narrow the list first: an audience of every entry needs no name.",
        };
      // An audience outlives any one entry: it may not name a person by address (an erasure
      // would leave the address here). A domain is fine.
      if (/[^\s@]@/.test(filter.query))
        return {
          ok: false,
          message:
            "An audience cannot search for one person's address: search by a name, a company or a domain (@example-cpa.com).",
        };
      return db.transaction(async (tx): Promise<AudienceReply> => {
        const [{ n } = { n: 0 }] = await queryRows<{ n: number }>(
          tx,
          sql`SELECT count(*)::int AS n FROM audiences`,
        );
        if (n >= AUDIENCES_MAX)
          return {
            ok: false,
            message: `There are ${AUDIENCES_MAX} audiences already: delete one you no longer use.`,
          };
        const [saved] = await tx
          .insert(audiences)
          .values({ name: trimmed, filter: text, createdBy: meta.adminEmail })
          .onConflictDoNothing()
          .returning({ id: audiences.id });
        if (!saved) return { ok: false, message: `An audience is already named “${trimmed}”.` };
        await recordAudit(tx, [
          {
            adminEmail: meta.adminEmail,
            action: "audience-save",
            entryId: null,
            outcome: `#${saved.id} “${trimmed}”: ${auditedFilter(filter)}`,
            clientAddress: meta.clientAddress,
          },
        ]);
        return { ok: true, message: `Saved the audience “${trimmed}”.` };
      });
    },

    async remove(id: number, meta: AdminMeta): Promise<AudienceReply> {
      return db.transaction(async (tx): Promise<AudienceReply> => {
        const [gone] = await tx
          .delete(audiences)
          .where(eq(audiences.id, id))
          .returning({ name: audiences.name, filter: audiences.filter });
        if (!gone) return { ok: false, message: "That audience is no longer there." };
        await recordAudit(tx, [
          {
            adminEmail: meta.adminEmail,
            action: "audience-delete",
            entryId: null,
            outcome: `#${id} “${gone.name}”: ${auditedFilter(filterOf(gone.filter))}`,
            clientAddress: meta.clientAddress,
          },
        ]);
        return { ok: true, message: `Deleted the audience “${gone.name}”.` };
      });
    },

    /**
     * Invites the audience's confirmed entries, oldest first, at most INVITE_BATCH_MAX: only when
     * `expected` (what the page showed) is how many that is now. Nothing is sent otherwise.
     */
    async invite(
      id: number,
      expected: number,
      meta: AdminMeta,
    ): Promise<AudienceReply | AdminActionResult> {
      const [row] = await db.select().from(audiences).where(eq(audiences.id, id));
      if (!row) return { ok: false, message: "That audience is no longer there." };
      const ids = await queryRows<{ id: number }>(
        db,
        sql`SELECT e.id FROM waitlist_entries e WHERE ${invitable(filterOf(row.filter))}
            ORDER BY e.created_at, e.id LIMIT ${INVITE_BATCH_MAX}`,
      );
      if (ids.length === 0)
        return { ok: false, message: `“${row.name}” has no confirmed entry to invite.` };
      if (ids.length !== expected)
        return {
          ok: false,
          message: `“${row.name}” now has ${ids.length.toLocaleString("en-US")} to invite, not ${expected.toLocaleString("en-US")}. Check the number and press again.`,
        };
      return act({ action: "invite", ids: ids.map((r) => Number(r.id)), tell: [] }, meta);
    },
  };
}
