/**
 * What erasing an address or an account takes from the database, in one place: a confirmed
 * privacy deletion request (server/privacy/requests.ts), a member's own account deletion
 * (server/account/account.ts), and their replay after a restore (server/privacy/replay-erasures.ts) all
 * erase through here, inside the caller's transaction.
 */
import { enqueueWebhookEvents } from "#server/webhooks/events.ts";
import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { outbox, privacyRequests, sessions, waitlistEntries } from "#db/schema.ts";
import { AUTOMATIC, recordAudit } from "#server/audit/audit-log.ts";
import { forgetMailbox } from "#server/outbox/mailbox-quota.ts";
import { deleteMailTo } from "#server/outbox/outbox.ts";
import { eraseSubscriberOf } from "#server/subprocessors/subscriptions.ts";
import { eraseEntries } from "#server/waitlist/erasure.ts";

export const confirmMailKey = (id: number) => `privacy-confirm-mail:${id}`;
export const accessMailKey = (id: number) => `privacy-access-mail:${id}`;
export const correctedMailKey = (id: number) => `privacy-corrected-mail:${id}`;

/**
 * Marks an open privacy request completed with `outcome`, clears what it held about the person,
 * and records it, inside the caller's transaction. False when it was no longer open.
 */
export async function closeRequest(
  tx: Db,
  id: number,
  outcome: string,
  by: { adminEmail: string | null; clientAddress: string },
): Promise<boolean> {
  const [closed] = await tx
    .update(privacyRequests)
    .set({
      state: "completed",
      completedAt: sql`now()`,
      outcome,
      email: null,
      name: null,
      details: null,
      tokenHash: null,
    })
    .where(and(eq(privacyRequests.id, id), eq(privacyRequests.state, "open")))
    .returning({ id: privacyRequests.id, kind: privacyRequests.kind });
  if (!closed) return false;
  // The request's number, kind and outcome: nothing of the person it was about (decision 046).
  await enqueueWebhookEvents(tx, [
    {
      type: "privacy_request.completed",
      data: { id: closed.id, kind: closed.kind, outcome, completed_at: new Date().toISOString() },
    },
  ]);
  await recordAudit(tx, [
    {
      adminEmail: by.adminEmail,
      action: "privacy-complete",
      entryId: null,
      requestId: id,
      outcome,
      clientAddress: by.clientAddress,
    },
  ]);
  return true;
}

/**
 * Erases everything held under `email` but its Firebase account: the sessions (of `uid` too, when
 * the account was found), the waitlist entry, the subscription, the other privacy requests of the
 * address (those not confirmed go, the others are closed as `answeredBy`), and every mail that
 * carries the address, then forgets the mailbox's count of confirmation mails. `requestId` is the
 * deletion request being carried out, if any: its own mails go, its row stays for the caller to
 * close. Resolves with what was there, in words for the request's outcome.
 */
export async function eraseEverythingUnder(
  tx: Db,
  email: string,
  options: { uid: string | null; requestId: number | null; answeredBy: string },
): Promise<string[]> {
  const erased: string[] = [];
  const ended = await tx
    .delete(sessions)
    .where(
      or(
        options.uid ? eq(sessions.uid, options.uid) : sql`false`,
        sql`lower(${sessions.email}) = lower(${email})`,
      ),
    )
    .returning({ id: sessions.id });
  if (ended.length > 0) erased.push("sessions");
  const entries = await tx
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .where(sql`lower(${waitlistEntries.email}) = lower(${email})`);
  const entryIds = entries.map((e) => e.id);
  if ((await eraseEntries(tx, entryIds)).length > 0) erased.push("waitlist entry");
  if (await eraseSubscriberOf(tx, email)) erased.push("subscription");
  const others = await tx
    .select({ id: privacyRequests.id, state: privacyRequests.state })
    .from(privacyRequests)
    .where(
      and(
        sql`lower(${privacyRequests.email}) = lower(${email})`,
        options.requestId === null ? sql`true` : ne(privacyRequests.id, options.requestId),
      ),
    );
  for (const other of others) {
    if (other.state === "unconfirmed")
      await tx.delete(privacyRequests).where(eq(privacyRequests.id, other.id));
    else
      await closeRequest(tx, other.id, options.answeredBy, {
        adminEmail: null,
        clientAddress: AUTOMATIC,
      });
  }
  const ids = [
    ...(options.requestId === null ? [] : [options.requestId]),
    ...others.map((r) => r.id),
  ];
  if (ids.length > 0)
    await tx.delete(outbox).where(
      inArray(
        outbox.key,
        ids.flatMap((id) => [confirmMailKey(id), accessMailKey(id), correctedMailKey(id)]),
      ),
    );
  // And every other mail to the address, whatever caused it: requests completed earlier (their
  // rows no longer name the address) may have left a copy of the data waiting to be sent.
  await deleteMailTo(tx, email);
  await forgetMailbox(tx, email);
  // Suppressed, it stays so, by its hash alone (decision 041).
  await tx.execute(
    sql`UPDATE mail_suppressions SET address = NULL WHERE address = lower(btrim(${email}))`,
  );
  return erased;
}

/**
 * Erases an account's rows: its sessions (they hold its email and browsers), the entry it joined
 * through its invitation, and the entries under `addresses` (its verified address; in a replay,
 * every address its erasure named). Resolves with how many sessions ended and the entries erased,
 * by id and address.
 */
export async function eraseAccountRows(
  tx: Db,
  uid: string,
  addresses: readonly string[],
): Promise<{ sessions: number; entryIds: number[]; entries: string[] }> {
  const ended = await tx
    .delete(sessions)
    .where(eq(sessions.uid, uid))
    .returning({ id: sessions.id });
  const owned = [eq(waitlistEntries.joinedUid, uid)];
  for (const address of addresses)
    owned.push(sql`lower(${waitlistEntries.email}) = lower(${address})`);
  const entries = await tx
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .where(or(...owned));
  const ids = entries.map((e) => e.id);
  const erased = await eraseEntries(tx, ids);
  return {
    sessions: ended.length,
    entryIds: erased.map((e) => e.id),
    entries: erased.map((e) => e.email),
  };
}
