import { Link } from "react-router";
import { SITE } from "#src/content/site.ts";
import { textLink } from "#src/features/auth/auth-card.tsx";
import { cn } from "#src/lib/cn.ts";

/**
 * What a visitor without an invitation reads when sign-up is by invitation (SIGNUP_MODE=invite,
 * decision 024): on the sign-up page itself, and as an alert when a sign-in or sign-up was refused.
 */
export function InvitationOnlyNotice({ alert = false }: { alert?: boolean }) {
  return (
    <div
      role={alert ? "alert" : undefined}
      className={cn(
        "rounded-md border px-4 py-3 text-[0.95rem] leading-relaxed",
        alert ? "mb-5 border-tick/40 bg-tick-soft" : "border-rule bg-ledger-soft",
      )}
    >
      <p className="font-semibold">Access to {SITE.name} is by invitation.</p>
      <p className="mt-1">
        We are opening the private beta a few firms at a time. Join the waitlist, and we will email
        you an invitation when your spot opens. Invited already? Open the link in your invitation
        mail to create your account.
      </p>
      <p className="mt-2">
        <Link to="/waitlist" className={textLink}>
          Join the waitlist
        </Link>
      </p>
    </div>
  );
}

/**
 * Sign-up is by invitation and the address is an administrator's, not verified yet: the
 * verification mail has been sent, and what to do with it.
 */
function VerifyAddressNotice() {
  return (
    <div
      role="alert"
      className="mb-5 rounded-md border border-tick/40 bg-tick-soft px-4 py-3 text-[0.95rem] leading-relaxed"
    >
      <p className="font-semibold">Verify your address first.</p>
      <p className="mt-1">
        This address is one of {SITE.name}&apos;s administrators. We have sent it a link: open it,
        then sign in here.
      </p>
    </div>
  );
}

/** Why the site gave the account no session, as the sign-in and sign-up forms show it. */
export function RefusalNotice({ refused }: { refused: "not-invited" | "verify-address" | null }) {
  if (refused === "not-invited") return <InvitationOnlyNotice alert />;
  if (refused === "verify-address") return <VerifyAddressNotice />;
  return null;
}
