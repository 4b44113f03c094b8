import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import { parseEnv } from "#server/env.ts";
import errors from "#server/plugins/errors.ts";
import securityHeaders from "#server/plugins/security-headers.ts";
import { responseHeaders } from "#server/http/security-headers.ts";

async function app() {
  const headers = responseHeaders(parseEnv({}), "production");
  const server = Fastify({ genReqId: () => "request-1" });
  await server.register(securityHeaders, { headers });
  await server.register(errors);
  server.get("/ok", async () => ({ ok: true }));
  server.get("/fails", async () => {
    throw new Error("boom");
  });
  return server;
}

describe("the security-headers plugin", () => {
  test("every answer carries the headers and its request id: a route, a failure, a miss", async () => {
    const server = await app();
    for (const url of ["/ok", "/fails", "/nowhere"]) {
      const answer = await server.inject({ url });
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(answer.headers["content-security-policy"]).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(answer.headers["x-request-id"]).toBe("request-1");
    }
  });
});
