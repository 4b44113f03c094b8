/**
 * /admin/verify (decision 039): where a signed-in administrator proves it is them with a passkey
 * before the admin opens, sets up a first passkey with a mailed code, uses a recovery code, or
 * confirms it's them again before a sensitive action (a step-up).
 */
import { useState, type FormEvent } from "react";
import { SITE } from "#src/content/site.ts";
import { AuthCard, textLink } from "#src/features/auth/auth-card.tsx";
import { useAuth } from "#src/features/auth/auth-provider.tsx";
import {
  CeremonyError,
  postJson,
  registerPasskey,
  verifyWithPasskey,
} from "#src/lib/passkey-ceremonies.ts";
import { RecoveryCodes } from "#src/features/auth/recovery-codes.tsx";
import { ADMIN_VERIFY_API, type VerifyState } from "#src/lib/admin-verify.ts";
import { formatDateTime } from "#src/lib/date-time.ts";
import { formText } from "#src/lib/form-text.ts";
import { Button } from "#src/ui/button.tsx";
import { Field } from "#src/ui/field.tsx";
import { FormAlert } from "#src/ui/form-alert.tsx";

type AdminState = Extract<VerifyState, { kind: "admin" }>;

const NEEDS_JAVASCRIPT =
  "Passkeys need JavaScript. Turn it on for this site to verify your admin access.";

function NoScript() {
  return (
    <noscript>
      <p className="mb-5 rounded-md border border-tick/40 bg-tick-soft px-4 py-3 text-sm">
        {NEEDS_JAVASCRIPT}
      </p>
    </noscript>
  );
}

/** Leaves for `next` with a full load, so every part of the page reads the new session. */
const go = (next: string) => window.location.assign(next);

function messageOf(error: unknown): string {
  return error instanceof CeremonyError
    ? error.message
    : "Something went wrong on our side. Please try again in a minute.";
}

export function VerifyView({
  state,
  next,
  confirm,
}: {
  state: AdminState;
  next: string;
  /** A step-up for a named action (`export`), or null. */
  confirm: string | null;
}) {
  if (state.lockedUntil)
    return (
      <AuthCard title="Verification is locked" back={false}>
        <p className="leading-relaxed">
          Too many attempts failed, so verification for {state.email} is locked until{" "}
          {formatDateTime(state.lockedUntil)}. We mailed you about it. If it was not you, someone
          has your password: change it once you are back in.
        </p>
      </AuthCard>
    );
  if (state.level === "recovering") return <NewPasskeyAfterRecovery state={state} next={next} />;
  if (state.level === "verified") return <StepUp state={state} next={next} confirm={confirm} />;
  if (state.passkeys > 0) return <UsePasskey state={state} next={next} />;
  return <FirstPasskey state={state} next={next} />;
}

/** "Use my passkey": a passkey assertion, then `next`; a failure is said above the button. */
function UsePasskeyButton({ next, hideError = false }: { next: string; hideError?: boolean }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <>
      <FormAlert message={hideError ? undefined : error} />
      <Button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(undefined);
          verifyWithPasskey().then(
            () => go(next),
            (e: unknown) => {
              setError(messageOf(e));
              setBusy(false);
            },
          );
        }}
      >
        {busy ? "Waiting for your passkey…" : "Use my passkey"}
      </Button>
    </>
  );
}

function StepUp({ next, confirm }: { state: AdminState; next: string; confirm: string | null }) {
  const what =
    confirm === "export"
      ? "Downloading the waitlist needs your passkey within the last 15 minutes."
      : "This needs your passkey within the last 15 minutes.";
  return (
    <AuthCard title="Confirm it's you" description={what} back={false}>
      <NoScript />
      <div className="space-y-4">
        <UsePasskeyButton next={next} />
        <p>
          <a className={textLink} href={next}>
            Go back without confirming
          </a>
        </p>
      </div>
    </AuthCard>
  );
}

function UsePasskey({ state, next }: { state: AdminState; next: string }) {
  const [recovering, setRecovering] = useState(false);
  const lapsed =
    state.lapsed === "idle"
      ? "The admin was not used for an hour, so it asks for your passkey again."
      : state.lapsed === "expired"
        ? "Twelve hours have passed since you last verified, so the admin asks for your passkey again."
        : `The ${SITE.name} admin holds people's personal data: each sign-in is confirmed with a passkey.`;
  return (
    <AuthCard title="Verify it's you" description={lapsed} back={false}>
      <NoScript />
      <div className="space-y-5">
        <p className="text-sm text-ink-soft">Signed in as {state.email}.</p>
        <UsePasskeyButton next={next} hideError={recovering} />
        {recovering ? (
          <RecoveryCodeForm next={next} />
        ) : (
          <p>
            <button
              type="button"
              className={`${textLink} min-h-6`}
              onClick={() => setRecovering(true)}
            >
              Lost your passkeys? Use a recovery code
            </button>
          </p>
        )}
      </div>
    </AuthCard>
  );
}

function RecoveryCodeForm({ next }: { next: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = formText(new FormData(event.currentTarget), "code");
    setBusy(true);
    setError(undefined);
    try {
      await postJson(ADMIN_VERIFY_API.recovery, { code });
      go(`/admin/verify?next=${encodeURIComponent(next)}`);
    } catch (e) {
      setError(messageOf(e));
      setBusy(false);
    }
  }
  return (
    <form
      method="post"
      onSubmit={(event) => void submit(event)}
      className="space-y-4 border-t border-rule pt-5"
      noValidate
    >
      <Field
        label="Recovery code"
        hint="One of the ten codes you saved with your first passkey. It works once."
        error={error}
      >
        {(props) => (
          <input
            {...props}
            name="code"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            required
          />
        )}
      </Field>
      <Button type="submit" variant="secondary" disabled={busy}>
        {busy ? "Checking…" : "Use this code"}
      </Button>
    </form>
  );
}

function NewPasskeyAfterRecovery({ state, next }: { state: AdminState; next: string }) {
  return (
    <AuthCard
      title="Set up a new passkey"
      description="A recovery code let you in. Before anything else, set up a passkey on the device you have now."
      back={false}
    >
      <NoScript />
      <CreatePasskey email={state.email} next={next} />
    </AuthCard>
  );
}

function FirstPasskey({ state, next }: { state: AdminState; next: string }) {
  const { logout } = useAuth();
  const [codeSent, setCodeSent] = useState(state.codeSent);
  const [proven, setProven] = useState(state.mailboxProven);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [sentNote, setSentNote] = useState<string>();

  async function sendCode() {
    setBusy(true);
    setError(undefined);
    try {
      await postJson(ADMIN_VERIFY_API.sendCode);
      setCodeSent(true);
      setSentNote(`We mailed a code to ${state.email}. It works for 10 minutes.`);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  async function checkCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = formText(new FormData(event.currentTarget), "code");
    setBusy(true);
    setError(undefined);
    try {
      await postJson(ADMIN_VERIFY_API.checkCode, { code });
      setProven(true);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  const intro = `The ${SITE.name} admin holds people's personal data, so it asks for a passkey: a key kept by your device, unlocked with your fingerprint, face or PIN, that a fake site cannot use. First we check your mailbox.`;

  if (proven)
    return (
      <AuthCard
        title="Create your passkey"
        description="Your mailbox is confirmed. Now create a passkey on this device, a phone or a security key."
        back={false}
      >
        <NoScript />
        <CreatePasskey email={state.email} next={next} />
      </AuthCard>
    );

  if (!state.passwordFresh && !codeSent)
    return (
      <AuthCard title="Set up your passkey" description={intro} back={false}>
        <NoScript />
        <div className="space-y-4">
          <p className="leading-relaxed">
            A first passkey needs your password typed in the last 5 minutes. Sign in again, then
            come back here.
          </p>
          <Button
            type="button"
            onClick={() => {
              void logout().finally(() => go("/login"));
            }}
          >
            Sign out and sign in again
          </Button>
        </div>
      </AuthCard>
    );

  return (
    <AuthCard title="Set up your passkey" description={intro} back={false}>
      <NoScript />
      <div className="space-y-5">
        {sentNote ? (
          <p role="status" className="rounded-md border border-ledger/30 bg-ledger-soft px-4 py-3">
            {sentNote}
          </p>
        ) : null}
        {codeSent ? (
          <form
            method="post"
            onSubmit={(event) => void checkCode(event)}
            className="space-y-4"
            noValidate
          >
            <Field
              label="Code from the email"
              hint={`Six digits, sent to ${state.email}.`}
              error={error}
            >
              {(props) => (
                <input
                  {...props}
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]*"
                  maxLength={8}
                  required
                />
              )}
            </Field>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" disabled={busy}>
                {busy ? "Checking…" : "Check the code"}
              </Button>
              <Button
                type="button"
                variant="secondary"
                disabled={busy}
                onClick={() => void sendCode()}
              >
                Send a new code
              </Button>
            </div>
          </form>
        ) : (
          <>
            <FormAlert message={error} />
            <Button type="button" disabled={busy} onClick={() => void sendCode()}>
              {busy ? "Sending…" : `Email a code to ${state.email}`}
            </Button>
          </>
        )}
      </div>
    </AuthCard>
  );
}

function CreatePasskey({ email, next }: { email: string; next: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [codes, setCodes] = useState<string[] | null>(null);

  if (codes)
    return (
      <RecoveryCodes
        codes={codes}
        email={email}
        onDone={() => go(next)}
        doneLabel="I have saved them: open the admin"
      />
    );

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = formText(new FormData(event.currentTarget), "name");
    setBusy(true);
    setError(undefined);
    try {
      const made = await registerPasskey(name);
      if (made.recoveryCodes) setCodes(made.recoveryCodes);
      else go(next);
    } catch (e) {
      setError(messageOf(e));
      setBusy(false);
    }
  }

  return (
    <form method="post" onSubmit={(event) => void create(event)} className="space-y-4" noValidate>
      <Field
        label="Passkey name (optional)"
        hint="So you can tell your passkeys apart later, for example “Work laptop”."
      >
        {(props) => <input {...props} name="name" maxLength={60} autoComplete="off" />}
      </Field>
      <FormAlert message={error} />
      <Button type="submit" disabled={busy}>
        {busy ? "Waiting for your device…" : "Create a passkey"}
      </Button>
    </form>
  );
}
