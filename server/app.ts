import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import { createRequestHandler, isRouteErrorResponse, type ServerBuild } from "react-router";
import type { Env } from "#server/env.ts";
import { getPublicEnv } from "#server/public-env.ts";
import { finishPage } from "#server/html.ts";
import { maskEmail } from "#server/log-safety.ts";
import { createPageCache, type CachedPage } from "#server/page-cache.ts";
import { classifyPath, sitemapPaths, staticPagePaths } from "#server/page-paths.ts";
import {
  baseSecurityHeaders,
  htmlSecurityHeaders,
  NON_DOCUMENT_CSP,
} from "#server/security-headers.ts";
import { createRequestGuards } from "#server/request-guards.ts";
import { requestOrigin } from "#server/request-origin.ts";
import { robotsTxt, sitemapXml } from "#server/seo.ts";
import type { TokenVerifier } from "#server/firebase-admin.ts";
import fastifyCookie from "@fastify/cookie";
import type { AdminAccess } from "#src/features/waitlist/types.ts";
import { registerSessionRoutes, type Sessions } from "#server/session.ts";
import type { StaticAsset } from "#server/static-assets.ts";
import { clientKey, registerWaitlistRoutes } from "#server/waitlist/routes.ts";
import { createAdminGuard } from "#server/admin-guard.ts";
import type { WaitlistService } from "#server/waitlist/service.ts";

export type AppOptions = {
  env: Env;
  /** The React Router server build; a function so development can reload it on every request. */
  getBuild: () => Promise<ServerBuild>;
  assets: Map<string, StaticAsset>;
  /** In development Vite serves modules and injects inline scripts of its own: no CSP there. */
  mode: "production" | "development";
  sessions: Sessions;
  verifyIdToken: TokenVerifier;
  waitlist: WaitlistService;
  /** Answers when the database does; throws when it does not. */
  ping: () => Promise<void>;
  /** Structured logs; none when omitted (development, some tests). */
  loggerInstance?: FastifyBaseLogger;
};

/** One log line per request, when it completes, instead of Fastify's two. */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null, req: FastifyRequest, reply: FastifyReply) {
    // The path only: query strings can carry one-time codes (password reset links).
    const line = {
      method: req.method,
      path: req.url.split("?")[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: req.ip,
      uid: req.sessionUid ?? undefined,
    };
    if (error || reply.statusCode >= 500)
      req.log.error({ ...line, err: error ?? undefined }, "request failed");
    else req.log.info(line, "request");
  }
}

declare module "fastify" {
  interface FastifyRequest {
    /** Who a valid session cookie named, once it has been checked (for the request log line). */
    sessionUid: string | null;
  }
}

type FormFields = Record<string, string | string[]>;

/** application/x-www-form-urlencoded to an object; a repeated key becomes an array. */
function parseForm(body: string): FormFields {
  // No prototype: a field named toString or __proto__ is just a field.
  const fields = Object.create(null) as FormFields;
  for (const [key, value] of new URLSearchParams(body)) {
    const seen = Object.hasOwn(fields, key) ? fields[key] : undefined;
    fields[key] =
      seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return fields;
}

function encodeForm(fields: FormFields): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  return params.toString();
}

const COMPRESS_MIN_BYTES = 1024;
const CLIENT_ERROR_TEXT: Record<number, string> = {
  400: "Bad request.",
  408: "The request took too long to arrive.",
  431: "The request's headers are too large.",
};
/** The one cache entry every path that names no page shares: the not-found page is the same. */
const NOT_FOUND_KEY = "*";
/** React Router's lazy route discovery endpoint (its default `routeDiscovery.manifestPath`). */
const ROUTE_DISCOVERY_PATH = "/__manifest";

function preferredEncoding(req: FastifyRequest): "br" | "gzip" | null {
  const accept = req.headers["accept-encoding"] ?? "";
  if (/\bbr\b/.test(accept)) return "br";
  if (/\bgzip\b/.test(accept)) return "gzip";
  return null;
}

function safePathname(rawUrl: string): string | null {
  try {
    return decodeURIComponent(new URL(rawUrl, "http://localhost").pathname);
  } catch {
    return null;
  }
}

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

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const { env, assets, mode } = options;
  const baseHeaders: Record<string, string> = {
    ...baseSecurityHeaders(env),
    // Anything that is not a page (JSON, CSV, text, files) may load and frame nothing; pages
    // replace this with their own policy. Development's Vite pages need their inline scripts.
    ...(mode === "production" ? { "Content-Security-Policy": NON_DOCUMENT_CSP } : {}),
  };
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: false }),
    logController: new OneLinePerRequest(),
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
    // Requests too broken to route (a malformed or oversized header, a bad URL) get a short
    // plain-text answer with the same security headers as every other response, and echo nothing.
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return;
      const code = (error as { code?: string }).code;
      const status =
        code === "HPE_HEADER_OVERFLOW" ? 431 : code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
      const body = `${CLIENT_ERROR_TEXT[status] ?? "Bad request."}\n`;
      const head = Object.entries({
        ...baseHeaders,
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Length": String(Buffer.byteLength(body)),
        "Cache-Control": "no-store",
        Connection: "close",
      })
        .map(([name, value]) => `${name}: ${value}`)
        .join("\r\n");
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n\r\n${body}`);
    },
    frameworkErrors: (_error, _req, reply) => {
      void (reply as FastifyReply)
        .headers(baseHeaders)
        .status(400)
        .header("Cache-Control", "no-store")
        .type("text/plain; charset=utf-8")
        .send("Bad request.");
    },
  });

  app.decorateRequest("sessionUid", null);
  // Cookies are parsed and signed by @fastify/cookie; the session cookie carries only a signed id.
  await app.register(fastifyCookie, {
    secret: [...options.sessions.secrets],
    algorithm: "sha256",
    hook: "onRequest",
  });
  const adminGuard = createAdminGuard({
    env,
    sessions: options.sessions,
    verifyIdToken: options.verifyIdToken,
  });

  // Only JSON (Fastify's own parser) and forms are read; anything else is refused with 415.
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_req, body, done) => {
      done(null, parseForm(body as string));
    },
  );

  const guards = createRequestGuards(env);
  app.addHook("onRequest", async (req, reply) => {
    reply.headers(baseHeaders).header("X-Request-Id", req.id);
    return guards(req, reply);
  });

  // The sitemap lists the routes that say so in their handle: derived from the build, never a list.
  const { routes } = await options.getBuild();
  const sitemap = sitemapXml(env, sitemapPaths(routes));
  app.get("/robots.txt", async (_req, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .header("Cache-Control", "public, max-age=3600")
      .send(robotsTxt(env)),
  );
  app.get("/sitemap.xml", async (_req, reply) =>
    reply
      .type("application/xml; charset=utf-8")
      .header("Cache-Control", "public, max-age=3600")
      .send(sitemap),
  );

  registerSessionRoutes(app, {
    env,
    sessions: options.sessions,
    verifyIdToken: options.verifyIdToken,
  });
  registerWaitlistRoutes(app, {
    env,
    waitlist: options.waitlist,
    ping: options.ping,
    requireAdmin: adminGuard.requireAdmin,
  });

  const handleRequest = createRequestHandler(options.getBuild, mode);
  const publicEnv = getPublicEnv(env);

  // Production pages inline their stylesheet (one request fewer before the first paint).
  const stylesheets = new Map<string, string>(
    mode === "production"
      ? [...assets]
          .filter(([href]) => href.endsWith(".css"))
          .map(([href, asset]) => [href, asset.body.toString("utf8")])
      : [],
  );
  const pageCache = createPageCache();
  const pagePaths = staticPagePaths(routes);

  function sendCached(req: FastifyRequest, reply: FastifyReply, page: CachedPage) {
    reply.status(page.status).headers(page.headers).header("ETag", page.etag);
    if (req.headers["if-none-match"] === page.etag) return reply.status(304).send();
    const encoding = preferredEncoding(req);
    if (encoding === "br") return reply.header("Content-Encoding", "br").send(page.br);
    if (encoding === "gzip") return reply.header("Content-Encoding", "gzip").send(page.gzip);
    return reply.send(page.identity);
  }

  type Rendered = {
    status: number;
    headers: Record<string, string>;
    cookies: string[];
    type: string;
    body: Buffer;
  };

  /** One render by React Router, finished (CSS, loader, CSP hashes) and with its cache headers. */
  async function render(
    req: FastifyRequest,
    session: Awaited<ReturnType<Sessions["userFrom"]>>,
    origin: string,
    target: string,
    method: string,
  ): Promise<Rendered> {
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      headers.set(key, Array.isArray(value) ? value.join(", ") : value);
    }
    const formBody = method === "POST" ? encodeForm(req.body as FormFields) : undefined;
    if (formBody !== undefined) headers.delete("content-length");
    const request = new Request(`${origin}${target}`, { method, headers, body: formBody });
    const sessionUser = session ? { uid: session.uid, email: session.email } : null;
    // An admin loader or action asks, and only then is the account read from Firebase: the guard
    // does the check, so no admin path can be missed by matching URLs (decision 011).
    let adminAccess: Promise<AdminAccess> | undefined;
    const askAdminAccess = () =>
      (adminAccess ??= (async (): Promise<AdminAccess> => {
        // Asked again even when the page saw no session: a session that could not be checked
        // (the database away) is a 503 for the admin, not a sign-in page.
        const { access, user } = await adminGuard.bySession(req);
        const email = user?.email ?? session?.email ?? null;
        if (access !== "ok") {
          req.log.warn(
            { event: "admin.page_refused", access, email: maskEmail(email) },
            "admin page refused",
          );
        }
        return access;
      })());
    const response = await handleRequest(request, {
      publicEnv,
      sessionUser,
      clientKey: clientKey(req),
      requestId: req.id,
      reportError: (error: unknown) => reportRenderError(req, error),
      waitlist: options.waitlist,
      adminAccess: askAdminAccess,
    });

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
    if (sessionUser) {
      // It names the visitor or depends on who they are: never kept by any shared cache.
      out["cache-control"] = "private, no-store";
    } else {
      // The same for every anonymous visitor: a shared cache may keep it, and must ask again.
      out["cache-control"] ??= "public, no-cache";
      out["vary"] = "Cookie, Accept-Encoding";
    }
    return { status: response.status, headers: out, cookies, type, body };
  }

  /** Pages being rendered for the cache, so a burst of first visitors costs one render. */
  const rendering = new Map<string, Promise<CachedPage | null>>();
  /**
   * Routes whose page turned out not to be shareable (it said `no-store` or `private`, or set a
   * cookie): rendered for each request from then on, with its query. Keys are canonical paths
   * from the build's route manifest, so the set is as bounded as the cache.
   */
  const unshareable = new Set<string>();

  /**
   * The anonymous page for a cache key, rendered once per process (decision 010). Only what is the
   * same for every visitor is kept: a 200 or 404 with no cookie and nothing private.
   */
  function cachedPage(
    req: FastifyRequest,
    origin: string,
    key: string,
    target: string,
  ): Promise<CachedPage | null> {
    const hit = pageCache.get(key);
    if (hit) return Promise.resolve(hit);
    if (unshareable.has(key)) return Promise.resolve(null);
    let pending = rendering.get(key);
    if (!pending) {
      pending = render(req, null, origin, target, "GET")
        .then((page) => {
          // A failure or a redirect is not kept and not remembered: the next visitor tries again.
          if (page.status !== 200 && page.status !== 404) return null;
          if (!page.type.startsWith("text/html")) return null;
          const personal =
            page.cookies.length > 0 || /private|no-store/.test(page.headers["cache-control"] ?? "");
          if (!personal) return pageCache.set(key, page);
          unshareable.add(key);
          return null;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    return pending;
  }

  async function renderPage(req: FastifyRequest, reply: FastifyReply) {
    // The origin the visitor used, so a form posted from this page is same-origin with it; links
    // meant to last are built from SITE_URL by the pages themselves (decision 009).
    const origin = requestOrigin(req);
    if (origin === null || !req.url.startsWith("/")) {
      req.log.warn({ event: "request.bad_target" }, "request refused: unusable Host or target");
      return reply.status(400).type("text/plain; charset=utf-8").send("Bad request");
    }
    const queryAt = req.url.indexOf("?");
    const pathname = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
    const search = queryAt === -1 ? "" : req.url.slice(queryAt);
    const session = await options.sessions.userFrom(req);
    const safe = req.method === "GET" || req.method === "HEAD";

    // React Router's own requests answer client-side navigations, not visitors: its data
    // requests (`/page.data`) and its route discovery (`/__manifest`).
    const routerRequest = pathname.endsWith(".data") || pathname === ROUTE_DISCOVERY_PATH;
    if (safe && !routerRequest) {
      const where = classifyPath(pathname, search, pagePaths);
      if (where.kind === "redirect") {
        return reply
          .status(301)
          .header("Location", where.location)
          .header("Cache-Control", "public, max-age=3600")
          .send();
      }
      // Anonymous pages never depend on the query or the request's headers: every visitor gets
      // the bytes rendered once for the page's canonical path, whatever else the URL carries.
      if (mode === "production" && !session) {
        const page =
          where.kind === "page"
            ? await cachedPage(req, origin, where.path, where.path)
            : await cachedPage(req, origin, NOT_FOUND_KEY, pathname);
        if (page) return sendCached(req, reply, page);
      }
    }

    const page = await render(
      req,
      session,
      origin,
      req.url,
      req.method === "HEAD" ? "GET" : req.method,
    );
    reply.status(page.status).headers(page.headers);
    if (page.cookies.length > 0) reply.header("set-cookie", page.cookies);
    let body = page.body;
    // Whatever is not cached is compressed cheaply: its cost is paid on every request.
    const encoding = body.length >= COMPRESS_MIN_BYTES ? preferredEncoding(req) : null;
    if (encoding && /^(text\/|application\/json)/.test(page.type)) {
      body =
        encoding === "br"
          ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } })
          : gzipSync(body, { level: 4 });
      reply.header("Content-Encoding", encoding).header("Vary", "Accept-Encoding");
    }
    return reply.send(body);
  }

  function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: StaticAsset) {
    reply
      .header("Content-Type", asset.type)
      .header("Cache-Control", asset.cacheControl)
      .header("ETag", asset.etag)
      .header("Accept-Ranges", "bytes");
    if (asset.br || asset.gzip) reply.header("Vary", "Accept-Encoding");
    if (req.headers["if-none-match"] === asset.etag) return reply.status(304).send();

    const range = req.headers.range;
    if (range && !asset.br && !asset.gzip) {
      const match = /^bytes=(\d*)-(\d*)$/.exec(range);
      const size = asset.body.length;
      let start = match?.[1] ? Number(match[1]) : NaN;
      let end = match?.[2] ? Number(match[2]) : NaN;
      if (match && Number.isNaN(start) && !Number.isNaN(end)) {
        start = Math.max(0, size - end);
        end = size - 1;
      } else if (match && !Number.isNaN(start)) {
        end = Number.isNaN(end) ? size - 1 : Math.min(end, size - 1);
      }
      if (!match || Number.isNaN(start) || start > end || start >= size) {
        return reply.status(416).header("Content-Range", `bytes */${size}`).send();
      }
      return reply
        .status(206)
        .header("Content-Range", `bytes ${start}-${end}/${size}`)
        .send(asset.body.subarray(start, end + 1));
    }

    const encoding = preferredEncoding(req);
    if (encoding === "br" && asset.br) return reply.header("Content-Encoding", "br").send(asset.br);
    if (encoding && asset.gzip) return reply.header("Content-Encoding", "gzip").send(asset.gzip);
    return reply.send(asset.body);
  }

  app.route({
    method: "GET",
    url: "/*",
    handler: async (req, reply) => {
      const pathname = safePathname(req.url);
      if (pathname === null) return reply.status(400).type("text/plain").send("Bad request");
      const asset = assets.get(pathname);
      if (asset) return sendAsset(req, reply, asset);
      return renderPage(req, reply);
    },
  });

  // Form posts to pages (the waitlist form without JavaScript, and React Router's actions).
  app.post("/*", async (req, reply) => {
    const type = req.headers["content-type"] ?? "";
    if (!type.startsWith("application/x-www-form-urlencoded")) {
      return reply
        .status(415)
        .type("text/plain; charset=utf-8")
        .send("Forms are sent as application/x-www-form-urlencoded.");
    }
    return renderPage(req, reply);
  });

  app.setNotFoundHandler(async (_req, reply) =>
    reply.status(404).type("text/plain; charset=utf-8").send("Not found"),
  );
  app.setErrorHandler(async (error: FastifyError, req, reply) => {
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status === 500) req.log.error({ err: error }, "request failed");
    const message =
      status === 500
        ? "Something went wrong on our side."
        : status === 413
          ? "The request is too large."
          : status === 415
            ? "Send JSON or a form (application/x-www-form-urlencoded)."
            : error.code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
                error.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
              ? "The body is not valid JSON."
              : "The request could not be read.";
    if (req.url.startsWith("/api/")) return reply.status(status).send({ ok: false, message });
    return reply.status(status).type("text/plain; charset=utf-8").send(message);
  });

  return app;
}
