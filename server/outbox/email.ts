/**
 * Email through SMTP: nodemailer's pooled transport to SMTP_URL (or to the local catcher), STARTTLS
 * whenever the relay offers it, DKIM-signed when DKIM_* is set. It runs on a thread of its own
 * (email-thread.ts, decision 051): building and sending a message never holds up a visitor's
 * request. A send resolves when the relay accepted the message, and rejects with a DeliveryError
 * that says whether trying again could help.
 */
import { Worker } from "node:worker_threads";
import type { SmtpRelay } from "#server/env.ts";
import { DeliveryError } from "#server/outbox/delivery-error.ts";
import type { EmailPayload } from "#server/outbox/outbox.ts";
import type { Dkim, SendReply, SendRequest } from "#server/outbox/smtp-message.ts";

/**
 * The thread's module, beside this one: from source when this file runs from source (development,
 * tests, the benches), and as the build writes it (scripts/build.mjs) when this runs bundled.
 */
const THREAD_MODULE = new URL(
  import.meta.url.endsWith(".ts") ? "./email-thread.ts" : "./email-thread.js",
  import.meta.url,
);

export type EmailSender = {
  /**
   * `returnPath`: the envelope sender, where bounces go (a VERP address naming this message,
   * decision 041); the From address when not given.
   */
  send: (payload: EmailPayload, messageId: string, returnPath?: string) => Promise<void>;
  /** Lets the thread finish what the relay is taking, then ends it. */
  close: () => void;
};

type Waiting = { resolve: () => void; reject: (error: DeliveryError) => void };

export function createEmailSender(relay: SmtpRelay, dkim: Dkim = undefined): EmailSender {
  type Thread = { worker: Worker; waiting: Map<number, Waiting> };
  let thread: Thread | null = null;
  let seq = 0;

  const start = (): Thread => {
    const worker = new Worker(THREAD_MODULE, { workerData: { relay, dkim } });
    const started: Thread = { worker, waiting: new Map() };
    const { waiting } = started;
    /** A thread that failed or stopped answers nothing more: its sends are tried again later. */
    const abandon = (why: string) => {
      if (thread === started) thread = null;
      for (const { reject } of waiting.values()) reject(new DeliveryError(why, false));
      waiting.clear();
    };
    // An idle thread keeps no process alive; one with sends under way does (see send).
    worker.unref();
    worker.on("message", ({ seq: answered, failure }: SendReply) => {
      const sent = waiting.get(answered);
      if (!sent) return;
      waiting.delete(answered);
      if (waiting.size === 0) worker.unref();
      if (failure === null) sent.resolve();
      else
        sent.reject(
          new DeliveryError(failure.message, failure.permanent, failure.recipientRefused),
        );
    });
    worker.on("error", (error: Error) => abandon(`the mail thread failed: ${error.message}`));
    worker.on("exit", () => abandon("the mail thread stopped"));
    return started;
  };

  return {
    send(payload, messageId, returnPath) {
      const { worker, waiting } = (thread ??= start());
      const request: SendRequest = { seq: ++seq, payload, messageId, returnPath };
      return new Promise<void>((resolve, reject) => {
        waiting.set(request.seq, { resolve, reject });
        worker.ref();
        worker.postMessage(request);
      });
    },
    close() {
      thread?.worker.postMessage("close");
      thread = null;
    },
  };
}
