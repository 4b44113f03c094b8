/**
 * What an admin's action did, in one sentence for the list's live region ("3 invited, 1 already
 * invited."), and each outcome in words for the Activity page (decision 024).
 */
import type { ActionOutcome } from "#src/features/waitlist/types.ts";

/** Changes first, then the reasons nothing changed, always in this order. */
const ORDER: ActionOutcome[] = [
  "invited",
  "resent",
  "declined",
  "declined-told",
  "declined-not-told",
  "removed",
  "already-invited",
  "already-joined",
  "already-declined",
  "already-confirmed",
  "not-confirmed",
  "not-invited",
  "too-soon",
  "gone",
];

/** An outcome in words, after a count or on its own. */
function outcomeWords(outcome: ActionOutcome, n = 1): string {
  switch (outcome) {
    case "invited":
    case "declined":
    case "removed":
    case "already-invited":
    case "already-joined":
    case "already-declined":
    case "already-confirmed":
      return outcome.replace("-", " ");
    case "resent":
      return n === 1 ? "invitation sent again" : "invitations sent again";
    case "declined-told":
      return "declined and told by mail";
    case "declined-not-told":
      return "declined, not told (the address was never confirmed)";
    case "not-confirmed":
      return "not confirmed by their owner yet (no mail goes to an unconfirmed address)";
    case "not-invited":
      return "not invited";
    case "too-soon":
      return "invited less than an hour ago (not sent again: Resend works an hour after the last invitation)";
    case "gone":
      return "no longer on the list";
  }
}

const KNOWN = new Set<string>(ORDER);

/** A row of the audit log's outcome in words; an export's ("1234 rows") as it is. */
export function loggedOutcome(outcome: string): string {
  return KNOWN.has(outcome) ? outcomeWords(outcome as ActionOutcome) : outcome;
}

/** "3 invited, 1 already invited." */
export function summarize(outcomes: Partial<Record<ActionOutcome, number>>): string {
  const parts = ORDER.filter((o) => (outcomes[o] ?? 0) > 0).map(
    (o) => `${outcomes[o]} ${outcomeWords(o, outcomes[o])}`,
  );
  return parts.length === 0 ? "Nothing changed." : `${parts.join(", ")}.`;
}
