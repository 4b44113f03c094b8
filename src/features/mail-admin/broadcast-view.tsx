/**
 * The admin's broadcasts (decision 041): the list, the composer of a draft and the page of a
 * broadcast past draft, which follows its sending.
 *
 * The composer is one plain form whose buttons say what to do with it (`intent`): each saves the
 * draft first, then previews it, sends a test to the administrator, sends it or schedules it. The
 * count of who it goes to is the saved draft's, counted when the page loads. Sending and
 * scheduling need a step-up (decision 039). The preview is the mail's own rendering: its HTML in a
 * sandboxed frame (no scripts, no origin of ours), its plain text beside it.
 */
import { useEffect, type ReactNode } from "react";
import { Form, Link, useNavigation, useRevalidator } from "react-router";
import { formatDateTime } from "#src/lib/date-time.ts";
import {
  AUDIENCE_STATE_CHOICES,
  type AudienceChoice,
  type AudienceState,
  type BroadcastDetail,
  type BroadcastKind,
  type BroadcastProgress,
  type BroadcastStatus,
  type BroadcastSummary,
} from "#src/lib/mail-ports.ts";
import { useStepUp } from "#src/lib/use-step-up.ts";
import { AdminNav } from "#src/ui/admin-nav.tsx";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";
import { CountTiles } from "#src/ui/count-tiles.tsx";
import { Field } from "#src/ui/field.tsx";
import { TableRegion } from "#src/ui/table-region.tsx";

/** The composer's buttons: each saves the draft first, then does what it says. */
export const DRAFT_INTENTS = ["save", "preview", "test", "send", "schedule"] as const;

/** What the composer's fields held when it was sent. */
export type DraftValues = {
  kind: string;
  subject: string;
  body: string;
  states: string[];
  search: string;
  /** The saved audience chosen, by id; "" for none. */
  audience: string;
  /** "Send at (UTC)", as the datetime-local field gives it: 2026-12-01T09:30. */
  at: string;
};

/** The fields a refusal may be about. */
export type DraftField = "kind" | "subject" | "body" | "audience" | "at";

/** What the page's action answered: what it did, or why it did not (at a field when it is one). */
export type BroadcastReply =
  | {
      ok: true;
      message: string;
      /** The mail as a recipient gets it, when Preview was pressed. */
      preview?: PreviewParts;
    }
  | { ok: false; message: string; field?: DraftField; values?: DraftValues };

const KIND: Record<BroadcastKind, { name: string; choice: string }> = {
  "waitlist-news": {
    name: "Waitlist news",
    choice: "Waitlist news — to confirmed entries that have not opted out",
  },
  "product-news": {
    name: "Product news",
    choice: "Product news — only to people who asked for it",
  },
};
const KINDS = Object.keys(KIND) as BroadcastKind[];

const STATUS: Record<BroadcastStatus, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  sending: "Sending",
  paused: "Paused",
  finished: "Finished",
  cancelled: "Cancelled",
};

const STATE: Record<AudienceState, string> = {
  confirmed: "Confirmed",
  invited: "Invited",
  joined: "Joined",
};

/** How often the progress page asks for new figures while its broadcast sends. */
const REFRESH_MS = 5_000;

const count = (n: number) => n.toLocaleString("en-US");
const people = (n: number) => (n === 1 ? "1 person" : `${count(n)} people`);
const CELL = "px-4 py-3";
const WHEN = `${CELL} whitespace-nowrap tabular-nums`;
const LINK = "font-semibold text-ledger-dark underline underline-offset-4";
const ALERT =
  "rounded-md border border-danger/30 bg-danger-soft px-4 py-3 text-sm font-medium text-danger";

/** "Confirmed and invited entries whose name, email or company contains “acme”". */
function audienceText(audience: AudienceChoice): string {
  const states = audience.states.map((s) => STATE[s].toLowerCase());
  const list =
    states.length > 1 ? `${states.slice(0, -1).join(", ")} and ${states.at(-1)}` : states[0];
  const who = `${list ? `${list[0]!.toUpperCase()}${list.slice(1)}` : "No"} entries`;
  const searched = audience.search
    ? `${who} whose name, email or company contains “${audience.search}”`
    : who;
  return audience.saved ? `${searched}, in the audience “${audience.saved.name}”` : searched;
}

function PageHead({
  title,
  intro,
  children,
}: {
  title: string;
  intro: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="font-serif text-4xl font-semibold tracking-tight [overflow-wrap:anywhere]">
          {title}
        </h1>
        <div className="mt-2 max-w-2xl text-ink-soft">{intro}</div>
      </div>
      <AdminNav current="/admin/broadcasts">{children}</AdminNav>
    </div>
  );
}

/** What the last press did, or why it did nothing; announced as it appears. */
function ReplyMessage({
  reply,
  stepUpError,
}: {
  reply: BroadcastReply | undefined;
  stepUpError?: string;
}) {
  return (
    <div aria-live="polite" className="mt-6 space-y-2">
      {stepUpError ? (
        <p role="alert" className={ALERT}>
          {stepUpError}
        </p>
      ) : null}
      {reply ? (
        <p
          role={reply.ok ? "status" : "alert"}
          className={reply.ok ? "font-medium text-ledger-dark" : ALERT}
        >
          {reply.message}
        </p>
      ) : null}
    </div>
  );
}

export function BroadcastsListView({ broadcasts }: { broadcasts: BroadcastSummary[] }) {
  return (
    <Container className="py-10 sm:py-14">
      <PageHead
        title="Broadcasts"
        intro={
          <p>
            Mail to the people on the list: waitlist news to confirmed entries, product news to
            those who asked for it. Newest first.
          </p>
        }
      />
      <div className="mt-8">
        <Button asChild>
          <Link to="/admin/broadcasts/new">New broadcast</Link>
        </Button>
      </div>
      <TableRegion
        label="Broadcasts"
        className="mt-6"
        headings={[
          "Subject",
          "Kind",
          "Status",
          "Recipients",
          "Started (UTC)",
          "Finished (UTC)",
          "By",
        ]}
        empty="No broadcast yet."
      >
        {broadcasts.map((b) => (
          <tr key={b.id} className="border-t border-rule align-top">
            <td className={`${CELL} min-w-56 [overflow-wrap:anywhere]`}>
              <Link to={`/admin/broadcasts/${b.id}`} className={LINK}>
                {b.subject || `Broadcast ${b.id}`}
              </Link>
            </td>
            <td className={CELL}>{KIND[b.kind].name}</td>
            <td className={CELL}>{STATUS[b.status]}</td>
            <td className={`${CELL} tabular-nums`}>
              {b.status === "draft" || b.status === "scheduled" ? "-" : count(b.recipients)}
            </td>
            <td className={WHEN}>
              {b.startedAt
                ? formatDateTime(b.startedAt)
                : b.scheduledAt
                  ? `Scheduled for ${formatDateTime(b.scheduledAt)}`
                  : "-"}
            </td>
            <td className={WHEN}>{b.finishedAt ? formatDateTime(b.finishedAt) : "-"}</td>
            <td className={`${CELL} [overflow-wrap:anywhere]`}>{b.createdBy}</td>
          </tr>
        ))}
      </TableRegion>
    </Container>
  );
}

type ViewProps = {
  /** Null on the page of a new broadcast, before its first save. */
  broadcast: BroadcastDetail | null;
  /** Who the saved draft's audience reaches now; null when it has no state chosen. */
  reach: { reach: number; suppressed: number } | null;
  /** The figures of a broadcast that started; null before. */
  progress: BroadcastProgress | null;
  adminEmail: string;
  /** Until when this session's last passkey counts as a step-up (ISO 8601), or null. */
  stepUpUntil: string | null;
  reply: BroadcastReply | undefined;
  /** The saved audiences a draft may aim at (decision 044). */
  audiences: { id: number; name: string }[];
};

export function BroadcastView(props: ViewProps) {
  const { broadcast } = props;
  if (broadcast === null || broadcast.status === "draft")
    return <Composer {...props} broadcast={broadcast} />;
  return <Progress {...props} broadcast={broadcast} />;
}

/** "This goes to 1,234 people." and who the list stops, from the saved draft. */
function Reach({
  broadcast,
  reach,
}: {
  broadcast: BroadcastDetail | null;
  reach: ViewProps["reach"];
}) {
  let text: ReactNode;
  if (broadcast === null) text = <p>Save the draft to see how many people it goes to.</p>;
  else if (reach === null)
    text = <p>Choose at least one state and save the draft to see how many people it goes to.</p>;
  else {
    const goes = reach.reach - reach.suppressed;
    text = (
      <>
        <p className="text-lg font-semibold">
          {goes === 0 ? "This goes to nobody." : `This goes to ${people(goes)}.`}
        </p>
        {reach.suppressed > 0 ? (
          <p>
            {reach.suppressed === 1
              ? "1 more is on the suppression list and gets nothing."
              : `${count(reach.suppressed)} more are on the suppression list and get nothing.`}
          </p>
        ) : null}
        <p className="text-sm text-ink-soft">
          Counted now from the saved draft. Save again after changing the kind or the audience.
        </p>
      </>
    );
  }
  return (
    <section
      aria-label="Who it goes to"
      aria-live="polite"
      className="mt-6 space-y-1 rounded-xl border border-rule bg-ledger-soft px-5 py-4"
    >
      {text}
    </section>
  );
}

function Composer({
  broadcast,
  reach,
  adminEmail,
  stepUpUntil,
  reply,
  audiences: savedAudiences,
}: ViewProps) {
  const navigation = useNavigation();
  const stepUp = useStepUp(stepUpUntil);
  const busy = navigation.state === "submitting";
  const pressed = busy ? navigation.formData?.get("intent") : null;
  const refused = reply && !reply.ok ? reply : undefined;
  const values: DraftValues = refused?.values ?? {
    kind: broadcast?.kind ?? "",
    subject: broadcast?.subject ?? "",
    body: broadcast?.body ?? "",
    states: broadcast?.audience.states ?? [],
    search: broadcast?.audience.search ?? "",
    audience: broadcast?.audience.saved ? String(broadcast.audience.saved.id) : "",
    at: "",
  };
  const errorAt = (field: DraftField) => (refused?.field === field ? refused.message : undefined);
  const preview = reply?.ok ? reply.preview : undefined;
  const kindError = errorAt("kind");
  const audienceError = errorAt("audience");

  return (
    <Container className="py-10 sm:py-14">
      <PageHead
        title={broadcast ? "Broadcast draft" : "New broadcast"}
        intro={
          <p>
            Write it, look at it, send yourself a test, then send it or schedule it.{" "}
            <Link to="/admin/broadcasts" className={LINK}>
              All broadcasts
            </Link>
          </p>
        }
      />
      <ReplyMessage reply={reply} stepUpError={stepUp.error} />
      <Reach broadcast={broadcast} reach={reach} />

      <Form
        method="post"
        className="mt-8 max-w-3xl space-y-6"
        {...stepUp.form(
          (submitter) => submitter?.value === "send" || submitter?.value === "schedule",
        )}
      >
        <fieldset
          className="space-y-3"
          aria-describedby={kindError ? "broadcast-kind-error" : undefined}
        >
          <legend className="text-sm font-semibold text-ink">Kind</legend>
          {KINDS.map((kind) => (
            <label
              key={kind}
              className="flex cursor-pointer gap-3 rounded-lg border border-rule bg-white p-3.5 has-[:checked]:border-ledger has-[:checked]:bg-ledger-soft"
            >
              <input
                type="radio"
                name="kind"
                value={kind}
                required
                defaultChecked={values.kind === kind}
                className="size-6 shrink-0 accent-ledger"
              />
              <span className="font-semibold text-ink">{KIND[kind].choice}</span>
            </label>
          ))}
          {kindError ? (
            <p id="broadcast-kind-error" className="text-sm font-medium text-danger">
              {kindError}
            </p>
          ) : null}
        </fieldset>

        <Field label="Subject" error={errorAt("subject")}>
          {(props) => (
            <input
              {...props}
              type="text"
              name="subject"
              required
              maxLength={200}
              defaultValue={values.subject}
            />
          )}
        </Field>

        <Field
          label="Body"
          hint="Markdown: a blank line between paragraphs; # and ## headings; lists with - or 1.; **bold**, *italic*, `code`; links as [text](https://…). No HTML, images, quotes or tables. The greeting and the unsubscribe links are added."
          error={errorAt("body")}
        >
          {(props) => (
            <textarea
              {...props}
              name="body"
              required
              rows={14}
              defaultValue={values.body}
              className={`${props.className} py-2.5 font-mono text-sm`}
            />
          )}
        </Field>

        <fieldset
          className="space-y-3"
          aria-describedby={`broadcast-audience-hint${audienceError ? " broadcast-audience-error" : ""}`}
        >
          <legend className="text-sm font-semibold text-ink">Audience</legend>
          <p id="broadcast-audience-hint" className="text-sm text-ink-soft">
            Entries in at least one of these states, whose address is confirmed and who have not
            stopped this kind of mail.
          </p>
          <div className="flex flex-wrap gap-3">
            {AUDIENCE_STATE_CHOICES.map((state) => (
              <label
                key={state}
                className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-rule bg-white px-3.5"
              >
                <input
                  type="checkbox"
                  name="states"
                  value={state}
                  defaultChecked={values.states.includes(state)}
                  className="size-5 accent-ledger"
                />
                {STATE[state]}
              </label>
            ))}
          </div>
          {audienceError ? (
            <p id="broadcast-audience-error" className="text-sm font-medium text-danger">
              {audienceError}
            </p>
          ) : null}
          <Field
            label="Name, email or company contains"
            hint="Optional, as the waitlist page's search: leave it empty for everyone in those states."
          >
            {(props) => (
              <input
                {...props}
                type="search"
                name="search"
                maxLength={200}
                defaultValue={values.search}
              />
            )}
          </Field>
          <Field
            label="Saved audience"
            hint="Optional: only its entries, as saved on the waitlist page, among those above."
          >
            {(props) => (
              <select {...props} name="audience" defaultValue={values.audience}>
                <option value="">None</option>
                {savedAudiences.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
                {/* A draft aimed at an audience deleted since keeps its aim until changed. */}
                {values.audience !== "" &&
                !savedAudiences.some((a) => String(a.id) === values.audience) &&
                broadcast?.audience.saved ? (
                  <option value={values.audience}>{broadcast.audience.saved.name} (deleted)</option>
                ) : null}
              </select>
            )}
          </Field>
        </fieldset>

        <div className="flex flex-wrap items-center gap-3 border-t border-rule pt-6">
          <Button type="submit" name="intent" value="save" disabled={busy}>
            {pressed === "save" ? "Saving..." : "Save draft"}
          </Button>
          <Button type="submit" name="intent" value="preview" variant="secondary" disabled={busy}>
            Preview
          </Button>
          <Button type="submit" name="intent" value="test" variant="secondary" disabled={busy}>
            Send test to me
          </Button>
          <p className="text-sm text-ink-soft">
            Every button saves the draft first. The test goes to {adminEmail}.
          </p>
        </div>

        <section
          aria-labelledby="broadcast-send-heading"
          className="space-y-4 rounded-xl border border-rule bg-card p-5"
        >
          <h2 id="broadcast-send-heading" className="font-serif text-xl font-semibold">
            Send
          </h2>
          <p className="text-sm text-ink-soft">
            Once it starts, its recipients are fixed and each gets it once. Both need your passkey.
          </p>
          <div>
            <Button type="submit" name="intent" value="send" disabled={busy}>
              {pressed === "send" ? "Starting..." : "Send now"}
            </Button>
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <Field
              label="Send at (UTC)"
              hint="In UTC, not your own time zone."
              error={errorAt("at")}
              className="min-w-60"
            >
              {(props) => (
                <input
                  {...props}
                  type="datetime-local"
                  name="at"
                  step={60}
                  defaultValue={values.at}
                />
              )}
            </Field>
            <Button
              type="submit"
              name="intent"
              value="schedule"
              variant="secondary"
              disabled={busy}
            >
              Schedule
            </Button>
          </div>
        </section>
      </Form>

      {preview ? <Preview preview={preview} /> : null}

      {broadcast ? (
        <Form method="post" className="mt-10 border-t border-rule pt-6">
          <p className="text-sm text-ink-soft">
            A draft you no longer want stays in the list as cancelled.
          </p>
          <Button type="submit" name="intent" value="cancel" variant="ghost" className="mt-2">
            Cancel broadcast
          </Button>
        </Form>
      ) : null}
    </Container>
  );
}

type PreviewParts = { subject: string; src: string; text: string };

/** Both parts of the mail, as a recipient gets them. */
function Preview({ preview }: { preview: PreviewParts }) {
  return (
    <section aria-labelledby="preview-heading" className="mt-10">
      <h2 id="preview-heading" className="font-serif text-2xl font-semibold tracking-tight">
        Preview
      </h2>
      <p className="mt-1 text-ink-soft">
        As Ada, a recipient, would get it. Its links go nowhere here.
      </p>
      <p className="mt-3 [overflow-wrap:anywhere]">
        <span className="font-semibold">Subject:</span> {preview.subject}
      </p>
      <div className="mt-4 grid gap-6 xl:grid-cols-2">
        {/* No scripts and no origin of ours: whatever the mail holds cannot reach the admin. The
            document's own policy says the same (server/plugins/broadcast-preview.ts). */}
        <iframe
          title="HTML preview"
          sandbox=""
          src={preview.src}
          className="h-[40rem] w-full rounded-xl border border-rule bg-white"
        />
        <figure className="min-w-0">
          <figcaption className="text-sm font-semibold">Plain-text preview</figcaption>
          <pre className="mt-2 rounded-xl border border-rule bg-card p-4 text-sm [overflow-wrap:anywhere] whitespace-pre-wrap">
            {preview.text}
          </pre>
        </figure>
      </div>
    </section>
  );
}

/**
 * Asks for the page's figures again a few seconds after they last came, while `active`, when
 * JavaScript runs.
 */
function useRefreshWhile(active: boolean) {
  const { revalidate, state } = useRevalidator();
  const idle = state === "idle";
  useEffect(() => {
    if (!active || !idle) return;
    const timer = setTimeout(() => void revalidate(), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [active, idle, revalidate]);
}

/** One of the progress page's buttons, as a form of its own. */
function ActionForm({ intent, label, hint }: { intent: string; label: string; hint: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <Form method="post" className="flex flex-wrap items-center gap-3">
      <Button type="submit" name="intent" value={intent} variant="secondary" disabled={busy}>
        {label}
      </Button>
      <p className="text-sm text-ink-soft">{hint}</p>
    </Form>
  );
}

function Progress({
  broadcast,
  reach,
  progress,
  reply,
}: ViewProps & { broadcast: BroadcastDetail }) {
  const { status } = broadcast;
  useRefreshWhile(status === "sending");
  const figures = progress ?? {
    recipients: 0,
    waiting: 0,
    pending: 0,
    sent: 0,
    failed: 0,
    suppressed: 0,
    unsubscribed: 0,
    bounced: 0,
    complained: 0,
  };
  const started = broadcast.startedAt !== null;
  return (
    <Container className="py-10 sm:py-14">
      <PageHead
        title={broadcast.subject}
        intro={
          <p>
            {KIND[broadcast.kind].name}.{" "}
            <Link to="/admin/broadcasts" className={LINK}>
              All broadcasts
            </Link>
          </p>
        }
      />
      <ReplyMessage reply={reply} />

      <section aria-labelledby="status-heading" className="mt-6">
        <h2 id="status-heading" className="font-serif text-2xl font-semibold tracking-tight">
          Status: {STATUS[status]}
        </h2>
        {broadcast.pausedReason ? <p className="mt-2 max-w-3xl">{broadcast.pausedReason}</p> : null}
        {status === "scheduled" && broadcast.scheduledAt ? (
          <p className="mt-2">
            Sends at {formatDateTime(broadcast.scheduledAt)} (UTC). Its recipients are fixed then
            {reach ? `; today it would go to ${people(reach.reach - reach.suppressed)}` : ""}.
          </p>
        ) : null}
        {status === "sending" ? (
          <p className="mt-2 text-sm text-ink-soft">
            While it sends, these figures refresh every {REFRESH_MS / 1000} seconds. Without
            JavaScript, reload the page to see new ones.
          </p>
        ) : null}
        {started ? (
          <>
            <CountTiles
              label="Progress"
              className="mt-4"
              items={[
                { n: figures.sent, what: "sent" },
                { n: figures.waiting + figures.pending, what: "waiting" },
                { n: figures.failed, what: "failed" },
                { n: figures.suppressed, what: "suppressed" },
                { n: figures.unsubscribed, what: "unsubscribed" },
                { n: figures.bounced, what: "bounced" },
                { n: figures.complained, what: "complained" },
              ]}
            />
            <p className="mt-3">
              Out of {count(figures.recipients)}{" "}
              {figures.recipients === 1 ? "recipient" : "recipients"}, fixed when sending started.
              Waiting: not yet handed over, or in the outbox.
            </p>
          </>
        ) : status === "cancelled" ? (
          <p className="mt-2">Cancelled before it started: nobody got it.</p>
        ) : null}
        <div className="mt-6 space-y-3">
          {status === "sending" ? (
            <ActionForm
              intent="pause"
              label="Pause"
              hint="No more mails are handed over until you resume."
            />
          ) : null}
          {status === "paused" ? (
            <ActionForm intent="resume" label="Resume" hint="Sending goes on where it stopped." />
          ) : null}
          {status === "scheduled" || status === "sending" || status === "paused" ? (
            <ActionForm
              intent="cancel"
              label="Cancel broadcast"
              hint="For good: whoever has not been handed it yet never gets it."
            />
          ) : null}
        </div>
      </section>

      <section aria-labelledby="content-heading" className="mt-10 max-w-3xl">
        <h2 id="content-heading" className="font-serif text-2xl font-semibold tracking-tight">
          What was sent
        </h2>
        <dl className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
          <dt className="font-semibold">Subject</dt>
          <dd className="[overflow-wrap:anywhere]">{broadcast.subject}</dd>
          <dt className="font-semibold">Kind</dt>
          <dd>{KIND[broadcast.kind].choice}</dd>
          <dt className="font-semibold">Audience</dt>
          <dd className="[overflow-wrap:anywhere]">{audienceText(broadcast.audience)}</dd>
          <dt className="font-semibold">Started (UTC)</dt>
          <dd className="tabular-nums">
            {broadcast.startedAt ? formatDateTime(broadcast.startedAt) : "Not started"}
          </dd>
          <dt className="font-semibold">Finished (UTC)</dt>
          <dd className="tabular-nums">
            {broadcast.finishedAt ? formatDateTime(broadcast.finishedAt) : "-"}
          </dd>
          <dt className="font-semibold">By</dt>
          <dd className="[overflow-wrap:anywhere]">{broadcast.createdBy}</dd>
        </dl>
        <figure className="mt-6">
          <figcaption className="text-sm font-semibold">Body (Markdown)</figcaption>
          <pre className="mt-2 rounded-xl border border-rule bg-card p-4 text-sm [overflow-wrap:anywhere] whitespace-pre-wrap">
            {broadcast.body}
          </pre>
        </figure>
      </section>
    </Container>
  );
}
