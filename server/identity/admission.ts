/**
 * Who may hold a session (decision 024). With SIGNUP_MODE=open, every account in good standing.
 * With SIGNUP_MODE=invite, only administrators and accounts whose waitlist entry was invited (or
 * has joined). Either way an account's first session joins its entry, by the invitation it came
 * with or, failing that, by its verified address (server/waitlist/invitations.ts).
 *
 * An account refused in invite-only mode that was created within the last hour, outside any
 * invitation, is a stray: made directly at Firebase, around the site's sign-up page. It is deleted
 * through the Admin SDK, so it holds nothing and its address stays free for a later invitation.
 * Older accounts (made while sign-up was open) are refused and kept.
 */
import type { FastifyRequest } from "fastify";
import { isAdmin, isAdminAddress } from "#server/identity/admin-guard.ts";
import type { Env } from "#server/env.ts";
import { AccountsUnavailable, type Accounts } from "#server/identity/firebase-admin.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import type { JoinRequest, Membership } from "#server/waitlist/invitations.ts";

/** An account at most this old, refused a session in invite-only mode, is deleted as a stray. */
const STRAY_ACCOUNT_MAX_AGE_SECONDS = 60 * 60;

/** The verified token's account asking for a session. */
type Applicant = { uid: string; email: string | null; emailVerified: boolean };

/**
 * "admitted": give it a session. "not-invited": invite-only mode, and no invitation for it.
 * "verify-address": invite-only mode, an address of ADMIN_EMAILS not verified yet: it becomes an
 * administrator's once its owner opens the verification link (decision 024).
 */
export type Admission = (
  req: FastifyRequest,
  applicant: Applicant,
  /** The token of the invitation link the browser came from, if any. */
  invitation: string | null,
) => Promise<"admitted" | "not-invited" | "verify-address">;

export function createAdmission({
  env,
  join,
  accounts,
}: {
  env: Env;
  join: (request: JoinRequest) => Promise<Membership>;
  accounts: Pick<Accounts, "lookup" | "deleteAccount">;
}): Admission {
  const openSignup = env.signupMode === "open";

  /** Deletes the refused account if it is a stray (see above); logs what it did. */
  async function removeIfStray(req: FastifyRequest, applicant: Applicant) {
    // An address in ADMIN_EMAILS is the operator's own, verified or not yet: never deleted.
    if (isAdminAddress(applicant.email, env)) return;
    try {
      const account = await accounts.lookup(applicant.uid);
      const age = account?.createdAt == null ? null : Date.now() / 1000 - account.createdAt;
      if (age === null || age > STRAY_ACCOUNT_MAX_AGE_SECONDS) return;
      await accounts.deleteAccount(applicant.uid);
      req.log.warn(
        {
          event: "session.stray_account_deleted",
          uid: applicant.uid,
          email: maskEmail(applicant.email),
        },
        "uninvited account created outside the site deleted",
      );
    } catch (error) {
      // The session is refused all the same; the account is left for the next attempt.
      req.log.error(
        { event: "session.stray_account_kept", uid: applicant.uid, err: error },
        "uninvited account could not be deleted",
      );
    }
  }

  return async (req, applicant, invitation) => {
    const admin = isAdmin(applicant, env);
    let membership: Membership;
    try {
      membership = await join({ ...applicant, invitation, openSignup });
    } catch (error) {
      // With open sign-up (or for an admin) the list's bookkeeping never keeps anyone out: the
      // entry joins at the next sign-in. In invite-only mode the list decides: 503, not 403.
      if (openSignup || admin) {
        req.log.error({ event: "session.join_failed", err: error }, "entry could not join");
        return "admitted";
      }
      throw new AccountsUnavailable(error);
    }
    if (membership === "joined")
      req.log.info(
        { event: "session.joined", uid: applicant.uid, email: maskEmail(applicant.email) },
        "waitlist entry joined",
      );
    if (openSignup || admin || membership !== "none") return "admitted";
    if (isAdminAddress(applicant.email, env)) {
      req.log.info(
        {
          event: "session.admin_unverified",
          uid: applicant.uid,
          email: maskEmail(applicant.email),
        },
        "sign-in refused: an administrator's address, not verified yet",
      );
      return "verify-address";
    }
    req.log.warn(
      { event: "session.not_invited", uid: applicant.uid, email: maskEmail(applicant.email) },
      "sign-in refused: not invited",
    );
    await removeIfStray(req, applicant);
    return "not-invited";
  };
}
