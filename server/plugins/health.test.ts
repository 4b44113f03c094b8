import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import health from "#server/plugins/health.ts";

async function app(ping: () => Promise<void>) {
  const server = Fastify();
  await server.register(health, { ping });
  return server;
}

describe("the health plugin", () => {
  test("200 while the database answers, never cached", async () => {
    const answer = await (await app(() => Promise.resolve())).inject({ url: "/api/health" });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.json()).toMatchObject({ ok: true, database: "ok" });
  });

  test("503 when it does not, so a load balancer takes the instance out", async () => {
    const down = () => Promise.reject(new Error("connection refused"));
    const answer = await (await app(down)).inject({ url: "/api/health" });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toMatchObject({ ok: false, database: "unavailable" });
  });
});
