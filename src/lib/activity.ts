/**
 * What the server tells the admin's Activity page (decision 024): the audit log of every admin
 * action and export, and of every privacy request's steps, newest first. Read on the server by server/audit/audit-log.ts.
 */

export type AuditAction =
  | "invite"
  | "resend"
  | "decline"
  | "remove"
  | "export"
  /** A privacy request made, confirmed by its link, and completed (decision 030). */
  | "privacy-request"
  | "privacy-confirm"
  | "privacy-complete"
  /** A member deleted their own account (decision 029). */
  | "account-delete"
  /** A restore carried out again an erasure made after its backup (decision 032). */
  | "erasure-replay"
  /** An administrator's own access (decision 039): passkeys, recovery codes, locks, tokens. */
  | "passkey-add"
  | "passkey-remove"
  | "passkey-rename"
  | "passkeys-reset"
  | "recovery-codes"
  | "recovery-use"
  | "admin-lock"
  | "export-token-create"
  | "export-token-revoke"
  /** A broadcast tested, scheduled, started, paused, resumed or cancelled (decision 041). */
  | "broadcast-test"
  | "broadcast-schedule"
  | "broadcast-start"
  | "broadcast-pause"
  | "broadcast-resume"
  | "broadcast-cancel"
  /** An address put on the suppression list by an administrator, or taken off it. */
  | "suppression-add"
  | "suppression-remove"
  | "audience-save"
  | "audience-delete"
  /** A webhook endpoint added, removed, its secret rotated, disabled, enabled, or tested (046). */
  | "webhook-add"
  | "webhook-remove"
  | "webhook-rotate"
  | "webhook-enable"
  | "webhook-disable"
  | "webhook-test"
  /** A sheet imported into the waitlist (issue 37, part 5). */
  | "import";

/** The audit log's "from" for what the site did by itself, with no request of anyone's. */
export const AUTOMATIC = "automatic";

type ActivityRow = {
  id: number;
  /** When it happened (ISO 8601). */
  at: string;
  /** Null for a privacy requester's own steps and for what the site did by itself. */
  adminEmail: string | null;
  action: AuditAction;
  /** The entry acted on, by id (it may since have been erased); null for an export. */
  entryId: number | null;
  /** The privacy request acted on, by number; null for waitlist actions. */
  requestId: number | null;
  /** The broadcast acted on, by number; null for anything else. */
  broadcastId: number | null;
  /** What came of it, in the log's words: "invited", "already-invited", "1234 rows"… */
  outcome: string;
  /** The address the request came from. */
  clientAddress: string;
};

export type ActivityPage = {
  rows: ActivityRow[];
  /** Where the next page of older rows starts; null on the last page. */
  older: number | null;
};

export type ActivityPort = {
  /** The newest rows, or those older than the row `before` names. */
  page: (options: { before: number | null; limit: number }) => Promise<ActivityPage>;
};
