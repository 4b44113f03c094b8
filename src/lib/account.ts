/**
 * What the account page may ask of the server (server/account/account.ts implements it). Every call takes
 * the uid that requireUser (src/lib/guards.ts) returned for this request, never one from a form.
 */
export type AccountOverview = {
  email: string | null;
  emailVerified: boolean;
  /** ISO 8601; null when Firebase does not say. */
  createdAt: string | null;
};

/** "Download my data": everything held about the account, as its owner receives it (decision 029). */
export type AccountDataExport = {
  exportedAt: string;
  account: AccountOverview & { lastSignInAt: string | null };
  /** Every session, live or ended, newest first; no ids. */
  sessions: {
    createdAt: string;
    lastSeenAt: string;
    expiresAt: string;
    endedAt: string | null;
    userAgent: string | null;
  }[];
  /** The waitlist entry of the account's email, when that email is verified. */
  waitlistEntry: Row | null;
  /** The subscription to sub-processor changes of that email, when it is verified. */
  subprocessorSubscription: Row | null;
  /** The privacy requests made for that email, while they are being handled. */
  privacyRequests: Row[];
  /** The audit log's rows about the waitlist entry and those requests (by number). */
  auditEntries: Row[];
};

type Row = Record<string, string | number | null>;

type DeleteAccountResult =
  | { kind: "deleted" }
  /** The proof did not verify or names another account. */
  | { kind: "proof-refused" }
  /** The password was typed more than five minutes ago. */
  | { kind: "proof-stale" }
  | { kind: "unavailable" };

export type AccountPort = {
  /** The account as Firebase holds it now; null when it no longer exists. */
  overview: (uid: string) => Promise<AccountOverview | null>;
  exportData: (uid: string) => Promise<AccountDataExport | null>;
  /** Revokes the Firebase refresh tokens, then ends every session; throws when it could not. */
  signOutEverywhere: (uid: string) => Promise<void>;
  /** `idToken`: a Firebase ID token minted right after the password was typed again. */
  /** `clientAddress`: where the request came from, for the audit log's row. */
  deleteAccount: (
    uid: string,
    idToken: string,
    clientAddress: string,
  ) => Promise<DeleteAccountResult>;
};
