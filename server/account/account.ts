/**
 * The account page's server side (src/routes/account.tsx, decision 029): what is held about a
 * signed-in account, signing it out everywhere, and deleting it. Firebase holds the account;
 * this database holds its sessions and, under its email, perhaps a waitlist entry.
 */
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "#db/client.ts";
import { waitlistEntries } from "#db/schema.ts";
import {
  TokenRefused,
  type Accounts,
  type VerifiedToken,
} from "#server/identity/firebase-admin.ts";
import type { SessionStore } from "#server/identity/session-store.ts";
import { entryForExport, heldUnderAddress } from "#server/privacy/data-held.ts";
import { recordAudit } from "#server/audit/audit-log.ts";
import { eraseAccountRows } from "#server/privacy/erase.ts";
import type { ErasureLedger } from "#server/audit/erasure-ledger.ts";
import type { AccountDataExport, AccountPort } from "#src/lib/account.ts";

/** How recently the password must have been typed for a deletion to go ahead. */
const DELETION_PROOF_MAX_AGE_SECONDS = 5 * 60;

/**
 * Why a verified ID token does not prove that the signed-in person just typed the password of
 * this session's account, if it does not: another account's token, or a sign-in (auth_time) or a
 * token (iat) older than five minutes.
 */
export function deletionProofProblem(
  token: Pick<VerifiedToken, "uid" | "iat" | "auth_time">,
  sessionUid: string,
  nowSeconds: number,
): "proof-refused" | "proof-stale" | null {
  if (token.uid !== sessionUid) return "proof-refused";
  if (nowSeconds - token.auth_time > DELETION_PROOF_MAX_AGE_SECONDS) return "proof-stale";
  if (nowSeconds - token.iat > DELETION_PROOF_MAX_AGE_SECONDS) return "proof-stale";
  return null;
}

type AccountServiceDeps = {
  db: Db;
  accounts: Pick<Accounts, "details" | "revokeRefreshTokens" | "deleteAccount" | "verifyIdToken">;
  store: Pick<SessionStore, "listForAccount" | "revokeAll">;
  log: FastifyBaseLogger;
  ledger: ErasureLedger;
};

export function createAccountService({
  db,
  accounts,
  store,
  log,
  ledger,
}: AccountServiceDeps): AccountPort {
  return {
    async overview(uid) {
      const details = await accounts.details(uid);
      if (!details) return null;
      const { email, emailVerified, createdAt } = details;
      return { email, emailVerified, createdAt };
    },

    async exportData(uid): Promise<AccountDataExport | null> {
      const details = await accounts.details(uid);
      if (!details) return null;
      const rows = await store.listForAccount(uid);
      // An unverified address may be someone else's: what is held under it is not this person's.
      const held =
        details.emailVerified && details.email ? await heldUnderAddress(db, details.email) : null;
      // The entry this account joined through its invitation is its own, verified or not: the
      // invitation link proved the mailbox (decision 024).
      const [joined] = held?.waitlistEntry
        ? []
        : await db.select().from(waitlistEntries).where(eq(waitlistEntries.joinedUid, uid));
      return {
        exportedAt: new Date().toISOString(),
        account: details,
        sessions: rows.map((row) => ({
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
          endedAt: row.endedAt?.toISOString() ?? null,
          userAgent: row.userAgent,
        })),
        waitlistEntry: held?.waitlistEntry ?? (joined ? entryForExport(joined) : null),
        subprocessorSubscription: held?.subprocessorSubscription ?? null,
        privacyRequests: held?.privacyRequests ?? [],
        auditEntries: held?.auditEntries ?? [],
      };
    },

    async signOutEverywhere(uid) {
      // Firebase first: while its refresh tokens live, any browser of this account could exchange
      // a new ID token for a new session. If ending the sessions then fails, each one still ends
      // at its next account check (decision 011), since it began before the revocation.
      await accounts.revokeRefreshTokens(uid);
      await store.revokeAll(uid);
      log.info({ event: "account.signed_out_everywhere", uid }, "signed out everywhere");
    },

    async deleteAccount(uid, idToken, clientAddress) {
      let token: VerifiedToken;
      try {
        token = await accounts.verifyIdToken(idToken);
      } catch (error) {
        if (error instanceof TokenRefused) return { kind: "proof-refused" };
        log.error({ event: "account.delete_failed", err: error }, "deletion: Firebase unreachable");
        return { kind: "unavailable" };
      }
      const problem = deletionProofProblem(token, uid, Math.floor(Date.now() / 1000));
      if (problem) {
        log.warn({ event: "account.delete_refused", uid, problem }, "deletion refused");
        return { kind: problem };
      }
      // The account's sessions, its joined entry, and (verifyIdToken read the account from
      // Firebase just now) the entry under its verified address.
      const verified = token.email && token.email_verified ? token.email : null;
      try {
        // One transaction here, then Firebase: a failure between the two leaves an account that
        // still exists, signed out, without a waitlist entry; signing in again and deleting
        // again finishes the job. The other order could leave an entry nobody can reach.
        const erased = await db.transaction(async (tx) => {
          const erased = await eraseAccountRows(tx, uid, verified === null ? [] : [verified]);
          // On the admin's Activity page: by the member, naming the entries by number only.
          const entries = erased.entryIds.length > 0 ? erased.entryIds : [null];
          await recordAudit(
            tx,
            entries.map((entryId) => ({
              adminEmail: null,
              action: "account-delete",
              entryId,
              outcome: entryId === null ? "account deleted" : "account and entry deleted",
              clientAddress,
            })),
          );
          return erased;
        });
        // The rows are gone whatever Firebase answers next: the ledger says so now.
        // Every address of every entry it erased (the one it joined through may be under
        // another address than the account's, or one Firebase has not verified), and the
        // verified address: a restore finds each of them, whatever the backup said of the entry.
        ledger.record([
          {
            scope: "account",
            uid,
            addresses: [...erased.entries, ...(verified === null ? [] : [verified])],
          },
        ]);
        await accounts.deleteAccount(uid);
      } catch (error) {
        log.error({ event: "account.delete_failed", uid, err: error }, "account not deleted");
        return { kind: "unavailable" };
      }
      log.info({ event: "account.deleted", uid }, "account deleted");
      return { kind: "deleted" };
    },
  };
}
