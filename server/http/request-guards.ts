/**
 * Checks that run before any route: plain HTTP is sent to the HTTPS origin, and state-changing
 * requests from other sites are refused (the cookie is SameSite=Lax, this is the second lock).
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import type { Env } from "#server/env.ts";
import { requestOrigin } from "#server/http/request-origin.ts";
import { SITE } from "#src/content/site.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a browser sent this request from another site. Fetch metadata first (every current
 * browser sends Sec-Fetch-Site); then the Origin header, which must be the origin the request came
 * to (or SITE_URL's); a request with neither is not from a browser page and carries no ambient
 * credentials worth forging. The same rule as Go's net/http CrossOriginProtection.
 */
export function isCrossSite(req: FastifyRequest, siteOrigin: string): boolean {
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  // A browser that sent Sec-Fetch-Site: same-origin sends the page's own origin: anything else
  // is not a browser's doing, and React Router would refuse the action anyway.
  return origin !== requestOrigin(req) && (site !== undefined || origin !== siteOrigin);
}

/** The page a visitor sees when a form on another site posted to ours. */
function crossSitePage(env: Env): string {
  const home = `${env.siteUrl}/`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Request refused | ${SITE.name}</title></head><body><main><h1>This form came from another site</h1><p>For your safety, ${SITE.name} accepts forms only from its own pages, so nothing was sent or saved. If you meant to use ${SITE.name}, open <a href="${home}">${home}</a> and try again there.</p></main></body></html>`;
}

/** The https:// URL a plain-HTTP request should have used, or null when it is fine as it is. */
function httpsRedirectTarget(req: FastifyRequest, env: Env): string | null {
  if (!env.siteUrl.startsWith("https://") || req.protocol === "https") return null;
  // Load balancers probe health over plain HTTP from inside the network.
  if (req.url === "/api/health") return null;
  return `${env.siteUrl}${req.url.startsWith("/") ? req.url : "/"}`;
}

/**
 * The onRequest hook. It takes Fastify's `done` rather than being async: every request passes
 * here, and an async hook costs a promise and a turn of the microtask queue even when it lets the
 * request through. A refusal is sent and `done` is not called, which ends the request there.
 */
export function createRequestGuards(env: Env) {
  const siteOrigin = new URL(env.siteUrl).origin;
  return function requestGuards(
    req: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ) {
    const target = httpsRedirectTarget(req, env);
    if (target && req.url.startsWith("/api/")) {
      // A script that sent a token over plain HTTP has already leaked it: say so, never hide it
      // behind a redirect (ASVS 4.1.2). Pages, which people open, are redirected.
      req.log.warn({ event: "request.plain_http_api_refused" }, "API request over plain HTTP");
      reply
        .status(403)
        .header("Cache-Control", "no-store")
        .send({ ok: false, message: `This API is served over HTTPS only: ${env.siteUrl}` });
      return;
    }
    if (target) {
      // 308 keeps the method and body; the browser then remembers HSTS and never asks again.
      reply.status(308).header("Location", target).header("Cache-Control", "no-store").send();
      return;
    }
    if (!SAFE_METHODS.has(req.method) && isCrossSite(req, siteOrigin)) {
      req.log.warn({ event: "request.cross_site_refused" }, "cross-site request refused");
      const message = "Requests from other sites are not accepted.";
      reply.status(403).header("Cache-Control", "no-store");
      if (req.url.startsWith("/api/")) reply.send({ ok: false, message });
      else reply.type("text/html; charset=utf-8").send(crossSitePage(env));
      return;
    }
    done();
  };
}
