import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import errors from "#server/plugins/errors.ts";
import forms from "#server/plugins/forms.ts";

async function app() {
  const server = Fastify({ bodyLimit: 64 });
  await server.register(forms);
  await server.register(errors);
  server.post("/api/echo", async (req) => ({ ok: true, body: req.body }));
  server.post("/echo", async (req) => ({ ok: true, body: req.body }));
  server.get("/api/fails", async () => {
    throw new Error("a secret detail");
  });
  return server;
}

describe("the errors plugin", () => {
  test("under /api/ a broken request gets JSON that says what is wrong, never our internals", async () => {
    const server = await app();
    const json = { "content-type": "application/json" };
    const broken = await server.inject({
      method: "POST",
      url: "/api/echo",
      headers: json,
      payload: "{",
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ ok: false, message: "The body is not valid JSON." });

    const big = await server.inject({
      method: "POST",
      url: "/api/echo",
      headers: json,
      payload: JSON.stringify({ text: "x".repeat(100) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ ok: false, message: "The request is too large." });

    const failed = await server.inject({ url: "/api/fails" });
    expect(failed.statusCode).toBe(500);
    expect(failed.body).not.toContain("secret");
    expect(failed.json()).toEqual({ ok: false, message: "Something went wrong on our side." });
  });

  test("under /api/ an unknown path is a JSON 404 and a known one asked wrongly a JSON 405", async () => {
    const server = await app();
    for (const url of ["/api/nowhere", "/api/echo/", "/api/", "/api/echo%00"]) {
      const missing = await server.inject({ url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.headers["cache-control"]).toBe("no-store");
      expect(missing.json()).toEqual({ ok: false, message: "There is no such API endpoint." });
    }
    const wrong = await server.inject({ method: "DELETE", url: "/api/echo?x=1" });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers["allow"]).toBe("POST");
    expect(wrong.json()).toEqual({ ok: false, message: "Use POST here." });
    const both = await server.inject({ method: "PUT", url: "/api/fails" });
    expect(both.headers["allow"]).toBe("GET, HEAD");
  });

  test("elsewhere the same answers are plain text, and an unknown route is a plain 404", async () => {
    const server = await app();
    const typed = await server.inject({
      method: "POST",
      url: "/echo",
      headers: { "content-type": "text/plain" },
      payload: "hello",
    });
    expect(typed.statusCode).toBe(415);
    expect(typed.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(typed.body).toBe("Send JSON or a form (application/x-www-form-urlencoded).");

    const missing = await server.inject({ method: "DELETE", url: "/nowhere" });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe("Not found");
  });
});
