/**
 * The admin dashboard (decision 028): leads per day as a chart with its numbers beside it, where
 * people come from, the funnel from page views to joined, and how mail is flowing. Server-rendered
 * and complete without JavaScript: the period is a plain GET form.
 */
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { formatDateTime } from "#src/lib/date-time.ts";
import {
  DASHBOARD_PERIODS,
  MAIL_HEALTH_LIMITS,
  type DashboardOverview,
} from "#src/lib/dashboard.ts";
import { AdminNav } from "#src/ui/admin-nav.tsx";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";
import { CountTiles } from "#src/ui/count-tiles.tsx";

const count = (n: number) => n.toLocaleString("en-US");
const DAY = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const dayName = (day: string) => DAY.format(new Date(`${day}T00:00:00Z`));

/**
 * "42%" of the step before; a dash when there was nothing to convert; "more than the step
 * before" when a step outnumbers the one before it (entries can outnumber page loads), which no
 * percentage would say truthfully.
 */
function rate(part: number, whole: number): string {
  if (whole === 0) return "–";
  if (part > whole) return "more than the step before";
  const percent = (part / whole) * 100;
  return `${percent < 10 && percent > 0 ? percent.toFixed(1) : Math.round(percent)}%`;
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="font-serif text-2xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Table({
  label,
  headings,
  children,
  wide = false,
}: {
  label: string;
  headings: string[];
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    // A group, not a region: the section around it is the landmark, named by its heading, and a
    // second landmark of the same name would list each twice. Focusable, so a keyboard scrolls it.
    <div
      role="group"
      aria-label={label}
      tabIndex={0}
      className="mt-4 overflow-x-auto rounded-xl border border-rule bg-card"
    >
      <table className={`w-full border-collapse text-left text-sm ${wide ? "min-w-[36rem]" : ""}`}>
        <thead className="bg-ledger-soft">
          <tr>
            {headings.map((h, i) => (
              <th
                key={h}
                scope="col"
                className={`px-4 py-3 font-semibold ${i > 0 ? "text-right" : ""}`}
              >
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

const CELL = "px-4 py-2.5";
const NUMBER = `${CELL} text-right tabular-nums`;

/** Bars for the last 30 days; the table next to it carries the same numbers for everyone. */
function LeadsChart({ days }: { days: DashboardOverview["leadsPerDay"] }) {
  const most = Math.max(1, ...days.map((d) => d.entries));
  const total = days.reduce((sum, d) => sum + d.entries, 0);
  const busiest = days.reduce((a, b) => (b.entries > a.entries ? b : a), days[0]!);
  const width = 600;
  const height = 160;
  const slot = width / days.length;
  return (
    <svg
      viewBox={`0 0 ${width} ${height + 24}`}
      role="img"
      aria-labelledby="leads-chart-title leads-chart-desc"
      className="h-auto w-full"
    >
      <title id="leads-chart-title">Waitlist entries per day, last 30 days</title>
      <desc id="leads-chart-desc">
        {total === 0
          ? "No entries in the last 30 days."
          : `${count(total)} entries in the last 30 days; the most on ${dayName(busiest.day)}, with ${count(busiest.entries)}.`}
      </desc>
      <line x1="0" x2={width} y1={height} y2={height} stroke="currentColor" strokeOpacity="0.3" />
      {days.map((d, i) => {
        const h = (d.entries / most) * (height - 8);
        return (
          <rect
            key={d.day}
            x={i * slot + slot * 0.15}
            y={height - h}
            width={slot * 0.7}
            height={h}
            rx="2"
            className="fill-ledger"
          />
        );
      })}
      <text x="0" y={height + 18} className="fill-ink-soft text-[11px]">
        {dayName(days[0]!.day)}
      </text>
      <text x={width} y={height + 18} textAnchor="end" className="fill-ink-soft text-[11px]">
        {dayName(days[days.length - 1]!.day)}
      </text>
    </svg>
  );
}

export function DashboardView({
  period,
  leadsPerDay,
  sources,
  funnel,
  referrals,
  mail,
}: DashboardOverview) {
  const steps = [
    { name: "Page loads", n: funnel.views },
    { name: "Waitlist entries", n: funnel.entries },
    { name: "Confirmed", n: funnel.confirmed },
    { name: "Invited", n: funnel.invited },
    { name: "Joined", n: funnel.joined },
  ];
  return (
    <Container className="py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Dashboard</h1>
          <p className="mt-2 text-ink-soft">
            The waitlist's funnel and the site's mail, in UTC days.
          </p>
        </div>
        <AdminNav current="/admin" />
      </div>

      <Section id="leads-heading" title="Leads per day">
        <div className="mt-4 grid gap-6 lg:grid-cols-[2fr_1fr]">
          <figure className="rounded-xl border border-rule bg-card p-4 text-ink">
            <LeadsChart days={leadsPerDay} />
            <figcaption className="mt-2 text-sm text-ink-soft">
              Entries made each day over the last 30 days; the table gives every number.
            </figcaption>
          </figure>
          <div
            role="group"
            aria-label="Entries per day"
            tabIndex={0}
            className="max-h-80 overflow-y-auto rounded-xl border border-rule bg-card"
          >
            <table className="w-full border-collapse text-left text-sm">
              <thead className="sticky top-0 bg-ledger-soft">
                <tr>
                  <th scope="col" className="px-4 py-2.5 font-semibold">
                    Day
                  </th>
                  <th scope="col" className="px-4 py-2.5 text-right font-semibold">
                    Entries
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...leadsPerDay].reverse().map((d) => (
                  <tr key={d.day} className="border-t border-rule">
                    <th scope="row" className={`${CELL} font-normal`}>
                      {dayName(d.day)}
                    </th>
                    <td className={NUMBER}>{count(d.entries)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </Section>

      <Form method="get" className="mt-10 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="period" className="block text-sm font-semibold">
            Period for the funnel, the sources and the referrals
          </label>
          <select
            id="period"
            name="period"
            defaultValue={String(period.days)}
            className="mt-1 rounded-md border border-rule bg-card px-3 py-2"
          >
            {DASHBOARD_PERIODS.map((days) => (
              <option key={days} value={days}>
                Last {days} days
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="secondary">
          Show
        </Button>
        <p className="text-sm text-ink-soft">
          {dayName(period.from)} to {dayName(period.to)}
        </p>
      </Form>

      <Section id="funnel-heading" title="Funnel">
        <Table label="Funnel" headings={["Step", "Count", "Of the step before"]}>
          {steps.map((step, i) => (
            <tr key={step.name} className="border-t border-rule">
              <th scope="row" className={`${CELL} font-semibold`}>
                {step.name}
              </th>
              <td className={NUMBER}>{count(step.n)}</td>
              <td className={NUMBER}>{i === 0 ? "" : rate(step.n, steps[i - 1]!.n)}</td>
            </tr>
          ))}
        </Table>
        <p className="mt-2 text-sm text-ink-soft">
          Page loads are pages sent whole to a browser (not bots); moving between pages after the
          first is not counted. Entries are counted by the day they were made, and can outnumber
          page loads: an entry made through the API, or by a visitor whose page was not counted.
        </p>
      </Section>

      <Section id="sources-heading" title="Sources">
        <p className="mt-1 text-ink-soft">
          The campaign named in the link (utm_source), else the site a visitor came from.
        </p>
        <Table
          label="Sources"
          headings={["Source", "Page loads", "Entries", "Confirmed", "Joined"]}
          wide
        >
          {sources.length === 0 ? (
            <tr>
              <td colSpan={5} className="px-4 py-8 text-center text-ink-soft">
                Nothing in this period yet.
              </td>
            </tr>
          ) : (
            sources.map((s) => (
              <tr key={s.source} className="border-t border-rule">
                <th scope="row" className={`${CELL} font-normal break-all`}>
                  {s.source}
                </th>
                <td className={NUMBER}>{count(s.views)}</td>
                <td className={NUMBER}>{count(s.entries)}</td>
                <td className={NUMBER}>{count(s.confirmed)}</td>
                <td className={NUMBER}>{count(s.joined)}</td>
              </tr>
            ))
          )}
        </Table>
      </Section>

      <Section id="referrals-heading" title="Referrals">
        <p className="mt-1 text-ink-soft">
          Entries made through another entry&apos;s shared link, in the period. A signal for
          choosing whom to invite: it moves nobody on the list.
        </p>
        <CountTiles
          label="Referrals in the period"
          className="mt-4"
          items={[
            { n: referrals.entries, what: "entries through a shared link" },
            { n: referrals.confirmed, what: "of them confirmed" },
            { n: referrals.referrerCount, what: "shared links that brought someone" },
          ]}
        />
        <Table
          label="Whose links brought the most"
          headings={["Shared by", "Entries brought", "Confirmed"]}
          wide
        >
          {referrals.referrers.length === 0 ? (
            <tr>
              <td colSpan={3} className="px-4 py-8 text-center text-ink-soft">
                No one joined through a shared link in this period.
              </td>
            </tr>
          ) : (
            referrals.referrers.map((r) => (
              <tr key={r.id} className="border-t border-rule">
                <th scope="row" className={`${CELL} font-normal [overflow-wrap:anywhere]`}>
                  <Link
                    to={`/admin/waitlist?q=${encodeURIComponent(r.email)}`}
                    className="underline underline-offset-2"
                  >
                    {r.name} &lt;{r.email}&gt;
                  </Link>
                </th>
                <td className={NUMBER}>{count(r.entries)}</td>
                <td className={NUMBER}>{count(r.confirmed)}</td>
              </tr>
            ))
          )}
        </Table>
      </Section>

      <Section id="mail-heading" title="Mail and deliveries">
        <CountTiles
          label="Outbox"
          className="mt-4"
          items={[
            { n: mail.waiting, what: "waiting now" },
            { n: mail.sentLastDay, what: "sent in the last day" },
            { n: mail.failedLastDay, what: "failed in the last day" },
          ]}
        />
        <MailHealthFigures health={mail.health} />
        <BroadcastRates broadcasts={mail.broadcasts} />
        <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
          <dt className="font-semibold">Oldest waiting</dt>
          <dd>
            {mail.oldestWaitingAt
              ? `${formatDateTime(mail.oldestWaitingAt)} UTC`
              : "Nothing waits."}
          </dd>
          <dt className="font-semibold">Last failure</dt>
          <dd className="break-words">
            {mail.lastFailure
              ? `${mail.lastFailure.at ? `${formatDateTime(mail.lastFailure.at)} UTC: ` : ""}${mail.lastFailure.reason ?? "no reason recorded"}`
              : "None."}
          </dd>
        </dl>
      </Section>
    </Container>
  );
}

const percent = (part: number, whole: number) =>
  whole === 0 ? "0%" : `${((100 * part) / whole).toFixed(2)}%`;

/**
 * Each broadcast begun in the last 30 days with its own bounce and complaint rates (decision 041):
 * a rate past the limits says so in words, beside the figure.
 */
function BroadcastRates({ broadcasts }: { broadcasts: DashboardOverview["mail"]["broadcasts"] }) {
  const over = (part: number, whole: number, limit: number) =>
    whole > 0 && part / whole > limit ? " (above the limit)" : "";
  return (
    <Table
      label="Broadcasts of the last 30 days"
      headings={["Broadcast", "Began (UTC)", "Sent", "Bounced", "Complaints"]}
      wide
    >
      {broadcasts.length === 0 ? (
        <tr>
          <td colSpan={5} className="px-4 py-8 text-center text-ink-soft">
            No broadcast began in the last 30 days.
          </td>
        </tr>
      ) : (
        broadcasts.map((b) => (
          <tr key={b.id} className="border-t border-rule">
            <th scope="row" className={`${CELL} font-normal [overflow-wrap:anywhere]`}>
              <Link to={`/admin/broadcasts/${b.id}`} className="underline underline-offset-2">
                {b.subject}
              </Link>
            </th>
            <td className={`${NUMBER} whitespace-nowrap`}>{formatDateTime(b.startedAt)}</td>
            <td className={NUMBER}>{count(b.sent)}</td>
            <td className={NUMBER}>
              {count(b.bounced)} ({percent(b.bounced, b.sent)})
              {over(b.bounced, b.sent, MAIL_HEALTH_LIMITS.bounceRate)}
            </td>
            <td className={NUMBER}>
              {count(b.complained)} ({percent(b.complained, b.sent)})
              {over(b.complained, b.sent, MAIL_HEALTH_LIMITS.complaintRate)}
            </td>
          </tr>
        ))
      )}
    </Table>
  );
}

/**
 * Bounces and complaints in the last 30 days against the mail sent (decision 041), with a warning
 * in words past the limits a sending domain's reputation allows.
 */
function MailHealthFigures({ health }: { health: DashboardOverview["mail"]["health"] }) {
  const complaintRate = health.sent === 0 ? 0 : health.complained / health.sent;
  const bounceRate = health.sent === 0 ? 0 : health.bounced / health.sent;
  const warnings = [
    complaintRate > MAIL_HEALTH_LIMITS.complaintRate
      ? `Complaints are at ${percent(health.complained, health.sent)} of the mail sent in the last 30 days, above 0.1% (Gmail refuses a sender above 0.3%). Look at who your broadcasts go to, and pause those under way.`
      : null,
    bounceRate > MAIL_HEALTH_LIMITS.bounceRate
      ? `Bounces are at ${percent(health.bounced, health.sent)} of the mail sent in the last 30 days, above 2%. Old or mistyped addresses hurt the sending domain: check the list before the next broadcast.`
      : null,
  ].filter((w): w is string => w !== null);
  return (
    <>
      <CountTiles
        label="The last 30 days"
        className="mt-4"
        items={[
          { n: health.sent, what: "mails sent" },
          { n: health.bounced, what: `bounced (${percent(health.bounced, health.sent)})` },
          { n: health.complained, what: `complaints (${percent(health.complained, health.sent)})` },
          { n: health.suppressedNow, what: "addresses suppressed" },
        ]}
      />
      {warnings.map((warning) => (
        <p
          key={warning}
          role="alert"
          className="mt-3 rounded-md border border-danger/30 bg-danger-soft px-4 py-3 text-sm font-medium text-danger"
        >
          {warning}
        </p>
      ))}
    </>
  );
}
