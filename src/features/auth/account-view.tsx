import { useState, type FormEvent, type ReactNode } from "react";
import type { MailPreferences } from "#src/lib/mail-ports.ts";
import { ProductNewsBox } from "#src/ui/product-news-box.tsx";
import { AdminAccessPanel, AdminAccessUnverified } from "#src/features/auth/admin-access-panel.tsx";
import type { AdminAccessOverview } from "#src/lib/admin-verify.ts";
import { Form, useNavigate } from "react-router";
import type { AccountOverview } from "#src/lib/account.ts";
import { authErrorNotice, type AuthAction } from "#src/features/auth/auth-errors.ts";
import { useAuth } from "#src/features/auth/auth-provider.tsx";
import { checkNewPassword, MIN_PASSWORD_LENGTH } from "#src/features/auth/password-rules.ts";
import { formatDateTime } from "#src/lib/date-time.ts";
import { formText } from "#src/lib/form-text.ts";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";
import { Field, PasswordInput } from "#src/ui/field.tsx";
import { useNotify } from "#src/ui/notices.tsx";

/** The account page's forms, by the `intent` each posts. */
export type AccountIntent =
  | "send-verification"
  | "change-password"
  | "sign-out-everywhere"
  | "delete-account"
  | "mail-preferences";

/** What the page's action answered, when it did not redirect: an error, or what was done. */
export type AccountActionData = { intent: AccountIntent | null; error: string; done?: string };

const NEEDS_JAVASCRIPT =
  "This needs JavaScript, since your password is checked by our sign-in service in your browser. Please turn it on for this site.";

/** The sentence the action answers when a form that needs the browser's Firebase came without it. */
export const NEEDS_JAVASCRIPT_ERROR = NEEDS_JAVASCRIPT;

function Alert({ children }: { children: ReactNode }) {
  return (
    <p
      role="alert"
      className="rounded-md border border-danger/30 bg-danger-soft px-4 py-3 text-sm font-medium text-danger"
    >
      {children}
    </p>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `account-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section
      aria-labelledby={id}
      className="space-y-4 rounded-2xl border border-rule bg-card p-6 sm:p-8"
    >
      <h2 id={id} className="font-serif text-2xl font-semibold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}

function NoScriptNote() {
  return (
    <noscript>
      <p className="rounded-md border border-tick/40 bg-tick-soft px-4 py-3 text-sm">
        {NEEDS_JAVASCRIPT}
      </p>
    </noscript>
  );
}

/** A message for a Firebase failure of `action`, as the sign-in forms word them. */
function firebaseMessage(action: AuthAction, error: unknown): string {
  return authErrorNotice(action, error).description;
}

/**
 * Posts one of the page's forms to its action and says whether the action went through (it
 * answers a redirect then); `error` otherwise, by status.
 */
async function postIntent(
  fields: Record<string, string>,
): Promise<{ ok: true } | { ok: false; status: number }> {
  const response = await fetch("/account", {
    method: "POST",
    body: new URLSearchParams(fields),
    credentials: "same-origin",
    redirect: "manual",
  });
  if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400))
    return { ok: true };
  return { ok: false, status: response.status };
}

const UNAVAILABLE = "This is unavailable for a moment. Please try again in a minute.";

function EmailSection({ overview, posted }: { overview: AccountOverview; posted?: string }) {
  const { sendVerification } = useAuth();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(posted);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await sendVerification();
      notify({
        title: "Verification Mail Sent",
        description: `Open the link we sent to ${overview.email ?? "your address"}.`,
      });
    } catch (failure) {
      setError(firebaseMessage("verify", failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title="Your account">
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">Email</dt>
        <dd className="break-words">{overview.email ?? "No email address"}</dd>
        <dt className="font-semibold">Email verified</dt>
        <dd>{overview.emailVerified ? "Yes" : "Not yet"}</dd>
        {overview.createdAt ? (
          <>
            <dt className="font-semibold">Account created (UTC)</dt>
            <dd>{formatDateTime(overview.createdAt)}</dd>
          </>
        ) : null}
      </dl>
      {overview.emailVerified ? null : (
        <form method="post" onSubmit={(e) => void handleSubmit(e)} className="space-y-3">
          <input type="hidden" name="intent" value="send-verification" />
          {error ? <Alert>{error}</Alert> : null}
          <NoScriptNote />
          <Button type="submit" variant="secondary" disabled={busy}>
            {busy ? "Sending..." : "Send verification mail again"}
          </Button>
        </form>
      )}
    </Section>
  );
}

function PasswordSection({ posted }: { posted?: string }) {
  const { changePassword } = useAuth();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(posted);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const current = formText(data, "currentPassword");
    const next = formText(data, "newPassword");
    const confirm = formText(data, "confirmPassword");
    setError(undefined);
    const missing: Record<string, string> = {};
    if (!current) missing.currentPassword = "Please enter your current password.";
    if (!next) missing.newPassword = "Please enter a new password.";
    if (!confirm) missing.confirmPassword = "Please confirm the new password.";
    const rule = Object.keys(missing).length === 0 ? checkNewPassword(next, confirm) : null;
    if (rule)
      missing[next.length > 0 && next !== confirm ? "confirmPassword" : "newPassword"] =
        rule.description;
    setFieldErrors(missing);
    const firstBad = Object.keys(missing)[0];
    if (firstBad) {
      form.querySelector<HTMLInputElement>(`[name="${firstBad}"]`)?.focus();
      return;
    }
    setBusy(true);
    try {
      await changePassword(current, next);
      form.reset();
      notify({ title: "Password Changed", description: "Use your new password from now on." });
    } catch (failure) {
      setError(firebaseMessage("changePassword", failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title="Change password">
      <p className="text-ink-soft">
        Other browsers signed in to this account are signed out when the password changes.
      </p>
      <form method="post" noValidate onSubmit={(e) => void handleSubmit(e)} className="space-y-5">
        <input type="hidden" name="intent" value="change-password" />
        {error ? <Alert>{error}</Alert> : null}
        <NoScriptNote />
        <Field label="Current password" error={fieldErrors.currentPassword}>
          {(props) => (
            <PasswordInput
              {...props}
              name="currentPassword"
              required
              autoComplete="current-password"
            />
          )}
        </Field>
        <Field
          label="New password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          error={fieldErrors.newPassword}
        >
          {(props) => (
            <PasswordInput {...props} name="newPassword" required autoComplete="new-password" />
          )}
        </Field>
        <Field label="Confirm new password" error={fieldErrors.confirmPassword}>
          {(props) => (
            <PasswordInput {...props} name="confirmPassword" required autoComplete="new-password" />
          )}
        </Field>
        <Button type="submit" disabled={busy}>
          {busy ? "Changing..." : "Change password"}
        </Button>
      </form>
    </Section>
  );
}

function SignOutEverywhereSection({ posted }: { posted?: string }) {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(posted);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const answer = await postIntent({ intent: "sign-out-everywhere" });
      if (!answer.ok) {
        setError(UNAVAILABLE);
        return;
      }
      // The server has ended every session; this browser's Firebase forgets the user too.
      await logout().catch(() => {});
      await navigate("/login", { replace: true });
    } catch {
      setError(UNAVAILABLE);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title="Sign out everywhere">
      <p className="text-ink-soft">
        Ends every session of this account, in this browser and every other one.
      </p>
      <form method="post" onSubmit={(e) => void handleSubmit(e)} className="space-y-3">
        <input type="hidden" name="intent" value="sign-out-everywhere" />
        {error ? <Alert>{error}</Alert> : null}
        <Button type="submit" variant="secondary" disabled={busy}>
          {busy ? "Signing out..." : "Sign out everywhere"}
        </Button>
      </form>
    </Section>
  );
}

/** The form field of the waitlist news box: "yes" when ticked, absent when not. */
export const WAITLIST_NEWS_FIELD = "waitlist_news";

/**
 * Which broadcasts the member gets (decision 041), for the waitlist entry their account holds: a
 * plain form, so it works with or without JavaScript.
 */
function MailSection({
  preferences,
  posted,
}: {
  preferences: MailPreferences;
  posted?: AccountActionData | undefined;
}) {
  return (
    <Section title="Mail from us">
      <p className="text-ink-soft">
        Waitlist news is about the beta and your place in it; product news only comes if you ask for
        it. Every such mail also has a one-click unsubscribe.
      </p>
      <Form method="post" className="space-y-3">
        <input type="hidden" name="intent" value="mail-preferences" />
        <label className="flex items-start gap-3 rounded-md border border-rule bg-paper px-4 py-3">
          <input
            type="checkbox"
            name={WAITLIST_NEWS_FIELD}
            value="yes"
            defaultChecked={preferences.waitlistNews}
            className="mt-1 size-4 shrink-0 accent-ledger"
          />
          <span className="font-medium">Send me waitlist news</span>
        </label>
        <ProductNewsBox checked={preferences.productNews} />
        {posted?.error ? <Alert>{posted.error}</Alert> : null}
        {posted?.done ? (
          <p role="status" className="text-sm font-medium text-ledger-dark">
            {posted.done}
          </p>
        ) : null}
        <Button type="submit" variant="secondary">
          Save my mail choices
        </Button>
      </Form>
    </Section>
  );
}

function DataSection() {
  return (
    <Section title="Download my data">
      <p className="text-ink-soft">
        A JSON file of everything we hold about you: your account, your sessions (when they began,
        were last seen and from which browser) and your waitlist entry: the one you joined from, or
        the one under your email once it is verified.
      </p>
      {/* A plain form: the browser saves the answer as a file, with or without JavaScript. */}
      <form method="post" action="/account/data">
        <Button type="submit" variant="secondary">
          Download my data
        </Button>
      </form>
    </Section>
  );
}

function DeleteSection({ posted }: { posted?: string }) {
  const { reauthenticate, logout } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(posted);
  const [fieldError, setFieldError] = useState<string | undefined>();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const password = formText(new FormData(form), "password");
    setError(undefined);
    if (!password) {
      setFieldError("Please enter your password.");
      form.querySelector<HTMLInputElement>('[name="password"]')?.focus();
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    try {
      let idToken: string;
      try {
        idToken = await reauthenticate(password);
      } catch (failure) {
        setError(firebaseMessage("reauthenticate", failure));
        return;
      }
      const answer = await postIntent({ intent: "delete-account", idToken });
      if (!answer.ok) {
        setError(
          answer.status === 401
            ? "We could not confirm it was you. Please enter your password again."
            : `Your account was not deleted. ${UNAVAILABLE}`,
        );
        return;
      }
      // The account is gone at Firebase: this browser forgets it too.
      await logout().catch(() => {});
      await navigate("/account/deleted", { replace: true });
    } catch {
      setError(`Your account was not deleted. ${UNAVAILABLE}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title="Delete my account">
      <p className="text-ink-soft">
        Deletes your account for good, erases its sessions and your waitlist entry (the one you
        joined from, or the one under your verified email). This cannot be undone.
      </p>
      <form method="post" noValidate onSubmit={(e) => void handleSubmit(e)} className="space-y-5">
        <input type="hidden" name="intent" value="delete-account" />
        {error ? <Alert>{error}</Alert> : null}
        <NoScriptNote />
        <Field label="Password" hint="Enter your password to confirm." error={fieldError}>
          {(props) => (
            <PasswordInput {...props} name="password" required autoComplete="current-password" />
          )}
        </Field>
        <Button type="submit" disabled={busy} className="bg-danger hover:bg-danger/90">
          {busy ? "Deleting..." : "Delete my account"}
        </Button>
      </form>
    </Section>
  );
}

/** An administrator's own admin access, for the section that manages it (decision 039). */
export type AccountAdminAccess =
  { kind: "verified"; access: AdminAccessOverview } | { kind: "unverified" } | null;

export function AccountView({
  overview,
  posted,
  admin = null,
  mail = null,
}: {
  overview: AccountOverview;
  posted?: AccountActionData | undefined;
  admin?: AccountAdminAccess;
  /** Consent to each kind of broadcast; null when the account holds no waitlist entry. */
  mail?: MailPreferences | null;
}) {
  const said = (intent: AccountIntent) => (posted?.intent === intent ? posted.error : undefined);
  return (
    <Container className="py-10 sm:py-14">
      <div className="mx-auto max-w-2xl space-y-8">
        <h1 className="font-serif text-4xl font-semibold tracking-tight">Account</h1>
        <EmailSection overview={overview} posted={said("send-verification")} />
        <PasswordSection posted={said("change-password")} />
        {admin?.kind === "verified" ? (
          <AdminAccessPanel access={admin.access} email={overview.email ?? ""} />
        ) : admin?.kind === "unverified" ? (
          <AdminAccessUnverified />
        ) : null}
        {mail ? (
          <MailSection
            preferences={mail}
            posted={posted?.intent === "mail-preferences" ? posted : undefined}
          />
        ) : null}
        <SignOutEverywhereSection posted={said("sign-out-everywhere")} />
        <DataSection />
        <DeleteSection posted={said("delete-account")} />
      </div>
    </Container>
  );
}

/** The page after a deletion: what went, and where to go now. */
export function AccountDeletedView() {
  return (
    <Container className="py-10 sm:py-14">
      <div className="mx-auto max-w-2xl space-y-4">
        <h1 className="font-serif text-4xl font-semibold tracking-tight">
          Your account is deleted
        </h1>
        <p>
          Your account is gone, its sessions are erased, and so is your waitlist entry, if you had
          one. Nothing more is needed from you.
        </p>
      </div>
    </Container>
  );
}
