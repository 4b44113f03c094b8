/**
 * Email through SMTP: nodemailer's pooled transport to SMTP_URL (or to the local catcher), STARTTLS
 * whenever the relay offers it, DKIM-signed when DKIM_* is set.
 */
import nodemailer, { type SendMailOptions } from "nodemailer";
import type { Env, SmtpRelay } from "#server/env.ts";
import { DeliveryError } from "#server/outbox/delivery-error.ts";
import type { EmailPayload } from "#server/outbox/outbox.ts";

/** Well inside the worker's lease, so a slow relay never sees a second instance send the same row. */
const SEND_TIMEOUT_MS = 60_000;

type SmtpFailure = Error & {
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
function classify(error: SmtpFailure): DeliveryError {
  const code = error.responseCode;
  const permanent = code !== undefined && code >= 500 && code < 600 && error.code !== "EAUTH";
  const what = error.response ?? error.message;
  return new DeliveryError(
    `${error.code ?? "SMTP"}${code ? ` ${code}` : ""}: ${what}`.slice(0, 500),
    permanent,
    permanent && error.code === "EENVELOPE" && /^RCPT/i.test(error.command ?? "RCPT TO"),
  );
}

export type EmailSender = {
  /**
   * `returnPath`: the envelope sender, where bounces go (a VERP address naming this message,
   * decision 041); the From address when not given.
   */
  send: (payload: EmailPayload, messageId: string, returnPath?: string) => Promise<void>;
  close: () => void;
};

export function createEmailSender(
  relay: SmtpRelay,
  dkim: Env["mail"]["dkim"] = undefined,
): EmailSender {
  const transport = nodemailer.createTransport({
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
  });
  return {
    async send(payload, messageId, returnPath) {
      const options: SendMailOptions = {
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
          ? {
              envelope: {
                from: returnPath,
                to: payload.to.map((box) => box.address),
              },
            }
          : {}),
      };
      try {
        // nodemailer 10.5+ honours a per-message signal (its types do not list it yet).
        await transport.sendMail({ ...options, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
      } catch (error) {
        throw classify(error as SmtpFailure);
      }
    },
    close() {
      transport.close();
    },
  };
}
