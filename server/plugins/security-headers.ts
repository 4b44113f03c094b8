/**
 * Every response carries the security headers and its request id, set first thing, so the answers
 * of later hooks (a redirect, a refusal) and of every route have them without asking.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

type SecurityHeadersOptions = {
  /** From `responseHeaders` in server/security-headers.ts, computed once at start-up. */
  headers: Readonly<Record<string, string>>;
};

async function securityHeaders(app: FastifyInstance, { headers }: SecurityHeadersOptions) {
  // With `done` rather than async: every request passes here, and an async hook costs a promise
  // and a turn of the microtask queue.
  app.addHook("onRequest", (req, reply, done) => {
    reply.headers(headers).header("X-Request-Id", req.id);
    done();
  });
}

export default fp(securityHeaders, { name: "security-headers" });
