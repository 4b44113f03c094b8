import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import errors from "#server/plugins/errors.ts";
import session from "#server/plugins/session.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { sessionsFor } from "#tests/support/unit-app.ts";

const database = databaseForThisFile();

async function app(raw: Record<string, string> = {}) {
  const deps = sessionsFor(database(), raw);
  const server = Fastify();
  await server.register(errors);
  await server.register(session, deps);
  // A route registered beside the plugin, as the pages are: cookies are read for it too.
  server.get("/who", async (req) => ({ sessionId: deps.sessions.sessionIdOf(req) }));
  return { server, ...deps };
}

describe("the session plugin", () => {
  test("a sign-in without an ID token is refused with what to send", async () => {
    const { server } = await app();
    for (const authorization of [undefined, "Basic abc", "Bearer short", "Bearer a b c"]) {
      const answer = await server.inject({
        method: "POST",
        url: "/api/session",
        headers: authorization ? { authorization } : {},
      });
      expect(answer.statusCode).toBe(401);
      expect(answer.headers["cache-control"]).toBe("no-store");
      expect(answer.json()).toEqual({ error: "Send the Firebase ID token as a Bearer token." });
      expect(answer.headers["set-cookie"]).toBeUndefined();
    }
  });

  test("sign-ins past the limit for one client wait, with Retry-After", async () => {
    const { server } = await app({ SESSION_RATE_LIMIT: "2" });
    const send = () =>
      server.inject({ method: "POST", url: "/api/session", remoteAddress: "198.51.100.7" });
    expect((await send()).statusCode).toBe(401);
    expect((await send()).statusCode).toBe(401);
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });

  test("refused tokens count against the client's network: a whole IPv6 /64 is one client", async () => {
    const { server } = await app({ SESSION_RATE_LIMIT: "2" });
    const send = (remoteAddress: string) =>
      server.inject({ method: "POST", url: "/api/session", remoteAddress });
    expect((await send("2001:db8:7:1::a")).statusCode).toBe(401);
    expect((await send("2001:db8:7:1:ffff::b")).statusCode).toBe(401);
    expect((await send("2001:db8:7:1:1234:5678:9abc:def0")).statusCode).toBe(429);
    // The next /64 is someone else.
    expect((await send("2001:db8:7:2::a")).statusCode).toBe(401);
  });

  test("signing out forgets the cookie, even one that names no session", async () => {
    const { server, sessions } = await app();
    const cookie = `${sessions.cookieName}=${server.signCookie("no-such-session")}`;
    const answer = await server.inject({
      method: "DELETE",
      url: "/api/session",
      headers: { cookie },
    });
    expect(answer.statusCode).toBe(204);
    const cleared = String(answer.headers["set-cookie"]);
    expect(cleared).toContain(`${sessions.cookieName}=;`);
    expect(cleared).toContain("Max-Age=0");
  });

  test("every route reads the signed cookie, and a forged one names nobody", async () => {
    const { server, sessions } = await app();
    const signed = `${sessions.cookieName}=${server.signCookie("session-42")}`;
    expect((await server.inject({ url: "/who", headers: { cookie: signed } })).json()).toEqual({
      sessionId: "session-42",
    });
    const forged = `${sessions.cookieName}=session-42.not-a-signature`;
    expect((await server.inject({ url: "/who", headers: { cookie: forged } })).json()).toEqual({
      sessionId: null,
    });
  });
});
