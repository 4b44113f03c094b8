import { cert, getApps, initializeApp } from "firebase-admin/app";
import { getAuth, type UserRecord } from "firebase-admin/auth";
import type { Env } from "#server/env.ts";

/** What a verified Firebase ID token says: iat is when it was minted, auth_time when the password was typed. */
export type VerifiedToken = {
  uid: string;
  email?: string;
  email_verified?: boolean;
  iat: number;
  auth_time: number;
};
export type TokenVerifier = (idToken: string) => Promise<VerifiedToken>;

/** An account as Firebase holds it now; null when it was deleted. */
export type Account = {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  disabled: boolean;
  /** Sessions signed in before this (seconds) are over: a password change or a revocation. */
  validSince: number | null;
  /** When the account was created (seconds); null when Firebase does not say. */
  createdAt: number | null;
};

/** What Firebase holds about an account beyond what a session needs: for its owner's download. */
type AccountDetails = {
  email: string | null;
  emailVerified: boolean;
  /** ISO 8601 times, as Firebase's metadata gives them; null when it does not say. */
  createdAt: string | null;
  lastSignInAt: string | null;
};

export type Accounts = {
  /** The account behind a token, checked with Firebase: refused if deleted, disabled or revoked. */
  verifyIdToken: TokenVerifier;
  /** The account as it is now, or null if it no longer exists. */
  lookup: (uid: string) => Promise<Account | null>;
  /** The account's email and dates, or null if it no longer exists. */
  details: (uid: string) => Promise<AccountDetails | null>;
  /** Ends every Firebase sign-in of the account: its refresh tokens stop working. */
  revokeRefreshTokens: (uid: string) => Promise<void>;
  /** Deletes the account (from the account page, or a stray one in invite-only mode, decision 024); an account already gone counts as deleted. */
  deleteAccount: (uid: string) => Promise<void>;
  /** The uid of the account whose email is `email` (Firebase ignores case), or null. */
  findByEmail: (email: string) => Promise<string | null>;
};

/** The account could not be checked (Firebase or the session store away): 503, never 401. */
export class AccountsUnavailable extends Error {
  constructor(cause: unknown) {
    super("the account could not be checked (Firebase or the database unreachable)", { cause });
    this.name = "AccountsUnavailable";
  }
}

/** Firebase said no: the token or the account is not good (the caller answers 401). */
export class TokenRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "TokenRefused";
  }
}

/**
 * The codes by which Firebase judges a presented ID token: malformed, badly signed or for another
 * project (`argument-error`), expired, revoked, or its account disabled or gone. Every other
 * failure (a quota, a permission or project problem, the network, Firebase's own error) means we
 * got no verdict, and must not be taken for one: a refusal ends the account's sessions.
 */
const TOKEN_VERDICTS = new Set([
  "auth/argument-error",
  "auth/id-token-expired",
  "auth/id-token-revoked",
  "auth/invalid-id-token",
  "auth/user-disabled",
  // In emulator mode firebase-admin reads the token's account itself: it may be gone.
  "auth/user-not-found",
]);

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** A time Firebase writes as a date string, in seconds; null when absent or unreadable. */
function seconds(date: string | undefined): number | null {
  const ms = date ? Date.parse(date) : NaN;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

function accountOf(user: UserRecord): Account {
  return {
    uid: user.uid,
    email: user.email ?? null,
    emailVerified: user.emailVerified,
    disabled: user.disabled,
    validSince: seconds(user.tokensValidAfterTime),
    createdAt: seconds(user.metadata.creationTime),
  };
}

/** Why an account may not hold a session signed in at `signedInAt` (seconds), if it may not. */
export function accountProblem(
  account: Account | null,
  signedInAt: number,
): "deleted" | "disabled" | "revoked" | null {
  if (!account) return "deleted";
  if (account.disabled) return "disabled";
  if (account.validSince !== null && signedInAt < account.validSince) return "revoked";
  return null;
}

/**
 * Firebase accounts through firebase-admin. With a real project, tokens are checked against
 * Google's public keys; in emulator mode firebase-admin talks to the emulator instead. Either way
 * the account itself is then read, so a deleted, disabled or revoked account cannot sign in, and
 * the email and its verification come from Firebase's record, not from the token's claims (the
 * emulator's tokens are unsigned).
 */
export function createAccounts(env: Env): Accounts {
  // firebase-admin reads this variable itself, and trusts unsigned tokens when it is set: set by
  // us in emulator mode (env.ts validated it), and never left over with a real project.
  if (env.firebase.mode === "emulator")
    process.env.FIREBASE_AUTH_EMULATOR_HOST = env.firebase.emulatorHost;
  else delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const name = `tieout-${env.firebase.projectId}`;
  const app =
    getApps().find((a) => a.name === name) ??
    initializeApp(
      env.firebase.mode === "production"
        ? {
            projectId: env.firebase.projectId,
            credential: cert(env.firebase.serviceAccount.path),
          }
        : { projectId: env.firebase.projectId },
      name,
    );
  const auth = getAuth(app);

  /** The account's record, or null when Firebase says there is no such account. */
  async function record(uid: string): Promise<UserRecord | null> {
    try {
      return await auth.getUser(uid);
    } catch (error) {
      // Firebase's one verdict on a lookup: no such account. A disabled or revoked one is read
      // from the record; anything else is a failure to ask.
      if (codeOf(error) === "auth/user-not-found") return null;
      throw new AccountsUnavailable(error);
    }
  }

  async function lookup(uid: string): Promise<Account | null> {
    const user = await record(uid);
    return user ? accountOf(user) : null;
  }

  /** Firebase's metadata times are RFC 1123 strings; the download gives ISO 8601. */
  const isoTime = (text: string | undefined) => {
    const ms = text ? Date.parse(text) : NaN;
    return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
  };

  return {
    lookup,
    async details(uid) {
      const user = await record(uid);
      if (!user) return null;
      return {
        email: user.email ?? null,
        emailVerified: user.emailVerified,
        createdAt: isoTime(user.metadata.creationTime),
        lastSignInAt: isoTime(user.metadata.lastSignInTime),
      };
    },
    async revokeRefreshTokens(uid) {
      try {
        await auth.revokeRefreshTokens(uid);
      } catch (error) {
        throw new AccountsUnavailable(error);
      }
    },
    async deleteAccount(uid) {
      try {
        await auth.deleteUser(uid);
      } catch (error) {
        if (codeOf(error) === "auth/user-not-found") return;
        throw new AccountsUnavailable(error);
      }
    },
    async findByEmail(email) {
      try {
        return (await auth.getUserByEmail(email)).uid;
      } catch (error) {
        const code = codeOf(error);
        // An address Firebase would never accept cannot be an account's either.
        if (code === "auth/user-not-found" || code === "auth/invalid-email") return null;
        throw new AccountsUnavailable(error);
      }
    },
    async verifyIdToken(idToken) {
      let decoded;
      try {
        decoded = await auth.verifyIdToken(idToken);
      } catch (error) {
        throw TOKEN_VERDICTS.has(codeOf(error) as string)
          ? new TokenRefused("the token did not verify")
          : new AccountsUnavailable(error);
      }
      const account = await lookup(decoded.uid);
      const problem = accountProblem(account, decoded.auth_time);
      if (problem || !account) throw new TokenRefused(`the account is ${problem ?? "deleted"}`);
      return {
        uid: account.uid,
        ...(account.email ? { email: account.email } : {}),
        email_verified: account.emailVerified,
        iat: decoded.iat,
        auth_time: decoded.auth_time,
      };
    },
  };
}
