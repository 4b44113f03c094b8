/**
 * Export tokens on the admin's waitlist page (decision 039): what lets a script download the CSV
 * without a browser. Made after a step-up, shown once, read-only (the export and nothing else),
 * expiring in at most 90 days, revocable, listed with their last use.
 */
import { useState, type FormEvent } from "react";
import { useRevalidator } from "react-router";
import { CeremonyError, postJson, withStepUp } from "#src/lib/passkey-ceremonies.ts";
import { ADMIN_VERIFY_API, type ExportTokenRow } from "#src/lib/admin-verify.ts";
import { formatDateTime } from "#src/lib/date-time.ts";
import { formText } from "#src/lib/form-text.ts";
import { Button } from "#src/ui/button.tsx";
import { Field } from "#src/ui/field.tsx";
import { FormAlert } from "#src/ui/form-alert.tsx";

const CELL = "px-3 py-2 text-left align-top";

function stateOf(token: ExportTokenRow, now: number): string {
  if (token.revokedAt) return `Revoked ${formatDateTime(token.revokedAt)}`;
  if (Date.parse(token.expiresAt) <= now) return `Expired ${formatDateTime(token.expiresAt)}`;
  return `Live until ${formatDateTime(token.expiresAt)}`;
}

export function ExportTokensPanel({ tokens, now }: { tokens: ExportTokenRow[]; now: number }) {
  const revalidator = useRevalidator();
  const [made, setMade] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const fail = (e: unknown) =>
    setError(e instanceof CeremonyError ? e.message : "Something went wrong. Please try again.");

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    setMade(null);
    try {
      const answer = await withStepUp(() =>
        postJson<{ token: string }>(ADMIN_VERIFY_API.exportTokens, {
          label: formText(form, "label"),
          days: formText(form, "days"),
        }),
      );
      setMade(answer.token);
      void revalidator.revalidate();
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }

  async function revoke(id: number) {
    setError(undefined);
    try {
      await postJson(ADMIN_VERIFY_API.revokeExportToken, { id });
      void revalidator.revalidate();
    } catch (e) {
      fail(e);
    }
  }

  return (
    <section aria-labelledby="export-tokens-heading" className="mt-14 max-w-4xl">
      <h2 id="export-tokens-heading" className="font-serif text-2xl font-semibold">
        Export tokens
      </h2>
      <p className="mt-2 leading-relaxed text-ink-soft">
        A script downloads the CSV with{" "}
        <code className="font-mono text-sm">Authorization: Bearer &lt;token&gt;</code>. A token does
        that and nothing else, lasts at most 90 days, and is shown only once.
      </p>
      <noscript>
        <p className="mt-3 rounded-md border border-tick/40 bg-tick-soft px-4 py-3 text-sm">
          Making and revoking tokens needs JavaScript, for the passkey that confirms it.
        </p>
      </noscript>
      <form
        method="post"
        onSubmit={(event) => void create(event)}
        className="mt-5 flex flex-wrap items-end gap-3"
        noValidate
      >
        <Field label="Label" className="min-w-56 flex-1">
          {(props) => (
            <input
              {...props}
              name="label"
              maxLength={60}
              required
              placeholder="Nightly CRM import"
            />
          )}
        </Field>
        <Field label="Days">
          {(props) => (
            <input
              {...props}
              name="days"
              type="number"
              min={1}
              max={90}
              defaultValue={30}
              required
              className={`${props.className} w-24`}
            />
          )}
        </Field>
        <Button type="submit" disabled={busy}>
          {busy ? "Making…" : "Make a token"}
        </Button>
      </form>
      <div className="mt-3">
        <FormAlert message={error} />
      </div>
      {made ? (
        <div
          role="status"
          className="mt-4 space-y-2 rounded-md border border-ledger/30 bg-ledger-soft p-4"
        >
          <p className="font-semibold">Copy this token now; it will not be shown again.</p>
          <p>
            <code aria-label="New export token" className="font-mono text-sm break-all">
              {made}
            </code>
          </p>
        </div>
      ) : null}
      {tokens.length === 0 ? (
        <p className="mt-5 text-ink-soft">No export tokens yet.</p>
      ) : (
        <div className="mt-5 overflow-x-auto rounded-lg border border-rule">
          <table className="w-full min-w-[40rem] text-sm">
            <caption className="sr-only">Export tokens</caption>
            <thead className="bg-paper">
              <tr>
                <th scope="col" className={CELL}>
                  Label
                </th>
                <th scope="col" className={CELL}>
                  For
                </th>
                <th scope="col" className={CELL}>
                  State
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
              {tokens.map((token) => {
                const live = !token.revokedAt && Date.parse(token.expiresAt) > now;
                return (
                  <tr key={token.id} className="border-t border-rule">
                    <th scope="row" className={`${CELL} font-semibold`}>
                      {token.label}
                    </th>
                    <td className={CELL}>{token.owner}</td>
                    <td className={CELL}>{stateOf(token, now)}</td>
                    <td className={CELL}>
                      {token.lastUsedAt
                        ? `${formatDateTime(token.lastUsedAt)}${token.lastUsedFrom ? ` from ${token.lastUsedFrom}` : ""}`
                        : "Never"}
                    </td>
                    <td className={CELL}>
                      {live ? (
                        <Button
                          type="button"
                          variant="secondary"
                          size="sm"
                          aria-label={`Revoke ${token.label}`}
                          onClick={() => void revoke(token.id)}
                        >
                          Revoke
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
