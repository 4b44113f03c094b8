import { describe, expect, test } from "vitest";
import { accountProblem, type Account } from "#server/firebase-admin.ts";

const account: Account = {
  uid: "u1",
  email: "cpa@example.com",
  emailVerified: true,
  disabled: false,
  validSince: 1_800_000_000,
  createdAt: 1_700_000_000,
};

describe("accountProblem: whether an account may keep a session signed in at a time", () => {
  test("an account in good standing, signed in after its tokens' valid-since time", () => {
    expect(accountProblem(account, 1_800_000_100)).toBeNull();
  });

  test("signed in in the same second as a revocation: still good (Firebase counts whole seconds)", () => {
    expect(accountProblem(account, 1_800_000_000)).toBeNull();
  });

  test("signed in before the account was signed out everywhere", () => {
    expect(accountProblem(account, 1_799_999_999)).toBe("revoked");
  });

  test("deleted and disabled accounts", () => {
    expect(accountProblem(null, 1_800_000_100)).toBe("deleted");
    expect(accountProblem({ ...account, disabled: true }, 1_800_000_100)).toBe("disabled");
  });

  test("an account that was never revoked has no valid-since time", () => {
    expect(accountProblem({ ...account, validSince: null }, 0)).toBeNull();
  });
});
