import type { FieldErrors } from "#src/features/waitlist/schema.ts";

/** What the server's waitlist service answers; the page action and the JSON API both map it. */
export type SubmitResult =
  | { kind: "created" }
  | { kind: "exists" }
  /** The honeypot was filled: answered like a success, nothing stored. */
  | { kind: "ignored" }
  | { kind: "invalid"; fieldErrors: FieldErrors; formErrors: string[] }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "unavailable" };

/** What pressing the button behind a mail's link did; "gone": the link no longer works. */
export type LinkResult =
  { kind: "confirmed" } | { kind: "removed" } | { kind: "gone" } | { kind: "unavailable" };

export type LinkPurpose = "confirm" | "remove";

/** Who is asking: the rate-limit key, and the request id that ties log lines together. */
export type SubmitMeta = { clientKey: string; requestId?: string };

export type AdminEntry = {
  id: number;
  createdAt: string;
  name: string;
  email: string;
  company: string | null;
  message: string | null;
  source: string | null;
  state: "waiting" | "confirmed";
  forwardStatus: "none" | "pending" | "sent" | "failed";
  forwardAttempts: number;
  forwardLastError: string | null;
};

export type WaitlistPort = {
  submit: (input: unknown, meta: SubmitMeta) => Promise<SubmitResult>;
  list: (options: {
    query: string;
    limit: number;
  }) => Promise<{ entries: AdminEntry[]; total: number; matching: number }>;
  /** Whose link this is (the address masked) while it still works; null otherwise. Reads only. */
  checkLink: (purpose: LinkPurpose, token: string) => Promise<{ maskedEmail: string } | null>;
  /** Uses the link once: confirms or erases the entry. */
  useLink: (purpose: LinkPurpose, token: string, meta: SubmitMeta) => Promise<LinkResult>;
};
