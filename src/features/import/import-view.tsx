/**
 * The administrator's import (issue 37, part 5): upload a sheet, map its columns, see each row's
 * outcome, state the consent basis, import. The upload is a plain multipart form to
 * /api/admin/import, the mapping a GET form, the import a POST: each works without JavaScript
 * (the import's step-up apart, which asks for the passkey).
 */
import { Form, Link } from "react-router";
import {
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS,
  type ImportDone,
  type ImportRefusal,
  type ImportPreview,
  type OutcomeKind,
} from "#src/lib/imports.ts";
import { formatDateTime } from "#src/lib/date-time.ts";
import { useStepUp } from "#src/lib/use-step-up.ts";
import { AdminNav } from "#src/ui/admin-nav.tsx";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";
import { CountTiles } from "#src/ui/count-tiles.tsx";
import { Field } from "#src/ui/field.tsx";
import { FormAlert } from "#src/ui/form-alert.tsx";
import { TableRegion } from "#src/ui/table-region.tsx";

const CELL = "px-4 py-3";

const KIND: Record<OutcomeKind, string> = {
  new: "New",
  exists: "Already there",
  duplicate: "Merged",
  suppressed: "Suppressed",
  invalid: "Invalid",
};

function Heading({ intro }: { intro: string }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="font-serif text-4xl font-semibold tracking-tight">Import</h1>
        <p className="mt-2 max-w-3xl text-ink-soft">{intro}</p>
      </div>
      <AdminNav current="/admin/import" />
    </div>
  );
}

/** What an import did, in one sentence. */
function outcomeSentence({ counts, basis }: ImportDone): string {
  const added =
    counts.new === 1
      ? "1 entry was added"
      : `${counts.new.toLocaleString("en-US")} entries were added`;
  const how = basis === "confirmed" ? "as confirmed before" : "each mailed a confirmation link";
  return `${added} (${how}); ${counts.exists} already there, ${counts.duplicate} merged, ${counts.suppressed} suppressed and ${counts.invalid} invalid rows were left out.`;
}

/** The page an import lands on: what it did. */
export function ImportDoneView({ done }: { done: ImportDone }) {
  return (
    <Container className="py-10 sm:py-14">
      <Heading intro={`${done.fileName} is imported.`} />
      <p
        role="status"
        className="mt-6 max-w-3xl rounded-md border border-rule bg-ledger-soft px-4 py-3"
      >
        {outcomeSentence(done)}
      </p>
      <dl className="mt-6 grid max-w-3xl gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">Imported</dt>
        <dd>
          {formatDateTime(done.importedAt)} UTC by {done.importedBy}
        </dd>
        {done.statement ? (
          <>
            <dt className="font-semibold">Evidence of consent</dt>
            <dd className="[overflow-wrap:anywhere]">{done.statement}</dd>
          </>
        ) : null}
      </dl>
      <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2">
        <Link to="/admin/waitlist" className="font-semibold text-ledger-dark underline">
          See the entries
        </Link>
        <Link to="/admin/import" className="font-semibold text-ledger-dark underline">
          Import another sheet
        </Link>
      </p>
    </Container>
  );
}

export function ImportUploadView({
  refused,
  recent,
}: {
  refused: string | null;
  recent: ImportDone[];
}) {
  return (
    <Container className="py-10 sm:py-14">
      <Heading intro="Bring in people who asked to hear from you elsewhere, for example the sheet an old form service filled. You see what becomes of every row before anything is written." />
      <section
        aria-labelledby="upload-heading"
        className="mt-8 max-w-2xl rounded-xl border border-rule bg-card p-5 sm:p-6"
      >
        <h2 id="upload-heading" className="font-serif text-2xl font-semibold tracking-tight">
          Upload a sheet
        </h2>
        <p className="mt-1 text-ink-soft">
          A CSV file in UTF-8, under 5 MB, with a header row and a column of email addresses. A file
          with a formula in any cell is refused whole.
        </p>
        <p className="mt-2 text-ink-soft">
          An erasure leaves nothing behind to match against, so the site cannot tell who on an old
          sheet has since asked to be forgotten. Take those people out of the file first. Suppressed
          addresses (bounced, complained or stopped) are left out for you.
        </p>
        <form
          method="post"
          action="/api/admin/import"
          encType="multipart/form-data"
          className="mt-4 space-y-4"
        >
          <FormAlert message={refused ?? undefined} />
          <Field label="CSV file">
            {(props) => (
              <input
                {...props}
                type="file"
                name="file"
                accept=".csv,text/csv"
                required
                className={`${props.className} py-2`}
              />
            )}
          </Field>
          <Button type="submit">Upload and preview</Button>
        </form>
      </section>
      <div className="mt-10">
        <h2 className="font-serif text-2xl font-semibold tracking-tight">Earlier imports</h2>
        <TableRegion
          label="Earlier imports"
          headings={["File", "Imported (UTC)", "Consent", "Added", "Left out"]}
          empty="Nothing was imported yet."
          minWidth="min-w-[44rem]"
        >
          {recent.map((made) => (
            <tr key={made.id} className="border-t border-rule align-top">
              <td className={`${CELL} [overflow-wrap:anywhere]`}>
                <Link
                  to={`/admin/import/${made.id}`}
                  className="font-semibold text-ledger-dark underline"
                >
                  {made.fileName}
                </Link>
              </td>
              <td className={CELL}>
                {formatDateTime(made.importedAt)}
                <br />
                <span className="text-sm [overflow-wrap:anywhere] text-ink-soft">
                  {made.importedBy}
                </span>
              </td>
              <td className={CELL}>
                {made.basis === "confirmed" ? "Confirmed before" : "Mailed to confirm"}
              </td>
              <td className={`${CELL} tabular-nums`}>{made.counts.new.toLocaleString("en-US")}</td>
              <td className={`${CELL} tabular-nums`}>
                {(
                  made.counts.exists +
                  made.counts.duplicate +
                  made.counts.suppressed +
                  made.counts.invalid
                ).toLocaleString("en-US")}
              </td>
            </tr>
          ))}
        </TableRegion>
      </div>
    </Container>
  );
}

export function ImportPreviewView({
  preview,
  stepUpUntil,
  reply,
}: {
  preview: ImportPreview;
  stepUpUntil: string | null;
  reply: ImportRefusal | undefined;
}) {
  const stepUp = useStepUp(stepUpUntil);
  const { counts } = preview;
  return (
    <Container className="py-10 sm:py-14">
      <Heading
        intro={`${preview.fileName}: ${preview.total.toLocaleString("en-US")} rows. Map its columns, read what becomes of each row, then import.`}
      />

      <Form method="get" className="mt-8 rounded-xl border border-rule bg-card p-5 sm:p-6">
        <h2 className="font-serif text-2xl font-semibold tracking-tight">Columns</h2>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          {IMPORT_FIELDS.map((field) => (
            <Field key={field} label={IMPORT_FIELD_LABELS[field]}>
              {(props) => (
                <select {...props} name={field} defaultValue={String(preview.mapping[field] ?? -1)}>
                  <option value="-1">Not in the file</option>
                  {preview.headers.map((header, i) => (
                    <option key={header} value={i}>
                      {header}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ))}
        </div>
        <Button type="submit" variant="secondary" className="mt-4">
          Update the preview
        </Button>
      </Form>

      <CountTiles
        label="What the import would do"
        className="mt-8"
        items={[
          { n: counts.new, what: "new" },
          { n: counts.exists, what: "already there" },
          { n: counts.duplicate, what: "merged duplicates" },
          { n: counts.suppressed, what: "suppressed" },
          { n: counts.invalid, what: "invalid" },
        ]}
      />
      <TableRegion
        label="Each row's outcome"
        headings={["Row", "Email", "Outcome", "Why"]}
        empty="The file has no rows."
        minWidth="min-w-[40rem]"
      >
        {preview.rows.map((row) => (
          <tr key={row.row} className="border-t border-rule align-top">
            <td className={`${CELL} tabular-nums`}>{row.row}</td>
            <td className={`${CELL} [overflow-wrap:anywhere]`}>{row.email || "-"}</td>
            <td className={`${CELL} font-semibold`}>{KIND[row.kind]}</td>
            <td className={CELL}>{row.detail}</td>
          </tr>
        ))}
      </TableRegion>
      {preview.total > preview.rows.length ? (
        <p className="mt-2 text-sm text-ink-soft">
          The first {preview.rows.length.toLocaleString("en-US")} rows are listed; the counts cover
          all {preview.total.toLocaleString("en-US")}.
        </p>
      ) : null}

      <section
        aria-labelledby="run-heading"
        className="mt-10 max-w-3xl rounded-xl border border-rule bg-card p-5 sm:p-6"
      >
        <h2 id="run-heading" className="font-serif text-2xl font-semibold tracking-tight">
          Import
        </h2>
        <Form method="post" className="mt-4 space-y-5" {...stepUp.form()}>
          {reply ? <FormAlert message={reply.message} /> : null}
          {stepUp.error ? <FormAlert message={stepUp.error} /> : null}
          {IMPORT_FIELDS.map((field) => (
            <input key={field} type="hidden" name={field} value={preview.mapping[field] ?? -1} />
          ))}
          {(Object.keys(counts) as OutcomeKind[]).map((kind) => (
            <input key={kind} type="hidden" name={`expected-${kind}`} value={counts[kind]} />
          ))}
          <fieldset className="space-y-2">
            <legend className="text-sm font-semibold">
              How did these people agree to hear from you?
            </legend>
            <label className="flex min-h-10 items-start gap-2.5">
              <input
                type="radio"
                name="basis"
                value="confirmed"
                className="mt-1 size-5 shrink-0 accent-ledger"
              />
              <span>
                They confirmed with us before (a double opt-in elsewhere): they come in confirmed,
                with the statement below and the file&apos;s name kept as the evidence.
              </span>
            </label>
            <label className="flex min-h-10 items-start gap-2.5">
              <input
                type="radio"
                name="basis"
                value="unconfirmed"
                className="mt-1 size-5 shrink-0 accent-ledger"
              />
              <span>
                Unconfirmed: each new address is mailed a confirmation link, and waits until it is
                confirmed.
              </span>
            </label>
          </fieldset>
          <Field
            label="How they confirmed (needed when they confirmed before)"
            hint="For example: they confirmed their address through the form service's double opt-in, March to October 2026."
          >
            {(props) => (
              <textarea
                {...props}
                name="statement"
                rows={3}
                maxLength={1000}
                className={`${props.className} py-2.5`}
              />
            )}
          </Field>
          <Button type="submit" disabled={counts.new === 0}>
            {counts.new === 0
              ? "Nothing new to import"
              : `Import ${counts.new.toLocaleString("en-US")} ${counts.new === 1 ? "entry" : "entries"}`}
          </Button>
        </Form>
      </section>
    </Container>
  );
}
