import { inArray, sql } from "drizzle-orm";
import { waitlistEntries, type WaitlistRow } from "#db/schema.ts";
import type { Db } from "#db/client.ts";

/**
 * A submission to store: its row, and the referral code of the link the visit began on, if any
 * (decision 045). A new entry records the entry whose code it is; an unknown code records nothing.
 */
export type NewEntry = Omit<typeof waitlistEntries.$inferInsert, "referredBy" | "referralCode"> & {
  email: string;
  referral?: string | null;
};

/**
 * Writes what a batch of submissions causes (their outbox rows) in the transaction that stores
 * them: `batch` is every submission in it, new or repeat, `created` the rows it inserted. Resolves
 * with, for each submission in order, whether its mail is paused (its mailbox's allowance for the
 * day is spent, server/outbox/mailbox-quota.ts).
 */
export type OnWritten = (tx: Db, batch: NewEntry[], created: WaitlistRow[]) => Promise<boolean[]>;

/**
 * What became of one submission: a new row or not, whether its mail is paused, and the referral
 * code of the address's entry (new or already there), for the link it may share: null only when
 * the entry was erased between its write and the read of its code.
 */
export type Written = { created: boolean; paused: boolean; referralCode: string | null };

const nothingPaused: OnWritten = (_tx, batch) => Promise.resolve(batch.map(() => false));

const MAX_BATCH = 200;

/**
 * Group commit: submissions received in the same turn of the event loop, or while a commit is
 * under way, are written together: one multi-row INSERT, one transaction, one flush to disk. Each caller still
 * hears only after its own row is committed, so nothing is acknowledged early; under load, many
 * share the cost of a durable commit. Resolves true for a new address, false for one already there
 * (including a repeat within the same batch: the first one wins, as it would one at a time).
 * When a batch fails, its rows are retried one by one, so only a row that cannot be written fails.
 * `onWritten` runs inside each transaction, so an entry and what it causes commit together.
 */
export function createInsertBatcher(db: Db, onWritten: OnWritten = nothingPaused) {
  let queue: {
    entry: NewEntry;
    resolve: (written: Written) => void;
    reject: (error: unknown) => void;
  }[] = [];
  let writing = false;

  /**
   * One statement, one commit; the addresses it created, in lower case, who is paused, and the
   * referral code of each address's entry.
   */
  function insertRows(
    entries: NewEntry[],
  ): Promise<{ created: Set<string>; paused: boolean[]; codes: Map<string, string> }> {
    return db.transaction(async (tx) => {
      const rows = await tx
        .insert(waitlistEntries)
        .values(
          entries.map(({ referral, ...entry }) => ({
            ...entry,
            // Found in the same statement: a code no entry has (or one erased since) names nobody.
            referredBy: referral
              ? sql`(SELECT r.id FROM waitlist_entries r WHERE r.referral_code = ${referral})`
              : null,
          })),
        )
        .onConflictDoNothing()
        .returning();
      const paused = await onWritten(tx, entries, rows);
      const addresses = entries.map((entry) => entry.email.toLowerCase());
      const codes = new Map(
        (
          await tx
            .select({
              address: sql<string>`lower(${waitlistEntries.email})`,
              code: waitlistEntries.referralCode,
            })
            .from(waitlistEntries)
            .where(inArray(sql`lower(${waitlistEntries.email})`, addresses))
        ).map((row) => [row.address, row.code]),
      );
      return { created: new Set(rows.map((row) => row.email.toLowerCase())), paused, codes };
    });
  }

  async function drain() {
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(MAX_BATCH);
      try {
        const { created, paused, codes } = await insertRows(batch.map((item) => item.entry));
        batch.forEach((item, i) => {
          const address = item.entry.email.toLowerCase();
          item.resolve({
            created: created.delete(address),
            paused: paused[i] === true,
            referralCode: codes.get(address) ?? null,
          });
        });
      } catch (error) {
        if (batch.length === 1) {
          batch[0]?.reject(error);
          continue;
        }
        // One row that cannot be written must not cost the others their place: each on its own.
        for (const item of batch) {
          try {
            const { created, paused, codes } = await insertRows([item.entry]);
            item.resolve({
              created: created.size === 1,
              paused: paused[0] === true,
              referralCode: codes.get(item.entry.email.toLowerCase()) ?? null,
            });
          } catch (alone) {
            item.reject(alone);
          }
        }
      }
    }
    writing = false;
  }

  return function insert(entry: NewEntry): Promise<Written> {
    return new Promise((resolve, reject) => {
      queue.push({ entry, resolve, reject });
      // PGlite runs on this thread: writing at once would finish before the next request is even
      // read. Waiting for the end of this turn of the event loop lets every request already
      // received join the same statement and the same commit.
      if (!writing) {
        writing = true;
        setImmediate(() => void drain());
      }
    });
  };
}
