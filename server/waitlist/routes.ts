import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Env } from "#server/env.ts";
import { loadedReactBuild } from "#server/react-build.ts";
import type { AdminGuard } from "#server/admin-guard.ts";
import { toCsv } from "#server/waitlist/csv.ts";
import type { WaitlistService } from "#server/waitlist/service.ts";
import { WAITLIST_SUCCESS } from "#src/features/waitlist/schema.ts";
import type { SubmitResult } from "#src/features/waitlist/types.ts";

export const UNAVAILABLE_MESSAGE =
  "The waitlist is unavailable for a moment. Please try again in a minute.";

/** The JSON answer for each outcome of a submission (the contract in PRODUCT.md). */
export function sendSubmitResult(reply: FastifyReply, result: SubmitResult) {
  reply.header("Cache-Control", "no-store");
  switch (result.kind) {
    case "created":
    case "ignored":
      return reply.status(201).send(WAITLIST_SUCCESS);
    case "exists":
      return reply.status(200).send(WAITLIST_SUCCESS);
    case "invalid":
      return reply.status(422).send({
        ok: false,
        message: "Please correct the highlighted fields.",
        errors: result.fieldErrors,
        formErrors: result.formErrors,
      });
    case "rate-limited":
      return reply
        .status(429)
        .header("Retry-After", String(result.retryAfterSeconds))
        .send({ ok: false, message: "Too many requests. Please wait a minute and try again." });
    case "unavailable":
      return reply
        .status(503)
        .header("Retry-After", "30")
        .send({ ok: false, message: UNAVAILABLE_MESSAGE });
  }
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
