import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  createSessionCodec,
  MAX_ID_TOKEN_AGE_SECONDS,
  readCookie,
  SESSION_MAX_AGE_SECONDS,
  tokenProblem,
} from "#server/session.ts";

const SECRET = "a test secret that is long enough to sign with";
const codec = createSessionCodec(SECRET);
const user = { uid: "u1", email: "ada@example.com", emailVerified: true, sessionId: "s-1" };

describe("the session cookie codec", () => {
  test("reads back what it wrote, until it expires", () => {
    const now = Date.UTC(2026, 10, 21);
    const value = codec.encode(user, now);
    expect(codec.decode(value, now)).toEqual(user);
    expect(codec.decode(value, now + (SESSION_MAX_AGE_SECONDS - 1) * 1000)).toEqual(user);
    expect(codec.decode(value, now + SESSION_MAX_AGE_SECONDS * 1000)).toBeNull();
  });

  test("refuses a changed payload, another key's signature, and malformed values", () => {
    const value = codec.encode(user);
    const [data = "", signature = ""] = value.split(".");
    const forged = Buffer.from(
      JSON.stringify({ u: "admin", e: "boss@example.com", v: true, x: 4102444800, s: "s-1" }),
    ).toString("base64url");
    expect(codec.decode(`${forged}.${signature}`)).toBeNull();
    expect(
      createSessionCodec("another secret, just as long as the first").decode(value),
    ).toBeNull();
    for (const bad of ["", ".", `${data}.`, `.${signature}`, `${value}.x`, "x".repeat(3000)]) {
      expect(codec.decode(bad), bad.slice(0, 20)).toBeNull();
    }
  });

  test("refuses a well-signed cookie that names no server-side session (the old format)", () => {
    const data = Buffer.from(
      JSON.stringify({ u: "u1", e: "ada@example.com", v: true, x: 4102444800 }),
    ).toString("base64url");
    const signature = createHmac("sha256", SECRET).update(data).digest("base64url");
    expect(codec.decode(`${data}.${signature}`)).toBeNull();
  });
});

describe("readCookie", () => {
  test("finds one cookie among several, by exact name", () => {
    const header = "a=1; tieout_session=abc.def; x_tieout_session=zzz";
    expect(readCookie(header, "tieout_session")).toBe("abc.def");
    expect(readCookie(header, "missing")).toBeUndefined();
    expect(readCookie(undefined, "tieout_session")).toBeUndefined();
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
