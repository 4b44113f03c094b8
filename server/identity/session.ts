/**
 * The session cookie that lets the server render the right header and redirect signed-in visitors
 * before any JavaScript runs. The browser proves a sign-in by POSTing a fresh Firebase ID token;
 * the server verifies it with firebase-admin, stores a session row, and answers with an HttpOnly
 * cookie that carries only the row's id, signed by @fastify/cookie. Who the visitor is comes from
 * the row, never from the cookie. See decisions 004, 011 and 013.
 */
import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyRequest } from "fastify";
import type { Env } from "#server/env.ts";
import { keptSecrets } from "#server/identity/kept-secret.ts";
import {
  accountProblem,
  AccountsUnavailable,
  TokenRefused,
  type Accounts,
  type VerifiedToken,
} from "#server/identity/firebase-admin.ts";
import type { AdminSessionState, SessionStore } from "#server/identity/session-store.ts";
import type { SessionUser } from "#src/lib/public-env.ts";

/** Token sync's max-age for an ID token: an older one is not accepted (decision 004). */
export const MAX_ID_TOKEN_AGE_SECONDS = 5 * 60;
export const SESSION_MAX_AGE_SECONDS = 14 * 24 * 60 * 60;
/** After Firebase could not be reached, ordinary pages wait this long before asking again. */
const ACCOUNT_RETRY_MS = 30_000;
/** A session id is 18 random bytes in base64url; a signed cookie is that, a dot and 43 more. */
const MAX_COOKIE_LENGTH = 128;

export type CookieSession = SessionUser & {
  emailVerified: boolean;
  sessionId: string;
  /** When the password was typed for this session (Firebase's auth_time). */
  signedInAt: Date;
  /** The admin's levels of this session (decision 039). */
  admin: AdminSessionState;
};

function sessionCookieName(env: Env): string {
  // __Host- needs Secure, so plain-HTTP development uses an unprefixed name.
  return env.siteUrl.startsWith("https://") ? "__Host-tieout_session" : "tieout_session";
}

/**
 * The secrets that sign session cookies, newest first: SESSION_SECRET (a comma-separated list, so
 * a new secret can sign while the previous one still verifies), or in emulator mode one generated
 * and kept in DATA_DIR so restarts keep sessions.
 */
export function resolveSessionSecrets(env: Env): Promise<string[]> {
  return keptSecrets(env.sessionSecrets, env.dataDir, "session-secret");
}

function cookieOptions(env: Env, maxAge: number): CookieSerializeOptions {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: env.siteUrl.startsWith("https://"),
    maxAge,
    signed: true,
  };
}

/**
 * Why a verified token cannot start a session, if it cannot: minted over 5 minutes ago (the
 * browser retries with a fresh one), or its password sign-in is older than a session may last.
 * Firebase keeps a browser signed in indefinitely; without the second rule a session would be
 * renewed for ever without the password being asked again (ASVS 7.3.2).
 */
export function tokenProblem(
  token: Pick<VerifiedToken, "iat" | "auth_time">,
  nowSeconds: number,
): "stale-token" | "reauthenticate" | null {
  if (nowSeconds - token.iat > MAX_ID_TOKEN_AGE_SECONDS) return "stale-token";
  if (nowSeconds - token.auth_time > SESSION_MAX_AGE_SECONDS) return "reauthenticate";
  return null;
}

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  const match = header ? /^Bearer ([A-Za-z0-9._-]{20,4096})$/.exec(header) : null;
  return match?.[1] ?? null;
}

/**
 * The account an ID token says it is for (its `sub`), read without verifying anything: only for a
 * check the token cannot move, such as whether that account's sign-in window is already full.
 */
export function claimedUid(token: string): string | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    const sub = (claims as { sub?: unknown } | null)?.sub;
    return typeof sub === "string" && sub.length > 0 && sub.length <= 128 ? sub : null;
  } catch {
    return null;
  }
}

/**
 * The cookie's session, its row and its account, together: what the server believes about this
 * request. The account is read from Firebase once every SESSION_RECHECK_SECONDS for a page,
 * and every time when `fresh` (admin), so a deleted, disabled or revoked account loses its
 * sessions everywhere (decision 011).
 */
export function createSessions(
  env: Env,
  secrets: readonly string[],
  store: SessionStore,
  accounts: Pick<Accounts, "lookup">,
) {
  const name = sessionCookieName(env);
  /** Until when ordinary pages skip the account check because Firebase was unreachable. */
  let retryAt = 0;

  /** Ends every session of an account Firebase no longer vouches for. */
  async function endAccount(req: FastifyRequest, uid: string, reason: string) {
    req.log.warn({ event: "session.account_ended", uid, reason }, "sessions ended by Firebase");
    try {
      await store.revokeAll(uid);
    } catch (error) {
      req.log.error({ event: "session.store_failed", err: error }, "sessions could not be ended");
    }
  }

  /** The session id this request's cookie names, if its signature holds (live or not). */
  function sessionIdOf(req: FastifyRequest): string | null {
    const raw = req.cookies[name];
    if (!raw || raw.length > MAX_COOKIE_LENGTH) return null;
    const unsigned = req.unsignCookie(raw);
    return unsigned.valid && unsigned.value ? unsigned.value : null;
  }

  return {
    /** For @fastify/cookie: the first signs, every one verifies (rotation). */
    secrets,
    store,
    cookieName: name,
    sessionIdOf,
    /** The Set-Cookie options for a new session (or, with maxAge 0, for ending one). */
    cookieOptions: (maxAge: number) => cookieOptions(env, maxAge),
    /**
     * The signed cookie's session while its row is live and its account in good standing;
     * anonymous when in doubt. With `fresh`, the account is read from Firebase now; if Firebase
     * or the session store cannot be reached, AccountsUnavailable is thrown (the caller answers
     * 503, not 401).
     */
    async userFrom(
      req: FastifyRequest,
      { fresh = false }: { fresh?: boolean } = {},
    ): Promise<CookieSession | null> {
      const sessionId = sessionIdOf(req);
      if (!sessionId) return null;
      let live;
      try {
        live = await store.find(sessionId);
      } catch (error) {
        req.log.warn({ event: "session.check_failed", err: error }, "session check failed");
        if (fresh) throw new AccountsUnavailable(error);
        return null;
      }
      if (!live) return null;
      const session: CookieSession = {
        uid: live.uid,
        email: live.email,
        emailVerified: live.emailVerified,
        sessionId,
        signedInAt: live.signedInAt,
        admin: live.admin,
      };

      const now = Date.now();
      const due = now - live.accountCheckedAt.getTime() >= env.sessionRecheckSeconds * 1000;
      if (fresh || (due && now >= retryAt)) {
        let account;
        try {
          account = await accounts.lookup(live.uid);
        } catch (error) {
          if (error instanceof TokenRefused) {
            await endAccount(req, live.uid, "refused");
            return null;
          }
          req.log.warn(
            { event: "session.account_unreachable", err: error },
            "account check failed: Firebase unreachable",
          );
          if (fresh)
            throw error instanceof AccountsUnavailable ? error : new AccountsUnavailable(error);
          // An ordinary page goes on with the session it had; the check is tried again soon.
          retryAt = now + ACCOUNT_RETRY_MS;
          req.sessionUid = live.uid;
          return session;
        }
        const problem = accountProblem(account, Math.floor(live.signedInAt.getTime() / 1000));
        if (problem || !account) {
          await endAccount(req, live.uid, problem ?? "deleted");
          return null;
        }
        // The row follows the account: a changed or newly verified email shows from now on.
        try {
          await store.markChecked(sessionId, {
            email: account.email,
            emailVerified: account.emailVerified,
          });
        } catch {
          // Checked all the same; the next request asks again.
        }
        req.sessionUid = live.uid;
        return { ...session, email: account.email, emailVerified: account.emailVerified };
      }
      req.sessionUid = live.uid;
      return session;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
