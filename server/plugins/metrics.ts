/**
 * Request durations for Prometheus, timed on every response, and GET /metrics on the main port
 * for the bearer of METRICS_TOKEN (server/operations/metrics.ts). Without a token the route is not
 * registered, so /metrics is an unknown page like any other (404).
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import {
  bearerMatches,
  routeLabel,
  statusClass,
  type Metrics,
} from "#server/operations/metrics.ts";

type MetricsOptions = { metrics: Metrics; token: string | undefined };

async function metricsPlugin(app: FastifyInstance, { metrics, token }: MetricsOptions) {
  // With `done` rather than async: every response passes here, and an async hook costs a
  // promise and a turn of the microtask queue.
  app.addHook("onResponse", (req, reply, done) => {
    metrics.httpDuration.observe(
      {
        method: req.method,
        route: routeLabel(req.routeOptions.url),
        status: statusClass(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });

  if (token === undefined) return;
  app.get("/metrics", async (req, reply) => {
    reply.header("Cache-Control", "no-store");
    if (!bearerMatches(req.headers.authorization, token)) {
      req.log.warn({ event: "metrics.refused" }, "metrics refused: missing or wrong bearer token");
      return reply
        .status(401)
        .header("WWW-Authenticate", 'Bearer realm="metrics"')
        .type("text/plain; charset=utf-8")
        .send("A bearer token is required.\n");
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

export default fp(metricsPlugin, { name: "metrics" });
