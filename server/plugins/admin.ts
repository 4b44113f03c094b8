/**
 * The admin's API: the waitlist as CSV. Every route here runs behind the one admin guard
 * (server/identity/admin-guard.ts), added once for the whole plugin, so a new route cannot forget it. Every
 * export is written to the audit log before a byte of it is sent (decision 024).
 */
import type { FastifyInstance } from "fastify";
import type { AdminGuard } from "#server/identity/admin-guard.ts";
import type { ExportRecord } from "#server/audit/audit-log.ts";
import { toCsv } from "#server/waitlist/csv.ts";
import type { WaitlistService } from "#server/waitlist/service.ts";
import { UNAVAILABLE_MESSAGE } from "#src/features/waitlist/reply.ts";

export type AdminOptions = {
  waitlist: WaitlistService;
  requireAdmin: AdminGuard["requireAdmin"];
  recordExport: (record: ExportRecord) => Promise<void>;
};

const CSV_COLUMNS = [
  "Added (UTC)",
  "Name",
  "Email",
  "State",
  "Company",
  "Use case",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "Referrer",
  "Landing page",
  "Forwarded",
];

export default async function admin(
  app: FastifyInstance,
  { waitlist, requireAdmin, recordExport }: AdminOptions,
) {
  app.decorateRequest("adminEmail", null);
  // Before every handler of this plugin: who may use it is decided here and only here.
  app.addHook("preHandler", requireAdmin);

  // GET alone: a HEAD would be recorded as an export in the audit log without sending a row.
  app.get("/api/admin/waitlist.csv", { exposeHeadRoute: false }, async (req, reply) => {
    let rows;
    try {
      rows = await waitlist.allForExport();
      // No export leaves without its record: if the log cannot be written, nothing is sent.
      await recordExport({
        adminEmail: req.adminEmail ?? "unknown",
        outcome: `${rows.length} ${rows.length === 1 ? "row" : "rows"}`,
        clientAddress: req.ip,
      });
    } catch {
      return reply.status(503).send({ ok: false, message: UNAVAILABLE_MESSAGE });
    }
    const csv = toCsv(
      CSV_COLUMNS,
      rows.map((r) => [
        r.createdAt.toISOString().replace("T", " ").slice(0, 19),
        r.name,
        r.email,
        r.state,
        r.company,
        r.message,
        r.utmSource,
        r.utmMedium,
        r.utmCampaign,
        r.utmTerm,
        r.utmContent,
        r.referrer,
        r.landingPath,
        r.forwardStatus,
      ]),
    );
    const date = new Date().toISOString().slice(0, 10);
    return reply
      .type("text/csv; charset=utf-8")
      .header("Content-Disposition", `attachment; filename="tieout-waitlist-${date}.csv"`)
      .send(csv);
  });
}
