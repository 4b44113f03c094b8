import { waitlistEntries, type WaitlistRow } from "#db/schema.ts";
import type { Db } from "#db/client.ts";

export type NewEntry = typeof waitlistEntries.$inferInsert & { email: string };

/** Writes what new entries cause (their outbox rows) in the transaction that creates them. */
export type OnCreated = (tx: Db, created: WaitlistRow[]) => Promise<void>;

const MAX_BATCH = 200;

/**
 * Group commit: submissions received in the same turn of the event loop, or while a commit is
 * under way, are written together: one multi-row INSERT, one transaction, one flush to disk. Each caller still
 * hears only after its own row is committed, so nothing is acknowledged early; under load, many
 * share the cost of a durable commit. Resolves true for a new address, false for one already there
 * (including a repeat within the same batch: the first one wins, as it would one at a time).
 * When a batch fails, its rows are retried one by one, so only a row that cannot be written fails.
 * `onCreated` runs inside each transaction, so an entry and what it causes commit together.
 */
export function createInsertBatcher(db: Db, onCreated: OnCreated = () => Promise.resolve()) {
  let queue: {
    entry: NewEntry;
    resolve: (created: boolean) => void;
    reject: (error: unknown) => void;
  }[] = [];
  let writing = false;

  /** One statement, one commit; the addresses it created, in lower case. */
  function insertRows(entries: NewEntry[]): Promise<Set<string>> {
    return db.transaction(async (tx) => {
      const rows = await tx
        .insert(waitlistEntries)
        .values(entries)
        .onConflictDoNothing()
        .returning();
      if (rows.length > 0) await onCreated(tx, rows);
      return new Set(rows.map((row) => row.email.toLowerCase()));
    });
  }

  async function drain() {
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(MAX_BATCH);
      try {
        const inserted = await insertRows(batch.map((item) => item.entry));
        for (const item of batch) item.resolve(inserted.delete(item.entry.email.toLowerCase()));
      } catch (error) {
        if (batch.length === 1) {
          batch[0]?.reject(error);
          continue;
        }
        // One row that cannot be written must not cost the others their place: each on its own.
        for (const item of batch) {
          try {
            item.resolve((await insertRows([item.entry])).size === 1);
          } catch (alone) {
            item.reject(alone);
          }
        }
      }
    }
    writing = false;
  }

  return function insert(entry: NewEntry): Promise<boolean> {
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
