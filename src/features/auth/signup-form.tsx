import { useRef, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { AuthCard, NeedsJavaScript, textLink } from "#src/features/auth/auth-card.tsx";
import { authErrorNotice } from "#src/features/auth/auth-errors.ts";
import { useAuth } from "#src/features/auth/auth-provider.tsx";
import { checkNewPassword, MIN_PASSWORD_LENGTH } from "#src/features/auth/password-rules.ts";
import { formText } from "#src/lib/form-text.ts";
import { useRedirectWhenSignedIn } from "#src/features/auth/use-redirect-when-signed-in.ts";
import { useHydrated } from "#src/lib/use-hydrated.ts";
import { Button } from "#src/ui/button.tsx";
import { Field, PasswordInput } from "#src/ui/field.tsx";
import { useNotify } from "#src/ui/notices.tsx";

export function SignupForm() {
  const { signUpWithEmail } = useAuth();
  const navigate = useNavigate();
  const notify = useNotify();
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const submitting = useRef(false);
  useRedirectWhenSignedIn(submitting);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = formText(form, "password");
    const problem = checkNewPassword(password, formText(form, "confirmPassword"));
    if (problem) {
      notify({ variant: "destructive", ...problem });
      return;
    }
    submitting.current = true;
    setBusy(true);
    try {
      await signUpWithEmail(formText(form, "email"), password);
      notify({ title: "Account Created!", description: "Welcome! Your account has been successfully created." });
      await navigate("/", { replace: true });
    } catch (error) {
      notify({ variant: "destructive", ...authErrorNotice("signUp", error) });
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Create Account"
      description="Set up your Tieout account with your work email."
      footer={
        <p>
          Already have an account?{" "}
          <Link to="/login" className={textLink}>
            Sign in
          </Link>
        </p>
      }
    >
      <NeedsJavaScript />
      <form onSubmit={(e) => void handleSubmit(e)} className="space-y-5">
        <Field label="Email">
          {(props) => <input {...props} name="email" type="email" required autoComplete="email" inputMode="email" spellCheck={false} />}
        </Field>
        <Field label="Password" hint={`Must be at least ${MIN_PASSWORD_LENGTH} characters long`}>
          {(props) => <PasswordInput {...props} name="password" required autoComplete="new-password" />}
        </Field>
        <Field label="Confirm Password">
          {(props) => <PasswordInput {...props} name="confirmPassword" required autoComplete="new-password" />}
        </Field>
        <Button type="submit" className="w-full" disabled={!hydrated || busy}>
          {busy ? "Creating account..." : "Create Account"}
        </Button>
      </form>
    </AuthCard>
  );
}
