/**
 * A real SMTP server on loopback for tests (smtp-server, no mock transport): it keeps what it
 * accepted, and can be told to answer a message with a temporary (451) or permanent (550) refusal,
 * to refuse some recipients for good (550 at RCPT TO), to require a login, or to be down.
 */
import { createServer, type AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

type SmtpAnswer = "accept" | "temporary" | "permanent";

type ReceivedMail = { from: string; to: string[]; raw: string; parsed: ParsedMail };

export type TestSmtp = {
  /** smtp://127.0.0.1:port (with user:password@ when a login is required). */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Every DATA the server was offered, accepted or not. */
  offered: () => number;
  /** How to answer the next messages: by their number among those offered (0 first). */
  answer: (decide: (offered: number) => SmtpAnswer) => void;
  close: () => Promise<void>;
};

export async function startTestSmtp(
  options: {
    login?: { user: string; pass: string };
    acceptPassword?: string;
    /** Addresses the server has no mailbox for: refused at RCPT TO with a 550. */
    noSuchUser?: (address: string) => boolean;
  } = {},
): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  let offered = 0;
  let decide: (offered: number) => SmtpAnswer = () => "accept";
  const server = new SMTPServer({
    disabledCommands: options.login ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    authOptional: !options.login,
    // Plain-text AUTH on loopback without TLS: this is a test relay.
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      const password = options.acceptPassword ?? options.login?.pass;
      if (auth.username === options.login?.user && auth.password === password)
        return callback(null, { user: auth.username });
      callback(new Error("Authentication credentials invalid"));
    },
    onRcptTo(address, _session, callback) {
      if (!options.noSuchUser?.(address.address)) return callback();
      const refusal = new Error("5.1.1 No such user here") as Error & { responseCode: number };
      refusal.responseCode = 550;
      callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const answer = decide(offered++);
        if (answer !== "accept") {
          const refusal = new Error(
            answer === "temporary" ? "Try again later" : "Mailbox unavailable",
          ) as Error & { responseCode: number };
          refusal.responseCode = answer === "temporary" ? 451 : 550;
          return callback(refusal);
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw).then(
          (parsed) => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  const login = options.login
    ? `${encodeURIComponent(options.login.user)}:${encodeURIComponent(options.login.pass)}@`
    : "";
  return {
    url: `smtp://${login}127.0.0.1:${port}`,
    port,
    received,
    offered: () => offered,
    answer(next) {
      decide = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port with nothing listening on it: a relay that is down. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
