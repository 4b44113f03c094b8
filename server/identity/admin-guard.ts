/**
 * Who may use the admin: one guard for every admin route, loader and action (decisions 011, 013).
 * Access is decided from Firebase's account record at the time of the request, never from what
 * a cookie or an earlier check said, so a new admin route cannot be more lenient than the others.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Env } from "#server/env.ts";
import { AccountsUnavailable } from "#server/identity/firebase-admin.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import { isCrossSite } from "#server/http/request-guards.ts";
import type { CookieSession, Sessions } from "#server/identity/session.ts";
import { adminLevel } from "#server/identity/admin-level.ts";
import type { AdminAccess } from "#src/lib/guards.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The administrator's email once the admin guard let this request through; else null. */
    adminEmail: string | null;
    /** ...and their session, when a cookie let it through (an export token has none). */
    adminSession: CookieSession | null;
  }
}

export type AdminUser = { email: string | null; emailVerified: boolean };

/** The guard's answer for a request: its access, and the session it read (if any). */
export type AdminAnswer = { access: AdminAccess; user: CookieSession | null };

/** An address listed in ADMIN_EMAILS (any case), verified or not. */
export function isAdminAddress(email: string | null, env: Env): boolean {
  return email !== null && env.adminEmails.includes(email.toLowerCase());
}

/** An administrator: a verified email listed in ADMIN_EMAILS. */
export function isAdmin(user: AdminUser, env: Env): boolean {
  return user.emailVerified && isAdminAddress(user.email, env);
}

/**
 * An administrator's session at the level the admin needs (decision 039): verified by a passkey on
 * this session, within its 12 hours and its hour without a request. A session a recovery code let
 * in may only register a new passkey.
 */
function adminAccessFor(user: CookieSession | null, env: Env, now: Date): AdminAccess {
  if (!user) return "signed-out";
  if (!isAdmin(user, env)) return isAdminAddress(user.email, env) ? "unverified" : "forbidden";
  const level = adminLevel(user.admin, now);
  if (level.kind === "signed-in") return "needs-passkey";
  if (level.kind === "recovering") return "needs-new-passkey";
  return "ok";
}

/** What an API client is told, by access. */
const API_REFUSAL: Record<Exclude<AdminAccess, "ok">, { status: number; message: string }> = {
  "signed-out": { status: 401, message: "Sign in as an administrator." },
  "needs-passkey": {
    status: 401,
    message: "Verify with your passkey first: open /admin/verify.",
  },
  "needs-new-passkey": {
    status: 401,
    message: "A recovery code let you in: set up a new passkey at /admin/verify first.",
  },
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

export function createAdminGuard(deps: { env: Env; sessions: Sessions }) {
  const { env, sessions } = deps;
  const siteOrigin = new URL(env.siteUrl).origin;
  /** One answer per request: the guard of an admin POST and its page's action ask Firebase once. */
  const asked = new WeakMap<FastifyRequest, Promise<AdminAnswer>>();

  /**
   * Access by the session cookie, with the account read from Firebase now (once per request). A
   * request let through counts as the verified session's latest: its idle hour starts again.
   */
  function bySession(req: FastifyRequest): Promise<AdminAnswer> {
    let answer = asked.get(req);
    if (!answer) {
      answer = (async (): Promise<AdminAnswer> => {
        try {
          const user = await sessions.userFrom(req, { fresh: true });
          const access = adminAccessFor(user, env, new Date());
          if (access === "ok" && user) await sessions.store.touchAdmin(user.sessionId);
          return { access, user };
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

  /**
   * Fastify preHandler for every admin API route: the session cookie of a verified administrator,
   * from a page of ours. Anything else is answered here (401, 403 or 503) and the route never runs.
   * The export's own guard (plugins/admin.ts) also takes an export token.
   */
  async function requireAdmin(req: FastifyRequest, reply: FastifyReply) {
    reply.header("Cache-Control", "no-store");
    if (isCrossSite(req, siteOrigin)) {
      // The cookie rides along on a link from any site (SameSite=Lax): trust it only from ours.
      req.log.warn({ event: "admin.cross_site_refused" }, "admin request refused: cross-site");
      return reply
        .status(403)
        .send({ ok: false, message: "Open this from the admin pages of the site." });
    }
    const { access, user } = await bySession(req);
    if (access === "ok") {
      req.adminEmail = user?.email?.toLowerCase() ?? null;
      req.adminSession = user;
      return;
    }
    req.log.warn(
      { event: `admin.${access.replaceAll("-", "_")}`, email: maskEmail(user?.email) },
      "admin request refused",
    );
    const refusal = API_REFUSAL[access];
    if (access === "unavailable") reply.header("Retry-After", "30");
    return reply
      .status(refusal.status)
      .send({ ok: false, message: refusal.message, missing: access });
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
      { event: `admin.${access.replaceAll("-", "_")}`, email: maskEmail(user?.email) },
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
