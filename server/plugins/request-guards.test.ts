import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import { parseEnv } from "#server/env.ts";
import requestGuards from "#server/plugins/request-guards.ts";
import securityHeaders from "#server/plugins/security-headers.ts";
import { publicSite } from "#tests/support/deployed.ts";

const HTTPS_ENV = publicSite();

async function app(raw: Record<string, string>) {
  const env = parseEnv(raw);
  const server = Fastify({ trustProxy: env.trustProxy.length > 0 ? [...env.trustProxy] : false });
  await server.register(securityHeaders, { headers: {} });
  await server.register(requestGuards, { env });
  server.get("/waitlist", async () => "the page");
  server.post("/waitlist", async () => "posted");
  server.post("/api/waitlist", async () => ({ ok: true }));
  server.get("/api/health", async () => ({ ok: true }));
  return server;
}

describe("the request-guards plugin", () => {
  test("on an HTTPS site a page asked for over plain HTTP moves to HTTPS, method kept", async () => {
    const server = await app(HTTPS_ENV);
    const answer = await server.inject({ url: "/waitlist?utm_source=x" });
    expect(answer.statusCode).toBe(308);
    expect(answer.headers.location).toBe("https://tieout.ai/waitlist?utm_source=x");
    const proxied = await server.inject({
      url: "/waitlist",
      headers: { "x-forwarded-proto": "https" },
    });
    expect(proxied.body).toBe("the page");
  });

  test("an API call over plain HTTP is refused, not redirected; the health check is exempt", async () => {
    const server = await app(HTTPS_ENV);
    const api = await server.inject({ method: "POST", url: "/api/waitlist" });
    expect(api.statusCode).toBe(403);
    expect(api.json()).toEqual({
      ok: false,
      message: "This API is served over HTTPS only: https://tieout.ai",
    });
    expect((await server.inject({ url: "/api/health" })).statusCode).toBe(200);
  });

  test("a form sent from another site is refused with a page that says why", async () => {
    const server = await app({});
    const answer = await server.inject({
      method: "POST",
      url: "/waitlist",
      headers: { "sec-fetch-site": "cross-site", origin: "https://elsewhere.example" },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.body).toContain("This form came from another site");
    const api = await server.inject({
      method: "POST",
      url: "/api/waitlist",
      headers: { origin: "https://elsewhere.example" },
    });
    expect(api.json()).toEqual({
      ok: false,
      message: "Requests from other sites are not accepted.",
    });
    const own = await server.inject({
      method: "POST",
      url: "/waitlist",
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(own.body).toBe("posted");
  });
});
