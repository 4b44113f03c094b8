/**
 * The guard every admin loader and action calls first (decision 013). The server decides access
 * from Firebase's record at the time of the request (server/admin-guard.ts); this turns its answer
 * into the page's answer: the sign-in page, a 403, or a 503 to try again.
 */
import { redirect, type AppLoadContext } from "react-router";
import { failure, refusal } from "#src/lib/http-errors.ts";

/**
 * What the server decided about this request's right to the admin (server/admin-guard.ts).
 * "unavailable": Firebase could not be asked whether the account is still in good standing.
 */
export type AdminAccess = "ok" | "signed-out" | "forbidden" | "unavailable";

/** The server's answer, with the administrator's email when access is granted. */
export type AdminCheck =
  { access: "ok"; email: string } | { access: Exclude<AdminAccess, "ok">; email?: undefined };

/** Resolves with the administrator (for the audit log of an action); throws otherwise. */
export async function requireAdmin(
  context: AppLoadContext,
  refusedMessage = "This account may not use the admin.",
): Promise<{ email: string }> {
  const { access, email } = await context.adminAccess();
  if (access === "ok") return { email };
  if (access === "signed-out") throw redirect("/login");
  if (access === "forbidden") throw refusal(403, refusedMessage);
  throw failure(
    context,
    "Sign-in checks are unavailable for a moment. Please try again in a minute.",
  );
}
