import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import { bearerMatches, createMetrics } from "#server/operations/metrics.ts";
import metricsPlugin from "#server/plugins/metrics.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

const database = databaseForThisFile();
const TOKEN = "a-metrics-token-for-one-unit-test-0123456789";

async function app(token: string | undefined) {
  const server = Fastify();
  await server.register(metricsPlugin, { metrics: createMetrics(database().db), token });
  server.get("/api/waitlist", async () => "ok");
  return server;
}

describe("the metrics plugin", () => {
  test("without METRICS_TOKEN there is no /metrics on the main port", async () => {
    expect((await (await app(undefined)).inject({ url: "/metrics" })).statusCode).toBe(404);
  });

  test("a missing or wrong bearer token gets 401 and no figures", async () => {
    const server = await app(TOKEN);
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, "Bearer "]) {
      const answer = await server.inject({
        url: "/metrics",
        headers: authorization ? { authorization } : {},
      });
      expect(answer.statusCode).toBe(401);
      expect(answer.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
      expect(answer.body).not.toContain("http_request_duration_seconds");
    }
  });

  test("the token's bearer gets request durations by route and status class, and the outbox's depth", async () => {
    const server = await app(TOKEN);
    await server.inject({ url: "/api/waitlist" });
    const answer = await server.inject({
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/waitlist",status="2xx"\} 1/,
    );
    expect(answer.body).toContain('outbox_messages{status="pending"} 0');
    expect(answer.body).toContain("process_cpu_seconds_total");
  });
});

describe("bearerMatches", () => {
  test("only the exact token, case-insensitive scheme", () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});
