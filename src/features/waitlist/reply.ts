/**
 * The one answer to a waitlist submission (decision 014). The service returns a
 * SubmitResult; this turns it into a status, headers and a body that the JSON API sends as is and
 * the page's action renders (the thank-you view, or the form with its errors). Every path that
 * takes a submission, with JavaScript or without, ends here.
 */
import {
  WAITLIST_PAUSED,
  WAITLIST_SUCCESS,
  type FieldErrors,
} from "#src/features/waitlist/schema.ts";
import type { SubmitResult } from "#src/features/waitlist/types.ts";

const INVALID_MESSAGE = "Please correct the highlighted fields.";
const RATE_LIMITED_MESSAGE = "Too many requests. Please wait a minute and try again.";
export const UNAVAILABLE_MESSAGE =
  "The waitlist is unavailable for a moment. Please try again in a minute.";

/** An accepted submission's answer, with the link the person may share (decision 045). */
type Accepted = (typeof WAITLIST_SUCCESS | typeof WAITLIST_PAUSED) & { shareUrl: string | null };

export type WaitlistReply =
  Accepted | { ok: false; message: string; errors?: FieldErrors; formErrors?: string[] };

export function waitlistReply(result: SubmitResult): {
  status: number;
  headers: Record<string, string>;
  body: WaitlistReply;
} {
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  switch (result.kind) {
    // One status and one body whether the address is new, already there or a bot's: nobody can
    // learn who is on the list (decision 023). Accepted: a confirmation mail follows for a new one.
    // The share link is the entry's, new or not: it was made with the entry, never from the
    // address, so the same address gets the same link each time (decision 045).
    case "created":
    case "exists":
    case "ignored":
      return { status: 202, headers, body: { ...WAITLIST_SUCCESS, shareUrl: result.shareUrl } };
    // Accepted too (the entry is kept), but nothing was mailed, and the answer says so. It depends
    // on the mailbox's count for the day alone, never on whether the address is on the list.
    case "paused":
      return { status: 202, headers, body: { ...WAITLIST_PAUSED, shareUrl: result.shareUrl } };
    case "invalid":
      return {
        status: 422,
        headers,
        body: {
          ok: false,
          message: INVALID_MESSAGE,
          errors: result.fieldErrors,
          formErrors: result.formErrors,
        },
      };
    case "rate-limited":
      return {
        status: 429,
        headers: { ...headers, "Retry-After": String(result.retryAfterSeconds) },
        body: { ok: false, message: RATE_LIMITED_MESSAGE },
      };
    case "unavailable":
      return {
        status: 503,
        headers: { ...headers, "Retry-After": "30" },
        body: { ok: false, message: UNAVAILABLE_MESSAGE },
      };
  }
}
