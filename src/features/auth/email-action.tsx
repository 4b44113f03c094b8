import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { AuthCard, NeedsJavaScript } from "#src/features/auth/auth-card.tsx";
import { authErrorCode, authErrorNotice } from "#src/features/auth/auth-errors.ts";
import { useAuth } from "#src/features/auth/auth-provider.tsx";
import { loadFirebaseAuth } from "#src/features/auth/firebase-client.ts";
import { checkNewPassword, MIN_PASSWORD_LENGTH } from "#src/features/auth/password-rules.ts";
import { formText } from "#src/lib/form-text.ts";
import { Button } from "#src/ui/button.tsx";
import { Field, PasswordInput } from "#src/ui/field.tsx";
import { useNotify } from "#src/ui/notices.tsx";

type State =
  | { step: "checking" }
  | { step: "choose"; email: string }
  | { step: "changed" }
  | { step: "verified" }
  | { step: "invalid"; expired: boolean; mode: string };

/**
 * Our own handler for Firebase's email action links (set as the project's action URL), so a
 * visitor resetting a password never lands on a bare default page.
 */
export function EmailAction({ mode, code }: { mode: string | null; code: string | null }) {
  const { config } = useAuth();
  const notify = useNotify();
  const supported = code !== null && (mode === "resetPassword" || mode === "verifyEmail");
  const [state, setState] = useState<State>(
    supported ? { step: "checking" } : { step: "invalid", expired: false, mode: mode ?? "" },
  );
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let cancelled = false;
    const fail = (error: unknown) => {
      if (cancelled) return;
      setState({
        step: "invalid",
        expired: authErrorCode(error) === "auth/expired-action-code",
        mode: mode ?? "",
      });
    };
    if (!supported) return;
    loadFirebaseAuth(config)
      .then(async ({ auth, sdk }) => {
        if (mode === "resetPassword") {
          const email = await sdk.verifyPasswordResetCode(auth, code ?? "");
          if (!cancelled) setState({ step: "choose", email });
        } else {
          await sdk.applyActionCode(auth, code ?? "");
          if (!cancelled) setState({ step: "verified" });
        }
      })
      .catch(fail);
    return () => {
      cancelled = true;
    };
  }, [config, mode, code, supported]);

  useEffect(() => {
    if (state.step !== "checking") heading.current?.focus();
  }, [state.step]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = formText(form, "password");
    const problem = checkNewPassword(password, formText(form, "confirmPassword"));
    if (problem) {
      notify({ variant: "destructive", ...problem });
      return;
    }
    setBusy(true);
    try {
      const { auth, sdk } = await loadFirebaseAuth(config);
      await sdk.confirmPasswordReset(auth, code ?? "", password);
      notify({
        title: "Password Changed",
        description: "You can now sign in with your new password.",
      });
      setState({ step: "changed" });
    } catch (error) {
      const code = authErrorCode(error);
      if (code === "auth/expired-action-code" || code === "auth/invalid-action-code") {
        setState({
          step: "invalid",
          expired: code === "auth/expired-action-code",
          mode: "resetPassword",
        });
      }
      notify({ variant: "destructive", ...authErrorNotice("confirmReset", error) });
    } finally {
      setBusy(false);
    }
  }

  switch (state.step) {
    case "checking":
      return (
        <AuthCard title="Checking your link" back={false}>
          <NeedsJavaScript />
          <p className="text-ink-soft" role="status">
            One moment while we check this link…
          </p>
        </AuthCard>
      );
    case "choose":
      return (
        <AuthCard
          title="Choose a New Password"
          titleRef={heading}
          back={false}
          description={
            <>
              For <strong className="font-semibold break-words text-ink">{state.email}</strong>
            </>
          }
        >
          <form onSubmit={(e) => void handleSubmit(e)} className="space-y-5">
            {/* Lets password managers file the new password under the right account. */}
            <input
              type="email"
              name="username"
              autoComplete="username"
              value={state.email}
              readOnly
              hidden
            />
            <Field
              label="New Password"
              hint={`Must be at least ${MIN_PASSWORD_LENGTH} characters long`}
            >
              {(props) => (
                <PasswordInput {...props} name="password" required autoComplete="new-password" />
              )}
            </Field>
            <Field label="Confirm New Password">
              {(props) => (
                <PasswordInput
                  {...props}
                  name="confirmPassword"
                  required
                  autoComplete="new-password"
                />
              )}
            </Field>
            <Button type="submit" className="w-full" disabled={busy}>
              {busy ? "Saving..." : "Save New Password"}
            </Button>
          </form>
        </AuthCard>
      );
    case "changed":
      return (
        <AuthCard title="Password Changed" titleRef={heading} back={false}>
          <p className="leading-relaxed">
            Your password has been changed. Sign in with your new password.
          </p>
          <Button asChild className="mt-7 w-full">
            <Link to="/login">Sign In</Link>
          </Button>
        </AuthCard>
      );
    case "verified":
      return (
        <AuthCard title="Email Verified" titleRef={heading} back={false}>
          <p className="leading-relaxed">Thank you. Your email address is confirmed.</p>
          <Button asChild className="mt-7 w-full">
            <Link to="/">Continue</Link>
          </Button>
        </AuthCard>
      );
    case "invalid": {
      const reset = state.mode === "resetPassword";
      return (
        <AuthCard
          title={state.expired ? "This Link Has Expired" : "This Link Is Not Valid"}
          titleRef={heading}
          back={false}
        >
          <p className="leading-relaxed">
            {reset
              ? "Reset links work once and expire after a while. Ask for a new one and use the most recent email."
              : "The link may be incomplete, already used or expired."}
          </p>
          <Button asChild className="mt-7 w-full">
            {reset ? (
              <Link to="/forgot-password">Request a New Link</Link>
            ) : (
              <Link to="/">Return to Home</Link>
            )}
          </Button>
        </AuthCard>
      );
    }
  }
}
