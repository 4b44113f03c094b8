/**
 * One page rendered by React Router for one request: the Fastify request turned into a web
 * Request, the load context the routes read (src/load-context.ts), and the response finished for
 * production (inline stylesheet, loader, CSP hashes) with the cache headers that say who may keep it.
 */
import type { ImportsPort } from "#src/lib/imports.ts";
import type { WebhooksPort } from "#src/lib/webhooks.ts";
import type { FastifyRequest } from "fastify";
import {
  createRequestHandler,
  isRouteErrorResponse,
  RouterContextProvider,
  type RouterContext,
  type ServerBuild,
} from "react-router";
import { isAdmin, type AdminGuard } from "#server/identity/admin-guard.ts";
import { adminLevel } from "#server/identity/admin-level.ts";
import type { Env } from "#server/env.ts";
import { finishPage } from "#server/pages/html.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import { encodeForm, type FormFields } from "#server/http/form-body.ts";
import { getPublicEnv } from "#server/pages/public-env.ts";
import { htmlSecurityHeaders } from "#server/http/security-headers.ts";
import type { Sessions } from "#server/identity/session.ts";
import { clientKey } from "#server/http/rate-limit.ts";
import type { WaitlistService } from "#server/waitlist/service.ts";
import type { AccountPort } from "#src/lib/account.ts";
import type { AdminAccessOverview, AdminVerifyPort, VerifyState } from "#src/lib/admin-verify.ts";
import { adminSessionOf, type AdminVerification } from "#server/identity/admin-verification.ts";
import type { ActivityPort } from "#src/lib/activity.ts";
import type { DashboardPort } from "#src/lib/dashboard.ts";
import type { DeliveriesPort } from "#src/lib/deliveries.ts";
import type { MailPort } from "#src/lib/mail-ports.ts";
import type { PrivacyRequestsPort } from "#src/lib/privacy-requests.ts";
import type { AdminCheck, UserAccess } from "#src/lib/guards.ts";
import type { SubscriptionsPort } from "#src/lib/subprocessor-subscriptions.ts";
import type { LoadContext } from "#src/load-context.ts";
import { AccountsUnavailable } from "#server/identity/firebase-admin.ts";

export type RenderedPage = {
  status: number;
  headers: Record<string, string>;
  cookies: string[];
  type: string;
  body: Buffer;
};

export type PageSession = Awaited<ReturnType<Sessions["userFrom"]>>;

export type PageRendererOptions = {
  env: Env;
  mode: "production" | "development";
  /** A function so development can reload the build on every request. */
  getBuild: () => Promise<ServerBuild>;
  /** The build's stylesheets by URL path, inlined into production pages. */
  stylesheets: ReadonlyMap<string, string>;
  waitlist: WaitlistService;
  subprocessors: SubscriptionsPort;
  privacyRequests: PrivacyRequestsPort;
  deliveries: DeliveriesPort;
  mail: MailPort;
  webhooks: WebhooksPort;
  imports: ImportsPort;
  dashboard: DashboardPort;
  activity: ActivityPort;
  adminGuard: AdminGuard;
  sessions: Sessions;
  account: AccountPort;
  adminVerification: AdminVerification;
};

/**
 * What React Router and the renderer report: a refusal of the visitor's request is one warning
 * line with its reason, never a stack trace; anything else is our failure and logged as an error.
 */
function reportRenderError(req: FastifyRequest, error: unknown) {
  if (isRouteErrorResponse(error) && error.status < 500) {
    req.log.warn(
      { event: "request.refused", status: error.status, reason: error.statusText },
      "request refused",
    );
    return;
  }
  req.log.error({ err: error }, "page failed");
}

/**
 * The key this build's loaders read the load context under (src/load-context.ts). React Router tells
 * keys apart by identity, and the server's own import of that module is not the build's (bundled
 * apart by scripts/build.mjs, or loaded beside Vite in development), so the key comes from the build.
 */
function loadContextKey(build: ServerBuild): RouterContext<LoadContext> {
  const key = (build.entry.module as { loadContext?: RouterContext<LoadContext> }).loadContext;
  if (!key) throw new Error("The server build does not export loadContext (src/entry.server.tsx)");
  return key;
}

/** The page a target names, without React Router's `.data` suffix and query: `/admin/waitlist`. */
function pagePathOf(target: string): string {
  const path = target.split("?")[0] ?? "/";
  return path.replace(/\.data$/, "").replace(/^\/_$/, "/") || "/";
}

export function createPageRenderer(options: PageRendererOptions) {
  const { env, mode, stylesheets, adminGuard } = options;
  const handleRequest = createRequestHandler(options.getBuild, mode);
  const publicEnv = getPublicEnv(env);

  /** The admin guard, asked only when an admin loader or action asks (decision 011). */
  function adminAccessFor(req: FastifyRequest, session: PageSession) {
    let asked: Promise<AdminCheck> | undefined;
    return () =>
      (asked ??= (async (): Promise<AdminCheck> => {
        // Asked again even when the page saw no session: a session that could not be checked
        // (the database away) is a 503 for the admin, not a sign-in page.
        const { access, user } = await adminGuard.bySession(req);
        if (access === "ok" && user?.email) {
          const level = adminLevel(user.admin, new Date());
          const until = level.kind === "verified" ? level.stepUpUntil : null;
          return {
            access,
            email: user.email.toLowerCase(),
            stepUpUntil: until ? until.toISOString() : null,
          };
        }
        if (access !== "ok") {
          req.log.warn(
            {
              event: "admin.page_refused",
              access,
              email: maskEmail(user?.email ?? session?.email ?? null),
            },
            "admin page refused",
          );
          return { access };
        }
        // Granted to an account without an address cannot happen (the guard needs a verified one).
        return { access: "forbidden" };
      })());
  }

  /** An administrator's verification and passkeys, asked only when a page asks (decision 039). */
  function adminVerifyFor(req: FastifyRequest): AdminVerifyPort {
    const verification = options.adminVerification;
    const siteOrigin = new URL(env.siteUrl).origin;
    return {
      async state(): Promise<VerifyState> {
        const { access, user } = await adminGuard.bySession(req);
        if (access === "unavailable") return { kind: "unavailable" };
        if (access === "signed-out" || !user) return { kind: "signed-out" };
        if (access === "forbidden")
          return { kind: "forbidden", message: "This account may not use the admin." };
        if (access === "unverified")
          return {
            kind: "forbidden",
            message:
              "This address is an administrator's, but it is not verified yet. Open the link we mailed it (your account page sends it again), then come back.",
          };
        const status = await verification.status(adminSessionOf(user));
        const level = status.level;
        return {
          kind: "admin",
          email: status.email,
          level: level.kind,
          lapsed: level.kind === "signed-in" ? level.lapsed : null,
          stepUpUntil:
            level.kind === "verified" && level.stepUpUntil ? level.stepUpUntil.toISOString() : null,
          passkeys: status.passkeys,
          lockedUntil: status.lockedUntil ? status.lockedUntil.toISOString() : null,
          codeSent: status.codeSent,
          mailboxProven: status.mailboxProven,
          passwordFresh: status.passwordFresh,
          origin: siteOrigin,
        };
      },
      async overview(): Promise<AdminAccessOverview | null> {
        const { access, user } = await adminGuard.bySession(req);
        if (access !== "ok" || !user?.email) return null;
        const email = user.email.toLowerCase();
        const level = adminLevel(user.admin, new Date());
        const [passkeys, left] = await Promise.all([
          verification.passkeys(email),
          verification.recoveryCodesLeft(email),
        ]);
        return {
          passkeys: passkeys.map((p) => ({
            id: p.credentialId,
            name: p.name,
            createdAt: p.createdAt.toISOString(),
            lastUsedAt: p.lastUsedAt ? p.lastUsedAt.toISOString() : null,
            synced: p.backedUp,
          })),
          recoveryCodesLeft: left,
          stepUpUntil:
            level.kind === "verified" && level.stepUpUntil ? level.stepUpUntil.toISOString() : null,
        };
      },
      async exportTokens() {
        const iso = (d: Date | null) => (d ? d.toISOString() : null);
        return (await verification.exportTokens()).map((t) => ({
          id: t.id,
          label: t.label,
          owner: t.adminEmail,
          createdAt: t.createdAt.toISOString(),
          expiresAt: t.expiresAt.toISOString(),
          revokedAt: iso(t.revokedAt),
          lastUsedAt: iso(t.lastUsedAt),
          lastUsedFrom: t.lastUsedFrom,
        }));
      },
    };
  }

  /** The session with its account read from Firebase now, asked only when a page asks. */
  function userAccessFor(req: FastifyRequest) {
    let asked: Promise<UserAccess> | undefined;
    return () =>
      (asked ??= (async (): Promise<UserAccess> => {
        try {
          const user = await options.sessions.userFrom(req, { fresh: true });
          if (!user) return { kind: "signed-out" };
          const { uid, email, emailVerified } = user;
          return { kind: "ok", user: { uid, email, emailVerified } };
        } catch (error) {
          if (error instanceof AccountsUnavailable) return { kind: "unavailable" };
          throw error;
        }
      })());
  }

  return async function render(
    req: FastifyRequest,
    session: PageSession,
    /** The origin the visitor used, so a form posted from this page is same-origin with it. */
    origin: string,
    target: string,
    method: string,
  ): Promise<RenderedPage> {
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      headers.set(key, Array.isArray(value) ? value.join(", ") : value);
    }
    // A posted form reaches React Router URL-encoded, whichever encoding it came in (or none).
    const formBody = method === "POST" ? encodeForm((req.body ?? {}) as FormFields) : undefined;
    if (formBody !== undefined) {
      headers.delete("content-length");
      headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
    }
    const request = new Request(`${origin}${target}`, { method, headers, body: formBody });
    const sessionUser = session
      ? { uid: session.uid, email: session.email, admin: isAdmin(session, env) }
      : null;
    const context = new RouterContextProvider();
    context.set(loadContextKey(await options.getBuild()), {
      publicEnv,
      sessionUser,
      clientKey: clientKey(req),
      clientAddress: req.ip,
      signupMode: env.signupMode,
      requestId: req.id,
      pagePath: pagePathOf(target),
      reportError: (error: unknown) => reportRenderError(req, error),
      waitlist: options.waitlist,
      subprocessors: options.subprocessors,
      privacyRequests: options.privacyRequests,
      deliveries: options.deliveries,
      mail: options.mail,
      webhooks: options.webhooks,
      imports: options.imports,
      dashboard: options.dashboard,
      activity: options.activity,
      adminAccess: adminAccessFor(req, session),
      userAccess: userAccessFor(req),
      account: options.account,
      adminVerify: adminVerifyFor(req),
    });
    const response = await handleRequest(request, context);

    const out: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      if (key !== "set-cookie") out[key] = value;
    });
    const cookies = response.headers.getSetCookie();
    const type = response.headers.get("content-type") ?? "";
    let body: Buffer = Buffer.from(await response.arrayBuffer());
    if (type.startsWith("text/html") && mode === "production") {
      const finished = finishPage(body.toString("utf8"), stylesheets);
      body = Buffer.from(finished.html);
      Object.assign(out, htmlSecurityHeaders(env, finished));
    }
    // A redirect depends on who asked (signed in or not): never kept by a browser or proxy.
    if (response.status >= 300 && response.status < 400) out["cache-control"] ??= "no-store";
    if (sessionUser || method !== "GET") {
      // It names the visitor or depends on who they are, or answers what they posted (a form's
      // errors repeat what was typed): never kept by any cache.
      out["cache-control"] = "private, no-store";
      if (!sessionUser) out["vary"] = "Cookie, Accept-Encoding";
    } else {
      // The same for every anonymous visitor: a shared cache may keep it, and must ask again.
      out["cache-control"] ??= "public, no-cache";
      out["vary"] = "Cookie, Accept-Encoding";
    }
    return { status: response.status, headers: out, cookies, type, body };
  };
}

export type PageRenderer = ReturnType<typeof createPageRenderer>;
