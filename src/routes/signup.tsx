import { data, Link } from "react-router";
import type { Route } from "./+types/signup";
import { SITE } from "#src/content/site.ts";
import { AuthCard, needsJavaScriptAction, textLink } from "#src/features/auth/auth-card.tsx";
import { requireAnonymous } from "#src/features/auth/require-anonymous.ts";
import { SignupForm, type Invitation } from "#src/features/auth/signup-form.tsx";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import type { RouteHandle } from "#src/lib/route-handle.ts";
import { loadContext } from "#src/load-context.ts";

/** `?invite=` is the invitation's token: such a page is the invitee's own, never shared. */
export const handle: RouteHandle = { personalQuery: ["invite"] };

/** What the page shows (decision 024). */
type SignupView =
  /** The spec's open sign-up form. */
  | { kind: "open" }
  /** SIGNUP_MODE=invite and no invitation: access is by invitation. */
  | { kind: "invite-only" }
  /** A live invitation: the form, with its address fixed. */
  | { kind: "invited"; invitation: Invitation }
  /** An invitation link that no longer works (used, expired, replaced or made up). */
  | { kind: "invitation-gone" };

const PERSONAL = { "Cache-Control": "private, no-store" };

/** Reads only: opening an invitation's link (a mail scanner does) uses nothing up. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAnonymous({ context });
  const server = context.get(loadContext);
  const token = new URL(request.url).searchParams.get("invite");
  if (token === null)
    return data<SignupView>({ kind: server.signupMode === "invite" ? "invite-only" : "open" });
  let invited: { email: string } | null;
  try {
    invited = await server.waitlist.checkInvitation(token);
  } catch {
    throw failure(server, "Sign-up is unavailable for a moment. Please try again in a minute.");
  }
  return data<SignupView>(
    invited
      ? { kind: "invited", invitation: { email: invited.email, token } }
      : { kind: "invitation-gone" },
    { headers: PERSONAL },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const action = needsJavaScriptAction;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Create Account",
    description: `Create your ${SITE.name} account with your work email to use AI agents that prepare workpapers in Excel.`,
  });

export default function Signup({ loaderData: view }: Route.ComponentProps) {
  switch (view.kind) {
    case "open":
      return <SignupForm />;
    case "invited":
      return <SignupForm invitation={view.invitation} />;
    case "invite-only":
      return <SignupForm inviteOnly />;
    case "invitation-gone":
      return (
        <AuthCard
          title="This invitation no longer works"
          description="It may have been used already, replaced by a newer one, or it has expired."
          footer={
            <p>
              Created your account with it already?{" "}
              <Link to="/login" className={textLink}>
                Sign in
              </Link>
            </p>
          }
        >
          <p className="leading-relaxed">
            If you did not use it, reply to your invitation mail and we will send a new one. Not on
            the waitlist yet?
          </p>
          <p className="mt-3">
            <Link to="/waitlist" className={textLink}>
              Join the waitlist
            </Link>
          </p>
        </AuthCard>
      );
  }
}
