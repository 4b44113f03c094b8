/**
 * The admin's signed webhooks (decision 046): the endpoints, a form to add one, and each
 * endpoint's page with its actions and delivery log. A secret is shown once, on the page that
 * answers its adding or rotation, and never again. Adding, rotating and removing need a step-up
 * (decision 039): a secret is handed out, or events stop. Plain forms: they work without
 * JavaScript, except that a lapsed step-up is asked for by the passkey, which needs it.
 */
import { Form, Link, useNavigation } from "react-router";
import { formatDateTime } from "#src/lib/date-time.ts";
import { useStepUp } from "#src/lib/use-step-up.ts";
import {
  WEBHOOK_EVENTS,
  type WebhookAttempt,
  type WebhookChange,
  type WebhookEndpointView,
} from "#src/lib/webhooks.ts";
import { AdminNav } from "#src/ui/admin-nav.tsx";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";
import { Field } from "#src/ui/field.tsx";
import { FormAlert } from "#src/ui/form-alert.tsx";
import { TableRegion } from "#src/ui/table-region.tsx";

const CELL = "px-4 py-3";

/** The answer to a form on these pages, with what was typed when it was refused. */
export type WebhookReply = WebhookChange & {
  values?: { url: string; description: string; events: string[] };
};

function stateOf(endpoint: WebhookEndpointView): string {
  if (endpoint.disabledAt)
    return `Disabled since ${formatDateTime(endpoint.disabledAt)} UTC: ${endpoint.disabledReason ?? "no reason recorded"}`;
  if (endpoint.failingSince)
    return `Enabled, failing since ${formatDateTime(endpoint.failingSince)} UTC`;
  return "Enabled";
}

function attemptText(attempt: WebhookAttempt | null): string {
  if (!attempt) return "None yet";
  const what =
    attempt.outcome === "delivered"
      ? `Delivered (${attempt.statusCode})`
      : attempt.statusCode !== null
        ? `Answered ${attempt.statusCode}`
        : "Not reached";
  return `${what}, ${formatDateTime(attempt.at)} UTC`;
}

/** The secret, once: a read-only field to copy, and a sentence that says it will not be back. */
function SecretOnce({ secret, message }: { secret: string; message: string }) {
  return (
    <section
      aria-labelledby="secret-heading"
      className="mt-6 rounded-xl border border-ledger bg-ledger-soft p-5"
    >
      <h2 id="secret-heading" className="font-serif text-xl font-semibold">
        Signing secret
      </h2>
      <p role="status" className="mt-1">
        {message}
      </p>
      <label htmlFor="secret-value" className="mt-3 block text-sm font-semibold">
        Secret
      </label>
      <input
        id="secret-value"
        type="text"
        readOnly
        value={secret}
        onFocus={(event) => event.currentTarget.select()}
        className="mt-1.5 block min-h-11 w-full rounded-md border border-rule bg-white px-3.5 font-mono text-sm"
      />
    </section>
  );
}

function Outcome({ reply }: { reply: WebhookReply | undefined }) {
  if (!reply) return null;
  if (reply.ok && reply.secret) return <SecretOnce secret={reply.secret} message={reply.message} />;
  if (reply.ok)
    return (
      <p role="status" className="mt-6 rounded-md border border-rule bg-ledger-soft px-4 py-3">
        {reply.message}
      </p>
    );
  return reply.field ? null : <FormAlert message={reply.message} />;
}

export function WebhooksView({
  endpoints,
  stepUpUntil,
  allowPrivate,
  reply,
}: {
  endpoints: WebhookEndpointView[];
  stepUpUntil: string | null;
  allowPrivate: boolean;
  reply: WebhookReply | undefined;
}) {
  const stepUp = useStepUp(stepUpUntil);
  const navigation = useNavigation();
  const refused = reply && !reply.ok ? reply : undefined;
  const chosen = new Set(refused?.values?.events ?? []);
  return (
    <Container className="py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Webhooks</h1>
          <p className="mt-2 max-w-3xl text-ink-soft">
            Other systems (a CRM, a sheet, an automation) hear of the waitlist as it changes. Each
            event is signed the Standard Webhooks way with the endpoint&apos;s secret, tried again
            for about three days when the receiver fails, and never carries a link or token.
          </p>
        </div>
        <AdminNav current="/admin/webhooks" />
      </div>
      <Outcome reply={reply} />

      <TableRegion
        label="Endpoints"
        headings={["Endpoint", "Events", "State", "Last attempt", "Waiting"]}
        empty="No endpoint yet: add one below."
      >
        {endpoints.map((endpoint) => (
          <tr key={endpoint.id} className="border-t border-rule align-top">
            <td className={`${CELL} max-w-sm [overflow-wrap:anywhere]`}>
              <Link
                to={`/admin/webhooks/${endpoint.id}`}
                className="font-semibold text-ledger-dark underline underline-offset-2"
              >
                {endpoint.url}
              </Link>
              {endpoint.description ? (
                <p className="mt-1 text-ink-soft">{endpoint.description}</p>
              ) : null}
            </td>
            <td className={CELL}>{endpoint.events.join(", ")}</td>
            <td className={CELL}>{stateOf(endpoint)}</td>
            <td className={CELL}>{attemptText(endpoint.lastAttempt)}</td>
            <td className={`${CELL} tabular-nums`}>{endpoint.waiting.toLocaleString("en-US")}</td>
          </tr>
        ))}
      </TableRegion>

      <section
        aria-labelledby="add-heading"
        className="mt-10 rounded-xl border border-rule bg-card p-5 sm:p-6"
      >
        <h2 id="add-heading" className="font-serif text-2xl font-semibold tracking-tight">
          Add an endpoint
        </h2>
        <p className="mt-1 max-w-3xl text-ink-soft">
          An https address on the public internet
          {allowPrivate
            ? " (this site allows private addresses too: WEBHOOKS_ALLOW_PRIVATE is set)"
            : "; one that resolves to a loopback, private or link-local address is refused"}
          . Adding one needs your passkey within the last 15 minutes: its secret is shown once.
        </p>
        <Form method="post" noValidate className="mt-4 space-y-5" {...stepUp.form()}>
          <input type="hidden" name="intent" value="add" />
          {stepUp.error ? (
            <p role="alert" className="text-sm font-medium text-danger">
              {stepUp.error}
            </p>
          ) : null}
          <Field
            label="Endpoint address"
            hint="For example https://hooks.example.com/tieout"
            error={refused?.field === "url" ? refused.message : undefined}
          >
            {(props) => (
              <input
                {...props}
                type="url"
                name="url"
                maxLength={2000}
                autoComplete="off"
                spellCheck={false}
                defaultValue={refused?.values?.url}
              />
            )}
          </Field>
          <Field
            label="Description (optional)"
            error={refused?.field === "description" ? refused.message : undefined}
          >
            {(props) => (
              <input
                {...props}
                type="text"
                name="description"
                maxLength={200}
                defaultValue={refused?.values?.description}
              />
            )}
          </Field>
          <fieldset
            className="space-y-2"
            aria-describedby={refused?.field === "events" ? "events-error" : undefined}
          >
            <legend className="text-sm font-semibold">Events to send</legend>
            {Object.entries(WEBHOOK_EVENTS).map(([event, words]) => (
              <label key={event} className="flex min-h-10 items-start gap-2.5">
                <input
                  type="checkbox"
                  name="events"
                  value={event}
                  defaultChecked={chosen.has(event)}
                  className="mt-1 size-5 shrink-0 accent-ledger"
                />
                <span>
                  <code className="font-mono text-sm">{event}</code>: {words}
                </span>
              </label>
            ))}
            {refused?.field === "events" ? (
              <p id="events-error" className="text-sm font-medium text-danger">
                {refused.message}
              </p>
            ) : null}
          </fieldset>
          <Button type="submit" disabled={navigation.state === "submitting"}>
            Add endpoint
          </Button>
        </Form>
      </section>
    </Container>
  );
}

const OUTCOME: Record<WebhookAttempt["outcome"], string> = {
  delivered: "Delivered",
  retry: "Failed; tried again later",
  failed: "Failed; not tried again",
};

export function WebhookEndpointPage({
  endpoint,
  attempts,
  stepUpUntil,
  reply,
}: {
  endpoint: WebhookEndpointView;
  attempts: WebhookAttempt[];
  stepUpUntil: string | null;
  reply: WebhookReply | undefined;
}) {
  const stepUp = useStepUp(stepUpUntil);
  // Rotating and removing need the passkey; a test, disabling and enabling do not.
  const needs = (submitter: HTMLButtonElement | null) =>
    submitter?.value === "rotate" || submitter?.value === "remove";
  return (
    <Container className="py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p>
            <Link to="/admin/webhooks" className="font-semibold text-ledger-dark underline">
              All webhooks
            </Link>
          </p>
          <h1 className="mt-2 font-serif text-4xl font-semibold tracking-tight">
            Webhook endpoint
          </h1>
          <p className="mt-2 font-mono text-sm [overflow-wrap:anywhere]">{endpoint.url}</p>
        </div>
        <AdminNav current="/admin/webhooks" />
      </div>
      <Outcome reply={reply} />

      <dl className="mt-6 grid gap-2 sm:grid-cols-[max-content_1fr] sm:gap-x-6">
        <dt className="font-semibold">State</dt>
        <dd>{stateOf(endpoint)}</dd>
        <dt className="font-semibold">Events</dt>
        <dd>{endpoint.events.join(", ")}</dd>
        {endpoint.description ? (
          <>
            <dt className="font-semibold">Description</dt>
            <dd>{endpoint.description}</dd>
          </>
        ) : null}
        <dt className="font-semibold">Added</dt>
        <dd>
          {formatDateTime(endpoint.createdAt)} UTC by {endpoint.createdBy}
        </dd>
        <dt className="font-semibold">Secret</dt>
        <dd>
          {endpoint.previousSecretUntil
            ? `Rotated: the one before also signs until ${formatDateTime(endpoint.previousSecretUntil)} UTC.`
            : "Shown once when it was made."}
        </dd>
        <dt className="font-semibold">Waiting</dt>
        <dd>{endpoint.waiting.toLocaleString("en-US")} deliveries</dd>
      </dl>

      <Form method="post" className="mt-6 flex flex-wrap gap-3" {...stepUp.form(needs)}>
        {stepUp.error ? (
          <p role="alert" className="w-full text-sm font-medium text-danger">
            {stepUp.error}
          </p>
        ) : null}
        {endpoint.disabledAt ? null : (
          <Button type="submit" name="intent" value="test">
            Send test event
          </Button>
        )}
        <Button type="submit" name="intent" value="rotate" variant="secondary">
          Rotate secret
        </Button>
        {endpoint.disabledAt ? (
          <Button type="submit" name="intent" value="enable" variant="secondary">
            Enable
          </Button>
        ) : (
          <Button type="submit" name="intent" value="disable" variant="secondary">
            Disable
          </Button>
        )}
        <Button type="submit" name="intent" value="remove" variant="secondary">
          Remove endpoint
        </Button>
      </Form>

      <h2 className="mt-10 font-serif text-2xl font-semibold tracking-tight">Delivery log</h2>
      <p className="mt-1 text-ink-soft">
        The last {attempts.length === 50 ? "50 attempts" : "attempts"}, newest first. A message
        keeps its id (<code className="font-mono">webhook-id</code>) on every try.
      </p>
      <TableRegion
        label="Delivery log"
        headings={["When (UTC)", "Event", "Message", "Outcome", "Status", "Time"]}
        empty="Nothing has been sent to this endpoint yet."
      >
        {attempts.map((attempt) => (
          <tr key={attempt.id} className="border-t border-rule align-top">
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>
              {formatDateTime(attempt.at)}
            </td>
            <td className={CELL}>
              <code className="font-mono text-sm">{attempt.eventType}</code>
            </td>
            <td className={`${CELL} font-mono text-xs [overflow-wrap:anywhere]`}>
              {attempt.messageId}
            </td>
            <td className={CELL}>
              {OUTCOME[attempt.outcome]}
              {attempt.error ? <p className="mt-1 text-ink-soft">{attempt.error}</p> : null}
            </td>
            <td className={`${CELL} tabular-nums`}>{attempt.statusCode ?? "-"}</td>
            <td className={`${CELL} tabular-nums`}>{attempt.durationMs} ms</td>
          </tr>
        ))}
      </TableRegion>
    </Container>
  );
}
