import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Env } from "#server/env.ts";
import { loadedReactBuild } from "#server/react-build.ts";
import type { AdminGuard } from "#server/admin-guard.ts";
import { toCsv } from "#server/waitlist/csv.ts";
import type { WaitlistService } from "#server/waitlist/service.ts";
import { UNAVAILABLE_MESSAGE, waitlistReply } from "#src/features/waitlist/reply.ts";
import type { SubmitResult } from "#src/features/waitlist/types.ts";

/** A submission's answer as JSON: the same status, headers and body the page's action renders. */
function sendSubmitResult(reply: FastifyReply, result: SubmitResult) {
  const { status, headers, body } = waitlistReply(result);
  return reply.status(status).headers(headers).send(body);
}

export function clientKey(req: FastifyRequest): string {
  return `waitlist:${req.ip}`;
}

export function registerWaitlistRoutes(
  app: FastifyInstance,
  deps: {
    env: Env;
    waitlist: WaitlistService;
    ping: () => Promise<void>;
    requireAdmin: AdminGuard["requireAdmin"];
  },
) {
  const { waitlist } = deps;

  app.get("/api/health", async (_req, reply) => {
    reply.header("Cache-Control", "no-store");
    try {
      await deps.ping();
      return reply.send({ ok: true, database: "ok", react: loadedReactBuild() });
    } catch {
      return reply
        .status(503)
        .send({ ok: false, database: "unavailable", react: loadedReactBuild() });
    }
  });

  app.post("/api/waitlist", async (req, reply) =>
    sendSubmitResult(
      reply,
      await waitlist.submit(req.body, { clientKey: clientKey(req), requestId: req.id }),
    ),
  );

  // Who may export is decided by the one admin guard, before this handler runs.
  app.get("/api/admin/waitlist.csv", { preHandler: deps.requireAdmin }, async (_req, reply) => {
    let rows;
    try {
      rows = await waitlist.allForExport();
    } catch {
      return reply.status(503).send({ ok: false, message: UNAVAILABLE_MESSAGE });
    }
    const csv = toCsv(
      [
        "Joined (UTC)",
        "Name",
        "Email",
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
      ],
      rows.map((r) => [
        r.createdAt.toISOString().replace("T", " ").slice(0, 19),
        r.name,
        r.email,
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
