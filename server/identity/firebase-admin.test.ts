import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseEnv } from "#server/env.ts";
import {
  accountProblem,
  AccountsUnavailable,
  createAccounts,
  TokenRefused,
  type Account,
  type Accounts,
} from "#server/identity/firebase-admin.ts";

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

/**
 * Firebase's answers during an outage cannot be asked of the emulator, so a local endpoint gives
 * them, in Firebase's own error shape, where firebase-admin looks for the emulator.
 */
describe("createAccounts: an outage is not a verdict", () => {
  let answer = "QUOTA_EXCEEDED";
  let endpoint: Server;
  let accounts: Accounts;
  beforeAll(async () => {
    endpoint = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(answer === "USER_NOT_FOUND" ? 400 : 429, {
          "content-type": "application/json",
        });
        res.end(JSON.stringify({ error: { code: 429, message: answer } }));
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    const { port } = endpoint.address() as AddressInfo;
    accounts = createAccounts(
      parseEnv({
        FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${port}`,
        FIREBASE_PROJECT_ID: `demo-outage-${port}`,
      }),
    );
  });
  afterAll(() => new Promise<void>((resolve) => endpoint.close(() => resolve())));

  test.each(["QUOTA_EXCEEDED", "INSUFFICIENT_PERMISSION", "PROJECT_NOT_FOUND", "INTERNAL_ERROR"])(
    "%s: the account cannot be read, which ends no session",
    async (code) => {
      answer = code;
      await expect(accounts.lookup("u1")).rejects.toBeInstanceOf(AccountsUnavailable);
      await expect(accounts.deleteAccount("u1")).rejects.toBeInstanceOf(AccountsUnavailable);
    },
  );

  test("no such account is Firebase's verdict: no account", async () => {
    answer = "USER_NOT_FOUND";
    await expect(accounts.lookup("u1")).resolves.toBeNull();
  });

  test("a malformed token is refused without asking", async () => {
    answer = "QUOTA_EXCEEDED";
    await expect(accounts.verifyIdToken("not-a-token")).rejects.toBeInstanceOf(TokenRefused);
  });
});
