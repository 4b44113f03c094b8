/**
 * Who may use the admin: one guard for every admin route, loader and action (decisions 011, 013).
 * Access is decided from Firebase's account record at the time of the request, never from what
 * a cookie or an earlier check said, so a new admin route cannot be more lenient than the others.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Env } from "#server/env.ts";
import { AccountsUnavailable, type TokenVerifier } from "#server/firebase-admin.ts";
import { maskEmail } from "#server/log-safety.ts";
import { isCrossSite } from "#server/request-guards.ts";
import type { Sessions } from "#server/session.ts";
import type { AdminAccess } from "#src/lib/guards.ts";

export type AdminUser = { email: string | null; emailVerified: boolean };

function adminAccessFor(user: AdminUser | null, env: Env): AdminAccess {
  if (!user) return "signed-out";
  const email = user.email?.toLowerCase();
  if (!user.emailVerified || !email || !env.adminEmails.includes(email)) return "forbidden";
  return "ok";
}

/** What an API client is told, by access. */
const API_REFUSAL: Record<Exclude<AdminAccess, "ok">, { status: number; message: string }> = {
  "signed-out": { status: 401, message: "Sign in as an administrator." },
  forbidden: { status: 403, message: "This account may not use the admin." },
  unavailable: {
    status: 503,
    message: "Sign-in checks are unavailable for a moment. Please try again.",
  },
};

export function createAdminGuard(deps: {
  env: Env;
  sessions: Sessions;
  verifyIdToken: TokenVerifier;
}) {
  const { env, sessions, verifyIdToken } = deps;
  const siteOrigin = new URL(env.siteUrl).origin;

  /** Access by the session cookie, with the account read from Firebase now. */
  async function bySession(
    req: FastifyRequest,
  ): Promise<{ access: AdminAccess; user: AdminUser | null }> {
    try {
      const user = await sessions.userFrom(req, { fresh: true });
      return { access: adminAccessFor(user, env), user };
    } catch (error) {
      if (error instanceof AccountsUnavailable) return { access: "unavailable", user: null };
      throw error;
    }
  }

  /** Access by a Bearer ID token (scripts, Excel), checked with Firebase. */
  async function byToken(
    req: FastifyRequest,
    header: string,
  ): Promise<{ access: AdminAccess | "bad-token"; user: AdminUser | null }> {
    const token = /^Bearer (\S{20,4096})$/.exec(header)?.[1];
    if (!token) return { access: "bad-token", user: null };
    try {
      const decoded = await verifyIdToken(token);
      const user = { email: decoded.email ?? null, emailVerified: decoded.email_verified === true };
      return { access: adminAccessFor(user, env), user };
    } catch (error) {
      if (error instanceof AccountsUnavailable) return { access: "unavailable", user: null };
      req.log.warn(
        { event: "admin.token_refused" },
        "admin request refused: the token did not verify",
      );
      return { access: "bad-token", user: null };
    }
  }

  /**
   * Fastify preHandler for every admin API route: a Bearer token, or the session cookie from a
   * page of ours. Anything else is answered here (401, 403 or 503) and the route never runs.
   */
  async function requireAdmin(req: FastifyRequest, reply: FastifyReply) {
    reply.header("Cache-Control", "no-store");
    const header = req.headers.authorization;
    if (!header && isCrossSite(req, siteOrigin)) {
      // The cookie rides along on a link from any site (SameSite=Lax): trust it only from ours.
      req.log.warn({ event: "admin.cross_site_refused" }, "admin request refused: cross-site");
      return reply
        .status(403)
        .send({ ok: false, message: "Open this from the admin pages of the site." });
    }
    const { access, user } = header ? await byToken(req, header) : await bySession(req);
    if (access === "ok") return;
    if (access === "bad-token")
      return reply.status(401).send({ ok: false, message: "The token is not valid." });
    req.log.warn(
      { event: `admin.${access.replace("-", "_")}`, email: maskEmail(user?.email) },
      "admin request refused",
    );
    const refusal = API_REFUSAL[access];
    if (access === "unavailable") reply.header("Retry-After", "30");
    return reply.status(refusal.status).send({ ok: false, message: refusal.message });
  }

  return { bySession, requireAdmin };
}

export type AdminGuard = ReturnType<typeof createAdminGuard>;
