/**
 * An administrator's own admin access on /account (decision 039): their passkeys (name, when added,
 * when last used), adding, renaming and removing one (never the last), new recovery codes, and
 * resetting another administrator's passkeys. Every change asks "Confirm it's you" first when the
 * last passkey was more than 15 minutes ago, and is mailed to the administrator concerned.
 */
import { useState, type FormEvent } from "react";
import { useRevalidator } from "react-router";
import {
  CeremonyError,
  postJson,
  registerPasskey,
  withStepUp,
} from "#src/lib/passkey-ceremonies.ts";
import { RecoveryCodes } from "#src/features/auth/recovery-codes.tsx";
import {
  ADMIN_VERIFY_API,
  type AdminAccessOverview,
  type PasskeyRow,
} from "#src/lib/admin-verify.ts";
import { formatDateTime } from "#src/lib/date-time.ts";
import { formText } from "#src/lib/form-text.ts";
import { Button } from "#src/ui/button.tsx";
import { Field } from "#src/ui/field.tsx";
import { FormAlert } from "#src/ui/form-alert.tsx";

const CELL = "px-3 py-2 text-left align-top";

function messageOf(error: unknown): string {
  return error instanceof CeremonyError
    ? error.message
    : "Something went wrong on our side. Please try again in a minute.";
}

/** For an administrator whose session has not been verified with a passkey yet. */
export function AdminAccessUnverified() {
  return (
    <section
      aria-labelledby="admin-access-heading"
      className="space-y-3 rounded-2xl border border-rule bg-card p-6 sm:p-8"
    >
      <h2 id="admin-access-heading" className="font-serif text-2xl font-semibold">
        Admin access
      </h2>
      <p className="leading-relaxed text-ink-soft">
        Your passkeys and recovery codes are shown once this session is verified with a passkey.
      </p>
      <p>
        <Button asChild variant="secondary">
          <a href="/admin/verify?next=%2Faccount">Verify with my passkey</a>
        </Button>
      </p>
    </section>
  );
}

export function AdminAccessPanel({
  access,
  email,
}: {
  access: AdminAccessOverview;
  email: string;
}) {
  const revalidator = useRevalidator();
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  /** Runs a change (with a step-up when it is due), then says what happened and reloads the list. */
  async function change(run: () => Promise<string | void>) {
    setBusy(true);
    setError(undefined);
    setNote(undefined);
    try {
      const said = await withStepUp(run);
      if (said) setNote(said);
      void revalidator.revalidate();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  async function addPasskey(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = formText(new FormData(event.currentTarget), "name");
    const form = event.currentTarget;
    await change(async () => {
      await registerPasskey(name);
      form.reset();
      return "Passkey added.";
    });
  }

  async function resetOther(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = formText(new FormData(event.currentTarget), "email").trim();
    await change(async () => {
      const answer = await postJson<{ removed: number }>(ADMIN_VERIFY_API.resetPasskeys, {
        email: target,
      });
      return `Reset: ${answer.removed} ${answer.removed === 1 ? "passkey" : "passkeys"} of ${target} removed, their sessions ended, and they were mailed.`;
    });
  }

  if (codes)
    return (
      <div className="rounded-2xl border border-rule bg-card p-6 sm:p-8">
        <RecoveryCodes
          codes={codes}
          email={email}
          doneLabel="I have saved them"
          onDone={() => setCodes(null)}
        />
      </div>
    );

  return (
    <section
      aria-labelledby="admin-access-heading"
      className="space-y-6 rounded-2xl border border-rule bg-card p-6 sm:p-8"
    >
      <div>
        <h2 id="admin-access-heading" className="font-serif text-2xl font-semibold">
          Admin access
        </h2>
        <p className="mt-2 leading-relaxed text-ink-soft">
          The admin asks for one of these passkeys at each sign-in, and again before sensitive
          actions. Every change here is mailed to you.
        </p>
      </div>
      <noscript>
        <p className="rounded-md border border-tick/40 bg-tick-soft px-4 py-3 text-sm">
          Managing passkeys needs JavaScript.
        </p>
      </noscript>
      <FormAlert message={error} />
      {note ? (
        <p role="status" className="font-medium text-ledger-dark">
          {note}
        </p>
      ) : null}

      <div className="overflow-x-auto rounded-lg border border-rule">
        <table className="w-full min-w-[36rem] text-sm">
          <caption className="sr-only">Your passkeys</caption>
          <thead className="bg-paper">
            <tr>
              <th scope="col" className={CELL}>
                Passkey
              </th>
              <th scope="col" className={CELL}>
                Added
              </th>
              <th scope="col" className={CELL}>
                Last used
              </th>
              <th scope="col" className={CELL}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {access.passkeys.map((passkey) => (
              <PasskeyLine
                key={passkey.id}
                passkey={passkey}
                only={access.passkeys.length === 1}
                disabled={busy}
                onRename={(name) =>
                  change(async () => {
                    await postJson(ADMIN_VERIFY_API.rename, { id: passkey.id, name });
                    return `Renamed to "${name.trim()}".`;
                  })
                }
                onRemove={() =>
                  change(async () => {
                    await postJson(ADMIN_VERIFY_API.remove, { id: passkey.id });
                    return `"${passkey.name}" removed.`;
                  })
                }
              />
            ))}
          </tbody>
        </table>
      </div>

      <form
        method="post"
        onSubmit={(event) => void addPasskey(event)}
        className="flex flex-wrap items-end gap-3"
        noValidate
      >
        <Field label="New passkey's name (optional)" className="min-w-56 flex-1">
          {(props) => <input {...props} name="name" maxLength={60} autoComplete="off" />}
        </Field>
        <Button type="submit" variant="secondary" disabled={busy}>
          Add a passkey
        </Button>
      </form>

      <div className="space-y-2">
        <h3 className="font-semibold">Recovery codes</h3>
        <p className="text-ink-soft">
          {access.recoveryCodesLeft} of 10 left. New codes replace every earlier one.
        </p>
        <Button
          type="button"
          variant="secondary"
          disabled={busy}
          onClick={() =>
            void change(async () => {
              const answer = await postJson<{ recoveryCodes: string[] }>(
                ADMIN_VERIFY_API.recoveryCodes,
              );
              setCodes(answer.recoveryCodes);
            })
          }
        >
          Make new recovery codes
        </Button>
      </div>

      <form
        method="post"
        onSubmit={(event) => void resetOther(event)}
        className="space-y-3 border-t border-rule pt-5"
        noValidate
      >
        <h3 className="font-semibold">Reset another administrator</h3>
        <p className="text-ink-soft">
          For an administrator who lost every passkey and code: removes them all and ends their
          sessions; they set up a new passkey with a mailed code.
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <Field label="Administrator's email" className="min-w-56 flex-1">
            {(props) => <input {...props} name="email" type="email" autoComplete="off" required />}
          </Field>
          <Button type="submit" variant="secondary" disabled={busy}>
            Reset their passkeys
          </Button>
        </div>
      </form>
    </section>
  );
}

function PasskeyLine({
  passkey,
  only,
  disabled,
  onRename,
  onRemove,
}: {
  passkey: PasskeyRow;
  only: boolean;
  disabled: boolean;
  onRename: (name: string) => Promise<void>;
  onRemove: () => Promise<void>;
}) {
  const [renaming, setRenaming] = useState(false);
  return (
    <tr className="border-t border-rule">
      <th scope="row" className={`${CELL} font-semibold`}>
        {renaming ? (
          <form
            method="post"
            onSubmit={(event) => {
              event.preventDefault();
              const name = formText(new FormData(event.currentTarget), "name");
              void onRename(name).then(() => setRenaming(false));
            }}
            className="flex flex-wrap items-end gap-2"
          >
            <label className="sr-only" htmlFor={`rename-${passkey.id}`}>
              New name for {passkey.name}
            </label>
            <input
              id={`rename-${passkey.id}`}
              name="name"
              defaultValue={passkey.name}
              maxLength={60}
              className="min-h-10 rounded-md border border-rule bg-white px-2"
            />
            <Button type="submit" size="sm" disabled={disabled}>
              Save
            </Button>
          </form>
        ) : (
          <>
            {passkey.name}
            {passkey.synced ? (
              <span className="block text-xs font-normal text-ink-soft">
                Synced between devices
              </span>
            ) : null}
          </>
        )}
      </th>
      <td className={CELL}>{formatDateTime(passkey.createdAt)}</td>
      <td className={CELL}>
        {passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : "Not yet"}
      </td>
      <td className={`${CELL} whitespace-nowrap`}>
        {renaming ? null : (
          <span className="flex flex-wrap gap-2">
            <Button
              type="button"
              size="sm"
              variant="secondary"
              disabled={disabled}
              aria-label={`Rename ${passkey.name}`}
              onClick={() => setRenaming(true)}
            >
              Rename
            </Button>
            <Button
              type="button"
              size="sm"
              variant="secondary"
              disabled={disabled || only}
              aria-label={`Remove ${passkey.name}`}
              onClick={() => void onRemove()}
            >
              Remove
            </Button>
            {only ? (
              <span className="block w-full text-xs text-ink-soft">
                Your only passkey: add another to remove it.
              </span>
            ) : null}
          </span>
        )}
      </td>
    </tr>
  );
}
