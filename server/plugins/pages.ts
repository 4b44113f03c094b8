/**
 * Every path that is not an API route or a file is a page of the React Router app: GET and HEAD
 * (from the shared cache for anonymous visitors in production), and form posts to a page's action
 * (the waitlist form without JavaScript, sign-out, admin actions). Decisions 009 and 010.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AdminGuard } from "#server/identity/admin-guard.ts";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { ServerBuild } from "react-router";
import { preferredEncoding } from "#server/http/encoding.ts";
import { createPageCache, NOT_FOUND_KEY, type CachedPage } from "#server/pages/page-cache.ts";
import { classifyPath, personalQueryPaths, staticPagePaths } from "#server/pages/page-paths.ts";
import type { PageViews } from "#server/operations/page-views.ts";
import type { PageRenderer, RenderedPage } from "#server/pages/render-page.ts";
import { requestOrigin } from "#server/http/request-origin.ts";
import type { Sessions } from "#server/identity/session.ts";

export type PagesOptions = {
  render: PageRenderer;
  sessions: Sessions;
  routes: ServerBuild["routes"];
  /** Only production keeps pages: development renders every request from fresh modules. */
  cache: boolean;
  /** Counts each page sent as a document to a person (server/operations/page-views.ts). */
  pageViews?: PageViews | undefined;
  /** The admin guard for form posts to the admin's pages, asked before their body is read. */
  requireAdminPost: AdminGuard["requireAdminPost"];
};

/**
 * Whether a request target names one of the admin's pages (their loaders and actions call the
 * admin guard too, decision 013), however it is spelled: any case, doubled slashes, escapes.
 */
function isAdminPage(url: string): boolean {
  // Read as the page renderer reads it (origin + target): dot segments, `%2e%2e` and backslashes
  // resolved by the URL parser, so `/x/../admin/waitlist` is the admin's page here as there.
  let path = url.split("?")[0] ?? "";
  try {
    path = decodeURIComponent(new URL(`http://localhost${url}`).pathname);
  } catch {
    // Not decodable: such a target names no page at all.
  }
  return /^\/admin(?:[/.]|$)/i.test(path.replace(/\/{2,}/g, "/"));
}

/** Below this a response is sent as it is: compressing it would save less than it costs. */
const COMPRESS_MIN_BYTES = 1024;
/** React Router's lazy route discovery endpoint (its default `routeDiscovery.manifestPath`). */
const ROUTE_DISCOVERY_PATH = "/__manifest";

function sendCached(req: FastifyRequest, reply: FastifyReply, page: CachedPage) {
  // Header names in lower case, as the cache keeps them (server/pages/page-cache.ts): Fastify sends them
  // so, and a name already in lower case needs no new string on every request.
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  const etag = page.etag[encoding ?? "identity"];
  reply.status(page.status).headers(page.headers).header("etag", etag);
  if (req.headers["if-none-match"] === etag) return reply.status(304).send();
  if (encoding) return reply.header("content-encoding", encoding).send(page[encoding]);
  return reply.send(page.identity);
}

/** Whatever is not cached is compressed cheaply: its cost is paid on every request. */
function compressCheaply(req: FastifyRequest, type: string, body: Buffer) {
  if (body.length < COMPRESS_MIN_BYTES || !/^(text\/|application\/json)/.test(type)) return null;
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  if (encoding === "br")
    return {
      encoding,
      body: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } }),
    };
  if (encoding === "gzip") return { encoding, body: gzipSync(body, { level: 4 }) };
  return null;
}

export default async function pages(app: FastifyInstance, options: PagesOptions) {
  const { render, sessions, pageViews } = options;
  const pageCache = createPageCache();
  const pagePaths = staticPagePaths(options.routes);
  const personalQueries = personalQueryPaths(options.routes);
  /** Whether this request carries a query parameter that makes its page personal. */
  const personal = (path: string, search: string) => {
    const names = personalQueries.get(path);
    if (!names) return false;
    const params = new URLSearchParams(search);
    return names.some((name) => params.has(name));
  };

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
    const session = await sessions.userFrom(req);
    const safe = req.method === "GET" || req.method === "HEAD";

    // React Router's own requests answer client-side navigations, not visitors: its data
    // requests (`/page.data`) and its route discovery (`/__manifest`).
    const routerRequest = pathname.endsWith(".data") || pathname === ROUTE_DISCOVERY_PATH;
    /** The canonical path of the page this document shows, when it is one of the build's. */
    let viewOf: string | undefined;
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
      // The one exception is a parameter a page declares personal (an invitation's link).
      if (options.cache && !session && !(where.kind === "page" && personal(where.path, search))) {
        const [key, target] =
          where.kind === "page" ? [where.path, where.path] : [NOT_FOUND_KEY, pathname];
        // This request's own render, when the cache asked it for one (not another visitor's).
        let own: RenderedPage | undefined;
        const page = await pageCache.page(
          key,
          async () => (own = await render(req, null, origin, target, "GET")),
        );
        if (page) {
          if (where.kind === "page" && page.status === 200) pageViews?.count(req, where.path);
          return sendCached(req, reply, page);
        }
        // Not for sharing (a redirect, a failure, a private page): when it was rendered for
        // exactly what this visitor asked, it is their answer, and it is not rendered twice.
        if (own && target === req.url)
          return sendRendered(req, reply, own, where.kind === "page" ? where.path : undefined);
      }
      if (where.kind === "page") viewOf = where.path;
    }

    const page = await render(
      req,
      session,
      origin,
      req.url,
      req.method === "HEAD" ? "GET" : req.method,
    );
    return sendRendered(req, reply, page, viewOf);
  }

  /** Sends a page rendered for this request; counts it as a view of `viewOf` when it is one. */
  function sendRendered(
    req: FastifyRequest,
    reply: FastifyReply,
    page: RenderedPage,
    viewOf: string | undefined,
  ) {
    // Pages for one person (admin, account, a mail link's page) are not views of the site.
    const forOnePerson = /private|no-store/.test(page.headers["cache-control"] ?? "");
    if (viewOf !== undefined && page.status === 200 && !forOnePerson) pageViews?.count(req, viewOf);
    reply.status(page.status).headers(page.headers);
    if (page.cookies.length > 0) reply.header("set-cookie", page.cookies);
    const compressed = compressCheaply(req, page.type, page.body);
    if (!compressed) return reply.send(page.body);
    return reply
      .header("Content-Encoding", compressed.encoding)
      .header("Vary", page.headers["vary"] ?? "Accept-Encoding")
      .send(compressed.body);
  }

  app.get("/*", async (req, reply) => {
    // A target whose escapes do not decode names no page of ours.
    if (!decodablePath(req.url))
      return reply.status(400).type("text/plain; charset=utf-8").send("Bad request");
    return renderPage(req, reply);
  });

  // Form posts to pages (the waitlist form without JavaScript, and React Router's actions).
  app.post(
    "/*",
    {
      // An admin action is answered 401, 403 or 503 before its body is read: whatever a non-admin
      // sends (any content type, any size), the answer is the same refusal. A hook of this route
      // alone, so that reading a page (every other request here) does not pass through it.
      onRequest: async (req, reply) => {
        if (isAdminPage(req.url)) return options.requireAdminPost(req, reply);
      },
    },
    async (req, reply) => {
      // A form, in either of its encodings, or nothing at all: a mail client's one-click
      // unsubscribe (RFC 8058) may send its POST without a body, the token being in the link.
      const type = (req.headers["content-type"] ?? "").toLowerCase();
      const form =
        type.startsWith("application/x-www-form-urlencoded") ||
        type.startsWith("multipart/form-data");
      if (!form && !(type === "" && req.body === undefined)) {
        return reply
          .status(415)
          .type("text/plain; charset=utf-8")
          .send("Forms are sent as application/x-www-form-urlencoded or multipart/form-data.");
      }
      return renderPage(req, reply);
    },
  );
}

/**
 * A target that starts with one `/` and holds no `%` (nor a tab or line break, which the URL parser
 * drops, so that `/<tab>/` would read as `//`): its path always decodes, as the parser escapes what
 * it must as whole UTF-8 sequences. Most targets are such; the others are parsed.
 */
const PLAIN_PATH = /^\/(?![/\\])[^%\t\n\r]*$/;

function decodablePath(rawUrl: string): boolean {
  if (PLAIN_PATH.test(rawUrl)) return true;
  try {
    decodeURIComponent(new URL(rawUrl, "http://localhost").pathname);
    return true;
  } catch {
    return false;
  }
}
