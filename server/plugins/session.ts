/**
 * Sessions over HTTP: @fastify/cookie reads and signs cookies for every route (a list of secrets,
 * newest first, so SESSION_SECRET can rotate), and the browser exchanges a fresh Firebase ID token
 * for a session (POST /api/session) or ends it (DELETE /api/session). The rules for what a session
 * is live in server/identity/session.ts, who may have one in server/identity/admission.ts; decisions 004, 011, 013
 * and 024.
 */
import fastifyCookie from "@fastify/cookie";
import type { FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { isAdmin } from "#server/identity/admin-guard.ts";
import type { Admission } from "#server/identity/admission.ts";
import type { Env } from "#server/env.ts";
import {
  AccountsUnavailable,
  type TokenVerifier,
  type VerifiedToken,
} from "#server/identity/firebase-admin.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import { clientKey } from "#server/http/rate-limit.ts";
import {
  bearerToken,
  claimedUid,
  SESSION_MAX_AGE_SECONDS,
  tokenProblem,
  type Sessions,
} from "#server/identity/session.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Who a valid session cookie named, once it has been checked (for the request log line). */
    sessionUid: string | null;
  }
}

type SessionOptions = {
  env: Env;
  sessions: Sessions;
  verifyIdToken: TokenVerifier;
  admission: Admission;
};

/** The invitation token the sign-up or sign-in page sends with the ID token (`{"invitation"}`). */
function invitationOf(body: unknown): string | null {
  const value = (body as { invitation?: unknown } | null | undefined)?.invitation;
  return typeof value === "string" && value.length <= 64 ? value : null;
}

async function session(
  app: FastifyInstance,
  { env, sessions, verifyIdToken, admission }: SessionOptions,
) {
  app.decorateRequest("sessionUid", null);
  // Cookies are parsed and signed by @fastify/cookie; the session cookie carries only a signed id.
  await app.register(fastifyCookie, {
    secret: [...sessions.secrets],
    algorithm: "sha256",
    hook: "onRequest",
  });
  const { store, cookieName: name } = sessions;
  const refuse = (reply: FastifyReply, status: number, error: string) =>
    reply.status(status).header("Cache-Control", "no-store").send({ error });

  // Cross-site requests never get here: server/http/request-guards.ts refuses them for every route.
  app.post("/api/session", async (req, reply) => {
    const limit = env.sessionRateLimit;
    const tooMany = (wait: number, why: string, error: string) => {
      req.log.warn({ event: "session.rate_limited" }, `sign-in refused: ${why}`);
      reply.header("Retry-After", String(wait));
      return refuse(reply, 429, error);
    };
    const FROM_HERE = "Too many sign-ins from here. Please wait a minute.";
    const FOR_ACCOUNT = "Too many sign-ins to this account. Please wait a minute.";
    // Refused tokens count against the client's network; a verified sign-in against its account
    // only. So nobody sharing an office's address can lock the others out by sending rubbish,
    // and a flood of one account's tokens stops before Firebase is asked again.
    const refused = async (status: number, error: string) => {
      const wait = await store.hitSignInLimit(`refused:${clientKey(req)}`, limit);
      if (wait > 0) return tooMany(wait, "too many refused tokens from this client", FROM_HERE);
      return refuse(reply, status, error);
    };
    let decoded: VerifiedToken;
    try {
      const token = bearerToken(req);
      if (!token) {
        req.log.warn({ event: "session.token_missing" }, "sign-in refused: no ID token");
        return await refused(401, "Send the Firebase ID token as a Bearer token.");
      }
      const claimed = claimedUid(token);
      const full = claimed ? await store.signInLimitReached(`account:${claimed}`, limit) : 0;
      if (full > 0) return tooMany(full, "too many for this account", FOR_ACCOUNT);
      try {
        decoded = await verifyIdToken(token);
      } catch (error) {
        if (error instanceof AccountsUnavailable) {
          req.log.error(
            { event: "session.accounts_unreachable", err: error },
            "sign-in failed: Firebase unreachable",
          );
          return refuse(reply, 503, "unavailable");
        }
        req.log.warn(
          { event: "session.token_refused" },
          "sign-in refused: the ID token did not verify",
        );
        return await refused(401, "The ID token is not valid.");
      }
      const wait = await store.hitSignInLimit(`account:${decoded.uid}`, limit);
      if (wait > 0) return tooMany(wait, "too many for this account", FOR_ACCOUNT);
    } catch {
      // The rate-limit windows could not be read or written.
      return refuse(reply, 503, "unavailable");
    }
    const problem = tokenProblem(decoded, Date.now() / 1000);
    if (problem === "stale-token") {
      req.log.warn(
        { event: "session.token_stale", uid: decoded.uid },
        "sign-in refused: the ID token is too old",
      );
      return refuse(reply, 401, problem);
    }
    if (problem === "reauthenticate") {
      req.log.info(
        { event: "session.reauth_required", uid: decoded.uid },
        "sign-in refused: the password was last typed too long ago",
      );
      return refuse(reply, 401, problem);
    }
    const applicant = {
      uid: decoded.uid,
      email: decoded.email ?? null,
      emailVerified: decoded.email_verified === true,
    };
    let admitted;
    try {
      admitted = await admission(req, applicant, invitationOf(req.body));
    } catch (error) {
      req.log.error(
        { event: "session.admission_failed", err: error },
        "sign-in failed: the waitlist could not be read",
      );
      return refuse(reply, 503, "unavailable");
    }
    // Invite-only: the browser shows that access is by invitation (src/features/auth).
    if (admitted === "not-invited") return refuse(reply, 403, "not-invited");
    // An administrator's address not verified yet: the browser sends the verification mail.
    if (admitted === "verify-address") return refuse(reply, 403, "verify-address");
    let sessionId: string;
    try {
      sessionId = await store.create({
        ...applicant,
        expiresAt: new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
        signedInAt: new Date(decoded.auth_time * 1000),
        userAgent: req.headers["user-agent"] ?? null,
      });
      // A new sign-in replaces the session this browser had: the old cookie is worth nothing now.
      const previous = sessions.sessionIdOf(req);
      if (previous) await store.revoke(previous);
    } catch (error) {
      req.log.error({ event: "session.store_failed", err: error }, "session could not be stored");
      return refuse(reply, 503, "unavailable");
    }
    req.log.info(
      { event: "session.created", uid: decoded.uid, email: maskEmail(decoded.email) },
      "signed in",
    );
    // The cookie carries the session's id only, signed; who it is stays in the row. `admin` tells
    // the header to offer the admin, as a page rendered for this session would.
    return reply
      .setCookie(name, sessionId, sessions.cookieOptions(SESSION_MAX_AGE_SECONDS))
      .header("Cache-Control", "no-store")
      .send({ uid: decoded.uid, email: decoded.email ?? null, admin: isAdmin(applicant, env) });
  });

  app.delete("/api/session", async (req, reply) => {
    const sessionId = sessions.sessionIdOf(req);
    if (sessionId) {
      try {
        await store.revoke(sessionId);
        req.log.info({ event: "session.ended" }, "signed out");
      } catch (error) {
        // This browser forgets the cookie all the same; the 503 says the row could not be ended.
        req.log.error({ event: "session.store_failed", err: error }, "session could not be ended");
        reply.clearCookie(name, sessions.cookieOptions(0));
        return refuse(reply, 503, "unavailable");
      }
    }
    return reply
      .clearCookie(name, sessions.cookieOptions(0))
      .header("Cache-Control", "no-store")
      .status(204)
      .send();
  });
}

export default fp(session, { name: "session" });
