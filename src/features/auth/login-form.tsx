import type { FormEvent } from "react";
import { Link } from "react-router";
import { EmailField } from "#src/ui/email-field.tsx";
import {
  AuthCard,
  NeedsJavaScript,
  standaloneTextLink,
  textLink,
} from "#src/features/auth/auth-card.tsx";
import { useAuth } from "#src/features/auth/auth-provider.tsx";
import { RefusalNotice } from "#src/features/auth/invitation-notice.tsx";
import { formText } from "#src/lib/form-text.ts";
import { Button } from "#src/ui/button.tsx";
import { Field, PasswordInput } from "#src/ui/field.tsx";
import { useAuthForm } from "#src/features/auth/use-auth-form.ts";
import { AUTH_FIELD_MESSAGES } from "#src/features/auth/field-messages.ts";
import { useFieldErrors } from "#src/ui/use-field-errors.ts";

export function LoginForm() {
  const { signInWithEmail } = useAuth();
  const { busy, run, refused } = useAuthForm("signIn", {
    title: "Welcome back!",
    description: "Successfully signed in to your account.",
  });
  const { errors, check } = useFieldErrors(AUTH_FIELD_MESSAGES);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!check(event.currentTarget)) return;
    const form = new FormData(event.currentTarget);
    // Arrived from an invitation's sign-up page ("Already have an account?"): its token joins the
    // invited entry with this account. Read from the address: the page itself is the same for all.
    const invitation = new URLSearchParams(window.location.search).get("invite");
    void run(() =>
      signInWithEmail(formText(form, "email"), formText(form, "password"), invitation),
    );
  }

  return (
    <AuthCard
      title="Sign In"
      description="Welcome back. Sign in to your Tieout account."
      footer={
        <p>
          No access yet?{" "}
          <Link to="/waitlist" className={textLink}>
            Join the waitlist
          </Link>
        </p>
      }
    >
      <NeedsJavaScript />
      <RefusalNotice refused={refused} />
      <form method="post" noValidate onSubmit={handleSubmit} className="space-y-5">
        <EmailField error={errors.email} />
        <Field label="Password" error={errors.password}>
          {(props) => (
            <PasswordInput {...props} name="password" required autoComplete="current-password" />
          )}
        </Field>
        <div className="flex justify-end">
          <Link to="/forgot-password" className={`${standaloneTextLink} text-sm`}>
            Forgot password?
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Signing in..." : "Sign In"}
        </Button>
      </form>
    </AuthCard>
  );
}
