/**
 * The admin's suppression list (decision 041): the addresses the site's mail stops at, newest
 * first, with why and since when; a search by address; a form to suppress an address and one to
 * take it off the list again. Taking one off needs a step-up (decision 039): it lets mail reach
 * someone who refused it, bounced or complained. Plain forms: they work without JavaScript. Below
 * the list, the bounce reports of the last 30 days, so a report nobody could match is read.
 */
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { formatDateTime } from "#src/lib/date-time.ts";
import type { BounceReport, SuppressionEntry } from "#src/lib/mail-ports.ts";
import { useStepUp } from "#src/lib/use-step-up.ts";
import { AdminNav } from "#src/ui/admin-nav.tsx";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";
import { Field } from "#src/ui/field.tsx";
import { TableRegion } from "#src/ui/table-region.tsx";

export type SuppressionIntent = "add" | "remove";

/** What the page's action answered: what happened, or why nothing did (at a field when it is one). */
export type SuppressionReply =
  | { ok: true; intent: SuppressionIntent; message: string }
  | {
      ok: false;
      intent: SuppressionIntent;
      message: string;
      field?: "address" | "detail";
      values: { address: string; detail: string };
    };

const SCOPE: Record<SuppressionEntry["scope"], string> = {
  all: "All mail",
  "waitlist-news": "Waitlist news",
  "product-news": "Product news",
};

const REASON: Record<SuppressionEntry["reason"], string> = {
  refused: "Refused by the receiving server",
  "hard-bounce": "Hard bounce",
  "soft-bounces": "Three soft bounces in 30 days",
  complaint: "Complaint",
  unsubscribe: "Unsubscribe",
  admin: "Added by an administrator",
};

const VIA: Record<BounceReport["via"], string> = {
  imap: "IMAP mailbox",
  smtp: "SMTP listener",
};

const OUTCOME: Record<BounceReport["outcome"], string> = {
  recorded: "Recorded",
  unmatched: "Names no mail of ours",
  unparsed: "Could not be read",
};

/** What the reader made of a report: recorded as a bounce or complaint, or what it looked like. */
const REPORT_KIND: Record<string, string> = {
  "hard-bounce": "Hard bounce",
  "soft-bounce": "Soft bounce",
  complaint: "Complaint",
  bounce: "Bounce",
};

const count = (n: number) => n.toLocaleString("en-US");
const CELL = "px-4 py-3";

/** One of the two POST forms: an address and why, and a button. */
function AddressForm({
  intent,
  title,
  intro,
  detailLabel,
  button,
  reply,
  stepUpUntil,
}: {
  intent: SuppressionIntent;
  title: string;
  intro: string;
  detailLabel: string;
  button: string;
  reply: SuppressionReply | undefined;
  stepUpUntil: string | null;
}) {
  const navigation = useNavigation();
  const stepUp = useStepUp(stepUpUntil);
  const form = useRef<HTMLFormElement>(null);
  const mine = reply?.intent === intent ? reply : undefined;
  const refused = mine && !mine.ok ? mine : undefined;
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  // Done: the form is emptied for the next address (with JavaScript; without, the page is new).
  useEffect(() => {
    if (mine?.ok) form.current?.reset();
  }, [mine]);
  const headingId = `${intent}-heading`;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl border border-rule bg-card p-5 sm:p-6"
    >
      <h2 id={headingId} className="font-serif text-2xl font-semibold tracking-tight">
        {title}
      </h2>
      <p className="mt-1 text-ink-soft">{intro}</p>
      <Form
        method="post"
        ref={form}
        className="mt-4 space-y-4"
        {...(intent === "remove" ? stepUp.form() : {})}
      >
        <input type="hidden" name="intent" value={intent} />
        {stepUp.error ? (
          <p role="alert" className="text-sm font-medium text-danger">
            {stepUp.error}
          </p>
        ) : null}
        <Field label="Address" error={refused?.field === "address" ? refused.message : undefined}>
          {(props) => (
            <input
              {...props}
              type="email"
              name="address"
              required
              maxLength={254}
              autoComplete="off"
              spellCheck={false}
              defaultValue={refused?.values.address}
            />
          )}
        </Field>
        <Field
          label={detailLabel}
          error={refused?.field === "detail" ? refused.message : undefined}
        >
          {(props) => (
            <input
              {...props}
              type="text"
              name="detail"
              required
              maxLength={500}
              defaultValue={refused?.values.detail}
            />
          )}
        </Field>
        <Button
          type="submit"
          variant={intent === "remove" ? "secondary" : "primary"}
          disabled={busy}
        >
          {button}
        </Button>
      </Form>
    </section>
  );
}

/** The reports held for the last 30 days, those that need a person first. */
export type BounceReports = {
  rows: BounceReport[];
  /** How many could not be read or named no mail of ours, among all that are held. */
  needsReading: number;
  /** The most rows the table holds. */
  shown: number;
};

/**
 * What came back to the bounce address (decision 041): each report, how it came, and what was
 * made of it. One that could not be read, or that names no mail of ours, is kept with its message
 * for a person to read, and comes first.
 */
function BounceReportsSection({ rows, needsReading, shown }: BounceReports) {
  return (
    <section aria-labelledby="bounces-heading" className="mt-10">
      <h2 id="bounces-heading" className="font-serif text-2xl font-semibold tracking-tight">
        Bounce reports
      </h2>
      <p className="mt-1 max-w-3xl text-ink-soft">
        What came back to the bounce address in the last 30 days: bounces and complaints, matched to
        the mail they are about and recorded against its recipient. Those that need a person come
        first, then the newest.
      </p>
      {rows.length > 0 ? (
        <p className="mt-3 font-medium">
          {needsReading === 0
            ? "None needs a person to read it."
            : needsReading === 1
              ? "1 report needs a person to read it."
              : `${count(needsReading)} reports need a person to read them.`}
          {rows.length >= shown ? ` Showing the first ${count(shown)}.` : ""}
        </p>
      ) : null}
      <TableRegion
        label="Reports of the last 30 days"
        headings={["Received (UTC)", "Via", "Outcome", "Kind", "Detail"]}
        empty="No bounce report came back in the last 30 days."
      >
        {rows.map((row) => {
          const needsPerson = row.outcome !== "recorded";
          return (
            <tr
              key={row.id}
              className={`border-t border-rule align-top ${needsPerson ? "bg-tick-soft" : ""}`}
            >
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>
                {formatDateTime(row.receivedAt)}
              </td>
              <td className={CELL}>{VIA[row.via]}</td>
              <td className={`${CELL} ${needsPerson ? "font-semibold" : ""}`}>
                {OUTCOME[row.outcome]}
              </td>
              <td className={CELL}>{row.kind ? (REPORT_KIND[row.kind] ?? "-") : "-"}</td>
              <td className={`${CELL} max-w-md [overflow-wrap:anywhere]`}>
                {row.detail || "-"}
                {needsPerson && row.raw !== null ? (
                  <details className="mt-2">
                    <summary className="cursor-pointer font-medium text-ledger-dark">
                      The message as it came
                    </summary>
                    <pre className="mt-2 rounded-md bg-paper p-3 font-mono text-xs [overflow-wrap:anywhere] whitespace-pre-wrap">
                      {row.raw}
                    </pre>
                  </details>
                ) : null}
              </td>
            </tr>
          );
        })}
      </TableRegion>
    </section>
  );
}

export function SuppressionsView({
  rows,
  total,
  query,
  shown,
  bounces,
  reply,
  stepUpUntil,
}: {
  rows: SuppressionEntry[];
  /** Every suppression on the list, whatever the search. */
  total: number;
  query: string;
  /** The most rows the table holds. */
  shown: number;
  bounces: BounceReports;
  reply: SuppressionReply | undefined;
  /** Until when this session's last passkey counts as a step-up (ISO 8601), or null. */
  stepUpUntil: string | null;
}) {
  return (
    <Container className="py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Suppressions</h1>
          <p className="mt-2 max-w-2xl text-ink-soft">
            Addresses the site&apos;s mail stops at: refused or bounced by their server, complained
            of, unsubscribed from a kind of news, or added here. All mail means every broadcast and
            notice; mail someone just asked for (a confirmation, a sign-in code) still goes to an
            address that can receive it.
          </p>
        </div>
        <AdminNav current="/admin/suppressions" />
      </div>

      <p className="mt-6 font-medium">
        {total === 1 ? "1 suppression" : `${count(total)} suppressions`} on the list.
      </p>

      <div aria-live="polite" className="mt-4">
        {reply ? (
          <p
            role={reply.ok ? "status" : "alert"}
            className={
              reply.ok
                ? "font-medium text-ledger-dark"
                : "rounded-md border border-danger/30 bg-danger-soft px-4 py-3 text-sm font-medium text-danger"
            }
          >
            {reply.message}
          </p>
        ) : null}
      </div>

      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <AddressForm
          intent="add"
          title="Suppress an address"
          intro="From now on no broadcast or notice goes to it: all mail."
          detailLabel="Reason"
          button="Suppress"
          reply={reply}
          stepUpUntil={stepUpUntil}
        />
        <AddressForm
          intent="remove"
          title="Remove from the list"
          intro="Every suppression of the address ends, whatever its reason. Needs your passkey."
          detailLabel="Reason it may be mailed again"
          button="Remove from the list"
          reply={reply}
          stepUpUntil={stepUpUntil}
        />
      </div>

      <section aria-labelledby="list-heading" className="mt-10">
        <h2 id="list-heading" className="font-serif text-2xl font-semibold tracking-tight">
          The list
        </h2>
        <Form
          method="get"
          role="search"
          aria-label="Search the list"
          className="mt-3 flex max-w-xl flex-wrap items-end gap-3"
        >
          <Field label="Address" className="min-w-56 flex-1">
            {(props) => (
              <input
                {...props}
                type="search"
                name="q"
                maxLength={254}
                spellCheck={false}
                defaultValue={query}
              />
            )}
          </Field>
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </Form>
        <p className="mt-3 text-sm text-ink-soft">
          {query
            ? `${rows.length === 1 ? "1 suppression matches" : `${count(rows.length)} suppressions match`} “${query}”. An erased address is found only by its whole address.`
            : "Newest first."}
          {rows.length >= shown ? ` Showing the first ${count(shown)}.` : ""}
        </p>
        <TableRegion
          label="Suppressed addresses"
          headings={["Address", "Scope", "Why", "Detail", "Since (UTC)", "By"]}
          empty={query ? "No suppression matches." : "No address is suppressed."}
        >
          {rows.map((row, i) => (
            <tr
              key={`${row.address ?? "erased"}-${row.scope}-${i}`}
              className="border-t border-rule align-top"
            >
              <td className={`${CELL} [overflow-wrap:anywhere]`}>
                {row.address ?? <span className="text-ink-soft">erased: kept as a keyed hash</span>}
              </td>
              <td className={CELL}>{SCOPE[row.scope]}</td>
              <td className={CELL}>{REASON[row.reason]}</td>
              <td className={`${CELL} max-w-xs [overflow-wrap:anywhere]`}>{row.detail || "-"}</td>
              <td className={`${CELL} whitespace-nowrap tabular-nums`}>
                {formatDateTime(row.createdAt)}
              </td>
              <td className={`${CELL} [overflow-wrap:anywhere]`}>{row.addedBy ?? "The site"}</td>
            </tr>
          ))}
        </TableRegion>
      </section>

      <BounceReportsSection {...bounces} />
    </Container>
  );
}
