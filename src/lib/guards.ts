/**
 * The guards that loaders and actions call first: requireAdmin (decision 013) and requireUser. The server decides access
 * from Firebase's record at the time of the request (server/identity/admin-guard.ts); this turns its answer
 * into the page's answer: the sign-in page, a 403, or a 503 to try again.
 */
import { redirect } from "react-router";
import { safeNext } from "#src/lib/admin-verify.ts";
import type { LoadContext } from "#src/load-context.ts";
import { failure, refusal } from "#src/lib/http-errors.ts";

/**
 * What the server decided about this request's right to the admin (server/identity/admin-guard.ts).
 * "unverified": the account's address is an administrator's, but not verified yet.
 * "unavailable": Firebase could not be asked whether the account is still in good standing.
 */
export type AdminAccess =
  | "ok"
  | "signed-out"
  | "forbidden"
  | "unverified"
  /** An administrator signed in with the password, not (or no longer) verified by a passkey. */
  | "needs-passkey"
  /** ...let in by a recovery code: a new passkey before anything else (decision 039). */
  | "needs-new-passkey"
  | "unavailable";

/**
 * The server's answer, with the administrator's email when access is granted, and until when the
 * session's last passkey assertion counts as a step-up (ISO 8601; null when it no longer does).
 */
export type AdminCheck =
  | { access: "ok"; email: string; stepUpUntil: string | null }
  | { access: Exclude<AdminAccess, "ok">; email?: undefined };

/** What an administrator whose address is not verified yet is told on an admin page. */
const UNVERIFIED_ADMIN =
  "This address is an administrator's, but it is not verified yet. Open the link we mailed it (your account page sends it again), then come back.";

/** The verify page, coming back to `path` (an admin page's) once verified. */
function verifyPath(path: string): string {
  return `/admin/verify?next=${encodeURIComponent(safeNext(path))}`;
}

/**
 * Resolves with the administrator (for the audit log of an action); throws otherwise. A signed-in
 * administrator without a passkey verification on this session is sent to /admin/verify.
 */
export async function requireAdmin(
  context: LoadContext,
  refusedMessage = "This account may not use the admin.",
): Promise<{ email: string; stepUpUntil: string | null }> {
  const check = await context.adminAccess();
  const { access } = check;
  if (check.access === "ok") return { email: check.email, stepUpUntil: check.stepUpUntil };
  if (access === "signed-out") throw redirect("/login");
  if (access === "needs-passkey" || access === "needs-new-passkey")
    throw redirect(verifyPath(context.pagePath));
  if (access === "forbidden") throw refusal(403, refusedMessage);
  if (access === "unverified") throw refusal(403, UNVERIFIED_ADMIN);
  throw failure(
    context,
    "Sign-in checks are unavailable for a moment. Please try again in a minute.",
  );
}

/** A signed-in visitor, as Firebase holds the account at the time of the request. */
export type SignedInUser = { uid: string; email: string | null; emailVerified: boolean };

/**
 * What the server decided about this request's session (server/pages/render-page.ts), the account read
 * from Firebase now. "unavailable": Firebase or the session store could not be asked.
 */
export type UserAccess =
  { kind: "ok"; user: SignedInUser } | { kind: "signed-out" } | { kind: "unavailable" };

/**
 * The guard of every page for signed-in visitors (the account page): the user, or the sign-in
 * page for a visitor without a live session, or a 503 when the account cannot be checked.
 */
export async function requireUser(context: LoadContext): Promise<SignedInUser> {
  const access = await context.userAccess();
  if (access.kind === "ok") return access.user;
  if (access.kind === "signed-out") throw redirect("/login");
  throw failure(
    context,
    "Sign-in checks are unavailable for a moment. Please try again in a minute.",
  );
}
