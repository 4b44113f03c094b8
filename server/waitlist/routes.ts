import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Env } from "#server/env.ts";
import { maskEmail } from "#server/log-safety.ts";
import { loadedReactBuild } from "#server/react-build.ts";
import { isCrossSite } from "#server/request-guards.ts";
import { AccountsUnavailable, type TokenVerifier } from "#server/firebase-admin.ts";
import type { Sessions } from "#server/session.ts";
import { toCsv } from "#server/waitlist/csv.ts";
import type { WaitlistService } from "#server/waitlist/service.ts";
import { WAITLIST_SUCCESS } from "#src/features/waitlist/schema.ts";
import type { AdminAccess, SubmitResult } from "#src/features/waitlist/types.ts";

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

/** Firebase could not say whether the account may act: a 503 to retry, never a 401. */
function accountsUnavailable(req: FastifyRequest, reply: FastifyReply) {
  req.log.error(
    { event: "admin.accounts_unreachable" },
    "admin export failed: Firebase unreachable",
  );
  return reply
    .status(503)
    .header("Retry-After", "30")
    .send({ ok: false, message: "Sign-in checks are unavailable for a moment. Please try again." });
}

export function clientKey(req: FastifyRequest): string {
  return `waitlist:${req.ip}`;
}

export type AdminUser = { email: string | null; emailVerified: boolean };

export function adminAccessFor(user: AdminUser | null, env: Env): AdminAccess {
  if (!user) return "signed-out";
  const email = user.email?.toLowerCase();
  if (!user.emailVerified || !email || !env.adminEmails.includes(email)) return "forbidden";
  return "ok";
}

export function registerWaitlistRoutes(
  app: FastifyInstance,
  deps: {
    env: Env;
    waitlist: WaitlistService;
    ping: () => Promise<void>;
    sessions: Sessions;
    verifyIdToken: TokenVerifier;
  },
) {
  const { env, waitlist } = deps;
  const siteOrigin = new URL(env.siteUrl).origin;

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

  app.get("/api/admin/waitlist.csv", async (req, reply) => {
    reply.header("Cache-Control", "no-store");
    let user: AdminUser | null = null;
    const header = req.headers.authorization;
    if (header) {
      const token = /^Bearer (\S{20,4096})$/.exec(header)?.[1];
      try {
        if (!token) throw new Error("malformed");
        const decoded = await deps.verifyIdToken(token);
        user = { email: decoded.email ?? null, emailVerified: decoded.email_verified === true };
      } catch (error) {
        if (error instanceof AccountsUnavailable) return accountsUnavailable(req, reply);
        req.log.warn(
          { event: "admin.token_refused" },
          "admin export refused: the token did not verify",
        );
        return reply.status(401).send({ ok: false, message: "The token is not valid." });
      }
    } else {
      // The cookie rides along on a link from any site (SameSite=Lax): trust it only from ours.
      if (isCrossSite(req, siteOrigin)) {
        req.log.warn({ event: "admin.cross_site_refused" }, "admin export refused: cross-site");
        return reply
          .status(403)
          .send({ ok: false, message: "Open the export from the waitlist admin page." });
      }
      // Every export asks Firebase now: a disabled or deleted administrator exports nothing.
      try {
        user = await deps.sessions.userFrom(req, { fresh: true });
      } catch (error) {
        if (error instanceof AccountsUnavailable) return accountsUnavailable(req, reply);
        throw error;
      }
    }
    const access = adminAccessFor(user, env);
    if (access === "signed-out") {
      req.log.warn({ event: "admin.signed_out" }, "admin export refused: not signed in");
      return reply.status(401).send({ ok: false, message: "Sign in as an administrator." });
    }
    if (access === "forbidden") {
      req.log.warn(
        { event: "admin.forbidden", email: maskEmail(user?.email) },
        "admin export refused: not an administrator",
      );
      return reply
        .status(403)
        .send({ ok: false, message: "This account may not export the waitlist." });
    }

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
