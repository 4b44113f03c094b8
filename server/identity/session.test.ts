import fastifyCookie from "@fastify/cookie";
import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import { parseEnv } from "#server/env.ts";
import {
  claimedUid,
  createSessions,
  MAX_ID_TOKEN_AGE_SECONDS,
  SESSION_MAX_AGE_SECONDS,
  tokenProblem,
} from "#server/identity/session.ts";
import type { SessionStore } from "#server/identity/session-store.ts";

const OLD = "the secret that signed cookies until this week and is long";
const NEW = "the secret that signs cookies from this week on and is long";

/** A Fastify app that answers with the session id its cookie names, signed with `secrets`. */
async function appWith(secrets: string[]) {
  const env = parseEnv({ SESSION_SECRET: secrets.join(",") });
  const sessions = createSessions(env, env.sessionSecrets, {} as SessionStore, {
    lookup: () => Promise.resolve(null),
  });
  const app = Fastify();
  await app.register(fastifyCookie, { secret: [...sessions.secrets], algorithm: "sha256" });
  app.get("/id", (req, reply) => reply.send({ id: sessions.sessionIdOf(req) }));
  app.get("/sign", async (_req, reply) =>
    reply.setCookie(sessions.cookieName, "session-id-1", sessions.cookieOptions(60)).send(),
  );
  return { app, name: sessions.cookieName };
}

async function idFor(app: Awaited<ReturnType<typeof appWith>>["app"], cookie: string) {
  const answer = await app.inject({ url: "/id", headers: { cookie } });
  return answer.json<{ id: string | null }>().id;
}

describe("the session cookie: a signed session id, nothing else", () => {
  test("a cookie signed before a rotation still verifies while the old secret is listed", async () => {
    const before = await appWith([OLD]);
    const set = (await before.app.inject({ url: "/sign" })).headers["set-cookie"] as string;
    const cookie = set.split(";")[0]!;
    expect(cookie).toMatch(/^tieout_session=session-id-1\.[A-Za-z0-9+/%]{43,}$/);
    expect(set).toContain("HttpOnly");
    expect(set).toContain("SameSite=Lax");

    const rotated = await appWith([NEW, OLD]);
    expect(await idFor(rotated.app, cookie)).toBe("session-id-1");
    const retired = await appWith([NEW]);
    expect(await idFor(retired.app, cookie)).toBeNull();
  });

  test("a forged, altered, unsigned or oversized cookie names no session", async () => {
    const { app, name } = await appWith([NEW]);
    const good = ((await app.inject({ url: "/sign" })).headers["set-cookie"] as string).split(
      ";",
    )[0]!;
    const value = good.slice(name.length + 1);
    const [id, signature] = value.split(".");
    expect(await idFor(app, good)).toBe("session-id-1");
    for (const bad of [
      `${name}=session-id-2.${signature}`,
      `${name}=${id}`,
      `${name}=${id}.${signature}x`,
      `${name}=${id}.`,
      `${name}=${"a".repeat(200)}.${signature}`,
      `${name}=%00.${signature}`,
    ]) {
      expect(await idFor(app, bad), bad.slice(0, 40)).toBeNull();
    }
  });
});

describe("tokenProblem", () => {
  const now = 1_800_000_000;

  test("a token minted just now, from a recent sign-in, is fine", () => {
    expect(tokenProblem({ iat: now - 10, auth_time: now - 3600 }, now)).toBeNull();
  });

  test("a token minted more than five minutes ago is stale", () => {
    expect(tokenProblem({ iat: now - MAX_ID_TOKEN_AGE_SECONDS - 1, auth_time: now }, now)).toBe(
      "stale-token",
    );
  });

  test("a fresh token from a sign-in older than a session's lifetime needs the password again", () => {
    expect(tokenProblem({ iat: now, auth_time: now - SESSION_MAX_AGE_SECONDS - 1 }, now)).toBe(
      "reauthenticate",
    );
    expect(
      tokenProblem({ iat: now, auth_time: now - SESSION_MAX_AGE_SECONDS + 60 }, now),
    ).toBeNull();
  });
});

describe("claimedUid", () => {
  const token = (claims: unknown) =>
    `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.signature`;

  test("reads the account a token says it is for, without trusting it", () => {
    expect(claimedUid(token({ sub: "uid-123", user_id: "uid-123" }))).toBe("uid-123");
  });

  test("reads nothing from a token without a usable subject", () => {
    for (const bad of [
      "no-dots-at-all",
      "a.%%%.c",
      token({}),
      token({ sub: 42 }),
      token({ sub: "" }),
      token({ sub: "x".repeat(129) }),
      token(null),
    ])
      expect(claimedUid(bad)).toBeNull();
  });
});
