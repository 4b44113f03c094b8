/**
 * The outbox end to end (decision 022): the production build with SMTP_URL on a real
 * SMTP server on loopback, a collector (WAITLIST_FORWARD_URL) and a Slack webhook receiver (https,
 * a certificate the server is told to trust). Each new entry reaches the collector once, and each
 * confirmed entry Slack once, also when the receiver was down and the server was killed with
 * SIGKILL in between.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "#tests/support/fixtures.ts";
import { startServer } from "#tests/support/server.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";
import { createLocalhostCertificate } from "#tests/support/tls-proxy.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ mode: "serial", timeout: 90_000 });
// The mail sink is this spec's own (fixtures.ts); each test starts its servers, with the receivers'.
test.use({ ownServerEnv: {} });

type Receiver = { url: string; bodies: string[]; up: boolean; close: () => void };

function receive(server: Server, scheme: "http" | "https"): Promise<Receiver> {
  const receiver: Receiver = { url: "", bodies: [], up: true, close: () => server.close() };
  server.on("request", (req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (!receiver.up) return void res.writeHead(503).end("down");
      receiver.bodies.push(body);
      res.writeHead(200).end("ok");
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      receiver.url = `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      resolve(receiver);
    }),
  );
}

let certDir: string;
let certFile: string;
let collector: Receiver;
let slack: Receiver;
test.beforeAll(async () => {
  certDir = mkdtempSync(path.join(tmpdir(), "tieout-mail-cert-"));
  const files = createLocalhostCertificate(certDir);
  certFile = files.certFile;
  collector = await receive(createHttpServer(), "http");
  slack = await receive(
    createHttpsServer({ key: readFileSync(files.keyFile), cert: readFileSync(certFile) }),
    "https",
  );
});
test.afterAll(() => {
  collector.close();
  slack.close();
  rmSync(certDir, { recursive: true, force: true });
});

const outboxEnv = (smtp: TestSmtp) => ({
  SMTP_URL: smtp.url,
  WAITLIST_FORWARD_URL: collector.url,
  WAITLIST_FORWARD_FIELDS: "entry.1,entry.2,entry.3,entry.4",
  SLACK_WEBHOOK_URL: slack.url,
  NODE_EXTRA_CA_CERTS: certFile,
});

const post = submitToWaitlist;

/** The confirm link of the confirmation mail sent to `address`, once that mail has arrived. */
async function confirmLinkFor(smtp: TestSmtp, address: string): Promise<string> {
  const mailTo = () => smtp.received.find((mail) => mail.to.includes(address));
  await expect.poll(() => mailTo() !== undefined, { timeout: 20_000 }).toBe(true);
  const link = /https?:\/\/\S+\/waitlist\/confirm\?token=[\w-]+/.exec(mailTo()?.parsed.text ?? "");
  expect(link, `the mail to ${address} has a confirm link`).not.toBeNull();
  return link![0];
}

/** Presses the confirm page's button, as its form posts it; resolves with the status. */
async function pressConfirm(link: string): Promise<number> {
  const answer = await fetch(link, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: new URL(link).searchParams.get("token")! }).toString(),
  });
  return answer.status;
}

test("each new entry reaches the collector once and Slack not yet; its confirmation reaches Slack once, a second press nothing; SMTP_URL means no local inbox", async ({
  mailSink: smtp,
}) => {
  const server = await startServer(outboxEnv(smtp));
  try {
    expect(server.output()).not.toContain("Local inbox");
    expect(
      (await post(server.url, { name: "<!channel> Eve", email: "eve@example.com", company: "A&B" }))
        .status,
    ).toBe(202);
    expect((await post(server.url, { name: "Bob", email: "bob@example.com" })).status).toBe(202);
    expect((await post(server.url, { name: "Bob", email: "BOB@example.com" })).status).toBe(202);

    await expect.poll(() => collector.bodies.length, { timeout: 20_000 }).toBe(2);
    expect(
      new URLSearchParams(collector.bodies.find((b) => b.includes("eve"))).get("entry.3"),
    ).toBe("A&B");
    const confirmEve = await confirmLinkFor(smtp, "eve@example.com");
    // Long enough for a Slack notice to have gone out, had a new entry caused one.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(slack.bodies).toHaveLength(0);

    expect(await pressConfirm(confirmEve)).toBe(200);
    await expect.poll(() => slack.bodies.length, { timeout: 20_000 }).toBe(1);
    // The visitor's text cannot ping the channel or make a link in Slack.
    expect((JSON.parse(slack.bodies[0]!) as { text: string }).text).toBe(
      "Waitlist entry confirmed: &lt;!channel&gt; Eve &lt;eve@example.com&gt;, A&amp;B",
    );

    // The same button pressed again (another tab, the back button): the link no longer works.
    expect(await pressConfirm(confirmEve)).toBe(410);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(slack.bodies).toHaveLength(1);
    expect(collector.bodies).toHaveLength(2);
  } finally {
    await server.stop();
    collector.bodies.length = 0;
    slack.bodies.length = 0;
  }
});

test("with the receivers down, the entry and its confirmation are acknowledged at once, and survive kill -9 to arrive once after restart", async ({
  mailSink: smtp,
}) => {
  collector.up = false;
  slack.up = false;
  const first = await startServer(outboxEnv(smtp));
  const started = Date.now();
  expect((await post(first.url, { name: "Kim", email: "kim@example.com" })).status).toBe(202);
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(await pressConfirm(await confirmLinkFor(smtp, "kim@example.com"))).toBe(200);
  await new Promise((r) => setTimeout(r, 1_000));
  await first.stop("SIGKILL");

  collector.up = true;
  slack.up = true;
  const second = await startServer(outboxEnv(smtp), { dataDir: first.dataDir });
  try {
    // The failed attempt (and the killed instance's lease, if any) first has to run out.
    await expect.poll(() => collector.bodies.length, { timeout: 60_000 }).toBe(1);
    await expect.poll(() => slack.bodies.length, { timeout: 60_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(collector.bodies).toHaveLength(1);
    expect(slack.bodies).toHaveLength(1);
  } finally {
    await second.stop();
  }
});

test("without SMTP_URL the server starts a local inbox on loopback and prints its address", async () => {
  const server = await startServer({});
  try {
    const line = /Local inbox at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output());
    expect(line).not.toBeNull();
    const page = await fetch(line![1]!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Nothing here left this machine");
  } finally {
    await server.stop();
  }
});
