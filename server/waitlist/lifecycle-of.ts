import type { WaitlistRow } from "#db/schema.ts";
import type { LifecycleEntry } from "#src/features/waitlist/lifecycle.ts";

/** What the lifecycle (src/features/waitlist/lifecycle.ts) needs of an entry's row. */
export function lifecycleOf(
  row: Pick<WaitlistRow, "state" | "confirmedAt" | "inviteSentAt">,
): LifecycleEntry {
  return {
    state: row.state,
    confirmed: row.confirmedAt !== null,
    lastInvitedAt: row.inviteSentAt?.getTime() ?? null,
  };
}
