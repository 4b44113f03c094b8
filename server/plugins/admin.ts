/**
 * The admin's API: the waitlist as CSV. Every route here runs behind one guard, added once for the
 * whole plugin, so a new route cannot forget it: an export token (for scripts), or the admin guard
 * (server/identity/admin-guard.ts) and a step-up in the last 15 minutes (decision 039). A Firebase
 * ID token is no longer enough. Every export is written to the audit log before a byte of it is
 * sent (decision 024).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { QUESTIONS } from "#src/content/qualifying-questions.ts";
import { chosenLabels, readStoredAnswers } from "#src/features/waitlist/answers.ts";
import type { AdminGuard } from "#server/identity/admin-guard.ts";
import { adminLevel } from "#server/identity/admin-level.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import type { ExportRecord } from "#server/audit/audit-log.ts";
import { toCsv } from "#server/waitlist/csv.ts";
import type { WaitlistService } from "#server/waitlist/service.ts";
import { UNAVAILABLE_MESSAGE } from "#src/features/waitlist/reply.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The export was asked with an export token, not a session (for the audit log). */
    exportTokenUsed: boolean;
  }
}

export type AdminOptions = {
  waitlist: WaitlistService;
  requireAdmin: AdminGuard["requireAdmin"];
  /** The administrator a live export token belongs to (its use noted), or null. */
  useExportToken: (token: string, from: string) => Promise<{ adminEmail: string } | null>;
  recordExport: (record: ExportRecord) => Promise<void>;
};

/** An export token as `Authorization: Bearer <token>`; null for any other header. */
function bearer(header: string | undefined): string | null {
  return header ? (/^Bearer (\S{1,200})$/.exec(header)?.[1] ?? null) : null;
}

/** A browser following a link (not a script): sent to the passkey rather than told in JSON. */
const isNavigation = (req: FastifyRequest) =>
  req.headers["sec-fetch-mode"] === "navigate" || (req.headers.accept ?? "").includes("text/html");

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
  // Referrals (decision 045): whose link brought the entry, and how many entries its own brought.
  "Referred by",
  "Referrals",
  "Forwarded",
  // The qualifying answers (decision 043), a column per question, choices joined by "; ".
  ...QUESTIONS.map((q) => q.short),
];

export default async function admin(
  app: FastifyInstance,
  { waitlist, requireAdmin, useExportToken, recordExport }: AdminOptions,
) {
  app.decorateRequest("adminEmail", null);
  app.decorateRequest("adminSession", null);
  app.decorateRequest("exportTokenUsed", false);

  // Before every handler of this plugin: who may use it is decided here and only here.
  app.addHook("preHandler", async (req: FastifyRequest, reply: FastifyReply) => {
    reply.header("Cache-Control", "no-store");
    if (req.headers.authorization !== undefined) {
      const token = bearer(req.headers.authorization);
      let owner: { adminEmail: string } | null = null;
      try {
        owner = token ? await useExportToken(token, req.ip) : null;
      } catch {
        reply.header("Retry-After", "30");
        return reply.status(503).send({ ok: false, message: UNAVAILABLE_MESSAGE });
      }
      if (!owner) {
        req.log.warn({ event: "admin.token_refused" }, "export refused: not a live export token");
        return reply.status(401).send({
          ok: false,
          message:
            "The token is not a live export token. Make one on the admin's Waitlist page; Firebase ID tokens are not accepted.",
          missing: "export-token",
        });
      }
      req.adminEmail = owner.adminEmail;
      req.exportTokenUsed = true;
      return;
    }
    await requireAdmin(req, reply);
    if (reply.sent) return reply;
    if (!req.adminSession) return;
    const level = adminLevel(req.adminSession.admin, new Date());
    if (level.kind === "verified" && level.stepUpUntil) return;
    req.log.warn(
      { event: "admin.step_up_required", email: maskEmail(req.adminEmail) },
      "export refused: no passkey in the last 15 minutes",
    );
    if (isNavigation(req))
      return reply.redirect("/admin/verify?next=%2Fadmin%2Fwaitlist&confirm=export", 303);
    return reply.status(401).send({
      ok: false,
      message: "Confirm it's you: use your passkey again to download the export.",
      missing: "step-up",
    });
  });

  // GET alone: a HEAD would be recorded as an export in the audit log without sending a row.
  app.get("/api/admin/waitlist.csv", { exposeHeadRoute: false }, async (req, reply) => {
    let rows;
    try {
      rows = await waitlist.allForExport();
      // No export leaves without its record: if the log cannot be written, nothing is sent.
      await recordExport({
        adminEmail: req.adminEmail ?? "unknown",
        outcome: `${rows.length} ${rows.length === 1 ? "row" : "rows"}${req.exportTokenUsed ? " (export token)" : ""}`,
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
        r.referredByEmail,
        r.referrals,
        r.forwardStatus,
        ...QUESTIONS.map((q) => chosenLabels(readStoredAnswers(r.answers), q.id).join("; ")),
      ]),
    );
    const date = new Date().toISOString().slice(0, 10);
    return reply
      .type("text/csv; charset=utf-8")
      .header("Content-Disposition", `attachment; filename="tieout-waitlist-${date}.csv"`)
      .send(csv);
  });
}
