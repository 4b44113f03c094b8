/**
 * The administrator's webhook endpoints (decision 046): add one (https only, a public host, at
 * least one event; its secret shown once), send it a test event, rotate its secret (the one before
 * keeps signing for 24 hours), disable, enable or remove it, and read its delivery log. Every
 * change is an Activity row written in its own transaction, naming the endpoint by number and
 * address; the secret never appears in the log.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";
import { recordAudit, type AuditRecord } from "#server/audit/audit-log.ts";
import type { Env } from "#server/env.ts";
import { enqueue } from "#server/outbox/outbox.ts";
import { checkedAddress, RefusedHost, type Resolve } from "#server/webhooks/address-check.ts";
import { newWebhookMessageId, webhookKey } from "#server/webhooks/events.ts";
import {
  isWebhookEvent,
  TEST_EVENT,
  type EndpointIntent,
  type WebhookAttempt,
  type WebhookEndpointView,
  type WebhooksPort,
} from "#src/lib/webhooks.ts";

/** Endpoints one site may have: enough for a CRM, a sheet and an automation or two. */
const ENDPOINTS_MAX = 20;
/** Attempts an endpoint's page lists, newest first. */
const ATTEMPTS_SHOWN = 50;
/** How long the secret before a rotation still signs. */
const PREVIOUS_SECRET_HOURS = 24;

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

type Actor = { adminEmail: string; clientAddress: string };

type EndpointRow = {
  id: number;
  url: string;
  description: string;
  events: string[];
  created_at: Date | string;
  created_by: string;
  disabled_at: Date | string | null;
  disabled_reason: string | null;
  failing_since: Date | string | null;
  previous_secret_until: Date | string | null;
  waiting: number;
};

type AttemptRow = {
  id: number;
  endpoint_id: number;
  at: Date | string;
  message_id: string;
  event_type: string;
  status_code: number | null;
  duration_ms: number;
  outcome: WebhookAttempt["outcome"];
  error: string | null;
};

const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

const attemptView = (row: AttemptRow): WebhookAttempt => ({
  id: Number(row.id),
  at: iso(row.at)!,
  messageId: row.message_id,
  eventType: row.event_type,
  statusCode: row.status_code === null ? null : Number(row.status_code),
  durationMs: Number(row.duration_ms),
  outcome: row.outcome,
  error: row.error,
});

const endpointView = (row: EndpointRow, last: WebhookAttempt | null): WebhookEndpointView => ({
  id: Number(row.id),
  url: row.url,
  description: row.description,
  events: row.events,
  createdAt: iso(row.created_at)!,
  createdBy: row.created_by,
  disabledAt: iso(row.disabled_at),
  disabledReason: row.disabled_reason,
  failingSince: iso(row.failing_since),
  previousSecretUntil: iso(row.previous_secret_until),
  lastAttempt: last,
  waiting: Number(row.waiting),
});

const SELECT_ENDPOINTS = sql`SELECT e.id::int AS id, e.url, e.description, e.events, e.created_at,
    e.created_by, e.disabled_at, e.disabled_reason, e.failing_since,
    CASE WHEN e.previous_secret_until > now() THEN e.previous_secret_until END
      AS previous_secret_until,
    (SELECT count(*)::int FROM outbox o WHERE o.channel = 'webhook' AND o.status = 'pending'
      AND o.key LIKE 'webhook:' || e.id || ':%') AS waiting
  FROM webhook_endpoints e`;

/**
 * A URL an endpoint may have: https, no user or password in it, at most 2,000 characters. The
 * message says what to change; null when it may.
 */
export function urlProblem(text: string): string | null {
  if (text === "") return "Enter the endpoint's address.";
  if (text.length > 2000) return "The address must be at most 2,000 characters.";
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Enter a full address, such as https://hooks.example.com/tieout.";
  }
  if (url.protocol !== "https:")
    return "The address must start with https://: events carry people's names and addresses.";
  if (url.username || url.password)
    return "Leave the user name and password out of the address: the signature proves who sent it.";
  if (url.hash) return "Leave the #fragment out of the address: it is never sent.";
  return null;
}

export function createWebhookEndpoints({
  db,
  env,
  resolve,
  onEnqueued,
}: {
  db: Db;
  env: Env;
  resolve?: Resolve;
  onEnqueued: () => void;
}): WebhooksPort {
  const audit = (tx: Db, actor: Actor, action: AuditRecord["action"], outcome: string) =>
    recordAudit(tx, [{ ...actor, action, entryId: null, outcome: outcome.slice(0, 500) }]);

  async function lastAttempts(ids: number[]): Promise<Map<number, WebhookAttempt>> {
    if (ids.length === 0) return new Map();
    const rows = await queryRows<AttemptRow>(
      db,
      sql`SELECT DISTINCT ON (endpoint_id) id::int AS id, endpoint_id::int AS endpoint_id, at,
            message_id, event_type, status_code, duration_ms, outcome, error
          FROM webhook_attempts
          WHERE endpoint_id IN (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})
          ORDER BY endpoint_id, at DESC, id DESC`,
    );
    return new Map(rows.map((row) => [Number(row.endpoint_id), attemptView(row)]));
  }

  return {
    allowsPrivate: env.webhooksAllowPrivate,

    async list() {
      const rows = await queryRows<EndpointRow>(db, sql`${SELECT_ENDPOINTS} ORDER BY e.id`);
      const last = await lastAttempts(rows.map((row) => Number(row.id)));
      return rows.map((row) => endpointView(row, last.get(Number(row.id)) ?? null));
    },

    async get(id) {
      const [row] = await queryRows<EndpointRow>(db, sql`${SELECT_ENDPOINTS} WHERE e.id = ${id}`);
      if (!row) return null;
      const attempts = (
        await queryRows<AttemptRow>(
          db,
          sql`SELECT id::int AS id, endpoint_id::int AS endpoint_id, at, message_id, event_type,
                status_code, duration_ms, outcome, error
              FROM webhook_attempts WHERE endpoint_id = ${id}
              ORDER BY at DESC, id DESC LIMIT ${ATTEMPTS_SHOWN}`,
        )
      ).map(attemptView);
      return { endpoint: endpointView(row, attempts[0] ?? null), attempts };
    },

    async add(input, actor) {
      const url = input.url.trim();
      const description = input.description.replace(/\s+/g, " ").trim();
      const problem = urlProblem(url);
      if (problem) return { ok: false, message: problem, field: "url" };
      if (description.length > 200)
        return {
          ok: false,
          message: "The description must be at most 200 characters.",
          field: "description",
        };
      const events = [...new Set(input.events)];
      if (events.length === 0)
        return { ok: false, message: "Pick at least one event to send.", field: "events" };
      const unknown = events.find((event) => !isWebhookEvent(event));
      if (unknown !== undefined)
        return { ok: false, message: `There is no event named "${unknown}".`, field: "events" };
      try {
        await checkedAddress(new URL(url), env.webhooksAllowPrivate, resolve);
      } catch (error) {
        if (!(error instanceof RefusedHost)) throw error;
        return {
          ok: false,
          message: `This address cannot receive webhooks: ${error.message}.`,
          field: "url",
        };
      }
      const secret = newSecret();
      const added = await db.transaction(async (tx) => {
        // Counted under a lock on the table's rows, so two admins at once cannot pass the limit.
        const existing = await queryRows<{ id: number }>(
          tx,
          sql`SELECT id FROM webhook_endpoints FOR UPDATE`,
        );
        if (existing.length >= ENDPOINTS_MAX) return null;
        const [row] = await queryRows<{ id: number }>(
          tx,
          sql`INSERT INTO webhook_endpoints (url, description, events, secret, created_by)
              VALUES (${url}, ${description}, ARRAY[${sql.join(
                events.map((event) => sql`${event}`),
                sql`, `,
              )}]::text[],
                ${secret}, ${actor.adminEmail})
              RETURNING id::int AS id`,
        );
        await audit(tx, actor, "webhook-add", `endpoint ${row!.id} ${url}: ${events.join(", ")}`);
        return Number(row!.id);
      });
      if (added === null)
        return {
          ok: false,
          message: `There are already ${ENDPOINTS_MAX} endpoints: remove one first.`,
          field: "url",
        };
      return {
        ok: true,
        id: added,
        secret,
        message:
          "The endpoint is added. Copy its signing secret now: it is shown this once, and never again.",
      };
    },

    async act(id, intent: EndpointIntent, actor) {
      const result = await db.transaction(async (tx) => {
        const [row] = await queryRows<{ url: string; disabled: boolean }>(
          tx,
          sql`SELECT url, disabled_at IS NOT NULL AS disabled FROM webhook_endpoints
              WHERE id = ${id} FOR UPDATE`,
        );
        if (!row) return { ok: false as const, message: "This endpoint was removed." };
        const named = `endpoint ${id} ${row.url}`;
        switch (intent) {
          case "test": {
            if (row.disabled)
              return {
                ok: false as const,
                message: "The endpoint is disabled: enable it to send a test event.",
              };
            const msgId = newWebhookMessageId();
            await enqueue(tx, [
              {
                key: webhookKey(id, msgId),
                channel: "webhook",
                payload: {
                  endpointId: id,
                  msgId,
                  type: TEST_EVENT,
                  timestamp: new Date().toISOString(),
                  data: {
                    endpoint_id: id,
                    note: "A test event sent from the admin's Webhooks page.",
                  },
                },
              },
            ]);
            await audit(tx, actor, "webhook-test", `${named}: ${msgId}`);
            return {
              ok: true as const,
              message: `A test event (${msgId}) is on its way: its attempt appears in the delivery log below.`,
            };
          }
          case "rotate": {
            const secret = newSecret();
            await tx.execute(sql`
              UPDATE webhook_endpoints SET previous_secret = secret, secret = ${secret},
                previous_secret_until = now() + make_interval(hours => ${PREVIOUS_SECRET_HOURS})
              WHERE id = ${id}`);
            await audit(tx, actor, "webhook-rotate", `${named}: a new secret`);
            return {
              ok: true as const,
              secret,
              message: `The secret is rotated. Copy the new one now: it is shown this once. For ${PREVIOUS_SECRET_HOURS} hours each event is signed with both, so the receiver may change over when it likes.`,
            };
          }
          case "disable": {
            if (row.disabled)
              return { ok: true as const, message: "The endpoint was already disabled." };
            await tx.execute(sql`
              UPDATE webhook_endpoints SET disabled_at = now(),
                disabled_reason = ${`disabled by ${actor.adminEmail}`}
              WHERE id = ${id}`);
            await audit(tx, actor, "webhook-disable", named);
            return {
              ok: true as const,
              message: "The endpoint is disabled: no event is sent to it until it is enabled.",
            };
          }
          case "enable": {
            if (!row.disabled)
              return { ok: true as const, message: "The endpoint was already enabled." };
            await tx.execute(sql`
              UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL,
                failing_since = NULL
              WHERE id = ${id}`);
            await audit(tx, actor, "webhook-enable", named);
            return {
              ok: true as const,
              message: "The endpoint is enabled: events from now on are sent to it.",
            };
          }
          case "remove": {
            // Its waiting messages go with it: nothing is sent to an endpoint that is gone.
            await tx.execute(sql`
              DELETE FROM outbox WHERE channel = 'webhook' AND status = 'pending'
                AND key LIKE ${`webhook:${id}:%`}`);
            await tx.execute(sql`DELETE FROM webhook_endpoints WHERE id = ${id}`);
            await audit(tx, actor, "webhook-remove", named);
            return { ok: true as const, message: `The endpoint ${row.url} is removed.` };
          }
        }
      });
      if (result.ok && intent === "test") onEnqueued();
      return result;
    },
  };
}
