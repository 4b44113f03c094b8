/**
 * Delivering one webhook message (decision 046), as the outbox worker's `webhook` channel. The
 * endpoint is read when the message is sent, so a removed or disabled endpoint gets nothing and a
 * rotated secret signs at once. The body is signed the Standard Webhooks way (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`: HMAC-SHA256, by the `standardwebhooks` package);
 * within 24 hours of a rotation the secret before it signs too, so a receiver may switch when it
 * likes. The host is checked again (server/webhooks/address-check.ts) and the connection goes to
 * the address that was checked. Every attempt is a row of the endpoint's delivery log.
 *
 * Answers: 2xx delivered; 410 Gone disables the endpoint (the receiver says it is gone for good);
 * anything else, a redirect included, is tried again on the outbox's webhook schedule, after
 * `Retry-After` when the receiver gives one. An endpoint whose every attempt has failed for five
 * days is disabled, and the administrators are mailed.
 */
import { request } from "node:https";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { Webhook } from "standardwebhooks";
import { queryRows, type Db } from "#db/client.ts";
import type { Env } from "#server/env.ts";
import { renderWebhookDisabled } from "#server/mail/templates/admin-mails.tsx";
import { DeliveryError } from "#server/outbox/delivery-error.ts";
import { enqueue, type WebhookPayload } from "#server/outbox/outbox.ts";
import { checkedAddress, RefusedHost, type Resolve } from "#server/webhooks/address-check.ts";

const REQUEST_TIMEOUT_MS = 10_000;
/** The longest a whole exchange may take, however the receiver trickles its answer. */
const EXCHANGE_MS = 20_000;
/** How much of an answer is read (and dropped): enough to finish a small body. */
const ANSWER_LIMIT = 64 * 1024;
/** After this long with every attempt failing, an endpoint is disabled. */
const DISABLE_AFTER_MS = 5 * 24 * 60 * 60_000;
/** The longest wait a Retry-After may ask for. */
const RETRY_AFTER_MAX_MS = 24 * 60 * 60_000;

type Endpoint = {
  id: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_until: boolean;
  disabled: boolean;
};

type Answer = { status: number; retryAfter: string | undefined };

/** An HTTP date as RFC 9110 writes it (`Sun, 06 Nov 1994 08:49:37 GMT`): nothing looser. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Seconds or an HTTP date, as milliseconds from now; undefined for anything else. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const ms = /^\d{1,10}$/.test(trimmed)
    ? Number(trimmed) * 1000
    : HTTP_DATE.test(trimmed)
      ? Date.parse(trimmed) - now
      : undefined;
  if (ms !== undefined && Number.isNaN(ms)) return undefined;
  if (ms === undefined) return undefined;
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(0, ms));
}

/** The three headers of a signed message: the signature under each secret that signs now. */
export function signedHeaders(
  secrets: readonly string[],
  msgId: string,
  at: Date,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets
      .map((secret) => new Webhook(secret).sign(msgId, at, body))
      .join(" "),
  };
}

function post(
  url: URL,
  address: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          ...headers,
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          "User-Agent": "Tieout-Webhooks/1",
        },
        // The connection goes to the address that was checked: no second lookup to rebind.
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all)
            (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
              address,
            ]);
          else callback(null, address.address, address.family);
        },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > ANSWER_LIMIT) res.destroy();
        });
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: [res.headers["retry-after"]].flat()[0],
          });
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    req.on("timeout", () =>
      req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)),
    );
    // The idle timeout above restarts with every byte: a receiver that answers a byte at a time
    // would hold the delivery for ever. The whole exchange gets one deadline too.
    const deadline = setTimeout(
      () => req.destroy(new Error(`not answered in full within ${EXCHANGE_MS / 1000} s`)),
      EXCHANGE_MS,
    );
    deadline.unref();
    req.on("close", () => clearTimeout(deadline));
    req.on("error", reject);
    req.end(body);
  });
}

export function createWebhookDelivery({
  db,
  env,
  log,
  resolve,
  onEnqueued,
}: {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  resolve?: Resolve;
  /** Told when a disabled endpoint's notice to the administrators was written. */
  onEnqueued: () => void;
}) {
  async function logAttempt(
    payload: WebhookPayload,
    started: number,
    outcome: "delivered" | "retry" | "failed",
    statusCode: number | null,
    error: string | null,
  ) {
    await db.execute(sql`
      INSERT INTO webhook_attempts
        (endpoint_id, message_id, event_type, status_code, duration_ms, outcome, error)
      SELECT ${payload.endpointId}, ${payload.msgId}, ${payload.type}, ${statusCode},
        ${Math.round(performance.now() - started)}, ${outcome}, ${error?.slice(0, 500) ?? null}
      WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ${payload.endpointId})`);
  }

  /** Disables the endpoint and mails the administrators, once. */
  async function disable(endpoint: Endpoint, reason: string) {
    const wrote = await db.transaction(async (tx) => {
      const [row] = await queryRows<{ id: number }>(
        tx,
        sql`UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = ${reason}
            WHERE id = ${endpoint.id} AND disabled_at IS NULL RETURNING id`,
      );
      if (!row) return 0;
      const mail = renderWebhookDisabled({
        siteUrl: env.siteUrl,
        endpointUrl: endpoint.url,
        reason,
      });
      return enqueue(
        tx,
        env.adminEmails.map((address) => ({
          key: `webhook-disabled:${endpoint.id}:${Date.now()}:${address}`,
          channel: "email" as const,
          email: {
            category: "notice" as const,
            from: env.mail.from,
            to: { name: undefined, address },
            ...mail,
          },
        })),
      );
    });
    log.warn(
      { event: "webhook.disabled", endpointId: endpoint.id, reason },
      "webhook endpoint disabled",
    );
    if (wrote > 0) onEnqueued();
  }

  /** A failed attempt: the endpoint's failing streak, and disabled once it is five days long. */
  async function failed(endpoint: Endpoint) {
    const [row] = await queryRows<{ long: boolean }>(
      db,
      sql`UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now())
          WHERE id = ${endpoint.id}
          RETURNING failing_since <= now() - make_interval(secs => ${DISABLE_AFTER_MS / 1000}) AS long`,
    );
    if (row?.long) await disable(endpoint, "every delivery failed for five days");
  }

  return async function deliver(payload: WebhookPayload): Promise<void> {
    const [endpoint] = await queryRows<Endpoint>(
      db,
      sql`SELECT id::int AS id, url, secret, previous_secret,
            coalesce(previous_secret_until > now(), false) AS previous_until,
            disabled_at IS NOT NULL AS disabled
          FROM webhook_endpoints WHERE id = ${payload.endpointId}`,
    );
    if (!endpoint) throw new DeliveryError("the endpoint was removed", true);
    if (endpoint.disabled) throw new DeliveryError("the endpoint is disabled", true);
    const started = performance.now();
    const url = new URL(endpoint.url);
    const body = JSON.stringify({
      type: payload.type,
      timestamp: payload.timestamp,
      data: payload.data,
    });
    const secrets = [
      endpoint.secret,
      ...(endpoint.previous_until && endpoint.previous_secret ? [endpoint.previous_secret] : []),
    ];
    let answer: Answer;
    try {
      const address = await checkedAddress(url, env.webhooksAllowPrivate, resolve);
      answer = await post(
        url,
        address,
        signedHeaders(secrets, payload.msgId, new Date(), body),
        body,
      );
    } catch (error) {
      const reason =
        error instanceof RefusedHost
          ? `refused: ${error.message}`
          : `unreachable: ${(error as Error).message}`;
      await logAttempt(payload, started, "retry", null, reason);
      await failed(endpoint);
      throw new DeliveryError(`webhook ${reason}`, false);
    }
    const { status } = answer;
    if (status >= 200 && status < 300) {
      await logAttempt(payload, started, "delivered", status, null);
      await db.execute(
        sql`UPDATE webhook_endpoints SET failing_since = NULL
            WHERE id = ${endpoint.id} AND failing_since IS NOT NULL`,
      );
      return;
    }
    if (status === 410) {
      await logAttempt(payload, started, "failed", status, "410 Gone: the endpoint was disabled");
      await disable(endpoint, "it answered 410 Gone");
      throw new DeliveryError("webhook endpoint answered 410 Gone: disabled", true);
    }
    await logAttempt(payload, started, "retry", status, `answered ${status}`);
    await failed(endpoint);
    throw new DeliveryError(
      `webhook endpoint answered ${status}`,
      false,
      false,
      retryAfterMs(answer.retryAfter),
    );
  };
}
