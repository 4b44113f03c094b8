import { expect, test } from "vitest";
import {
  hashToken,
  inviteTokenRow,
  isWellFormedToken,
  newToken,
  TOKEN_LIFETIME_MS,
  tokenRow,
} from "#server/waitlist/tokens.ts";

test("a token carries 256 random bits in 43 URL-safe characters, and no two are alike", () => {
  const tokens = new Set(Array.from({ length: 1000 }, newToken));
  expect(tokens.size).toBe(1000);
  for (const token of tokens) {
    expect(isWellFormedToken(token)).toBe(true);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
  }
});

test("only the SHA-256 of a token is stored, with an expiry for its purpose", () => {
  const token = newToken();
  const now = new Date("2026-01-01T00:00:00Z");
  const row = tokenRow(7, "confirm", token, now);
  expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  expect(row.tokenHash).toBe(hashToken(token));
  expect(row.tokenHash).not.toContain(token);
  expect(row).toMatchObject({ entryId: 7, purpose: "confirm" });
  expect(row.expiresAt.getTime() - now.getTime()).toBe(TOKEN_LIFETIME_MS.confirm);
  expect(TOKEN_LIFETIME_MS.confirm).toBe(14 * 24 * 3600 * 1000);
  expect(tokenRow(7, "remove", token, now).expiresAt > row.expiresAt).toBe(true);
  const invitation = inviteTokenRow(7, token, 3, now);
  expect(invitation).toMatchObject({ entryId: 7, purpose: "invite", tokenHash: hashToken(token) });
  expect(invitation.expiresAt.toISOString()).toBe("2026-01-04T00:00:00.000Z");
});

test("what is not a token is refused before any query", () => {
  for (const bad of ["", "abc", "x".repeat(44), `${"a".repeat(42)}=`, `${"a".repeat(42)}/`, null])
    expect(isWellFormedToken(bad)).toBe(false);
});
