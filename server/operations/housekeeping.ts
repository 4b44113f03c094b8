/**
 * What nobody needs once its time is past, deleted on a timer rather than on traffic: rate-limit
 * windows (which hold client addresses, or a mailbox's hash) ten minutes after they close,
 * sessions (email, browser, times) a day after they expire, and waitlist entries and sub-processor
 * subscriptions never confirmed, 14 days on, once no link to confirm them works (decision 036),
 * and of administrators' access (decision 039): ceremonies' challenges once expired, failed
 * verifications a day on (the lock counts 15 minutes), export tokens 90 days after they ended;
 * and the bytes of a sheet uploaded for an import and never imported, a day on.
 * A quiet site keeps no more than a busy one. Every instance runs it; the deletes are idempotent,
 * and rows are taken `SKIP LOCKED`, so two at once only share or repeat each other's work.
 */
import type { FastifyBaseLogger } from "fastify";
import { sql } from "drizzle-orm";
import { deletedCount, type Db } from "#db/client.ts";
import { runEvery } from "#server/background/periodic.ts";
import { eraseUnconfirmedSubscribers } from "#server/subprocessors/subscriptions.ts";
import { eraseUnconfirmedEntries } from "#server/waitlist/erasure.ts";
import { DAILY_KEY_PREFIX } from "#server/http/rate-limit.ts";

const EVERY_MS = 10 * 60 * 1000;
/**
 * At most this many unconfirmed entries, and as many subscriptions, go in one pass (one
 * transaction each): a backlog is worked off pass by pass without one long lock.
 */
const UNCONFIRMED_PER_PASS = 500;

/** One pass: how many rows of each kind it deleted. */
export async function sweepExpired(
  db: Db,
  limit = UNCONFIRMED_PER_PASS,
): Promise<{
  rateLimitWindows: number;
  sessions: number;
  unconfirmedEntries: number;
  unconfirmedSubscribers: number;
  adminChallenges: number;
  adminFailures: number;
  exportTokens: number;
  bounceReports: number;
  stagedImports: number;
}> {
  return {
    rateLimitWindows: await deletedCount(
      db,
      sql`DELETE FROM rate_limit_windows
          WHERE window_start < now() - CASE WHEN starts_with(key, ${DAILY_KEY_PREFIX})
                THEN interval '1 day 10 minutes' ELSE interval '10 minutes' END`,
    ),
    sessions: await deletedCount(
      db,
      sql`DELETE FROM sessions WHERE expires_at < now() - interval '1 day'`,
    ),
    unconfirmedEntries: await eraseUnconfirmedEntries(db, limit),
    unconfirmedSubscribers: await eraseUnconfirmedSubscribers(db, limit),
    adminChallenges: await deletedCount(
      db,
      sql`DELETE FROM admin_challenges WHERE expires_at < now()`,
    ),
    adminFailures: await deletedCount(
      db,
      sql`DELETE FROM admin_verification_failures WHERE at < now() - interval '1 day'`,
    ),
    exportTokens: await deletedCount(
      db,
      sql`DELETE FROM admin_export_tokens
          WHERE COALESCE(revoked_at, expires_at) < now() - interval '90 days'`,
    ),
    // What came back to the bounce address is kept for 30 days (decision 041): its events and
    // suppressions stay, the reports and the text of those nobody could read go.
    bounceReports: await deletedCount(
      db,
      sql`DELETE FROM bounce_reports WHERE received_at < now() - interval '30 days'`,
    ),
    // An uploaded sheet never imported holds names and addresses, and why one was refused can
    // quote a cell: after a day, neither is kept. An import made keeps its row (without the bytes,
    // which go as it is made): entries name it as the evidence of their consent.
    stagedImports: await deletedCount(
      db,
      sql`DELETE FROM waitlist_imports
          WHERE imported_at IS NULL AND uploaded_at < now() - interval '1 day'`,
    ),
  };
}

export function startHousekeeping({ db, log }: { db: Db; log: FastifyBaseLogger }) {
  const { stop } = runEvery({
    everyMs: EVERY_MS,
    first: "now",
    work: async () => {
      const deleted = await sweepExpired(db);
      log.debug({ event: "housekeeping.swept", ...deleted }, "expired rows deleted");
    },
    onError: (error) =>
      log.warn({ err: error, event: "housekeeping.failed" }, "expired rows not deleted"),
  });
  return { stop };
}
