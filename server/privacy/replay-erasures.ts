/**
 * Carrying erasures out again on a restored database (decisions 032, 035): each `erasure` line
 * logged since the backup was taken erases again what it erased then, through the same code
 * (server/privacy/erase.ts, server/waitlist/erasure.ts, server/subprocessors/subscriptions.ts). A
 * line names every address of every row it erased, so an erasure that finds nothing found rows
 * the backup never held; one that cannot be matched in full (a line of an older version naming no
 * address) is reported by where it was read, never counted as nothing.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";
import { waitlistEntries } from "#db/schema.ts";
import { AUTOMATIC, recordAudit, type AuditRecord } from "#server/audit/audit-log.ts";
import { eraseAccountRows, eraseEverythingUnder } from "#server/privacy/erase.ts";
import {
  erasureKeyId,
  erasureSubject,
  legacySubject,
  type TimedErasure,
} from "#server/audit/erasure-ledger.ts";
import { eraseSubscriberOf } from "#server/subprocessors/subscriptions.ts";
import { eraseEntries } from "#server/waitlist/erasure.ts";

/**
 * Erasures logged this long before the backup's time are carried out again too: the backup's
 * clock and the site's may differ, and one already in the backup changes nothing.
 */
export const REPLAY_MARGIN_MS = 5 * 60_000;

/** An erasure to carry out again, with where it was read (`file:line`) when it came from a log. */
type DueErasure = TimedErasure & { where?: string };

export type ReplayReport = {
  /** Erasures in the logs from the backup's time (less the margin) on. */
  considered: number;
  /** ...of which this many found something to erase. */
  effective: number;
  /**
   * ...this many found nothing under the addresses they name: rows made after the backup, or
   * erased by an earlier line. Every line names every address it erased, so this is not a miss.
   */
  notHeld: number;
  /**
   * Erasures that cannot be matched in full: an account's erasure written before lines named
   * every address, naming none. An entry it erased under another address may be back.
   */
  unmatched: { where: string; uid: string }[];
  entries: number;
  subscriptions: number;
  sessions: number;
  /** Other privacy requests of an erased address, deleted or closed. */
  requests: number;
};

/** The erasures to carry out again: those logged from `since` less the margin, oldest first. */
function dueSince<T extends TimedErasure>(erasures: readonly T[], since: Date): T[] {
  const from = since.getTime() - REPLAY_MARGIN_MS;
  return erasures.filter((e) => e.time >= from).sort((a, b) => a.time - b.time);
}

/**
 * The keys the due erasures were hashed with that `keys` lacks, each with the first line that
 * names it: without its key, an erasure matches nothing and what it erased would come back.
 */
export function missingErasureKeys(
  erasures: readonly DueErasure[],
  since: Date,
  keys: readonly string[],
): { key: string; where: string }[] {
  const known = new Set(keys.map(erasureKeyId));
  const missing = new Map<string, string>();
  for (const erasure of dueSince(erasures, since))
    if (erasure.key !== null && !known.has(erasure.key) && !missing.has(erasure.key))
      missing.set(erasure.key, erasure.where ?? "the log");
  return [...missing].map(([key, where]) => ({ key, where }));
}

export class ErasureKeyMissing extends Error {
  override name = "ErasureKeyMissing";
}

/**
 * Every address the database holds, by the hash an erasure line names it by with the key of that
 * id (null: the unkeyed hash of older lines). The hashes ignore case, and every erase matches
 * case, so one spelling per hash is enough.
 */
async function heldAddresses(
  tx: Db,
  keys: readonly string[],
): Promise<(keyId: string | null) => Map<string, string>> {
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
  const byId = new Map(keys.map((key) => [erasureKeyId(key), key]));
  const maps = new Map<string | null, Map<string, string>>();
  return (keyId) => {
    let map = maps.get(keyId);
    if (!map) {
      const key = keyId === null ? null : byId.get(keyId);
      if (key === undefined) throw new ErasureKeyMissing(`no key with id ${keyId}`);
      const hash = key === null ? legacySubject : (email: string) => erasureSubject(key, email);
      map = new Map(rows.map(({ email }) => [hash(email), email]));
      maps.set(keyId, map);
    }
    return map;
  };
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
 * `since - REPLAY_MARGIN_MS`, oldest first, matching their hashes with `keys` (ERASURE_KEY).
 * Resolves with what they found; an erasure hashed with a key not in `keys` is an
 * ErasureKeyMissing before anything is erased (check first with `missingErasureKeys`).
 */
export async function replayErasures(
  tx: Db,
  erasures: readonly DueErasure[],
  since: Date,
  keys: readonly string[],
): Promise<ReplayReport> {
  const due = dueSince(erasures, since);
  const report: ReplayReport = {
    considered: due.length,
    effective: 0,
    notHeld: 0,
    unmatched: [],
    entries: 0,
    subscriptions: 0,
    sessions: 0,
    requests: 0,
  };
  if (due.length === 0) return report;
  const missing = missingErasureKeys(due, since, keys);
  if (missing.length > 0)
    throw new ErasureKeyMissing(
      `the erasure at ${missing[0]!.where} was hashed with key ${missing[0]!.key}, which ERASURE_KEY does not hold`,
    );
  const held = await heldAddresses(tx, keys);
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
    const known = held(erasure.key);
    const addresses = [...new Set(erasure.subjects.flatMap((s) => known.get(s) ?? []))];
    let found = false;
    /** The entries this erasure took, by number, for the Activity page. */
    let entryIds: number[] = [];
    switch (erasure.scope) {
      case "everything":
        for (const address of addresses) {
          entryIds.push(...(await entriesUnder(tx, address)).map((e) => e.id));
          await eraseEverythingUnder(tx, address, {
            uid: null,
            requestId: null,
            answeredBy: "answered by a deletion carried out again after a restore",
          });
          // Held somewhere, even if only in a mail: the address was read from the database.
          found = true;
        }
        break;
      case "waitlist entry": {
        const ids: number[] = [];
        for (const address of addresses)
          ids.push(...(await entriesUnder(tx, address)).map((e) => e.id));
        entryIds = (await eraseEntries(tx, ids)).map((e) => e.id);
        found = entryIds.length > 0;
        break;
      }
      case "subscription":
        for (const address of addresses) if (await eraseSubscriberOf(tx, address)) found = true;
        break;
      case "account": {
        const erased = await eraseAccountRows(tx, erasure.uid, addresses);
        entryIds = erased.entryIds;
        found = erased.sessions > 0 || erased.entries.length > 0;
        // A line of an older version without an address: an entry it erased through an
        // invitation joined after the backup has no uid in the backup to be found by.
        if (erasure.key === null && erasure.subjects.length === 0)
          report.unmatched.push({ where: erasure.where ?? "the log", uid: erasure.uid });
        break;
      }
    }
    if (!found) {
      if (!(erasure.scope === "account" && erasure.key === null && erasure.subjects.length === 0))
        report.notHeld++;
      continue;
    }
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
