/**
 * The origin a visitor used to reach the site: the scheme and host of this request, which may differ
 * from SITE_URL (reached by IP, by another name, or through a TLS-terminating proxy). Pages answer
 * forms on that origin, so a form posted from a page is same-origin with it. Links meant to be
 * kept (canonical, sitemap, mail) always use SITE_URL instead (decision 009).
 *
 * Forwarded headers count only from proxies named in TRUST_PROXY: Fastify's `protocol` and `host`
 * read X-Forwarded-Proto and X-Forwarded-Host only then.
 */
import type { FastifyRequest } from "fastify";

/** A DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `scheme://host[:port]` of this request, or null when its Host is not a host name. */
export function requestOrigin(req: FastifyRequest): string | null {
  const host = req.host;
  if (typeof host !== "string" || host.length > 255 || !HOST.test(host)) return null;
  return `${req.protocol}://${host.toLowerCase()}`;
}
