/**
 * What a restore ends before the restored database is final (PRODUCT.md rule 21, decision 035): a
 * backup is a time machine, and whatever ended after it was taken must stay ended. The database
 * cannot tell which of its sessions were signed out or which links were spent since, so a restore
 * ends every one that grants something, and keeps only the links that take away:
 *
 * - every session: everyone signs in again (a copied cookie signed out after the backup is dead);
 * - waitlist confirmation and invitation links, sub-processor subscription confirmations, and the
 *   links of privacy requests not yet confirmed: each may have been used, declined or replaced
 *   after the backup. An entry keeps its state: an administrator resends an invitation, a person
 *   who submits the form again is sent a new confirmation. A mail the backup held unsent still
 *   goes, and its link says plainly that it no longer works;
 * - removal and unsubscribe links keep working: they only ever erase, and every mail sent
 *   carries one;
 * - administrators' credentials (decision 039): a passkey removed, a recovery code spent or an
 *   export token revoked after the backup would come back, so every passkey, recovery code,
 *   ceremony in progress and export token ends. Each administrator sets up a new passkey as the
 *   first time, with their password and a code mailed to them; scripts are given new tokens;
 * - broadcasts being sent or scheduled (decision 042): the backup cannot tell who got one after it
 *   was taken, so each is paused with the reason, for an administrator to resume or cancel, and
 *   its mails the backup held unsent (most likely sent just after it) are withheld, as failed.
 */
import { sql } from "drizzle-orm";
import { deletedCount, type Db } from "#db/client.ts";

export type EndedByRestore = {
  sessions: number;
  confirmations: number;
  invitations: number;
  subscriptions: number;
  privacyRequests: number;
  passkeys: number;
  recoveryCodes: number;
  exportTokens: number;
  broadcasts: number;
  broadcastMails: number;
};

/** What a broadcast paused by a restore says on its page. */
export function pausedByRestore(takenAt: Date): string {
  const taken = takenAt.toISOString().replace(/\.\d{3}Z$/, "Z");
  return `Paused by a restore from a backup taken ${taken}. Mail sent after that is not known here: its mails then unsent were withheld (they show as failed), and resuming sends to everyone the backup shows as waiting, some of whom may have had it since. Resume, or cancel.`;
}

/** Ends, inside the restore's transaction, every session and link that grants something. */
export async function endWhatTheBackupHeldOpen(tx: Db, takenAt: Date): Promise<EndedByRestore> {
  // Challenges and mailed codes were bound to sessions that end below; nothing may answer them.
  await tx.execute(sql`DELETE FROM admin_challenges`);
  // deletedCount counts the rows any data-changing statement returns, updates as well.
  const count = (statement: ReturnType<typeof sql>) => deletedCount(tx, statement);
  const waitlistLinks = (purpose: "confirm" | "invite") =>
    count(sql`UPDATE waitlist_tokens SET expires_at = now()
              WHERE purpose = ${purpose} AND used_at IS NULL AND expires_at > now()`);
  return {
    sessions: await count(
      sql`UPDATE sessions SET revoked_at = now() WHERE revoked_at IS NULL AND expires_at > now()`,
    ),
    confirmations: await waitlistLinks("confirm"),
    invitations: await waitlistLinks("invite"),
    subscriptions: await count(
      sql`UPDATE subprocessor_tokens SET expires_at = now()
          WHERE purpose = 'confirm' AND used_at IS NULL AND expires_at > now()`,
    ),
    // The privacy sweep then closes them as never confirmed, as it does any expired link.
    privacyRequests: await count(
      sql`UPDATE privacy_requests SET token_expires_at = now()
          WHERE state = 'unconfirmed' AND token_expires_at > now()`,
    ),
    passkeys: await count(sql`DELETE FROM admin_passkeys`),
    recoveryCodes: await count(sql`DELETE FROM admin_recovery_codes WHERE used_at IS NULL`),
    exportTokens: await count(
      sql`UPDATE admin_export_tokens SET revoked_at = now()
          WHERE revoked_at IS NULL AND expires_at > now()`,
    ),
    // Dated at the backup, the last time they were known unsent: not failures of the relay now,
    // which would pause the broadcast again as soon as it is resumed.
    broadcastMails: await count(
      sql`UPDATE outbox SET status = 'failed', failed_at = ${takenAt},
            last_error = 'Withheld by a restore: it may have been sent after the backup was taken'
          WHERE status = 'pending' AND id IN (
            SELECT outbox_id FROM broadcast_recipients WHERE outbox_id IS NOT NULL)`,
    ),
    broadcasts: await count(
      sql`UPDATE broadcasts SET status = 'paused', paused_reason = ${pausedByRestore(takenAt)},
            updated_at = now()
          WHERE status IN ('sending', 'scheduled')`,
    ),
  };
}
