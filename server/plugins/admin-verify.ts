/**
 * The admin's passkey ceremonies over HTTP (decision 039), JSON in and out, never cached.
 *
 * Two guards, each added once for its group of routes so a new route cannot forget it:
 * - the ceremonies that verify a session (a mailed code, a first passkey, a passkey assertion, a
 *   recovery code) need a signed-in administrator: a live session of a verified address that
 *   ADMIN_EMAILS lists, checked with Firebase now;
 * - managing one's passkeys, recovery codes and export tokens, and resetting another
 *   administrator, need a verified session (the admin guard) and most a step-up.
 * Cross-site requests never get here (server/http/request-guards.ts refuses them for every route).
 * A verification answers with a new session cookie: the session's id changes every time.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Env } from "#server/env.ts";
import { isAdmin, type AdminGuard } from "#server/identity/admin-guard.ts";
import {
  adminSessionOf,
  VerificationRefused,
  type AdminSession,
  type AdminVerification,
} from "#server/identity/admin-verification.ts";
import { AccountsUnavailable } from "#server/identity/firebase-admin.ts";
import {
  SESSION_MAX_AGE_SECONDS,
  type CookieSession,
  type Sessions,
} from "#server/identity/session.ts";
import { maskEmail } from "#server/http/log-safety.ts";

export type AdminVerifyOptions = {
  env: Env;
  sessions: Sessions;
  verification: AdminVerification;
  requireAdmin: AdminGuard["requireAdmin"];
};

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in administrator a ceremony is for, once its guard let the request through. */
    signedInAdmin: AdminSession | null;
  }
}

/** A JSON body's field, or undefined. */
function field(req: FastifyRequest, name: string): unknown {
  const body = req.body;
  return body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
}

export default async function adminVerify(
  app: FastifyInstance,
  { env, sessions, verification, requireAdmin }: AdminVerifyOptions,
) {
  app.decorateRequest("signedInAdmin", null);
  app.decorateRequest("adminEmail", null);
  app.decorateRequest("adminSession", null);

  /** Answers a refusal as JSON, with one security line in the log. */
  function refuse(req: FastifyRequest, reply: FastifyReply, error: unknown) {
    if (!(error instanceof VerificationRefused)) throw error;
    req.log.warn(
      {
        event: "admin.verify_refused",
        reason: error.reason,
        email: maskEmail(req.signedInAdmin?.email ?? req.adminEmail),
      },
      "admin verification refused",
    );
    if (error.retryAfterSeconds) reply.header("Retry-After", String(error.retryAfterSeconds));
    return reply
      .status(error.status)
      .header("Cache-Control", "no-store")
      .send({ ok: false, message: error.message, reason: error.reason });
  }

  /** The new session's cookie, after a verification. */
  const withSession = (reply: FastifyReply, sessionId: string) =>
    reply
      .setCookie(sessions.cookieName, sessionId, sessions.cookieOptions(SESSION_MAX_AGE_SECONDS))
      .header("Cache-Control", "no-store");

  // The ceremonies that verify a session: a signed-in administrator's.
  await app.register(async (ceremonies) => {
    ceremonies.addHook("preHandler", async (req, reply) => {
      reply.header("Cache-Control", "no-store");
      let user: CookieSession | null;
      try {
        user = await sessions.userFrom(req, { fresh: true });
      } catch (error) {
        if (!(error instanceof AccountsUnavailable)) throw error;
        reply.header("Retry-After", "30");
        return reply.status(503).send({
          ok: false,
          message: "Sign-in checks are unavailable for a moment. Please try again.",
        });
      }
      if (!user)
        return reply.status(401).send({ ok: false, message: "Sign in as an administrator." });
      if (!isAdmin(user, env)) {
        req.log.warn(
          { event: "admin.verify_refused", reason: "not-an-admin", email: maskEmail(user.email) },
          "admin verification refused",
        );
        return reply
          .status(403)
          .send({ ok: false, message: "This account may not use the admin." });
      }
      req.signedInAdmin = adminSessionOf(user);
    });

    const admin = (req: FastifyRequest) => req.signedInAdmin!;

    ceremonies.post("/api/admin/verify/code", async (req, reply) => {
      try {
        await verification.sendMailboxCode(admin(req));
        return reply.send({ ok: true });
      } catch (error) {
        return refuse(req, reply, error);
      }
    });

    ceremonies.post("/api/admin/verify/code/check", async (req, reply) => {
      try {
        await verification.proveMailbox(admin(req), field(req, "code"), req.ip);
        return reply.send({ ok: true });
      } catch (error) {
        return refuse(req, reply, error);
      }
    });

    ceremonies.post("/api/admin/verify/options", async (req, reply) => {
      try {
        return reply.send(await verification.authenticationOptions(admin(req)));
      } catch (error) {
        return refuse(req, reply, error);
      }
    });

    ceremonies.post("/api/admin/verify", async (req, reply) => {
      try {
        const { sessionId } = await verification.authenticate(
          admin(req),
          { response: field(req, "response") },
          req.ip,
        );
        return withSession(reply, sessionId).send({ ok: true });
      } catch (error) {
        return refuse(req, reply, error);
      }
    });

    ceremonies.post("/api/admin/verify/recovery", async (req, reply) => {
      try {
        const { sessionId } = await verification.useRecoveryCode(
          admin(req),
          field(req, "code"),
          req.ip,
        );
        return withSession(reply, sessionId).send({ ok: true });
      } catch (error) {
        return refuse(req, reply, error);
      }
    });

    ceremonies.post("/api/admin/passkeys/options", async (req, reply) => {
      try {
        return reply.send(await verification.registrationOptions(admin(req)));
      } catch (error) {
        return refuse(req, reply, error);
      }
    });

    ceremonies.post("/api/admin/passkeys", async (req, reply) => {
      try {
        const made = await verification.register(
          admin(req),
          { response: field(req, "response"), name: field(req, "name") },
          req.ip,
        );
        return withSession(reply, made.sessionId).send({
          ok: true,
          name: made.name,
          recoveryCodes: made.recoveryCodes,
        });
      } catch (error) {
        return refuse(req, reply, error);
      }
    });
  });

  // What a verified administrator manages; the changes need a step-up.
  await app.register(async (manage) => {
    manage.addHook("preHandler", requireAdmin);
    const admin = (req: FastifyRequest) => adminSessionOf(req.adminSession!);
    const by = (req: FastifyRequest) => ({
      adminEmail: req.adminEmail!,
      label: req.adminEmail!,
      clientAddress: req.ip,
    });

    manage.post("/api/admin/passkeys/rename", async (req, reply) => {
      try {
        await verification.renamePasskey(admin(req), field(req, "id"), field(req, "name"), req.ip);
        return reply.send({ ok: true });
      } catch (error) {
        return refuse(req, reply, error);
      }
    });

    manage.post("/api/admin/passkeys/remove", async (req, reply) => {
      try {
        await verification.removePasskey(admin(req), field(req, "id"), req.ip);
        return reply.send({ ok: true });
      } catch (error) {
        return refuse(req, reply, error);
      }
    });

    manage.post("/api/admin/recovery-codes", async (req, reply) => {
      try {
        const codes = await verification.regenerateRecoveryCodes(admin(req), req.ip);
        return reply.send({ ok: true, recoveryCodes: codes });
      } catch (error) {
        return refuse(req, reply, error);
      }
    });

    manage.post("/api/admin/export-tokens", async (req, reply) => {
      try {
        verification.requireStepUp(admin(req));
        const made = await verification.createExportToken(
          req.adminEmail!,
          field(req, "label"),
          field(req, "days"),
          by(req),
        );
        return reply.send({ ok: true, id: made.id, token: made.token, expiresAt: made.expiresAt });
      } catch (error) {
        return refuse(req, reply, error);
      }
    });

    manage.post("/api/admin/export-tokens/revoke", async (req, reply) => {
      try {
        await verification.revokeExportToken(field(req, "id"), by(req));
        return reply.send({ ok: true });
      } catch (error) {
        return refuse(req, reply, error);
      }
    });

    manage.post("/api/admin/reset-passkeys", async (req, reply) => {
      try {
        verification.requireStepUp(admin(req));
        const target = field(req, "email");
        if (typeof target !== "string" || target.trim().toLowerCase() === req.adminEmail)
          throw new VerificationRefused(
            400,
            "Name another administrator: your own passkeys are managed on your account page.",
            "reset-self",
          );
        const removed = await verification.resetPasskeys(target, by(req));
        return reply.send({ ok: true, removed });
      } catch (error) {
        return refuse(req, reply, error);
      }
    });
  });
}
