/**
 * The outbox keys that name a waitlist entry, and erasing an entry with everything that carries
 * its name and address (decision 023): its outbox rows, then the entry; its tokens go by cascade.
 * The owner's removal link and the admin's Remove both erase through here. The admin audit log
 * names the entry by id only and is kept (decision 024).
 */
import { inArray } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { outbox, waitlistEntries } from "#db/schema.ts";

/** The entry's post to the collector: one per entry, whatever is retried. */
export const forwardKey = (id: number) => `waitlist-forward:${id}`;
/** The Slack notice that the entry was confirmed: one per entry. */
export const slackKey = (id: number) => `waitlist-slack:${id}`;
/** The confirmation mail of a new entry: one per entry. */
export const confirmMailKey = (id: number) => `waitlist-confirm-mail:${id}`;
/**
 * The n-th mail an admin's action wrote to the entry (an invitation, a resend, a decline): the
 * entry's `admin_mails` counts them, so each action is its own cause with its own key.
 */
export const adminMailKey = (id: number, n: number) => `waitlist-admin-mail:${id}:${n}`;

/** Every outbox key that can name this entry. */
function entryKeys(id: number, adminMails: number): string[] {
  const keys = [forwardKey(id), slackKey(id), confirmMailKey(id)];
  for (let n = 1; n <= adminMails; n++) keys.push(adminMailKey(id, n));
  return keys;
}

/**
 * Erases the entries, inside the caller's transaction: the outbox rows that carry their name and
 * address, then the entries (their tokens go with them). Resolves with those that were there, with
 * their addresses for the ledger of erasures (server/privacy/erasure-ledger.ts).
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
  await tx.delete(outbox).where(
    inArray(
      outbox.key,
      entries.flatMap((e) => entryKeys(e.id, e.adminMails)),
    ),
  );
  await tx.delete(waitlistEntries).where(
    inArray(
      waitlistEntries.id,
      entries.map((e) => e.id),
    ),
  );
  return entries.map(({ id, email }) => ({ id, email }));
}

/** Erases one entry; resolves with its address when it was there, else null. */
export async function eraseEntry(tx: Db, id: number): Promise<string | null> {
  return (await eraseEntries(tx, [id]))[0]?.email ?? null;
}
