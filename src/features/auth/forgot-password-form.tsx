import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { EmailField } from "#src/ui/email-field.tsx";
import { AuthCard, NeedsJavaScript, standaloneTextLink } from "#src/features/auth/auth-card.tsx";
import { authErrorNotice } from "#src/features/auth/auth-errors.ts";
import { useAuth } from "#src/features/auth/auth-provider.tsx";
import { Button } from "#src/ui/button.tsx";
import { formText } from "#src/lib/form-text.ts";
import { useNotify } from "#src/ui/notices.tsx";
import { AUTH_FIELD_MESSAGES } from "#src/features/auth/field-messages.ts";
import { useFieldErrors } from "#src/ui/use-field-errors.ts";

export function ForgotPasswordForm() {
  const { resetPassword, prepare } = useAuth();
  const notify = useNotify();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const switched = useRef(false);
  const { errors, check } = useFieldErrors(AUTH_FIELD_MESSAGES);

  useEffect(() => prepare(), [prepare]);
  // When the view changes, move focus to what is new so screen readers follow.
  useEffect(() => {
    if (!switched.current) return;
    if (sentTo) heading.current?.focus();
    else emailInput.current?.focus();
  }, [sentTo]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!check(event.currentTarget)) return;
    // Uncontrolled, so what was typed before the page's script ran is kept.
    const email = formText(new FormData(event.currentTarget), "email");
    setBusy(true);
    try {
      await resetPassword(email);
      notify({
        title: "Email Sent!",
        description: "Check your inbox and spam folder for password reset instructions.",
      });
      switched.current = true;
      setSentTo(email);
    } catch (error) {
      notify({ variant: "destructive", ...authErrorNotice("reset", error) });
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <AuthCard title="Check Your Email" titleRef={heading} back={false}>
        <p className="leading-relaxed">
          We sent a password reset link to{" "}
          <strong className="font-semibold break-words">{sentTo}</strong>.
        </p>
        <p className="mt-3 leading-relaxed text-ink-soft">
          It can take a minute to arrive. If you don&apos;t see it, check your spam or junk folder.
        </p>
        <div className="mt-7 grid gap-3">
          <Button type="button" variant="secondary" onClick={() => setSentTo(null)}>
            Try a Different Email
          </Button>
          <Button asChild>
            <Link to="/login">Back to Sign In</Link>
          </Button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset Password"
      titleRef={heading}
      description="Enter the email you sign in with and we will send you a link to choose a new password."
      footer={
        <p>
          <Link to="/login" className={standaloneTextLink}>
            Back to Sign In
          </Link>
        </p>
      }
    >
      <NeedsJavaScript />
      <form
        method="post"

        noValidate
        onSubmit={(e) => void handleSubmit(e)}
        className="space-y-5"
      >
        <EmailField inputRef={emailInput} error={errors.email} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Sending..." : "Send Reset Link"}
        </Button>
      </form>
    </AuthCard>
  );
}
