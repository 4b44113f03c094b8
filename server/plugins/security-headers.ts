/**
 * Every response carries the security headers and its request id, set first thing, so the answers
 * of later hooks (a redirect, a refusal) and of every route have them without asking.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

type SecurityHeadersOptions = {
  /** From `responseHeaders` in server/http/security-headers.ts, computed once at start-up. */
  headers: Readonly<Record<string, string>>;
};

async function securityHeaders(app: FastifyInstance, { headers }: SecurityHeadersOptions) {
  // Named in lower case, as Fastify stores and sends them: a name that is already lower case is
  // looked up as it is, where another would be lowered into a new string on every request.
  const lowerCased = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  // With `done` rather than async: every request passes here, and an async hook costs a promise
  // and a turn of the microtask queue.
  app.addHook("onRequest", (req, reply, done) => {
    reply.headers(lowerCased).header("x-request-id", req.id);
    done();
  });
}

export default fp(securityHeaders, { name: "security-headers" });
