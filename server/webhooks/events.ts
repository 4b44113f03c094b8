/**
 * The events webhooks carry (decision 046), written to the outbox in the transaction of the change
 * they report, one row per enabled endpoint that asked for the event: committed with the change,
 * or not at all. A payload carries the entry's id and fields, never a token or a link.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";
import type { WaitlistRow } from "#db/schema.ts";
import { enqueue, type OutboxMessage, type WebhookPayload } from "#server/outbox/outbox.ts";
import type { WebhookEvent } from "#src/lib/webhooks.ts";

/** The `webhook-id` of a message: the receiver's key for dropping a repeat. */
export const newWebhookMessageId = () => `msg_${randomBytes(16).toString("base64url")}`;

/** The outbox key of a message to an endpoint: one per message and endpoint, whatever retries. */
export const webhookKey = (endpointId: number, msgId: string) => `webhook:${endpointId}:${msgId}`;

/** An entry as an event carries it. */
export function entryData(row: WaitlistRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    use_case: row.message,
    state: row.state,
    source: row.source,
    created_at: row.createdAt.toISOString(),
    confirmed_at: row.confirmedAt?.toISOString() ?? null,
    answers: row.answers,
    referred_by: row.referredBy,
  };
}

export type WebhookEventInput = { type: WebhookEvent; data: Record<string, unknown> };

/**
 * Writes each event for every enabled endpoint that asked for it, inside the caller's transaction.
 * Resolves with how many messages were written (none: nobody asked, nothing to wake).
 */
export async function enqueueWebhookEvents(
  tx: Db,
  events: readonly WebhookEventInput[],
): Promise<number> {
  if (events.length === 0) return 0;
  const endpoints = await queryRows<{ id: number; events: string[] }>(
    tx,
    sql`SELECT id::int AS id, events FROM webhook_endpoints WHERE disabled_at IS NULL`,
  );
  if (endpoints.length === 0) return 0;
  const timestamp = new Date().toISOString();
  const messages: OutboxMessage[] = [];
  for (const event of events) {
    const msgId = newWebhookMessageId();
    for (const endpoint of endpoints)
      if (endpoint.events.includes(event.type))
        messages.push({
          key: webhookKey(endpoint.id, msgId),
          channel: "webhook",
          payload: {
            endpointId: endpoint.id,
            msgId,
            type: event.type,
            timestamp,
            data: event.data,
          } satisfies WebhookPayload,
        });
  }
  return enqueue(tx, messages);
}

/**
 * Deletes the messages still held about these entries (their names and addresses), sent or not,
 * inside an erasure's transaction: the `entry.removed` written after it carries the id alone.
 */
export async function forgetWebhookMessages(tx: Db, entryIds: readonly number[]): Promise<void> {
  if (entryIds.length === 0) return;
  await tx.execute(sql`
    DELETE FROM outbox WHERE channel = 'webhook'
      AND payload->>'type' LIKE 'entry.%'
      AND (payload->'data'->>'id') IN (${sql.join(
        entryIds.map((id) => sql`${String(id)}`),
        sql`, `,
      )})`);
}
