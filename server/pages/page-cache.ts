/**
 * Rendered pages for anonymous visitors, kept in memory with their compressed forms: the same
 * bytes for everyone, so a hit costs no rendering and no compression. Pages are a pure function of
 * the build and the configuration, so entries never go stale within a process. Keys are the
 * canonical paths of the build's pages and one for the not-found page (server/pages/page-paths.ts), so
 * the cache is bounded by the routes and nothing a client sends adds or evicts an entry.
 * Decision 010.
 */
import { createHash } from "node:crypto";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { Encoding } from "#server/http/encoding.ts";
import type { RenderedPage } from "#server/pages/render-page.ts";

export type CachedPage = {
  status: number;
  /** Named in lower case, as Fastify sends them, so that no request has to lower them. */
  headers: Record<string, string>;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /**
   * One strong validator per encoding (RFC 9110 8.8.3): a cache holding the brotli bytes must not
   * hear "not modified" for a client that cannot read them.
   */
  etag: Record<Encoding | "identity", string>;
};

/** The one entry every path that names no page shares: the not-found page is the same. */
export const NOT_FOUND_KEY = "*";

function compressOnce(page: RenderedPage): CachedPage {
  return {
    status: page.status,
    headers: Object.fromEntries(
      Object.entries(page.headers).map(([name, value]) => [name.toLowerCase(), value]),
    ),
    identity: page.body,
    // Paid once per page and process: the smallest Brotli and gzip there are.
    br: brotliCompressSync(page.body, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: 11,
        [zlib.BROTLI_PARAM_SIZE_HINT]: page.body.length,
      },
    }),
    gzip: gzipSync(page.body, { level: 9 }),
    etag: etagsOf(page.body),
  };
}

function etagsOf(body: Buffer): CachedPage["etag"] {
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 22);
  return { identity: `"${hash}"`, br: `"${hash}-br"`, gzip: `"${hash}-gz"` };
}

/** Whether every visitor may get these bytes: a 200 or 404 page, no cookie, nothing private. */
function shareable(page: RenderedPage): "yes" | "never" | "not-now" {
  // A failure or a redirect is not kept and not remembered: the next visitor tries again.
  if (page.status !== 200 && page.status !== 404) return "not-now";
  if (!page.type.startsWith("text/html")) return "not-now";
  const personal =
    page.cookies.length > 0 || /private|no-store/.test(page.headers["cache-control"] ?? "");
  return personal ? "never" : "yes";
}

export function createPageCache() {
  const pages = new Map<string, CachedPage>();
  /** Pages being rendered for the cache, so a burst of first visitors costs one render. */
  const rendering = new Map<string, Promise<CachedPage | null>>();
  /**
   * Routes whose page turned out not to be shareable (it said `no-store` or `private`, or set a
   * cookie): rendered for each request from then on, with its query. Keys come from the same
   * bounded set as the cache's.
   */
  const unshareable = new Set<string>();

  return {
    /**
     * The shared page for `key`, rendering it with `render` the first time; null when this route's
     * page cannot be shared (the caller renders it for the visitor instead).
     */
    page(key: string, render: () => Promise<RenderedPage>): Promise<CachedPage | null> {
      const hit = pages.get(key);
      if (hit) return Promise.resolve(hit);
      if (unshareable.has(key)) return Promise.resolve(null);
      let pending = rendering.get(key);
      if (!pending) {
        pending = render()
          .then((rendered) => {
            const verdict = shareable(rendered);
            if (verdict === "never") unshareable.add(key);
            if (verdict !== "yes") return null;
            const entry = compressOnce(rendered);
            pages.set(key, entry);
            return entry;
          })
          .finally(() => rendering.delete(key));
        rendering.set(key, pending);
      }
      return pending;
    },
    get size() {
      return pages.size;
    },
  };
}
