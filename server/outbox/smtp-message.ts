/**
 * What the mail thread (email-thread.ts) needs to send one outbox message through nodemailer, and
 * to say why a send failed, as plain data that crosses between threads. Plain TypeScript that
 * Node runs without compiling, since the thread loads it from source in development and tests.
 */
import type { SendMailOptions } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool/index.js";
import type { Env, SmtpRelay } from "#server/env.ts";
import type { EmailPayload } from "#server/outbox/outbox.ts";

/** Well inside the worker's lease, so a slow relay never sees a second instance send the same row. */
export const SEND_TIMEOUT_MS = 60_000;

export type Dkim = Env["mail"]["dkim"];

/** One message for the mail thread to send. */
export type Mail = {
  payload: EmailPayload;
  messageId: string;
  /** The envelope sender, where bounces go (a VERP address naming this message, decision 041). */
  returnPath: string | undefined;
};

export type SendRequest = Mail & { seq: number };

/** Why a send failed: DeliveryError's fields (delivery-error.ts), made into one by the caller. */
export type SendFailure = { message: string; permanent: boolean; recipientRefused: boolean };

export type SendReply = { seq: number; failure: SendFailure | null };

/** A statement compiled where the schema is known, for a thread that knows none to run. */
export type Statement = { sql: string; params: unknown[] };

/** A mail of a sequence, with the statement that marks it sent once the relay has taken it. */
export type MarkedMail = Mail & { marked: Statement };

/**
 * Mails sent one after another (decision 063). Each is marked sent, over the thread's own port to
 * the database, before the next leaves; the reply comes once, when the last is done.
 */
export type SequenceRequest = { seq: number; mails: MarkedMail[] };

/** One mail's outcome: sent and marked, or refused or failed with the reason. */
export type MailOutcome = { failure: SendFailure | null };

/**
 * The outcome of each mail, in order. Fewer outcomes than mails means the sequence stopped, for
 * the reason in `stopped`: the mail after the last outcome was sent but could not be marked, and
 * none after it was tried.
 */
export type SequenceReply = { seq: number; outcomes: MailOutcome[]; stopped: string | null };

/** nodemailer's pooled SMTP transport: STARTTLS whenever the relay offers it, DKIM when set. */
export function transportOptions(relay: SmtpRelay, dkim: Dkim): SMTPPool.Options {
  return {
    pool: true,
    maxConnections: 3,
    host: relay.host,
    port: relay.port,
    secure: relay.secure,
    auth: relay.auth,
    dkim,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // Nothing in a stored message may make the server read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

export function messageOptions({ payload, messageId, returnPath }: Mail): SendMailOptions {
  return {
    from: payload.from.name
      ? { name: payload.from.name, address: payload.from.address }
      : payload.from.address,
    to: payload.to.map((box) =>
      box.name ? { name: box.name, address: box.address } : box.address,
    ),
    subject: payload.subject,
    text: payload.text,
    html: payload.html,
    headers: payload.headers,
    attachments: payload.attachments?.map((file) => ({
      filename: file.filename,
      contentType: file.contentType,
      content: file.content,
    })),
    messageId,
    ...(returnPath
      ? { envelope: { from: returnPath, to: payload.to.map((box) => box.address) } }
      : {}),
  };
}

export type SmtpFailure = Error & {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
};

/**
 * A relay's 5xx is final, except a refused login: that is the relay's configuration, not the
 * message's. A 5xx to the recipient itself (nodemailer's EENVELOPE, at RCPT TO) says the address
 * takes no mail; one to the message (at DATA) may be about its content, and says nothing of it.
 */
export function classify(error: SmtpFailure): SendFailure {
  const code = error.responseCode;
  const permanent = code !== undefined && code >= 500 && code < 600 && error.code !== "EAUTH";
  const what = error.response ?? error.message;
  return {
    message: `${error.code ?? "SMTP"}${code ? ` ${code}` : ""}: ${what}`.slice(0, 500),
    permanent,
    recipientRefused:
      permanent && error.code === "EENVELOPE" && /^RCPT/i.test(error.command ?? "RCPT TO"),
  };
}
