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
  app.addHook("onRequest", async (req, reply) => {
    reply.headers(headers).header("X-Request-Id", req.id);
  });
}

export default fp(securityHeaders, { name: "security-headers" });
