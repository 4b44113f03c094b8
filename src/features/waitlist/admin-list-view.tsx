/**
 * The admin's waitlist page (decision 024): counts by state, a search and a state filter (a GET
 * form), the entries newest first a page at a time, and one POST form around the table whose
 * buttons act: on their row (Invite, Resend, Decline with "Tell them", Remove) or on the ticked
 * rows (Invite selected). Plain forms: they work without JavaScript, and a press made before the
 * page's scripts arrive is replayed by the hydration loader. What an action did is said in a live
 * region above the table.
 */
import { Fragment, useEffect, useRef, type MouseEvent, type ReactNode } from "react";
import { Form, Link } from "react-router";
import { stepUpIsFresh } from "#src/lib/passkey-ceremonies.ts";
import { useStepUp } from "#src/lib/use-step-up.ts";
import { INVITE_SELECTED, isInviteAudience, rowAction } from "#src/features/waitlist/admin-form.ts";
import {
  actionsFor,
  ENTRY_STATES,
  type AdminAction,
  type EntryState,
} from "#src/features/waitlist/lifecycle.ts";
import type { AdminEntry, AdminListPage, SavedAudience } from "#src/features/waitlist/types.ts";
import { AudiencesPanel } from "#src/features/waitlist/audiences-panel.tsx";
import { QUESTIONS, type Answers } from "#src/content/qualifying-questions.ts";
import { chosenLabels } from "#src/features/waitlist/answers.ts";
import {
  describeFilter,
  entryFilterParams,
  narrows,
  type EntryFilter,
} from "#src/features/waitlist/entry-filter.ts";
import { MoreFilters } from "#src/features/waitlist/more-filters.tsx";
import { formatDateTime } from "#src/lib/date-time.ts";
import { Button } from "#src/ui/button.tsx";
import { AdminNav } from "#src/ui/admin-nav.tsx";
import { Container } from "#src/ui/container.tsx";

/** What the page's action answered: a summary of what changed, or why nothing could. */
export type AdminActionReply =
  | { kind: "done"; summary: string }
  | { kind: "invalid"; message: string }
  /** Inviting several at once needs a passkey within the last 15 minutes (decision 039). */
  | { kind: "step-up"; message: string };

const STATE_LABEL: Record<EntryState, string> = {
  waiting: "Waiting",
  confirmed: "Confirmed",
  invited: "Invited",
  joined: "Joined",
  declined: "Declined",
};

const FORWARD_LABEL = {
  none: "Not forwarded",
  pending: "Pending",
  sent: "Sent",
  failed: "Failed",
} as const;

const BUTTON: Record<AdminAction, string> = {
  invite: "Invite",
  resend: "Resend",
  decline: "Decline",
  remove: "Remove",
};

const count = (n: number) => n.toLocaleString("en-US");
const CELL = "px-3 py-3";
/**
 * Where the table is a table, the actions stay in view at the right edge while the wide table
 * scrolls under them. The rule and soft shadow at their left edge are a shadow, not a border: in a
 * table whose borders collapse, a border stays with the grid while the sticky cell moves.
 */
const ACTIONS_CELL =
  "md:sticky md:right-0 md:shadow-[inset_1px_0_0_var(--color-rule),-10px_0_12px_-12px_rgb(15_42_36/0.45)]";
const CHECKBOX = "size-6 accent-ledger";

/** The link to the same list (its filter kept) from another place in it. */
function pageLink(filter: EntryFilter, position: Record<string, string>) {
  const params = new URLSearchParams([...entryFilterParams(filter), ...Object.entries(position)]);
  const search = params.toString();
  return `/admin/waitlist${search ? `?${search}` : ""}`;
}

/** An address that wraps, when it must, after its "@" or before a dot: never inside a name. */
function Address({ email }: { email: string }) {
  return email.split(/(?<=@)|(?=\.)/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

/** A moment whose date and time may wrap apart, never within: "Nov 26, 2026," then "7:19 AM". */
function When({ iso }: { iso: string }) {
  const text = formatDateTime(iso);
  const cut = text.lastIndexOf(", ");
  if (cut === -1) return text;
  return (
    <>
      <span className="whitespace-nowrap">{text.slice(0, cut + 1)}</span>{" "}
      <span className="whitespace-nowrap">{text.slice(cut + 2)}</span>
    </>
  );
}

/**
 * An entry's answers, a line per question answered, under its use case (`spaced` when there is
 * one); nothing when it gave none.
 */
function EntryAnswers({ answers, spaced }: { answers: Answers; spaced: boolean }) {
  const lines = QUESTIONS.map((q) => ({ q, labels: chosenLabels(answers, q.id) })).filter(
    (line) => line.labels.length > 0,
  );
  if (lines.length === 0) return null;
  return (
    <ul aria-label="Answers" className={spaced ? "mt-2 space-y-0.5" : "space-y-0.5"}>
      {lines.map(({ q, labels }) => (
        <li key={q.id}>
          <span className="text-ink-soft">{q.short}:</span> {labels.join(", ")}
        </li>
      ))}
    </ul>
  );
}

/**
 * Whose shared link brought the entry, and how many its own link brought (decision 045): a signal
 * for choosing whom to invite, under the entry's source. Nothing when neither.
 */
function Referrals({ entry, spaced }: { entry: AdminEntry; spaced: boolean }) {
  if (entry.referredBy === null && entry.referrals === 0) return null;
  return (
    <ul aria-label="Referrals" className={spaced ? "mt-2 space-y-0.5" : "space-y-0.5"}>
      {entry.referredBy !== null ? (
        <li>
          <span className="text-ink-soft">Referred by</span> {entry.referredBy}
        </li>
      ) : null}
      {entry.referrals > 0 ? (
        <li>
          <span className="text-ink-soft">Referred:</span>{" "}
          {entry.referrals === 1 ? "1 entry" : `${entry.referrals.toLocaleString("en-US")} entries`}
        </li>
      ) : null}
    </ul>
  );
}

function RowActions({ entry }: { entry: AdminEntry }) {
  const actions = actionsFor({ state: entry.state, confirmed: entry.confirmedAt !== null });
  const who = entry.email;
  return (
    <div className="flex flex-wrap items-end gap-2">
      {actions.map((action) =>
        action === "decline" ? (
          // The choice to tell them sits above Decline, not beside it, so the actions column stays
          // narrow enough for every column to fit a wide screen.
          <span key={action} className="inline-flex flex-col items-start">
            {entry.confirmedAt !== null ? (
              <label className="inline-flex min-h-10 items-center gap-1.5 text-sm whitespace-nowrap">
                <input
                  type="checkbox"
                  name="tell"
                  value={entry.id}
                  className={CHECKBOX}
                  aria-label={`Tell them by mail: ${who}`}
                />
                <span aria-hidden="true">Tell them</span>
              </label>
            ) : null}
            <Button
              type="submit"
              name="act"
              value={rowAction(action, entry.id)}
              variant="secondary"
              size="sm"
              aria-label={`Decline ${who}`}
            >
              Decline
            </Button>
          </span>
        ) : (
          <Button
            key={action}
            type="submit"
            name="act"
            value={rowAction(action, entry.id)}
            variant={action === "remove" ? "ghost" : "secondary"}
            size="sm"
            aria-label={`${BUTTON[action]} ${who}`}
          >
            {BUTTON[action]}
          </Button>
        ),
      )}
    </div>
  );
}

export function AdminListView({
  page,
  filter,
  audiences,
  paged,
  reply,
  stepUpUntil,
  children,
}: {
  page: AdminListPage;
  /** What the list is narrowed to (decision 044). */
  filter: EntryFilter;
  /** The saved audiences, with what each holds now. */
  audiences: SavedAudience[];
  /** Whether this is a page past the newest (a cursor was given). */
  paged: boolean;
  reply: AdminActionReply | undefined;
  /** Until when this session's last passkey counts as a step-up (ISO 8601), or null. */
  stepUpUntil: string | null;
  /** What follows the list on the page (the export tokens). */
  children?: ReactNode;
}) {
  const { entries, counts, older, newer } = page;
  const { query, state } = filter;
  const stepUp = useStepUp(stepUpUntil);
  const stepUpError = stepUp.error;

  function onExport(event: MouseEvent<HTMLAnchorElement>) {
    if (stepUpIsFresh(stepUpUntil)) return;
    event.preventDefault();
    const href = event.currentTarget.href;
    void stepUp.confirm().then((ok) => {
      if (ok) window.location.assign(href);
    });
  }
  const total = ENTRY_STATES.reduce((sum, s) => sum + counts[s], 0);
  const form = useRef<HTMLFormElement>(null);
  const status = useRef<HTMLDivElement>(null);

  // After an action the ticks are cleared; if the pressed button went with its row (removed),
  // focus moves to the sentence that says what happened, not to the top of the page. The answer
  // and the list's new rows may arrive in separate renders, so both are watched.
  const cleared = useRef<AdminActionReply | undefined>(undefined);
  useEffect(() => {
    if (reply?.kind !== "done") return;
    if (cleared.current !== reply) {
      cleared.current = reply;
      form.current?.reset();
    }
    if (!document.activeElement || document.activeElement === document.body)
      status.current?.focus();
  }, [reply, entries]);

  return (
    <Container className="py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Waitlist</h1>
          <p className="mt-2 text-ink-soft">
            {count(total)} {total === 1 ? "entry" : "entries"}, newest first.
          </p>
        </div>
        <AdminNav current="/admin/waitlist">
          <Button asChild variant="secondary">
            <a href="/api/admin/waitlist.csv" download onClick={onExport}>
              Export CSV
            </a>
          </Button>
        </AdminNav>
      </div>

      <ul aria-label="Entries by state" className="mt-6 flex flex-wrap gap-2 text-sm">
        {ENTRY_STATES.map((s) => (
          <li key={s} className="rounded-lg border border-rule bg-card px-3 py-1.5">
            <span className="font-semibold tabular-nums">{count(counts[s])}</span>{" "}
            {STATE_LABEL[s].toLowerCase()}
          </li>
        ))}
      </ul>

      <Form method="get" role="search" className="mt-6 flex max-w-4xl flex-wrap items-end gap-3">
        <div className="min-w-56 flex-1">
          <label htmlFor="waitlist-search" className="block text-sm font-semibold">
            Search by name, email or company
          </label>
          <input
            id="waitlist-search"
            type="search"
            name="q"
            defaultValue={query}
            className="mt-1.5 block min-h-11 w-full rounded-md border border-rule bg-white px-3.5"
          />
        </div>
        <div>
          <label htmlFor="waitlist-state" className="block text-sm font-semibold">
            State
          </label>
          <select
            id="waitlist-state"
            name="state"
            defaultValue={state ?? ""}
            className="mt-1.5 block min-h-11 rounded-md border border-rule bg-white px-3"
          >
            <option value="">All states</option>
            {ENTRY_STATES.map((s) => (
              <option key={s} value={s}>
                {STATE_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit">Search</Button>
        <MoreFilters filter={filter} />
      </Form>

      <AudiencesPanel
        audiences={audiences}
        filter={filter}
        stepUpForm={stepUp.form((submitter) => isInviteAudience(submitter?.value))}
      />

      <div
        ref={status}
        role="status"
        tabIndex={-1}
        className="mt-6 min-h-6 font-medium text-ledger-dark outline-none"
      >
        {reply?.kind === "done" ? reply.summary : null}
      </div>
      {stepUpError ? (
        <p
          role="alert"
          className="mt-2 rounded-md border border-danger/30 bg-danger-soft px-4 py-3 text-sm font-medium text-danger"
        >
          {stepUpError}
        </p>
      ) : null}
      {reply?.kind === "invalid" || reply?.kind === "step-up" ? (
        <p
          role="alert"
          className="mt-2 rounded-md border border-danger/30 bg-danger-soft px-4 py-3 text-sm font-medium text-danger"
        >
          {reply.message}
        </p>
      ) : null}

      <Form
        method="post"
        ref={form}
        className="mt-3"
        {...stepUp.form((submitter) => submitter?.value === INVITE_SELECTED)}
      >
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" name="act" value={INVITE_SELECTED}>
            Invite selected
          </Button>
          <p className="text-sm text-ink-soft">
            Tick entries in the first column, then invite them together.
          </p>
        </div>
        {/* On a phone each entry is a block of named values, its buttons under them (`stacked-table`
            in app.css); wider, a table that scrolls sideways only when its columns do not fit. */}
        <div
          role="region"
          aria-label="Waitlist entries"
          tabIndex={0}
          className="mt-4 overflow-x-auto rounded-xl border border-rule bg-card"
        >
          <table className="stacked-table w-full border-collapse text-left text-sm md:min-w-[60rem]">
            <caption className="sr-only">
              Waitlist entries, newest first
              {narrows(filter) ? `, ${describeFilter(filter)}` : ""}
            </caption>
            <thead className="bg-ledger-soft">
              <tr>
                <th scope="col" className={CELL}>
                  <span className="sr-only">Select</span>
                </th>
                {[
                  "Added (UTC)",
                  "Name",
                  "Email",
                  "State",
                  "Company",
                  "Use case and answers",
                  "Source",
                  "Forwarded",
                ].map((h) => (
                  <th key={h} scope="col" className={`${CELL} font-semibold`}>
                    {h}
                  </th>
                ))}
                <th scope="col" className={`${CELL} ${ACTIONS_CELL} bg-ledger-soft font-semibold`}>
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.length === 0 ? (
                <tr>
                  <td colSpan={10} className="px-4 py-8 text-center text-ink-soft">
                    {narrows(filter)
                      ? "No entries match."
                      : paged
                        ? "No more entries."
                        : "No one has joined yet."}
                  </td>
                </tr>
              ) : (
                entries.map((e) => (
                  <tr key={e.id} className="border-t border-rule align-top">
                    <td className={CELL} data-label="Select">
                      <input
                        type="checkbox"
                        name="id"
                        value={e.id}
                        className={CHECKBOX}
                        aria-label={`Select ${e.email}`}
                      />
                    </td>
                    <td className={`${CELL} tabular-nums`} data-label="Added (UTC)">
                      <When iso={e.createdAt} />
                    </td>
                    <th scope="row" className={`${CELL} text-left font-medium`}>
                      {e.name}
                    </th>
                    <td className={`${CELL} min-w-44 break-words`} data-label="Email">
                      <Address email={e.email} />
                    </td>
                    <td className={CELL} data-label="State">
                      {STATE_LABEL[e.state]}
                    </td>
                    <td className={CELL} data-label="Company">
                      {e.company}
                    </td>
                    <td
                      className={`${CELL} max-w-xs break-words`}
                      data-label="Use case and answers"
                    >
                      {e.message}
                      <EntryAnswers answers={e.answers} spaced={Boolean(e.message)} />
                    </td>
                    <td className={`${CELL} wrap-anywhere`} data-label="Source">
                      {e.source}
                      <Referrals entry={e} spaced={Boolean(e.source)} />
                    </td>
                    <td
                      className={CELL}
                      data-label="Forwarded"
                      title={e.forwardLastError ?? undefined}
                    >
                      {FORWARD_LABEL[e.forwardStatus]}
                      {e.forwardStatus === "pending" || e.forwardStatus === "failed"
                        ? ` (${e.forwardAttempts} tries)`
                        : ""}
                    </td>
                    <td className={`${CELL} ${ACTIONS_CELL} bg-card`}>
                      <RowActions entry={e} />
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </Form>

      <nav aria-label="Pages of the list" className="mt-4 flex flex-wrap gap-3">
        {paged ? (
          <Button asChild variant="secondary" size="sm">
            <Link to={pageLink(filter, {})}>Newest</Link>
          </Button>
        ) : null}
        {newer ? (
          <Button asChild variant="secondary" size="sm">
            <Link to={pageLink(filter, { before: newer })}>Newer entries</Link>
          </Button>
        ) : null}
        {older ? (
          <Button asChild variant="secondary" size="sm">
            <Link to={pageLink(filter, { after: older })}>Older entries</Link>
          </Button>
        ) : null}
      </nav>

      {children}
    </Container>
  );
}
