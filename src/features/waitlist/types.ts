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
};
