/**
 * Rendered pages for anonymous visitors, kept in memory with their compressed forms: the same
 * bytes for everyone, so a hit costs no rendering and no compression. Pages are a pure function of
 * the build and the configuration, so entries never go stale within a process. Keys are the
 * canonical paths of the build's pages and one for the not-found page (server/page-paths.ts), so
 * the cache is bounded by the routes and nothing a client sends adds or evicts an entry.
 */
import { createHash } from "node:crypto";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

export type CachedPage = {
  status: number;
  headers: Record<string, string>;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
};

export function createPageCache() {
  const pages = new Map<string, CachedPage>();
  return {
    get(key: string): CachedPage | undefined {
      return pages.get(key);
    },
    set(
      key: string,
      page: { status: number; headers: Record<string, string>; body: Buffer },
    ): CachedPage {
      const entry: CachedPage = {
        status: page.status,
        headers: page.headers,
        identity: page.body,
        br: brotliCompressSync(page.body, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: 11,
            [zlib.BROTLI_PARAM_SIZE_HINT]: page.body.length,
          },
        }),
        gzip: gzipSync(page.body, { level: 9 }),
        etag: `"${createHash("sha256").update(page.body).digest("base64url").slice(0, 22)}"`,
      };
      pages.set(key, entry);
      return entry;
    },
    get size() {
      return pages.size;
    },
  };
}
