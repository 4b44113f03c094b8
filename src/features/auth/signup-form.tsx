import type { FormEvent } from "react";
import { Link } from "react-router";
import { EmailField } from "#src/ui/email-field.tsx";
import { AuthCard, NeedsJavaScript, textLink } from "#src/features/auth/auth-card.tsx";
import { useAuth } from "#src/features/auth/auth-provider.tsx";
import { InvitationOnlyNotice, RefusalNotice } from "#src/features/auth/invitation-notice.tsx";
import { checkNewPassword, MIN_PASSWORD_LENGTH } from "#src/features/auth/password-rules.ts";
import { formText } from "#src/lib/form-text.ts";
import { useAuthForm } from "#src/features/auth/use-auth-form.ts";
import { AUTH_FIELD_MESSAGES } from "#src/features/auth/field-messages.ts";
import { useFieldErrors } from "#src/ui/use-field-errors.ts";
import { Button } from "#src/ui/button.tsx";
import { Field, PasswordInput } from "#src/ui/field.tsx";

/** An invitation the page was opened with: the address it is for, and its link's token. */
export type Invitation = { email: string; token: string };

/**
 * The spec's sign-up form. From an invitation (decision 024) the address is the invited one,
 * shown read-only, and the invitation's token goes with the account's first session. With
 * `inviteOnly` (SIGNUP_MODE=invite, no invitation) the page says that access is by invitation, and
 * the form is folded away under a question for the site's administrators, the one kind of account
 * that needs none.
 */
export function SignupForm({
  invitation,
  inviteOnly = false,
}: {
  invitation?: Invitation;
  inviteOnly?: boolean;
}) {
  const { signUpWithEmail } = useAuth();
  const { busy, run, notify, refused } = useAuthForm("signUp", {
    title: "Account Created!",
    description: "Welcome! Your account has been successfully created.",
  });
  const { errors, check } = useFieldErrors(AUTH_FIELD_MESSAGES);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!check(event.currentTarget)) return;
    const form = new FormData(event.currentTarget);
    const password = formText(form, "password");
    const problem = checkNewPassword(password, formText(form, "confirmPassword"));
    if (problem) {
      notify({ variant: "destructive", ...problem });
      return;
    }
    const email = invitation?.email ?? formText(form, "email");
    void run(() => signUpWithEmail(email, password, invitation?.token));
  }

  const formFields = (
    <form method="post" noValidate onSubmit={handleSubmit} className="space-y-5">
      <EmailField
        error={errors.email}
        fixed={invitation?.email}
        hint={invitation ? "Your invitation is for this address." : undefined}
      />
      <Field
        label="Password"
        hint={`Must be at least ${MIN_PASSWORD_LENGTH} characters long`}
        error={errors.password}
      >
        {(props) => (
          <PasswordInput {...props} name="password" required autoComplete="new-password" />
        )}
      </Field>
      <Field label="Confirm Password" error={errors.confirmPassword}>
        {(props) => (
          <PasswordInput {...props} name="confirmPassword" required autoComplete="new-password" />
        )}
      </Field>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Creating account..." : "Create Account"}
      </Button>
    </form>
  );

  return (
    <AuthCard
      title="Create Account"
      description={
        invitation
          ? "You are invited to the Tieout private beta. Choose a password to create your account."
          : inviteOnly
            ? undefined
            : "Set up your Tieout account with your work email."
      }
      footer={
        <p>
          Already have an account?{" "}
          <Link
            to={invitation ? `/login?invite=${invitation.token}` : "/login"}
            className={textLink}
          >
            Sign in
          </Link>
        </p>
      }
    >
      <NeedsJavaScript />
      <RefusalNotice refused={refused} />
      {inviteOnly ? (
        <>
          <InvitationOnlyNotice />
          <details className="mt-5">
            <summary className="min-h-11 cursor-pointer py-2 font-semibold text-ledger-dark">
              Administrator of this site? Create your account
            </summary>
            <p className="mb-4 text-sm text-ink-soft">
              Only the addresses named as administrators get in this way; we will send yours a link
              to verify it.
            </p>
            {formFields}
          </details>
        </>
      ) : (
        formFields
      )}
    </AuthCard>
  );
}
