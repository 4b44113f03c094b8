/**
 * The local inbox: without SMTP_URL, start-up runs a real SMTP server on loopback that keeps what
 * it receives in memory (the newest few hundred) and a small page that lists it, and the outbox
 * sends there. Nothing it catches goes any further. Started from the configuration the way the
 * Auth emulator is (server/identity/auth-emulator.ts), by the production server and by `npm run dev`.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { Env, SmtpRelay } from "#server/env.ts";

const KEEP = 200;
const MAX_MESSAGE_BYTES = 5 * 1024 * 1024;
const HOST = "127.0.0.1";

type Caught = {
  id: string;
  receivedAt: Date;
  envelopeFrom: string;
  envelopeTo: string[];
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | undefined;
  raw: string;
};

export type MailCatcher = {
  relay: SmtpRelay;
  /** The inbox page. */
  url: string;
  messages: () => readonly Caught[];
  stop: () => Promise<void>;
};

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}
pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem}</style></head>
<body>${body}</body></html>`;
}

function listPage(messages: readonly Caught[]): string {
  const rows = messages
    .map(
      (m) =>
        `<tr><td>${escape(m.receivedAt.toISOString().replace("T", " ").slice(0, 19))}</td>` +
        `<td>${escape(m.to)}</td><td><a href="/messages/${m.id}">${escape(m.subject || "(no subject)")}</a></td></tr>`,
    )
    .join("\n");
  return page(
    "Local inbox",
    `<h1>Local inbox</h1><p>Mail the site sent while no SMTP_URL is set. Nothing here left this machine.</p>` +
      (messages.length === 0
        ? "<p>No mail yet.</p>"
        : `<table><thead><tr><th>Received (UTC)</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`),
  );
}

function messagePage(m: Caught): string {
  return page(
    m.subject || "(no subject)",
    `<p><a href="/">All mail</a></p><h1>${escape(m.subject || "(no subject)")}</h1>
<dl><dt>From</dt><dd>${escape(m.from)}</dd><dt>To</dt><dd>${escape(m.to)}</dd>
<dt>Envelope</dt><dd>${escape(m.envelopeFrom)} to ${escape(m.envelopeTo.join(", "))}</dd></dl>
<h2>Text</h2><pre>${escape(m.text)}</pre>
${m.html === undefined ? "" : `<h2>HTML source</h2><pre>${escape(m.html)}</pre>`}
<h2>Raw message</h2><pre>${escape(m.raw)}</pre>`,
  );
}

/** The inbox page is for the person at this machine: no scripts, no framing, nothing cached. */
const HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

/** Listens on the port asked for, or, when it is taken (another local server), on any free one. */
async function listenOnLoopback(
  listen: (port: number, onError: (error: Error) => void, onListening: () => void) => void,
  port: number,
): Promise<void> {
  const attempt = (p: number) => new Promise<void>((resolve, reject) => listen(p, reject, resolve));
  try {
    await attempt(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    await attempt(0);
  }
}

export async function startMailCatcher(ports: {
  smtpPort: number;
  webPort: number;
}): Promise<MailCatcher> {
  const caught: Caught[] = [];
  const smtp = new SMTPServer({
    // Loopback only, no login, no TLS: it is this machine talking to itself.
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    size: MAX_MESSAGE_BYTES,
    banner: "Tieout local inbox",
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (stream.sizeExceeded)
          return callback(new Error("Message too large for the local inbox"));
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw).then(
          (parsed) => {
            caught.unshift({
              id: randomUUID(),
              receivedAt: new Date(),
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              from: parsed.from?.text ?? "",
              to: [parsed.to ?? []]
                .flat()
                .map((a) => a.text)
                .join(", "),
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
              html: typeof parsed.html === "string" ? parsed.html : undefined,
              raw,
            });
            caught.length = Math.min(caught.length, KEEP);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await listenOnLoopback((port, onError, onListening) => {
    // smtp-server re-emits its socket's errors on itself.
    smtp.once("error", onError);
    smtp.listen(port, HOST, () => {
      smtp.off("error", onError);
      onListening();
    });
  }, ports.smtpPort);
  // A client that drops its connection must not take the site down with it.
  smtp.on("error", () => {});

  const web: Server = createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/") {
      res.writeHead(200, HEADERS).end(listPage(caught));
      return;
    }
    const found = /^\/messages\/([0-9a-f-]{36})$/.exec(path ?? "");
    const message = found && caught.find((m) => m.id === found[1]);
    if (message) res.writeHead(200, HEADERS).end(messagePage(message));
    else res.writeHead(404, HEADERS).end(page("Not found", "<p>No such message.</p>"));
  });
  await listenOnLoopback((port, onError, onListening) => {
    web.once("error", onError);
    web.listen(port, HOST, () => {
      web.off("error", onError);
      onListening();
    });
  }, ports.webPort);

  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const webPort = (web.address() as AddressInfo).port;
  return {
    relay: {
      host: HOST,
      port: smtpPort,
      secure: false,
      auth: undefined,
      display: `smtp://${HOST}:${smtpPort}`,
    },
    url: `http://${HOST}:${webPort}`,
    messages: () => caught,
    async stop() {
      web.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => web.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ]);
    },
  };
}

/** Start-up's mail step: with SMTP_URL nothing; without it, the local inbox, announced. */
export async function startLocalInboxFor(
  env: Env,
): Promise<{ localRelay: SmtpRelay | undefined; stop: () => Promise<void> }> {
  if (env.mail.relay) return { localRelay: undefined, stop: () => Promise.resolve() };
  const catcher = await startMailCatcher(env.mail.catcher);
  console.log(
    `Local inbox at ${catcher.url} (no SMTP_URL: the site's mail is caught here and never leaves this machine)`,
  );
  return { localRelay: catcher.relay, stop: catcher.stop };
}
