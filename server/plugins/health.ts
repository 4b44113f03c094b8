/**
 * GET /api/health for load balancers and operators: 200 when the database answers, 503 when it
 * does not, and which React build this process runs.
 */
import type { FastifyInstance } from "fastify";
import { loadedReactBuild } from "#server/pages/react-build.ts";

export type HealthOptions = {
  /** Answers when the database does; throws when it does not. */
  ping: () => Promise<void>;
};

export default async function health(app: FastifyInstance, { ping }: HealthOptions) {
  app.get("/api/health", async (_req, reply) => {
    reply.header("Cache-Control", "no-store");
    try {
      await ping();
      return reply.send({ ok: true, database: "ok", react: loadedReactBuild() });
    } catch {
      return reply
        .status(503)
        .send({ ok: false, database: "unavailable", react: loadedReactBuild() });
    }
  });
}
