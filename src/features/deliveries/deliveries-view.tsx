/**
 * The admin's deliveries page (decision 022): what the outbox holds, in plain words. Failed
 * messages come first, newest first, each with the reason it was given up; then the messages still
 * waiting, oldest first. Times are UTC, as on the waitlist page.
 */
import { formatDateTime } from "#src/lib/date-time.ts";
import type {
  DeliveriesOverview,
  DeliveryChannel,
  FailedDelivery,
  WaitingDelivery,
} from "#src/lib/deliveries.ts";
import { AdminNav } from "#src/ui/admin-nav.tsx";
import { Container } from "#src/ui/container.tsx";
import { CountTiles } from "#src/ui/count-tiles.tsx";
import { TableRegion } from "#src/ui/table-region.tsx";

const CHANNEL: Record<DeliveryChannel, { name: string; to: string }> = {
  email: { name: "Email", to: "" },
  forward: { name: "Form collector", to: "The form collector" },
  slack: { name: "Slack notice", to: "The Slack channel" },
  webhook: { name: "Webhook", to: "A webhook endpoint" },
};

const count = (n: number) => n.toLocaleString("en-US");

/** Where a message goes: an email's addresses, or the one destination of the other channels. */
function recipientOf(delivery: FailedDelivery | WaitingDelivery): string {
  return delivery.recipient ?? CHANNEL[delivery.channel].to;
}

const CELL = "px-4 py-3";
const WHEN = `${CELL} whitespace-nowrap tabular-nums`;

/** "Showing the latest 100 of 340." when the table holds fewer rows than there are. */
function Shown({ shown, total, which }: { shown: number; total: number; which: string }) {
  if (total <= shown) return null;
  return (
    <p className="mt-3 text-sm text-ink-soft">
      Showing the {which} {count(shown)} of {count(total)}.
    </p>
  );
}

export function DeliveriesView({ counts, failed, waiting }: DeliveriesOverview) {
  return (
    <Container className="py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Deliveries</h1>
          <p className="mt-2 text-ink-soft">
            Confirmation mails, posts to the form collector and Slack notices.
          </p>
        </div>
        <AdminNav current="/admin/deliveries" />
      </div>

      <CountTiles
        label="Messages by state"
        className="mt-8"
        items={[
          { n: counts.failed, what: "failed" },
          { n: counts.pending, what: "waiting to be sent" },
          { n: counts.sent, what: "sent" },
        ]}
      />

      <section aria-labelledby="failed-heading" className="mt-10">
        <h2 id="failed-heading" className="font-serif text-2xl font-semibold">
          Failed
        </h2>
        <p className="mt-1 text-ink-soft">
          Messages that were given up, newest first, with the reason. They are not tried again.
        </p>
        <TableRegion
          label="Failed deliveries"
          headings={[
            "Channel",
            "Recipient",
            "Attempts",
            "Queued (UTC)",
            "Given up (UTC)",
            "Reason",
          ]}
          empty="Nothing has failed."
        >
          {failed.map((d) => (
            <tr key={d.id} className="border-t border-rule align-top">
              <td className={CELL}>{CHANNEL[d.channel].name}</td>
              <td className={`${CELL} break-words`}>{recipientOf(d)}</td>
              <td className={`${CELL} tabular-nums`}>{d.attempts}</td>
              <td className={WHEN}>{formatDateTime(d.createdAt)}</td>
              <td className={WHEN}>{d.failedAt ? formatDateTime(d.failedAt) : "Not recorded"}</td>
              <td className={`${CELL} max-w-md break-words`}>
                {d.reason ?? "No reason was recorded."}
              </td>
            </tr>
          ))}
        </TableRegion>
        <Shown shown={failed.length} total={counts.failed} which="latest" />
      </section>

      <section aria-labelledby="waiting-heading" className="mt-10">
        <h2 id="waiting-heading" className="font-serif text-2xl font-semibold">
          Waiting to be sent
        </h2>
        <p className="mt-1 text-ink-soft">
          Oldest first. A message that keeps failing is retried for 24 hours, then given up.
        </p>
        <TableRegion
          label="Messages waiting to be sent"
          headings={[
            "Channel",
            "Recipient",
            "Attempts",
            "Queued (UTC)",
            "Next attempt (UTC)",
            "Last error",
          ]}
          empty="Nothing is waiting to be sent."
        >
          {waiting.map((d) => (
            <tr key={d.id} className="border-t border-rule align-top">
              <td className={CELL}>{CHANNEL[d.channel].name}</td>
              <td className={`${CELL} break-words`}>{recipientOf(d)}</td>
              <td className={`${CELL} tabular-nums`}>{d.attempts}</td>
              <td className={WHEN}>{formatDateTime(d.createdAt)}</td>
              <td className={WHEN}>{formatDateTime(d.nextAttemptAt)}</td>
              <td className={`${CELL} max-w-md break-words`}>{d.lastError ?? "None"}</td>
            </tr>
          ))}
        </TableRegion>
        <Shown shown={waiting.length} total={counts.pending} which="oldest" />
      </section>
    </Container>
  );
}
