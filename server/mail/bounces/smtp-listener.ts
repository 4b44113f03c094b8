/**
 * An SMTP server that receives bounces and complaints, for deployments that point an MX at the
 * site. It takes mail for the bounce address and its `+token` forms only (any other recipient is
 * refused, so it can never relay), without AUTH, up to 1 MB, and answers 250 only once the handler
 * has stored the message: a handler that throws gets a 451, and the sending MTA tries again later.
 */
import type { AddressInfo } from "node:net";
import type { FastifyBaseLogger } from "fastify";
import { SMTPServer } from "smtp-server";
import { isBounceRecipient } from "#server/mail/bounces/verp.ts";

/** Reports are small; a larger message is not one, and the sender is told at once. */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** A bounce goes to one address; a long recipient list is someone probing. */
const MAX_RECIPIENTS = 10;
const MAX_CLIENTS = 50;

export type BounceEnvelope = { mailFrom: string; rcptTo: string[] };

export type BounceListener = {
  /** The port it listens on (the one asked for, or the one given for port 0). */
  port: number;
  stop: () => Promise<void>;
};

/** An SMTP reply: smtp-server answers with the error's responseCode and message. */
function reply(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

export async function startBounceListener(options: {
  port: number;
  host: string;
  bounceAddress: string;
  log: FastifyBaseLogger;
  handle: (raw: Buffer, envelope: BounceEnvelope) => Promise<void>;
}): Promise<BounceListener> {
  const { bounceAddress, log, handle } = options;
  // Throws on a bounce address that is not plain, before anything listens.
  isBounceRecipient(bounceAddress, bounceAddress);

  const server = new SMTPServer({
    // No login: mail from the whole internet comes here, and none of it may be relayed. No
    // STARTTLS either: it would need a certificate for the MX's name, which this has not got.
    disabledCommands: ["AUTH", "STARTTLS"],
    authOptional: true,
    size: MAX_MESSAGE_BYTES,
    // 552 past the limit whatever onData says; onData also checks, to skip the handler.
    rejectOversized: true,
    maxClients: MAX_CLIENTS,
    banner: "Tieout bounce receiver",
    onRcptTo(address, session, callback) {
      if (!isBounceRecipient(address.address, bounceAddress))
        return callback(reply(550, "5.1.1 No such mailbox here; this server relays nothing"));
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS)
        return callback(reply(452, "4.5.3 Too many recipients"));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream.on("data", (chunk: Buffer) => {
        // Past the limit the rest is read (SMTP needs it) but not kept.
        bytes += chunk.length;
        if (bytes <= MAX_MESSAGE_BYTES) chunks.push(chunk);
      });
      stream.on("end", () => {
        if (stream.sizeExceeded)
          return callback(reply(552, "5.3.4 Message too big for a bounce report"));
        const envelope: BounceEnvelope = {
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
        };
        handle(Buffer.concat(chunks), envelope).then(
          () => callback(),
          (error: unknown) => {
            log.warn(
              { event: "bounces.smtp_handle_error", err: error, rcptTo: envelope.rcptTo },
              "A bounce received by SMTP could not be handled; the sender was told to try later",
            );
            callback(reply(451, "4.3.0 Try again later"));
          },
        );
      });
    },
  });
  // smtp-server re-emits its sockets' errors on itself: a client that drops must not end the site.
  server.on("error", (error) =>
    log.debug({ event: "bounces.smtp_error", err: error }, "Bounce SMTP connection error"),
  );

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.server.off("error", reject);
      resolve();
    });
  });

  return {
    port: (server.server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
