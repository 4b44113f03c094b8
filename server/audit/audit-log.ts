/**
 * The admin audit log (decision 024): one row per entry an admin acted on, one per export, and
 * one per step of a privacy request (decision 030), written in the transaction of the action itself, so an action and its record commit together or
 * not at all. The table is append-only in the database (db/migrations/0008: triggers refuse
 * UPDATE, DELETE and TRUNCATE), so no code of the site can change a row once written. Rows name
 * the entry by id, never by its name or address, and outlive its erasure.
 */
import { desc, lt } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { adminAuditLog } from "#db/schema.ts";
import type { ActivityPort, AuditAction } from "#src/lib/activity.ts";

export type AuditRecord = {
  /** Null for a privacy requester's own steps and for what the site did by itself. */
  adminEmail: string | null;
  action: AuditAction;
  entryId: number | null;
  /** The privacy request, by number (decision 030). */
  requestId?: number | null;
  /** The broadcast, by number (decision 041). */
  broadcastId?: number | null;
  outcome: string;
  /** The client's address, or AUTOMATIC for what the site did by itself. */
  clientAddress: string;
};

export { AUTOMATIC } from "#src/lib/activity.ts";

/** Appends rows, inside the caller's transaction (pass the transaction, not the database). */
export async function recordAudit(tx: Db, rows: AuditRecord[]): Promise<void> {
  if (rows.length > 0) await tx.insert(adminAuditLog).values(rows);
}

/** An export of the waitlist: who, from where, and what it held ("1234 rows"). */
export type ExportRecord = Pick<AuditRecord, "outcome" | "clientAddress"> & { adminEmail: string };

/** Records an export on its own (an export changes nothing else to commit with). */
export function recordExport(db: Db, record: ExportRecord): Promise<void> {
  return recordAudit(db, [{ ...record, action: "export", entryId: null }]);
}

export function createActivity(db: Db): ActivityPort {
  return {
    async page({ before, limit }) {
      const rows = await db
        .select()
        .from(adminAuditLog)
        .where(before === null ? undefined : lt(adminAuditLog.id, before))
        .orderBy(desc(adminAuditLog.id))
        .limit(limit + 1);
      const shown = rows.slice(0, limit);
      return {
        rows: shown.map((row) => ({ ...row, at: row.at.toISOString() })),
        older: rows.length > limit ? (shown.at(-1)?.id ?? null) : null,
      };
    },
  };
}
