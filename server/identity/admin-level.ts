/**
 * An admin session's level, from what its row says and the time (decision 039). Pure, so the
 * guard, the verify page and the tests read the same rules.
 *
 * - Signed in: a live session of an administrator's verified address (the Firebase password).
 * - Verified: a passkey assertion, or a recovery code, made on this very session, at most 12 hours
 *   ago and with a request in the last hour. A recovery code's session may do one thing only:
 *   register a new passkey.
 * - Stepped up: a passkey assertion in the last 15 minutes, which the export, a bulk invitation,
 *   completing a privacy request, resetting another administrator and any change to one's own
 *   passkeys, recovery codes or export tokens ask for.
 */
import type { AdminSessionState } from "#server/identity/session-store.ts";

const MINUTE_MS = 60_000;
/** A verified session lasts at most this long from its first verification. */
export const ADMIN_VERIFIED_MAX_MS = 12 * 60 * MINUTE_MS;
/** ...and this long without an admin request. */
export const ADMIN_IDLE_MAX_MS = 60 * MINUTE_MS;
/** A step-up is good for this long. */
export const STEP_UP_MS = 15 * MINUTE_MS;
/** The first passkey needs a password typed this recently (the ID token's auth_time). */
const FRESH_PASSWORD_MS = 5 * MINUTE_MS;

export type AdminLevel =
  /** No verification on this session, or it lapsed: the passkey is asked (again). */
  | { kind: "signed-in"; lapsed: "never" | "idle" | "expired" }
  /** Verified by a recovery code: a new passkey before anything else. */
  | { kind: "recovering" }
  | { kind: "verified"; stepUpUntil: Date | null };

export function adminLevel(state: AdminSessionState, now: Date): AdminLevel {
  const { verifiedAt, verifiedBy, stepUpAt, seenAt } = state;
  if (!verifiedAt || !verifiedBy) return { kind: "signed-in", lapsed: "never" };
  const at = now.getTime();
  if (at - verifiedAt.getTime() >= ADMIN_VERIFIED_MAX_MS)
    return { kind: "signed-in", lapsed: "expired" };
  if (at - (seenAt ?? verifiedAt).getTime() >= ADMIN_IDLE_MAX_MS)
    return { kind: "signed-in", lapsed: "idle" };
  if (verifiedBy === "recovery") return { kind: "recovering" };
  const until = stepUpAt ? new Date(stepUpAt.getTime() + STEP_UP_MS) : null;
  return { kind: "verified", stepUpUntil: until && until > now ? until : null };
}

/** Whether the password behind this session was typed recently enough for a first passkey. */
export function passwordIsFresh(signedInAt: Date, now: Date): boolean {
  return now.getTime() - signedInAt.getTime() < FRESH_PASSWORD_MS;
}
