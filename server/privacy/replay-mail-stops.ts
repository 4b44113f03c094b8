/**
 * Stopping mail again on a restored database (decision 042): each `mail.stopped` line logged since
 * the backup was taken (server/audit/mail-stop-ledger.ts) puts its suppression back, by the hash
 * the line names, so it holds for an address the backup never had too. An unsubscribe from a kind
 * of news also withdraws that consent again on every entry under the address, recorded as done by
 * the restore. What was given after the backup (a consent, a suppression lifted) is not given
 * again: a restore errs towards sending less.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";
import { mailStopKeyId, type MailStop } from "#server/audit/mail-stop-ledger.ts";
import { suppressionHashes, suppressionKeys } from "#server/mail/suppressions.ts";
import { setConsent } from "#server/waitlist/consent.ts";
import { REPLAY_MARGIN_MS } from "#server/privacy/replay-erasures.ts";

type DueStop = MailStop & { where?: string };

export type MailStopReport = {
  /** Stops in the logs from the backup's time (less the margin) on. */
  considered: number;
  /** ...of which this many were not on the restored list, and are again. */
  suppressed: number;
  /** Consents withdrawn again, one per entry and kind. */
  withdrawn: number;
};

const dueSince = (stops: readonly DueStop[], since: Date) => {
  const from = since.getTime() - REPLAY_MARGIN_MS;
  return stops.filter((s) => s.time >= from).sort((a, b) => a.time - b.time);
};

/**
 * The keys the due stops were hashed with that `erasureKeys` (ERASURE_KEY, from which the list's
 * keys are derived) lacks, each with the first line that names it.
 */
export function missingMailStopKeys(
  stops: readonly DueStop[],
  since: Date,
  erasureKeys: readonly string[],
): { key: string; where: string }[] {
  const known = new Set(suppressionKeys(erasureKeys).map(mailStopKeyId));
  const missing = new Map<string, string>();
  for (const stop of dueSince(stops, since))
    if (!known.has(stop.key) && !missing.has(stop.key))
      missing.set(stop.key, stop.where ?? "the log");
  return [...missing].map(([key, where]) => ({ key, where }));
}

/**
 * Puts back, inside the caller's transaction, the stops logged at or after `since` less the
 * margin, oldest first. Check the keys first with `missingMailStopKeys`: a line under a key not
 * given is an error here, before anything is written.
 */
export async function replayMailStops(
  tx: Db,
  stops: readonly DueStop[],
  since: Date,
  erasureKeys: readonly string[],
): Promise<MailStopReport> {
  const due = dueSince(stops, since);
  const report: MailStopReport = { considered: due.length, suppressed: 0, withdrawn: 0 };
  if (due.length === 0) return report;
  const missing = missingMailStopKeys(due, since, erasureKeys);
  if (missing.length > 0)
    throw new Error(`a stop of mail is hashed with key ${missing[0]!.key}, which was not given`);

  // Every entry by each hash of its address: what a line names, under whichever key wrote it.
  const keys = suppressionKeys(erasureKeys);
  const entries = await queryRows<{ id: number; email: string }>(
    tx,
    sql`SELECT id, email FROM waitlist_entries`,
  );
  const byHash = new Map<string, { id: number; email: string }[]>();
  for (const entry of entries)
    for (const hash of suppressionHashes(keys, entry.email))
      byHash.set(hash, [...(byHash.get(hash) ?? []), { id: Number(entry.id), email: entry.email }]);

  for (const stop of due) {
    const held = byHash.get(stop.subject) ?? [];
    // Already on the list under any of the address's hashes (or the line's own): nothing to add.
    const hashes = held.length > 0 ? suppressionHashes(keys, held[0]!.email) : [stop.subject];
    const added = await queryRows<{ scope: string }>(
      tx,
      sql`
      INSERT INTO mail_suppressions (address_hash, scope, address, reason, detail)
      SELECT ${stop.subject}, ${stop.scope}, ${held[0]?.email.trim().toLowerCase() ?? null},
        ${stop.reason}, ${`stopped again by a restore (first stopped ${new Date(stop.time).toISOString()})`}
      WHERE NOT EXISTS (
        SELECT 1 FROM mail_suppressions
        WHERE address_hash IN (${sql.join(
          [...new Set([stop.subject, ...hashes])].map((h) => sql`${h}`),
          sql`, `,
        )}) AND scope = ${stop.scope})
      ON CONFLICT (address_hash, scope) DO NOTHING
      RETURNING scope`,
    );
    report.suppressed += added.length;
    if (stop.reason !== "unsubscribe" || stop.scope === "all") continue;
    for (const entry of held)
      if (
        await setConsent(tx, {
          entryId: entry.id,
          kind: stop.scope,
          given: false,
          place: "restore",
        })
      )
        report.withdrawn++;
  }
  return report;
}
