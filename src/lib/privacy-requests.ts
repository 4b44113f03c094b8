/**
 * Privacy requests as the pages see them (decision 030): asked on /privacy-request, confirmed
 * behind the link in the mail it sends (/privacy-request/confirm), and, for a correction, done by
 * an administrator on /admin/privacy. Served on the server by server/privacy/requests.ts.
 */

export const PRIVACY_REQUEST_KINDS = ["access", "deletion", "correction"] as const;

/** How long the link that confirms a request works, in days. */
export const PRIVACY_LINK_DAYS = 7;
export type PrivacyRequestKind = (typeof PRIVACY_REQUEST_KINDS)[number];

/** What the form sends, as typed; the server checks each field. */
export type PrivacyRequestInput = {
  email: string;
  name: string;
  kind: string;
  details: string;
};

/** Who is asking: the rate-limit key, the address for the audit log, the request id of the log. */
type RequestMeta = { clientKey: string; clientAddress: string; requestId: string };

export type PrivacyRequestField = "email" | "name" | "kind" | "details";

/**
 * A known address and an unknown one get the same answer, so nobody learns from the form whose
 * data is held. "invalid" carries a sentence for each field that needs one. "paused": the mailbox
 * has had its confirmation mails from this form for today, so nothing was written or sent; every
 * address gets it alike once its mailbox's count is spent (decision 036).
 */
export type SubmitPrivacyRequestResult =
  | { kind: "accepted" }
  | { kind: "paused"; retryAfterSeconds: number }
  | { kind: "invalid"; errors: Partial<Record<PrivacyRequestField, string>> }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "unavailable" };

/**
 * What pressing the button behind the mail's link did. "done": a deletion or an access request was
 * carried out at once; "open": the request is with us (a correction, or a step that failed and is
 * retried), to be answered by `dueAt`.
 */
type ConfirmPrivacyRequestResult =
  | { kind: "done"; request: Exclude<PrivacyRequestKind, "correction"> }
  | { kind: "open"; request: PrivacyRequestKind; dueAt: string }
  | { kind: "gone" }
  | { kind: "unavailable" };

/** A request an administrator still has to answer, with what they need to answer it. */
export type OpenPrivacyRequest = {
  id: number;
  kind: PrivacyRequestKind;
  email: string;
  name: string;
  details: string;
  /** ISO 8601: when it was asked, confirmed, and the date by which it must be answered. */
  createdAt: string;
  confirmedAt: string;
  dueAt: string;
};

export type PrivacyRequestsOverview = {
  /** Oldest deadline first. */
  open: OpenPrivacyRequest[];
  /** Asked but not confirmed by their link yet (the link expires; nothing is done until then). */
  unconfirmed: number;
  /** Completed in the last 30 days, by kind. */
  completedLately: Record<PrivacyRequestKind, number>;
};

type CompletePrivacyRequestResult =
  | { kind: "completed" }
  /** The note is missing or too long: `message` says so. */
  | { kind: "invalid"; message: string }
  /** Not an open correction request (already completed, perhaps by another administrator). */
  | { kind: "not-open" }
  | { kind: "unavailable" };

export type PrivacyRequestsPort = {
  submit: (input: PrivacyRequestInput, meta: RequestMeta) => Promise<SubmitPrivacyRequestResult>;
  /** The kind of request and its address (masked) while its link still works; null otherwise. Reads only. */
  checkLink: (
    token: string,
  ) => Promise<{ request: PrivacyRequestKind; maskedEmail: string } | null>;
  /** Uses the link once: confirms the request and carries out what can be done at once. */
  confirm: (token: string, meta: RequestMeta) => Promise<ConfirmPrivacyRequestResult>;
  /** The admin's view; ask only after requireAdmin. */
  overview: () => Promise<PrivacyRequestsOverview>;
  /**
   * An administrator says an open request is answered (a correction made, with what was done):
   * mails the requester, records it, and clears the request's personal data. Ask only after
   * requireAdmin.
   */
  complete: (
    id: number,
    note: string,
    by: { adminEmail: string; clientAddress: string; requestId: string },
  ) => Promise<CompletePrivacyRequestResult>;
};
