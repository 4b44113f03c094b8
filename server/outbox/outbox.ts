/**
 * The outbox (decision 022): every delivery that follows a change is a row written in the same
 * transaction as that change, under a key that names its cause. The row holds what will be sent,
 * rendered now, so each attempt sends the same thing; the worker (worker.ts) delivers it.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { deletedCount, queryRows, type Db } from "#db/client.ts";
import type { Mailbox } from "#server/env.ts";
import { MAIL_CATEGORIES, type MailCategory } from "#server/mail/suppression-policy.ts";

/**
 * A file sent with a mail, written by the site itself (a privacy request's data, decision 030):
 * text only, so the stored row stays readable JSON and nothing is fetched or read from disk.
 */
type EmailAttachment = { filename: string; contentType: string; content: string };

/** An email as stored: one line for every header value, addresses checked. */
export type EmailPayload = {
  /** What the suppression list may stop (server/mail/suppression-policy.ts). */
  category: MailCategory;
  from: Mailbox;
  to: Mailbox[];
  subject: string;
  text: string;
  html: string | undefined;
  headers: Record<string, string>;
  attachments?: EmailAttachment[];
};

/** The four fields the operator's collector receives (WAITLIST_FORWARD_FIELDS names them). */
export type ForwardPayload = {
  name: string;
  email: string;
  company: string | null;
  message: string | null;
};

export type SlackPayload = { text: string };

/**
 * One event for one endpoint (decision 046): the Standard Webhooks body's `type`, `timestamp` and
 * `data`, its message id (the `webhook-id` header, the same for every endpoint and every retry),
 * and the endpoint, whose URL and secret are read when it is sent.
 */
export type WebhookPayload = {
  endpointId: number;
  msgId: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
};

export type OutboxMessage =
  | { key: string; channel: "email"; email: EmailInput }
  | { key: string; channel: "forward"; payload: ForwardPayload }
  | { key: string; channel: "slack"; payload: SlackPayload }
  | { key: string; channel: "webhook"; payload: WebhookPayload };

export type EmailInput = {
  /**
   * What kind of mail this is, for the suppression list checked when it is sent (decision 041).
   * Required: a mail that does not say is not written.
   */
  category: MailCategory;
  from: Mailbox;
  to: Mailbox | Mailbox[];
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  attachments?: EmailAttachment[];
};

class UnsafeEmailError extends Error {
  override name = "UnsafeEmailError";
}

/**
 * A header value on one line: line breaks (and the separators some clients treat as one) become a
 * space, so a name or a subject can never start a header of its own.
 */
function oneLine(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  return value.replace(/[\r\n\u2028\u2029\u0000-\u001f\u007f]+/g, " ").trim();
}

const ADDRESS = /^[^\s<>()[\]\\,;:"@]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;
const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*$/;
/** Headers the transport writes itself; a caller setting one would be a second copy. */
const RESERVED_HEADERS = new Set(["from", "to", "cc", "bcc", "subject", "message-id", "date"]);
/** A file name that needs no quoting or encoding in any mail client: letters, digits, `._-`. */
const FILENAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const CONTENT_TYPE = /^[a-z]+\/[a-z0-9.+-]+(?:; ?charset=utf-8)?$/;

function mailbox(box: Mailbox): Mailbox {
  if (!ADDRESS.test(box.address)) throw new UnsafeEmailError("not a plain email address");
  const name = box.name === undefined ? undefined : oneLine(box.name) || undefined;
  return { name, address: box.address };
}

/** The stored form of an email: every field that reaches a header made safe, or refused. */
function renderEmail(input: EmailInput): EmailPayload {
  const to = (Array.isArray(input.to) ? input.to : [input.to]).map(mailbox);
  if (to.length === 0) throw new UnsafeEmailError("no recipient");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    if (!HEADER_NAME.test(name) || RESERVED_HEADERS.has(name.toLowerCase()))
      throw new UnsafeEmailError(`header name not allowed: ${JSON.stringify(name)}`);
    headers[name] = oneLine(value);
  }
  for (const file of input.attachments ?? []) {
    if (!FILENAME.test(file.filename) || !CONTENT_TYPE.test(file.contentType))
      throw new UnsafeEmailError(`attachment not allowed: ${JSON.stringify(file.filename)}`);
  }
  if (!(MAIL_CATEGORIES as readonly string[]).includes(input.category))
    throw new UnsafeEmailError(`no such mail category: ${JSON.stringify(input.category)}`);
  return {
    category: input.category,
    from: mailbox(input.from),
    to,
    subject: oneLine(input.subject),
    text: input.text,
    html: input.html,
    headers,
    ...(input.attachments?.length ? { attachments: input.attachments } : {}),
  };
}

/** A Message-ID in the sender's domain, fixed at enqueue so every attempt carries the same one. */
function newMessageId(from: Mailbox): string {
  return `<${randomUUID()}@${from.address.split("@")[1]}>`;
}

/**
 * Writes messages into the outbox, inside the caller's transaction (pass the transaction, not the
 * database, so the message commits with its cause). A key already there is skipped: one cause,
 * one message, however often the cause is retried. Resolves with how many rows are new.
 *
 * The rows go as one JSON value, in a statement that does not change with their number (decision
 * 061): a broadcast's turn writes ten mails at once on the thread that answers visitors, and a
 * query builder walking each of their values held that thread three times as long.
 */
export async function enqueue(tx: Db, messages: OutboxMessage[]): Promise<number> {
  if (messages.length === 0) return 0;
  const rows = messages.map((message) => {
    if (message.channel !== "email")
      return { key: message.key, channel: message.channel, payload: message.payload };
    const email = renderEmail(message.email);
    return {
      key: message.key,
      channel: message.channel,
      payload: email,
      message_id: newMessageId(email.from),
    };
  });
  const inserted = await queryRows<{ id: number }>(
    tx,
    sql`
    INSERT INTO outbox (key, channel, payload, message_id)
    SELECT r.key, r.channel, r.payload, r.message_id
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS r(key text, channel text, payload jsonb, message_id text)
    ON CONFLICT (key) DO NOTHING
    RETURNING id`,
  );
  return inserted.length;
}

/**
 * Deletes every mail in the outbox addressed to `address` (any case), whatever caused it and
 * whatever became of it: an erasure leaves no copy waiting or sent. The number deleted.
 */
export function deleteMailTo(tx: Db, address: string): Promise<number> {
  return deletedCount(
    tx,
    sql`DELETE FROM outbox
        WHERE channel = 'email' AND EXISTS (
          SELECT 1 FROM jsonb_array_elements(payload -> 'to') AS recipient
          WHERE lower(recipient ->> 'address') = lower(${address}))`,
  );
}
