/**
 * Who may use the admin: one guard for every admin route, loader and action (decisions 011, 013).
 * Access is decided from Firebase's account record at the time of the request, never from what
 * a cookie or an earlier check said, so a new admin route cannot be more lenient than the others.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Env } from "#server/env.ts";
import { AccountsUnavailable, type TokenVerifier } from "#server/identity/firebase-admin.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import { isCrossSite } from "#server/http/request-guards.ts";
import type { Sessions } from "#server/identity/session.ts";
import type { AdminAccess } from "#src/lib/guards.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The administrator's email once the admin guard let this request through; else null. */
    adminEmail: string | null;
  }
}

export type AdminUser = { email: string | null; emailVerified: boolean };

/** An address listed in ADMIN_EMAILS (any case), verified or not. */
export function isAdminAddress(email: string | null, env: Env): boolean {
  return email !== null && env.adminEmails.includes(email.toLowerCase());
}

/** An administrator: a verified email listed in ADMIN_EMAILS. */
export function isAdmin(user: AdminUser, env: Env): boolean {
  return user.emailVerified && isAdminAddress(user.email, env);
}

function adminAccessFor(user: AdminUser | null, env: Env): AdminAccess {
  if (!user) return "signed-out";
  if (isAdmin(user, env)) return "ok";
  return isAdminAddress(user.email, env) ? "unverified" : "forbidden";
}

/** What an API client is told, by access. */
const API_REFUSAL: Record<Exclude<AdminAccess, "ok">, { status: number; message: string }> = {
  "signed-out": { status: 401, message: "Sign in as an administrator." },
  forbidden: { status: 403, message: "This account may not use the admin." },
  unverified: {
    status: 403,
    message:
      "This address is an administrator's, but it is not verified yet: open the link mailed to it.",
  },
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
  /** One answer per request: the guard of an admin POST and its page's action ask Firebase once. */
  const asked = new WeakMap<
    FastifyRequest,
    Promise<{ access: AdminAccess; user: AdminUser | null }>
  >();

  /** Access by the session cookie, with the account read from Firebase now (once per request). */
  function bySession(
    req: FastifyRequest,
  ): Promise<{ access: AdminAccess; user: AdminUser | null }> {
    let answer = asked.get(req);
    if (!answer) {
      answer = (async () => {
        try {
          const user = await sessions.userFrom(req, { fresh: true });
          return { access: adminAccessFor(user, env), user };
        } catch (error) {
          if (error instanceof AccountsUnavailable)
            return { access: "unavailable" as const, user: null };
          throw error;
        }
      })();
      asked.set(req, answer);
    }
    return answer;
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
    if (access === "ok") {
      req.adminEmail = user?.email?.toLowerCase() ?? null;
      return;
    }
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

  /**
   * Fastify onRequest hook for form posts to the admin's pages (its actions): anyone but an
   * administrator is answered here, before the body is read, so a non-admin gets the same 403
   * whatever they send. The page's action asks the same guard again (decision 013); the answer is
   * the one already given.
   */
  async function requireAdminPost(req: FastifyRequest, reply: FastifyReply) {
    const { access, user } = await bySession(req);
    if (access === "ok") return;
    req.log.warn(
      { event: `admin.${access.replace("-", "_")}`, email: maskEmail(user?.email) },
      "admin action refused",
    );
    const refusal = API_REFUSAL[access];
    if (access === "unavailable") reply.header("Retry-After", "30");
    return reply
      .status(refusal.status)
      .header("Cache-Control", "no-store")
      .type("text/plain; charset=utf-8")
      .send(refusal.message);
  }

  return { bySession, requireAdmin, requireAdminPost };
}

export type AdminGuard = ReturnType<typeof createAdminGuard>;
