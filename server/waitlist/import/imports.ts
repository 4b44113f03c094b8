/**
 * Imports (issue 37, part 5): an administrator's sheet, staged, previewed, then imported whole or
 * not at all. Staging keeps the file (at most a day) so the import reads exactly what was
 * previewed; the import plans it again inside its transaction, against the list and the
 * suppression list as they are then, and writes nothing when the outcome differs from the preview
 * the administrator saw. Entries keep their sign-up dates. By the consent basis stated:
 * "confirmed" entries come confirmed, with the statement and the file's name as their evidence (the
 * import row, and a consent event each); "unconfirmed" ones come waiting, each mailed a
 * confirmation link as a form's entry would be. Every entry made is an `entry.created` webhook
 * event, and the import is one Activity row.
 */
import { randomBytes } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";
import { consentEvents, waitlistEntries, type WaitlistRow } from "#db/schema.ts";
import { recordAudit } from "#server/audit/audit-log.ts";
import type { Env } from "#server/env.ts";
import type { Suppressions } from "#server/mail/suppressions.ts";
import { enqueue, type OutboxMessage } from "#server/outbox/outbox.ts";
import {
  guessMapping,
  planImport,
  type Plan,
  type RowOutcome,
} from "#server/waitlist/import/plan.ts";
import type {
  ConsentBasis,
  ImportDone,
  ImportOutcome,
  ImportsPort,
  Mapping,
  OutcomeCounts,
  PreviewRow,
} from "#src/lib/imports.ts";
import { readSheet, type Sheet } from "#server/waitlist/import/sheet.ts";
import { confirmationMail } from "#server/waitlist/service.ts";
import { storeTokens, type TokenRow } from "#server/waitlist/tokens.ts";
import { enqueueWebhookEvents, entryData } from "#server/webhooks/events.ts";

type Actor = { adminEmail: string; clientAddress: string };

/** Rows inserted per statement: well under PostgreSQL's limit of parameters. */
const CHUNK = 500;

/** `items` in runs of CHUNK, for one statement each. */
function* chunks<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += CHUNK) yield items.slice(i, i + CHUNK);
}

/** An upload's id: 32 random hexadecimal characters, as the table's check says. */
const IMPORT_ID = /^[0-9a-f]{32}$/;
const newImportId = () => randomBytes(16).toString("hex");

/** Rows a preview lists; the counts cover them all. */
const PREVIEW_ROWS = 500;

/** A file's name as kept: trimmed, at most 255 characters, never empty. */
const fileNameOf = (name: string) => name.trim().slice(0, 255) || "upload.csv";

/** Imports the upload page lists under "Earlier imports". */
const RECENT = 20;

const DETAIL: Record<RowOutcome["kind"], (r: RowOutcome) => string> = {
  new: () => "Added to the list",
  exists: () => "On the list already: its entry is left as it is",
  duplicate: (r) => (r.kind === "duplicate" ? `Merged into row ${r.of}, the same address` : ""),
  suppressed: () => "It bounced, complained or was stopped: not imported",
  invalid: (r) => (r.kind === "invalid" ? `Not imported: ${r.reason}` : ""),
};

const previewRow = (r: RowOutcome): PreviewRow => ({
  row: r.row,
  email: r.kind === "new" ? r.entry.email : r.email,
  kind: r.kind,
  detail: DETAIL[r.kind](r),
});

export function createImports({
  db,
  env,
  suppressions,
  onEnqueued,
}: {
  db: Db;
  env: Env;
  suppressions: Pick<Suppressions, "byAddress">;
  onEnqueued: () => void;
}) {
  /** The file's addresses (lower case) on the list, and on the suppression list. */
  async function known(tx: Db, sheet: Sheet, mapping: Mapping) {
    const column = mapping.email;
    const addresses = [
      ...new Set(
        column === undefined
          ? []
          : sheet.rows
              .map(({ cells }) => (cells[column] ?? "").trim().toLowerCase())
              .filter(Boolean),
      ),
    ];
    const existing = new Set<string>();
    for (const part of chunks(addresses)) {
      const rows = await queryRows<{ address: string }>(
        tx,
        sql`SELECT lower(email) AS address FROM waitlist_entries
            WHERE lower(email) IN (${sql.join(
              part.map((a) => sql`${a}`),
              sql`, `,
            )})`,
      );
      for (const row of rows) existing.add(row.address);
    }
    const suppressed = new Set((await suppressions.byAddress(addresses, tx)).keys());
    return { existing, suppressed };
  }

  async function staged(tx: Db, id: string): Promise<{ fileName: string; sheet: Sheet } | null> {
    if (!IMPORT_ID.test(id)) return null;
    const [row] = await queryRows<{ file_name: string; content: Buffer | Uint8Array }>(
      tx,
      sql`SELECT file_name, content FROM waitlist_imports
          WHERE id = ${id} AND imported_at IS NULL AND content IS NOT NULL
            AND uploaded_at > now() - interval '1 day'
          FOR UPDATE`,
    );
    if (!row) return null;
    const read = readSheet(new Uint8Array(row.content));
    return read.ok ? { fileName: row.file_name, sheet: read.sheet } : null;
  }

  /**
   * Records why an upload was refused, and returns the id the upload page reads it by: the
   * reason can quote a cell, so it never travels in an address (housekeeping clears it after a
   * day).
   */
  async function refuse(fileName: string, message: string, actor: Actor): Promise<string> {
    const id = newImportId();
    await db.execute(sql`
      INSERT INTO waitlist_imports (id, file_name, refusal, uploaded_by)
      VALUES (${id}, ${fileNameOf(fileName)}, ${message.slice(0, 1000)}, ${actor.adminEmail})`);
    return id;
  }

  async function made(where: SQL, limit: number): Promise<ImportDone[]> {
    const rows = await queryRows<{
      id: string;
      file_name: string;
      basis: ConsentBasis;
      statement: string | null;
      imported_at: Date | string;
      imported_by: string;
      counts: OutcomeCounts;
    }>(
      db,
      sql`SELECT id, file_name, basis, statement, imported_at, imported_by, counts
          FROM waitlist_imports WHERE imported_at IS NOT NULL AND ${where}
          ORDER BY imported_at DESC, id LIMIT ${limit}`,
    );
    return rows.map((r) => ({
      id: r.id,
      fileName: r.file_name,
      basis: r.basis,
      statement: r.statement,
      importedAt: new Date(r.imported_at).toISOString(),
      importedBy: r.imported_by,
      counts: r.counts,
    }));
  }

  return {
    /** An import made from this upload; null when it is not imported, or there is no such upload. */
    async done(id: string): Promise<ImportDone | null> {
      if (!IMPORT_ID.test(id)) return null;
      const [found] = await made(sql`id = ${id}`, 1);
      return found ?? null;
    },

    /** The latest imports, newest first. */
    recent: (): Promise<ImportDone[]> => made(sql`true`, RECENT),

    refuse,

    /** Why this administrator's upload was refused, within the day; null otherwise. */
    async refusal(id: string, adminEmail: string): Promise<string | null> {
      if (!IMPORT_ID.test(id)) return null;
      const [row] = await queryRows<{ refusal: string }>(
        db,
        sql`SELECT refusal FROM waitlist_imports
            WHERE id = ${id} AND refusal IS NOT NULL AND uploaded_by = ${adminEmail}
              AND uploaded_at > now() - interval '1 day'`,
      );
      return row?.refusal ?? null;
    },

    /**
     * Reads and keeps an uploaded file; its id names it for the preview and the import. A file
     * refused is recorded as refused, and its id names the reason.
     */
    async stage(
      file: { name: string; bytes: Uint8Array },
      actor: Actor,
    ): Promise<
      { ok: true; id: string; sheet: Sheet } | { ok: false; id: string; message: string }
    > {
      const name = fileNameOf(file.name);
      const read = readSheet(file.bytes);
      if (!read.ok) return { ...read, id: await refuse(name, read.message, actor) };
      const id = newImportId();
      await db.execute(sql`
        INSERT INTO waitlist_imports (id, file_name, content, uploaded_by)
        VALUES (${id}, ${name}, ${Buffer.from(file.bytes)}, ${actor.adminEmail})`);
      return { ok: true, id, sheet: read.sheet };
    },

    /**
     * What importing the staged file with this mapping (the headers' own when null) would do now;
     * null when it is gone.
     */
    async preview(id: string, asked: Mapping | null) {
      return db.transaction(async (tx) => {
        const found = await staged(tx, id);
        if (!found) return null;
        const mapping = asked ?? guessMapping(found.sheet.headers);
        const plan = planImport(found.sheet, mapping, {
          ...(await known(tx, found.sheet, mapping)),
          now: new Date(),
        });
        return { fileName: found.fileName, headers: found.sheet.headers, mapping, plan };
      });
    },

    /**
     * Imports the staged file: all of it, in one transaction, or nothing. `expected` is the
     * preview's counts; when the list changed since (an address joined meanwhile), nothing is
     * written and the message says to preview again.
     */
    async run(
      id: string,
      mapping: Mapping,
      basis: ConsentBasis,
      statement: string,
      expected: Plan["counts"],
      actor: Actor,
    ): Promise<ImportOutcome> {
      const said = statement.replace(/\s+/g, " ").trim();
      if (basis === "confirmed" && said === "")
        return {
          ok: false,
          message:
            "Say how these people confirmed with you before (for example, the double opt-in of the form service the sheet comes from): it is kept as the evidence of their consent.",
        };
      if (said.length > 1000)
        return { ok: false, message: "The statement must be at most 1,000 characters." };
      const result = await db.transaction(
        async (tx): Promise<ImportOutcome & { mails?: number }> => {
          const found = await staged(tx, id);
          if (!found)
            return {
              ok: false,
              message:
                "This upload is no longer there (imported already, or older than a day): upload the file again.",
            };
          const plan = planImport(found.sheet, mapping, {
            ...(await known(tx, found.sheet, mapping)),
            now: new Date(),
          });
          const same = (Object.keys(expected) as (keyof Plan["counts"])[]).every(
            (k) => expected[k] === plan.counts[k],
          );
          if (!same)
            return {
              ok: false,
              message:
                "The list changed since the preview (someone joined, or was suppressed): nothing was imported. Look at the preview again, then import.",
            };
          const fresh = plan.rows.flatMap((r) => (r.kind === "new" ? [r.entry] : []));
          const created: WaitlistRow[] = [];
          for (const part of chunks(fresh)) {
            const rows = await tx
              .insert(waitlistEntries)
              .values(
                part.map((entry) => ({
                  name: entry.name,
                  email: entry.email,
                  company: entry.company,
                  message: entry.message,
                  importId: id,
                  ...(entry.createdAt ? { createdAt: entry.createdAt } : {}),
                  ...(basis === "confirmed"
                    ? { state: "confirmed" as const, confirmedAt: sql`now()` }
                    : {}),
                })),
              )
              .returning();
            created.push(...rows);
          }
          // Checked against the preview's count: an address that arrived meanwhile would fail the
          // unique index above and roll everything back, so this holds, but it is said, not assumed.
          if (created.length !== fresh.length)
            throw new Error("an import wrote fewer entries than planned");
          const tokens: TokenRow[] = [];
          const messages: OutboxMessage[] =
            basis === "unconfirmed"
              ? created.map((row) => confirmationMail(row, env, tokens, 1))
              : [];
          if (basis === "confirmed")
            for (const part of chunks(created))
              await tx.insert(consentEvents).values(
                part.map((row) => ({
                  entryId: row.id,
                  kind: "waitlist-news" as const,
                  given: true,
                  place: "import" as const,
                })),
              );
          for (const part of chunks(tokens)) await storeTokens(tx, part);
          const mails = await enqueue(tx, messages);
          const hooks = await enqueueWebhookEvents(
            tx,
            created.map((row) => ({ type: "entry.created" as const, data: entryData(row) })),
          );
          const c = plan.counts;
          const outcome = `${found.fileName}: ${c.new} new (${basis === "confirmed" ? "confirmed before" : "mailed to confirm"}), ${c.exists} already there, ${c.duplicate} merged, ${c.suppressed} suppressed, ${c.invalid} invalid`;
          await tx.execute(sql`
          UPDATE waitlist_imports SET content = NULL, imported_at = now(),
            imported_by = ${actor.adminEmail}, basis = ${basis}, statement = ${said || null},
            outcome = ${outcome}, counts = ${JSON.stringify(c)}::jsonb
          WHERE id = ${id}`);
          await recordAudit(tx, [
            { ...actor, action: "import", entryId: null, outcome: outcome.slice(0, 500) },
          ]);
          return { ok: true, counts: c, created: created.length, mails: mails + hooks };
        },
      );
      if (result.ok && (result.mails ?? 0) > 0) onEnqueued();
      if (!result.ok) return result;
      return { ok: true, counts: result.counts, created: result.created };
    },
  };
}

export type Imports = ReturnType<typeof createImports>;

/** What the admin pages ask of imports. */
export function importsPort(imports: Imports): ImportsPort {
  return {
    async preview(id, mapping) {
      const found = await imports.preview(id, mapping);
      if (!found) return null;
      return {
        id,
        fileName: found.fileName,
        headers: found.headers,
        mapping: found.mapping,
        counts: found.plan.counts,
        rows: found.plan.rows.slice(0, PREVIEW_ROWS).map(previewRow),
        total: found.plan.rows.length,
      };
    },
    run: (...args) => imports.run(...args),
    done: (id) => imports.done(id),
    refusal: (id, adminEmail) => imports.refusal(id, adminEmail),
    recent: () => imports.recent(),
  };
}
