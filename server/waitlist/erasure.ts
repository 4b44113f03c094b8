/**
 * The outbox keys that name a waitlist entry, and erasing an entry with everything that carries
 * its name and address (decision 023): its outbox rows, then the entry; its tokens go by cascade.
 * The owner's removal link and the admin's Remove both erase through here. The admin audit log
 * names the entry by id only and is kept (decision 024).
 */
import { enqueueWebhookEvents, forgetWebhookMessages } from "#server/webhooks/events.ts";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";
import { outbox, waitlistEntries, waitlistTokens } from "#db/schema.ts";

/** The entry's post to the collector: one per entry, whatever is retried. */
export const forwardKey = (id: number) => `waitlist-forward:${id}`;
/** The Slack notice that the entry was confirmed: one per entry. */
export const slackKey = (id: number) => `waitlist-slack:${id}`;
/**
 * The n-th confirmation mail of the entry: the first (of a new entry) is `…:<id>`, a later one (a
 * repeat submission when no link of the entry still worked, decision 036) `…:<id>:<n>`. Every
 * confirmation mail carries a confirm token of its own, and tokens go only with their entry, so
 * the entry's count of confirm tokens is how many such mails there were: n is that count once the
 * mail's own token is counted.
 */
export const confirmMailKey = (id: number, n = 1) =>
  n === 1 ? `waitlist-confirm-mail:${id}` : `waitlist-confirm-mail:${id}:${n}`;
/**
 * The n-th mail an admin's action wrote to the entry (an invitation, a resend, a decline): the
 * entry's `admin_mails` counts them, so each action is its own cause with its own key.
 */
export const adminMailKey = (id: number, n: number) => `waitlist-admin-mail:${id}:${n}`;

/** Every outbox key that can name this entry. */
function entryKeys(id: number, adminMails: number, confirmMails: number): string[] {
  const keys = [forwardKey(id), slackKey(id)];
  for (let n = 1; n <= Math.max(1, confirmMails); n++) keys.push(confirmMailKey(id, n));
  for (let n = 1; n <= adminMails; n++) keys.push(adminMailKey(id, n));
  return keys;
}

/** How many confirm tokens (so confirmation mails) each of the entries was given. */
export async function confirmTokensIssued(tx: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ entryId: waitlistTokens.entryId, issued: count() })
    .from(waitlistTokens)
    .where(and(inArray(waitlistTokens.entryId, ids), eq(waitlistTokens.purpose, "confirm")))
    .groupBy(waitlistTokens.entryId);
  return new Map(rows.map((row) => [row.entryId, row.issued]));
}

/**
 * Erases the entries, inside the caller's transaction: the outbox rows that carry their name and
 * address, then the entries (their tokens go with them). Resolves with those that were there, with
 * their addresses for the ledger of erasures (server/audit/erasure-ledger.ts).
 */
export async function eraseEntries(
  tx: Db,
  ids: number[],
): Promise<{ id: number; email: string }[]> {
  if (ids.length === 0) return [];
  const entries = await tx
    .select({
      id: waitlistEntries.id,
      email: waitlistEntries.email,
      adminMails: waitlistEntries.adminMails,
    })
    .from(waitlistEntries)
    .where(inArray(waitlistEntries.id, ids))
    .for("update");
  if (entries.length === 0) return [];
  const confirmMails = await confirmTokensIssued(
    tx,
    entries.map((e) => e.id),
  );
  await tx.delete(outbox).where(
    inArray(
      outbox.key,
      entries.flatMap((e) => entryKeys(e.id, e.adminMails, confirmMails.get(e.id) ?? 0)),
    ),
  );
  // Broadcasts to the entries (decision 041): their recipient rows name the outbox rows, and go
  // with the entries by cascade.
  const idList = sql.join(
    entries.map((e) => sql`${e.id}`),
    sql`, `,
  );
  await tx.execute(sql`
    DELETE FROM outbox WHERE id IN (
      SELECT outbox_id FROM broadcast_recipients
      WHERE entry_id IN (${idList}) AND outbox_id IS NOT NULL)`);
  await tx.delete(waitlistEntries).where(
    inArray(
      waitlistEntries.id,
      entries.map((e) => e.id),
    ),
  );
  // Webhooks (decision 046): what is still held about the entries goes, and each endpoint that
  // asked hears of the erasure by the entry's number alone.
  await forgetWebhookMessages(
    tx,
    entries.map((e) => e.id),
  );
  await enqueueWebhookEvents(
    tx,
    entries.map((e) => ({ type: "entry.removed" as const, data: { id: e.id } })),
  );
  return entries.map(({ id, email }) => ({ id, email }));
}

/** Erases one entry; resolves with its address when it was there, else null. */
export async function eraseEntry(tx: Db, id: number): Promise<string | null> {
  return (await eraseEntries(tx, [id]))[0]?.email ?? null;
}

/**
 * How long an entry whose owner never confirmed it is kept (decisions 031, 036): as long as its
 * confirm link works, and no longer.
 */
const UNCONFIRMED_KEPT_DAYS = 14;

/**
 * Erases up to `limit` entries never confirmed (state `waiting`, no `confirmed_at`) that are
 * older than UNCONFIRMED_KEPT_DAYS, with no confirm link that still works and none mailed in
 * that time (a later mail keeps its entry; so does a link a restore ended, decision 035, which
 * leaves its owner the days to submit again), with their tokens and every outbox row that names them, in
 * one transaction. Entries made before double opt-in (migration 0006) are left: they were never
 * asked to confirm. Rows are taken `SKIP LOCKED`, so instances sweeping at once share the work.
 * Resolves with how many it erased; housekeeping (server/operations/housekeeping.ts) calls it every pass.
 */
export async function eraseUnconfirmedEntries(db: Db, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const stale = await queryRows<{ id: number }>(
      tx,
      sql`SELECT e.id::int AS id FROM waitlist_entries e
          WHERE e.state = 'waiting' AND e.confirmed_at IS NULL
            AND e.created_at < now() - make_interval(days => ${UNCONFIRMED_KEPT_DAYS})
            AND e.created_at >= (SELECT applied_at FROM schema_migrations WHERE name LIKE '0006%')
            AND NOT EXISTS (
              SELECT 1 FROM waitlist_tokens t
              WHERE t.entry_id = e.id AND t.purpose = 'confirm'
                AND ((t.used_at IS NULL AND t.expires_at > now())
                  OR t.created_at > now() - make_interval(days => ${UNCONFIRMED_KEPT_DAYS})))
          ORDER BY e.id LIMIT ${limit}
          FOR UPDATE OF e SKIP LOCKED`,
    );
    return (
      await eraseEntries(
        tx,
        stale.map((row) => row.id),
      )
    ).length;
  });
}
