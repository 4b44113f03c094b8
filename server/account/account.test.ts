import { describe, expect, it } from "vitest";
import { deletionProofProblem } from "#server/account/account.ts";
import { entryForExport } from "#server/privacy/data-held.ts";

describe("deletionProofProblem", () => {
  const now = 1_800_000_000;
  const token = { uid: "u1", iat: now - 10, auth_time: now - 10 };

  it("accepts a token of this account minted just after the password was typed", () => {
    expect(deletionProofProblem(token, "u1", now)).toBeNull();
    expect(deletionProofProblem({ ...token, auth_time: now - 300 }, "u1", now)).toBeNull();
  });

  it("refuses another account's token, whatever its age", () => {
    expect(deletionProofProblem(token, "u2", now)).toBe("proof-refused");
  });

  it("refuses a password typed more than five minutes ago, even in a fresh token", () => {
    expect(deletionProofProblem({ ...token, auth_time: now - 301 }, "u1", now)).toBe("proof-stale");
  });

  it("refuses a token minted more than five minutes ago", () => {
    expect(
      deletionProofProblem({ uid: "u1", iat: now - 301, auth_time: now - 301 }, "u1", now),
    ).toBe("proof-stale");
  });
});

describe("entryForExport", () => {
  it("keeps every field, with times in ISO 8601", () => {
    expect(
      entryForExport({
        id: 7,
        email: "a@example.com",
        company: null,
        createdAt: new Date("2026-01-02T03:04:05Z"),
        state: "confirmed",
      }),
    ).toEqual({
      id: 7,
      email: "a@example.com",
      company: null,
      createdAt: "2026-01-02T03:04:05.000Z",
      state: "confirmed",
    });
  });
});
