/**
 * METRICS_PORT: the metrics on a port of their own (loopback unless METRICS_HOST says otherwise),
 * for a Prometheus on the same machine or network. GET /metrics only; with METRICS_TOKEN set the
 * bearer token is asked here too.
 */
import { createServer } from "node:http";
import { bearerMatches, type Metrics } from "#server/operations/metrics.ts";

export async function startMetricsServer(
  metrics: Metrics,
  { port, host, token }: { port: number; host: string; token: string | undefined },
): Promise<{ close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || req.url !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      res
        .writeHead(401, {
          "content-type": "text/plain; charset=utf-8",
          "www-authenticate": 'Bearer realm="metrics"',
        })
        .end("A bearer token is required.\n");
      return;
    }
    metrics.registry.metrics().then(
      (text) =>
        res
          .writeHead(200, {
            "content-type": metrics.registry.contentType,
            "cache-control": "no-store",
          })
          .end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return { close: () => new Promise((resolve) => server.close(() => resolve())) };
}
