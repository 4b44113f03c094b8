/**
 * A real HTTPS receiver for signed webhooks (decision 046): a certificate of its own for localhost,
 * made with the TLS proxy's helper, which the site trusts through Node's NODE_EXTRA_CA_CERTS,
 * and a server that keeps every request and answers with the statuses a test lines up (200 once
 * they run out). Signatures are checked by the test with the `standardwebhooks` package.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLocalhostCertificate } from "#tests/support/tls-proxy.ts";

/**
 * This process's certificate for localhost (valid for a day: a fresh one per test process), which
 * the site's process is told to trust (NODE_EXTRA_CA_CERTS).
 */
const { keyFile: KEY, certFile: RECEIVER_CERT_FILE } = createLocalhostCertificate(
  mkdtempSync(path.join(tmpdir(), "tieout-webhook-receiver-")),
);
export const RECEIVER_CERT = RECEIVER_CERT_FILE;

export type Received = { path: string; headers: Record<string, string>; body: string };

export type WebhookReceiver = {
  url: (pathname: string) => string;
  received: Received[];
  /** Answers the next requests with these, in order: a status and its headers. */
  answer: (...next: { status: number; headers?: Record<string, string> }[]) => void;
  /** Resolves once `n` requests have come, with them. */
  waitFor: (n: number, timeoutMs?: number) => Promise<Received[]>;
  close: () => Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const queue: { status: number; headers?: Record<string, string> }[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer(
    { key: readFileSync(KEY), cert: readFileSync(RECEIVER_CERT) },
    (req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers))
          if (typeof value === "string") headers[name] = value;
        received.push({ path: req.url ?? "", headers, body });
        const next = queue.shift() ?? { status: 200 };
        res.writeHead(next.status, next.headers);
        res.end();
        for (const wake of waiters.splice(0)) wake();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathname) => `https://localhost:${port}${pathname}`,
    received,
    answer: (...next) => queue.push(...next),
    async waitFor(n, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > until)
          throw new Error(`the receiver got ${received.length} of ${n} requests`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 500);
        });
      }
      return received.slice(0, n);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
