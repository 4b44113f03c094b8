/**
 * Carrying erasures out again on a restored database (decision 032): each `erasure` line logged
 * since the backup was taken erases again what it erased then, through the same code
 * (server/privacy/erase.ts, server/waitlist/erasure.ts, server/subprocessors/subscriptions.ts).
 * An erasure that finds nothing changes nothing, so one already in the backup is harmless.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";
import { waitlistEntries } from "#db/schema.ts";
import { AUTOMATIC, recordAudit, type AuditRecord } from "#server/audit/audit-log.ts";
import { eraseAccountRows, eraseEverythingUnder } from "#server/privacy/erase.ts";
import { erasureSubject, type TimedErasure } from "#server/privacy/erasure-ledger.ts";
import { eraseSubscriberOf } from "#server/subprocessors/subscriptions.ts";
import { eraseEntries } from "#server/waitlist/erasure.ts";

/**
 * Erasures logged this long before the backup's time are carried out again too: the backup's
 * clock and the site's may differ, and one already in the backup changes nothing.
 */
export const REPLAY_MARGIN_MS = 5 * 60_000;

export type ReplayReport = {
  /** Erasures in the logs from the backup's time (less the margin) on. */
  considered: number;
  /** ...of which this many found something to erase. */
  effective: number;
  entries: number;
  subscriptions: number;
  sessions: number;
  /** Other privacy requests of an erased address, deleted or closed. */
  requests: number;
};

/**
 * Every address the database holds, by the hash an erasure line names it by. The hash is of the
 * address in lower case, and every erase matches case, so one spelling per hash is enough.
 */
async function addressesBySubject(tx: Db): Promise<Map<string, string>> {
  const rows = await queryRows<{ email: string }>(
    tx,
    sql`SELECT email FROM waitlist_entries
        UNION SELECT email FROM subprocessor_subscribers
        UNION SELECT email FROM privacy_requests WHERE email IS NOT NULL
        UNION SELECT email FROM sessions WHERE email IS NOT NULL
        UNION SELECT recipient ->> 'address' FROM outbox,
          jsonb_array_elements(CASE WHEN jsonb_typeof(payload -> 'to') = 'array'
                                    THEN payload -> 'to' ELSE '[]'::jsonb END) AS recipient
          WHERE channel = 'email' AND recipient ->> 'address' IS NOT NULL`,
  );
  return new Map(rows.map(({ email }) => [erasureSubject(email), email]));
}

/** The waitlist entries under an address (any case). */
function entriesUnder(tx: Db, address: string) {
  return tx
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .where(sql`lower(${waitlistEntries.email}) = lower(${address})`);
}

async function count(tx: Db, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(tx, query);
  return Number(row?.n ?? 0);
}

/**
 * Carries out again, inside the caller's transaction, the erasures logged at or after
 * `since - REPLAY_MARGIN_MS`, oldest first. Resolves with what they found.
 */
export async function replayErasures(
  tx: Db,
  erasures: readonly TimedErasure[],
  since: Date,
): Promise<ReplayReport> {
  const from = since.getTime() - REPLAY_MARGIN_MS;
  const due = erasures.filter((e) => e.time >= from).sort((a, b) => a.time - b.time);
  const report: ReplayReport = {
    considered: due.length,
    effective: 0,
    entries: 0,
    subscriptions: 0,
    sessions: 0,
    requests: 0,
  };
  if (due.length === 0) return report;
  const held = await addressesBySubject(tx);
  const counts = async () => ({
    entries: await count(tx, sql`SELECT count(*)::int AS n FROM waitlist_entries`),
    subscriptions: await count(tx, sql`SELECT count(*)::int AS n FROM subprocessor_subscribers`),
    sessions: await count(tx, sql`SELECT count(*)::int AS n FROM sessions`),
    requests: await count(
      tx,
      sql`SELECT count(*)::int AS n FROM privacy_requests WHERE state <> 'completed'`,
    ),
  });
  const start = await counts();
  const audit: AuditRecord[] = [];
  for (const erasure of due) {
    const address = erasure.subject === null ? undefined : held.get(erasure.subject);
    let found = false;
    /** The entries this erasure took, by number, for the Activity page. */
    let entryIds: number[] = [];
    switch (erasure.scope) {
      case "everything":
        if (address === undefined) break;
        entryIds = (await entriesUnder(tx, address)).map((e) => e.id);
        await eraseEverythingUnder(tx, address, {
          uid: null,
          requestId: null,
          answeredBy: "answered by a deletion carried out again after a restore",
        });
        // Held somewhere, even if only in a mail: the address was read from the database.
        found = true;
        break;
      case "waitlist entry": {
        if (address === undefined) break;
        const ids = (await entriesUnder(tx, address)).map((e) => e.id);
        entryIds = (await eraseEntries(tx, ids)).map((e) => e.id);
        found = entryIds.length > 0;
        break;
      }
      case "subscription":
        if (address !== undefined) found = await eraseSubscriberOf(tx, address);
        break;
      case "account": {
        const erased = await eraseAccountRows(tx, erasure.uid, address ?? null);
        entryIds = erased.entryIds;
        found = erased.sessions > 0 || erased.entries.length > 0;
        break;
      }
    }
    if (!found) continue;
    report.effective++;
    // On the admin's Activity page, by the site: what the restore erased again, never the address.
    const outcome = `${erasure.scope} erased again (erased ${new Date(erasure.time).toISOString().replace(/\.\d{3}Z$/, "Z")}, after the backup)`;
    for (const entryId of entryIds.length > 0 ? entryIds : [null])
      audit.push({
        adminEmail: null,
        action: "erasure-replay",
        entryId,
        outcome,
        clientAddress: AUTOMATIC,
      });
  }
  await recordAudit(tx, audit);
  const end = await counts();
  report.entries = start.entries - end.entries;
  report.subscriptions = start.subscriptions - end.subscriptions;
  report.sessions = start.sessions - end.sessions;
  report.requests = start.requests - end.requests;
  return report;
}
