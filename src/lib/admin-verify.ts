/**
 * What the admin's verify page and an administrator's passkeys on /account may ask of the server
 * (server/identity/admin-verification.ts answers; decision 039), and the API paths the browser's
 * ceremonies call. Asked for the request's own session; nothing here takes an address from a form.
 */

/** Where a signed-in administrator's session stands, for /admin/verify. */
export type VerifyState =
  | { kind: "signed-out" }
  /** Not an administrator, or an administrator's address not verified yet. */
  | { kind: "forbidden"; message: string }
  | { kind: "unavailable" }
  | {
      kind: "admin";
      email: string;
      /** Signed in only; verified by a recovery code (a new passkey is due); or verified. */
      level: "signed-in" | "recovering" | "verified";
      /** Why a verification is asked again: the 12 hours ran out, or an hour passed unused. */
      lapsed: "never" | "idle" | "expired" | null;
      /** Until when the last passkey assertion counts as a step-up (ISO 8601), or null. */
      stepUpUntil: string | null;
      passkeys: number;
      /** ISO 8601, while verification is locked after too many failures. */
      lockedUntil: string | null;
      /** A mailed code is waiting to be typed. */
      codeSent: boolean;
      /** The mailed code was typed: the first passkey may be registered now. */
      mailboxProven: boolean;
      /** The password was typed in the last 5 minutes: a code may be mailed. */
      passwordFresh: boolean;
      /** The only origin passkeys work on (SITE_URL's). */
      origin: string;
    };

/** One of an administrator's passkeys, as /account lists it. */
export type PasskeyRow = {
  id: string;
  name: string;
  /** ISO 8601. */
  createdAt: string;
  lastUsedAt: string | null;
  /** Synced between devices by its provider (iCloud Keychain, Google Password Manager, …). */
  synced: boolean;
};

/** What /account shows an administrator of their own admin access. */
export type AdminAccessOverview = {
  passkeys: PasskeyRow[];
  recoveryCodesLeft: number;
  stepUpUntil: string | null;
};

/** An export token as the admin's waitlist page lists it; never the token itself. */
export type ExportTokenRow = {
  id: number;
  label: string;
  /** The administrator it acts for. */
  owner: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  lastUsedFrom: string | null;
};

export type AdminVerifyPort = {
  /** This request's session as the verify page sees it. */
  state: () => Promise<VerifyState>;
  /** This request's administrator's passkeys and codes; null for anyone else. */
  overview: () => Promise<AdminAccessOverview | null>;
  /** Every export token, live first; ask only after requireAdmin. */
  exportTokens: () => Promise<ExportTokenRow[]>;
};

/** The API the browser's ceremonies call (server/plugins/admin-verify.ts). */
export const ADMIN_VERIFY_API = {
  sendCode: "/api/admin/verify/code",
  checkCode: "/api/admin/verify/code/check",
  assertionOptions: "/api/admin/verify/options",
  assert: "/api/admin/verify",
  recovery: "/api/admin/verify/recovery",
  registrationOptions: "/api/admin/passkeys/options",
  register: "/api/admin/passkeys",
  rename: "/api/admin/passkeys/rename",
  remove: "/api/admin/passkeys/remove",
  recoveryCodes: "/api/admin/recovery-codes",
  exportTokens: "/api/admin/export-tokens",
  revokeExportToken: "/api/admin/export-tokens/revoke",
  resetPasskeys: "/api/admin/reset-passkeys",
} as const;

/** Where /admin/verify may send a verified administrator back to: an admin page or /account, else /admin. */
export function safeNext(value: string | null): string {
  // An admin page one or two segments deep (a broadcast is /admin/broadcasts/12), or /account.
  return value &&
    /^\/(?:admin(?:\/[a-z-]+(?:\/(?:new|[1-9]\d{0,14}))?)?|account)$/.test(value) &&
    value !== "/admin/verify"
    ? value
    : "/admin";
}
