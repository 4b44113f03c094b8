/**
 * What comes back to the bounce address, turned into what the suppression list needs (decision
 * 041). A report is read (report.ts), matched to the mail it is about (the VERP token of its
 * envelope or of the address it came to, else the Message-ID it quotes), and recorded as a hard or
 * soft bounce or a complaint against that mail's recipient: suppressions.ts suppresses where the
 * event calls for it. Every message is kept in bounce_reports by the hash of its bytes, so one
 * read twice (the IMAP reader hands a message over again after a crash) counts once; one that could
 * not be read, or that names no mail of ours, keeps its text for an administrator, never dropped.
 */
import { createHash, createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { queryRows, type Db } from "#db/client.ts";
import { messageOfVerp } from "#server/mail/bounces/verp.ts";
import { readReport, type Report } from "#server/mail/bounces/report.ts";
import type { Suppressions } from "#server/mail/suppressions.ts";

/** The VERP key, derived from the site's kept secret. */
export function verpKey(secret: string): string {
  return createHmac("sha256", secret).update("tieout verp key").digest("hex");
}

/** The text of an unreadable report kept for an administrator: enough to read, bounded. */
const KEPT_RAW_CHARS = 64 * 1024;

export type BounceInbox = {
  handle: (raw: Buffer, via: "imap" | "smtp", envelopeTo?: readonly string[]) => Promise<void>;
};

export function createBounceInbox(deps: {
  db: Db;
  suppressions: Pick<Suppressions, "record">;
  bounceAddress: string;
  verpKey: string;
  log: FastifyBaseLogger;
}): BounceInbox {
  const { db, log } = deps;

  /** The outbox row a report is about, and its recipient, when it names one of ours. */
  async function mailOf(report: Report, envelopeTo: readonly string[]) {
    let id: number | null = null;
    for (const address of [...envelopeTo, ...report.addressedTo]) {
      id = messageOfVerp(address, deps.bounceAddress, deps.verpKey);
      if (id !== null) break;
    }
    const quoted = report.kind === "unparsed" ? undefined : report.originalMessageId;
    const [row] = await queryRows<{ id: number; to: string | null }>(
      db,
      id !== null
        ? sql`SELECT id, payload -> 'to' -> 0 ->> 'address' AS "to" FROM outbox
              WHERE id = ${id} AND channel = 'email'`
        : quoted
          ? sql`SELECT id, payload -> 'to' -> 0 ->> 'address' AS "to" FROM outbox
                WHERE channel = 'email' AND message_id = ${`<${quoted.replace(/^<|>$/g, "")}>`}`
          : sql`SELECT NULL::bigint AS id, NULL AS "to" WHERE FALSE`,
    );
    return row?.to ? { id: Number(row.id), to: row.to } : null;
  }

  return {
    async handle(raw, via, envelopeTo = []) {
      const rawHash = createHash("sha256").update(raw).digest("hex");
      const [seen] = await queryRows<{ id: number }>(
        db,
        sql`SELECT id FROM bounce_reports WHERE raw_hash = ${rawHash}`,
      );
      if (seen) return;
      const report = await readReport(raw);
      const mail = report.kind === "unparsed" ? null : await mailOf(report, envelopeTo);
      const keep = (outcome: "unparsed" | "unmatched", detail: string) =>
        db.execute(sql`
          INSERT INTO bounce_reports (raw_hash, via, outcome, kind, detail, raw)
          VALUES (${rawHash}, ${via}, ${outcome}, ${report.kind}, ${detail.slice(0, 1000)},
            ${raw.toString("utf8").slice(0, KEPT_RAW_CHARS)})
          ON CONFLICT (raw_hash) DO NOTHING`);
      if (report.kind === "unparsed") {
        await keep("unparsed", report.reason);
        log.warn(
          { event: "bounces.unparsed", via, reason: report.reason },
          "bounce report kept unread",
        );
        return;
      }
      if (!mail) {
        await keep(
          "unmatched",
          "It names no mail this site sent (no VERP token or Message-ID of ours).",
        );
        log.warn(
          { event: "bounces.unmatched", via, kind: report.kind },
          "bounce report names no mail of ours",
        );
        return;
      }
      const kind =
        report.kind === "complaint"
          ? "complaint"
          : report.permanent
            ? "hard-bounce"
            : "soft-bounce";
      const detail =
        report.kind === "complaint"
          ? `feedback: ${report.feedbackType}`
          : report.recipients
              .map((r) => [r.status, r.diagnostic].filter(Boolean).join(" "))
              .join("; ");
      await db.transaction(async (tx) => {
        const [inserted] = await queryRows<{ id: number }>(
          tx,
          sql`
          INSERT INTO bounce_reports (raw_hash, via, outcome, kind, outbox_id, detail)
          VALUES (${rawHash}, ${via}, 'recorded', ${kind}, ${mail.id}, ${detail.slice(0, 1000)})
          ON CONFLICT (raw_hash) DO NOTHING RETURNING id`,
        );
        // Read at the same moment by two instances: the first records it.
        if (!inserted) return;
        await deps.suppressions.record(tx, {
          outboxId: mail.id,
          address: mail.to,
          kind,
          detail,
        });
      });
      log.info(
        { event: "bounces.recorded", via, kind, outboxId: mail.id },
        "bounce report recorded",
      );
    },
  };
}
