/**
 * Email through SMTP: nodemailer's pooled transport to SMTP_URL (or to the local catcher), STARTTLS
 * whenever the relay offers it, DKIM-signed when DKIM_* is set. It runs on a thread of its own
 * (email-thread.ts, decision 051): building and sending a message never holds up a visitor's
 * request. A send resolves when the relay accepted the message, and rejects with a DeliveryError
 * that says whether trying again could help.
 */
import { Worker, type MessagePort } from "node:worker_threads";
import type { SmtpRelay } from "#server/env.ts";
import { DeliveryError } from "#server/outbox/delivery-error.ts";
import type { EmailPayload } from "#server/outbox/outbox.ts";
import type {
  Dkim,
  MarkedMail,
  SendReply,
  SendRequest,
  SequenceReply,
  SequenceRequest,
} from "#server/outbox/smtp-message.ts";

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
  /**
   * Sends mails one after another, the thread marking each sent (its `marked` statement) before
   * the next leaves (decision 063). Only with a line to the embedded database's thread; without
   * one, the outbox sends them one by one and marks them itself. Rejects, and so says nothing of
   * which mails went, only when the thread itself failed.
   */
  sendEach: ((mails: MarkedMail[]) => Promise<Omit<SequenceReply, "seq">>) | undefined;
  /** Lets the thread finish what the relay is taking, then ends it. */
  close: () => void;
};

type Waiting = {
  answered: (reply: SendReply | SequenceReply) => void;
  reject: (error: DeliveryError) => void;
};

/**
 * `statementPort`: opens a line from the mail thread to the embedded database's thread
 * (db/client.ts), so that a sequence's mails are marked sent without crossing this thread.
 */
export function createEmailSender(
  relay: SmtpRelay,
  dkim: Dkim = undefined,
  statementPort?: () => MessagePort,
): EmailSender {
  type Thread = { worker: Worker; waiting: Map<number, Waiting> };
  let thread: Thread | null = null;
  let seq = 0;

  const start = (): Thread => {
    const database = statementPort?.();
    const worker = new Worker(THREAD_MODULE, {
      workerData: { relay, dkim, database },
      transferList: database ? [database] : [],
    });
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
    worker.on("message", (reply: SendReply | SequenceReply) => {
      const asked = waiting.get(reply.seq);
      if (!asked) return;
      waiting.delete(reply.seq);
      if (waiting.size === 0) worker.unref();
      asked.answered(reply);
    });
    worker.on("error", (error: Error) => abandon(`the mail thread failed: ${error.message}`));
    worker.on("exit", () => abandon("the mail thread stopped"));
    return started;
  };

  /** Posts a request to the thread, started if need be, and resolves with its reply. */
  function ask<R extends SendReply | SequenceReply>(
    request: SendRequest | SequenceRequest,
  ): Promise<R> {
    const { worker, waiting } = (thread ??= start());
    return new Promise<R>((resolve, reject) => {
      waiting.set(request.seq, { answered: (reply) => resolve(reply as R), reject });
      worker.ref();
      worker.postMessage(request);
    });
  }

  return {
    async send(payload, messageId, returnPath) {
      const { failure } = await ask<SendReply>({ seq: ++seq, payload, messageId, returnPath });
      if (failure !== null)
        throw new DeliveryError(failure.message, failure.permanent, failure.recipientRefused);
    },
    sendEach: statementPort
      ? async (mails) => {
          const { outcomes, stopped } = await ask<SequenceReply>({ seq: ++seq, mails });
          return { outcomes, stopped };
        }
      : undefined,
    close() {
      thread?.worker.postMessage("close");
      thread = null;
    },
  };
}
