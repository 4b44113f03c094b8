/**
 * The HTTP server, composed: Fastify's limits, then one plugin per job, in the order a request
 * meets them. Each plugin's file says what it does; the README's architecture section draws it.
 */
import adminImport from "#server/plugins/admin-import.ts";
import { importsPort } from "#server/waitlist/import/imports.ts";
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { ServerBuild } from "react-router";
import { createAdminGuard } from "#server/identity/admin-guard.ts";
import type { Env } from "#server/env.ts";
import type { Metrics } from "#server/operations/metrics.ts";
import type { PageViews } from "#server/operations/page-views.ts";
import admin from "#server/plugins/admin.ts";
import adminVerify from "#server/plugins/admin-verify.ts";
import broadcastPreview from "#server/plugins/broadcast-preview.ts";
import errors, { clientErrorHandler, frameworkErrors } from "#server/plugins/errors.ts";
import forms from "#server/plugins/forms.ts";
import health from "#server/plugins/health.ts";
import metricsPlugin from "#server/plugins/metrics.ts";
import pages from "#server/plugins/pages.ts";
import requestGuards from "#server/plugins/request-guards.ts";
import securityHeaders from "#server/plugins/security-headers.ts";
import securityTxt from "#server/plugins/security-txt.ts";
import seo from "#server/plugins/seo.ts";
import session from "#server/plugins/session.ts";
import staticAssets from "#server/plugins/static-assets.ts";
import subprocessorFeed from "#server/plugins/subprocessor-feed.ts";
import waitlistApi from "#server/plugins/waitlist-api.ts";
import { createPageRenderer } from "#server/pages/render-page.ts";
import { deferredChildLogger, OneLinePerRequest } from "#server/http/request-log.ts";
import { responseHeaders } from "#server/http/security-headers.ts";
import { readStylesheets } from "#server/pages/static-assets.ts";
import type { Services } from "#server/services.ts";

export type AppOptions = {
  env: Env;
  /** The React Router server build; a function so development can reload it on every request. */
  getBuild: () => Promise<ServerBuild>;
  /** Production: the built public files (build/client). Development: none, Vite serves them. */
  clientDir?: string;
  /** In development Vite serves modules and injects inline scripts of its own: no CSP there. */
  mode: "production" | "development";
  /** Structured logs; none when omitted (development, some tests). */
  loggerInstance?: FastifyBaseLogger;
  /**
   * Where the line per request goes when it is not a failure: `requestLines` of
   * server/http/log-safety.ts. Without it, the request's own logger writes it.
   */
  requestLines?: FastifyBaseLogger;
  /** Prometheus metrics (server/operations/metrics.ts); none when omitted (some tests). */
  metrics?: Metrics;
  /** Page views, counted per day, page and source; none when PAGE_VIEWS=off. */
  pageViews?: PageViews | undefined;
} & Pick<
  Services,
  | "sessions"
  | "verifyIdToken"
  | "admission"
  | "waitlist"
  | "subprocessors"
  | "privacyRequests"
  | "deliveries"
  | "mail"
  | "webhooks"
  | "imports"
  | "dashboard"
  | "account"
  | "activity"
  | "recordExport"
  | "ping"
  | "adminVerification"
>;

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const { env, mode, sessions, verifyIdToken, waitlist } = options;
  const headers = responseHeaders(env, mode);
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance, childLoggerFactory: deferredChildLogger }
      : { logger: false }),
    logController: new OneLinePerRequest(options.requestLines),
    // Limits for unkind clients: small bodies and headers, and no request may dawdle.
    bodyLimit: 16 * 1024,
    // Headers must arrive within 10 s (checked every second): a slow-loris client is cut off.
    http: { maxHeaderSize: 16 * 1024, headersTimeout: 10_000, connectionsCheckingInterval: 1_000 },
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 5_000,
    routerOptions: { maxParamLength: 200 },
    return503OnClosing: true,
    // X-Forwarded-For and -Proto are believed only from the configured proxies.
    trustProxy: env.trustProxy.length > 0 ? [...env.trustProxy] : false,
    genReqId: () => randomUUID(),
    clientErrorHandler: clientErrorHandler(headers, options.loggerInstance),
    frameworkErrors: frameworkErrors(headers),
  });

  // Every request, in this order: headers (and its timing, for the metrics), guards, body parsing,
  // errors, cookies and session.
  await app.register(securityHeaders, { headers });
  if (options.metrics)
    await app.register(metricsPlugin, { metrics: options.metrics, token: env.metrics.token });
  await app.register(requestGuards, { env });
  await app.register(forms);
  await app.register(errors);
  await app.register(session, { env, sessions, verifyIdToken, admission: options.admission });

  const adminGuard = createAdminGuard({ env, sessions });
  const { routes } = await options.getBuild();

  // Routes: the API, then files, then every other path is a page.
  await app.register(health, { ping: options.ping });
  await app.register(seo, { env, routes });
  await app.register(securityTxt, { env });
  await app.register(subprocessorFeed, { env });
  await app.register(waitlistApi, { waitlist });
  await app.register(admin, {
    waitlist,
    requireAdmin: adminGuard.requireAdmin,
    useExportToken: (token, from) => options.adminVerification.useExportToken(token, from),
    recordExport: options.recordExport,
  });
  await app.register(adminVerify, {
    env,
    sessions,
    verification: options.adminVerification,
    requireAdmin: adminGuard.requireAdmin,
  });
  await app.register(adminImport, {
    imports: options.imports,
    requireAdmin: adminGuard.requireAdmin,
  });
  await app.register(broadcastPreview, {
    mail: options.mail,
    requireAdmin: adminGuard.requireAdmin,
  });
  if (options.clientDir) await app.register(staticAssets, { clientDir: options.clientDir });
  const render = createPageRenderer({
    env,
    mode,
    getBuild: options.getBuild,
    stylesheets: options.clientDir ? await readStylesheets(options.clientDir) : new Map(),
    waitlist,
    subprocessors: options.subprocessors,
    privacyRequests: options.privacyRequests,
    deliveries: options.deliveries,
    mail: options.mail,
    webhooks: options.webhooks,
    imports: importsPort(options.imports),
    dashboard: options.dashboard,
    activity: options.activity,
    adminGuard,
    sessions,
    account: options.account,
    adminVerification: options.adminVerification,
  });
  await app.register(pages, {
    render,
    sessions,
    routes,
    cache: mode === "production",
    pageViews: options.pageViews,
    requireAdminPost: adminGuard.requireAdminPost,
  });

  return app;
}
