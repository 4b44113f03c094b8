/**
 * The mail thread (decision 051): nodemailer's pooled transport, run beside the thread that answers
 * visitors. Building a message (its MIME parts, quoted-printable text, a DKIM signature) and
 * speaking SMTP cost a few milliseconds of CPU a mail; here they never hold a visitor up. The
 * outbox (worker.ts) still decides what is sent and records every outcome; this thread only sends
 * what it is handed, one reply per message, or one per sequence (below).
 */
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import nodemailer from "nodemailer";
import type { PortReply, PortStatement } from "#db/pglite-thread.ts";
import type { SmtpRelay } from "#server/env.ts";
import {
  classify,
  messageOptions,
  SEND_TIMEOUT_MS,
  transportOptions,
  type Dkim,
  type Mail,
  type MailOutcome,
  type SendReply,
  type SendRequest,
  type SequenceReply,
  type SequenceRequest,
  type SmtpFailure,
  type Statement,
} from "#server/outbox/smtp-message.ts";
import { lowerThisThreadPriority } from "#server/outbox/thread-priority.ts";

/**
 * Mail is background work: the rate is a ceiling, and a mail a few milliseconds late harms no one,
 * while a visitor's request queued behind one does. So this thread yields the CPU to the process's
 * other threads whenever they want it (decision 056).
 */
const MAIL_THREAD_NICE = 10;
lowerThisThreadPriority(MAIL_THREAD_NICE);

const { relay, dkim, database } = workerData as {
  relay: SmtpRelay;
  dkim: Dkim;
  /** A line to the embedded database's thread, for sequences (email.ts); none on PostgreSQL. */
  database: MessagePort | undefined;
};
const transport = nodemailer.createTransport(transportOptions(relay, dkim));
const port = parentPort!;

/** Sends one mail; its failure, classified, or null once the relay has taken it. */
function send(mail: Mail): Promise<MailOutcome["failure"]> {
  // nodemailer 10.5+ honours a per-message signal (its types do not list it yet).
  return transport
    .sendMail({ ...messageOptions(mail), signal: AbortSignal.timeout(SEND_TIMEOUT_MS) })
    .then(
      () => null,
      (error: unknown) => classify(error as SmtpFailure),
    );
}

const statements = new Map<number, { done: () => void; failed: (error: Error) => void }>();
let statementSeq = 0;
database?.on("message", ({ id, error }: PortReply) => {
  const asked = statements.get(id);
  statements.delete(id);
  if (error) asked?.failed(new Error(error.message));
  else asked?.done();
});

/** Runs a statement on the database's thread; rejects with the database's message. */
function run(statement: Statement): Promise<void> {
  if (!database) return Promise.reject(new Error("this thread has no line to the database"));
  const id = ++statementSeq;
  return new Promise<void>((done, failed) => {
    statements.set(id, { done, failed });
    database.postMessage({ id, ...statement } satisfies PortStatement);
  });
}

/**
 * A broadcast's mails, one after another: each is marked sent before the next leaves, so should
 * the process die, at most the mail on the wire can go again (decision 042). Marking it here, not
 * on the visitors' thread, saves that thread two crossings a mail (decision 063). A mail the relay
 * refused is only reported: the outbox records its failure.
 */
async function sequence({ seq, mails }: SequenceRequest): Promise<SequenceReply> {
  const outcomes: MailOutcome[] = [];
  for (const mail of mails) {
    const failure = await send(mail);
    if (failure === null)
      try {
        await run(mail.marked);
      } catch (error) {
        return {
          seq,
          outcomes,
          stopped: `the mail was sent, but could not be marked sent: ${(error as Error).message}`,
        };
      }
    outcomes.push({ failure });
  }
  return { seq, outcomes, stopped: null };
}

port.on("message", (request: SendRequest | SequenceRequest | "close") => {
  if (request === "close") {
    transport.close();
    database?.close();
    port.close();
    return;
  }
  if ("mails" in request) {
    void sequence(request).then((reply) => port.postMessage(reply));
    return;
  }
  void send(request).then((failure) =>
    port.postMessage({ seq: request.seq, failure } satisfies SendReply),
  );
});
