/**
 * Checks before any route: plain HTTP goes to the HTTPS origin, and state-changing requests sent
 * from other sites are refused (the rules themselves are in server/http/request-guards.ts).
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Env } from "#server/env.ts";
import { createRequestGuards } from "#server/http/request-guards.ts";

async function requestGuards(app: FastifyInstance, { env }: { env: Env }) {
  app.addHook("onRequest", createRequestGuards(env));
}

export default fp(requestGuards, { name: "request-guards", dependencies: ["security-headers"] });
