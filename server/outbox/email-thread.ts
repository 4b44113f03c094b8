/**
 * The mail thread (decision 051): nodemailer's pooled transport, run beside the thread that answers
 * visitors. Building a message (its MIME parts, quoted-printable text, a DKIM signature) and
 * speaking SMTP cost a few milliseconds of CPU a mail; here they never hold a visitor up. The
 * outbox (worker.ts) still decides what is sent and records every outcome; this thread only sends
 * what it is handed, one reply per message.
 */
import { parentPort, workerData } from "node:worker_threads";
import nodemailer from "nodemailer";
import type { SmtpRelay } from "#server/env.ts";
import {
  classify,
  messageOptions,
  SEND_TIMEOUT_MS,
  transportOptions,
  type Dkim,
  type SendReply,
  type SendRequest,
  type SmtpFailure,
} from "#server/outbox/smtp-message.ts";
import { lowerThisThreadPriority } from "#server/outbox/thread-priority.ts";

/**
 * Mail is background work: the rate is a ceiling, and a mail a few milliseconds late harms no one,
 * while a visitor's request queued behind one does. So this thread yields the CPU to the process's
 * other threads whenever they want it (decision 056).
 */
const MAIL_THREAD_NICE = 10;
lowerThisThreadPriority(MAIL_THREAD_NICE);

const { relay, dkim } = workerData as { relay: SmtpRelay; dkim: Dkim };
const transport = nodemailer.createTransport(transportOptions(relay, dkim));
const port = parentPort!;

port.on("message", (request: SendRequest | "close") => {
  if (request === "close") {
    transport.close();
    port.close();
    return;
  }
  // nodemailer 10.5+ honours a per-message signal (its types do not list it yet).
  void transport
    .sendMail({ ...messageOptions(request), signal: AbortSignal.timeout(SEND_TIMEOUT_MS) })
    .then(
      (): SendReply => ({ seq: request.seq, failure: null }),
      (error: unknown): SendReply => ({
        seq: request.seq,
        failure: classify(error as SmtpFailure),
      }),
    )
    .then((reply) => port.postMessage(reply));
});
