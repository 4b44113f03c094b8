/**
 * What mail costs the waitlist, and how the outbox delivers (decision 022), for `npm run bench`:
 * 1. Acknowledged submissions per second, the same number of new addresses each time, to a server
 *    without mail (no relay: the confirmation mails wait in the outbox) and to one whose outbox
 *    delivers to a real SMTP server on loopback while the submissions arrive.
 * 2. Delivery throughput: the first server's waiting mails, sent through the pooled transport
 *    when it is restarted with a relay.
 * 3. kill -9 in the middle of that delivery, then a restart: how many mails never arrived and how
 *    many arrived twice (a repeat carries the same Message-ID, so a receiver can drop it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { SMTPServer } from "smtp-server";
import { listenSmtpSink } from "./smtp-sink.ts";
import { benchServerEnv } from "./server-env.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PORT = 3260;
const BASE = `http://127.0.0.1:${PORT}`;
const SUBMISSIONS = 10_000;
/** The delivery is cut by kill -9 once this share of the mails has arrived. */
const KILL_AT = 0.4;

export type MailFigures = {
  submissions: number;
  withoutMail: number;
  withMail: number;
  deliveredBeforeKill: number;
  deliveryPerSecond: number;
  lost: number;
  doubled: number;
};

/** A real SMTP server that accepts everything and counts each Message-ID it is given. */
async function startSink() {
  const seen = new Map<string, number>();
  let total = 0;
  let first = 0;
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      let head = "";
      stream.on("data", (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString("latin1");
      });
      stream.on("end", () => {
        const id = /^Message-ID:\s*(\S+)/im.exec(head)?.[1] ?? `missing-${total}`;
        seen.set(id, (seen.get(id) ?? 0) + 1);
        if (total++ === 0) first = performance.now();
        callback();
      });
    },
  });
  const sink = await listenSmtpSink(server);
  return {
    url: sink.url,
    total: () => total,
    unique: () => seen.size,
    firstAt: () => first,
    close: sink.close,
  };
}

function startServer(dataDir: string, smtpUrl?: string): ChildProcess {
  return spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "scripts/bench/mail-server.ts")],
    {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...benchServerEnv(PORT, dataDir), SMTP_URL: smtpUrl ?? "" },
    },
  );
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Mail bench: ${what} did not happen in time`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const answers = async () => {
  try {
    return (await fetch(`${BASE}/api/health`)).ok;
  } catch {
    return false;
  }
};

async function stop(server: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill(signal);
  await exited;
}

/** Submissions per second for SUBMISSIONS new addresses from 40 clients; all must be 202. */
async function submit(label: string): Promise<number> {
  let counter = 0;
  const result = await autocannon({
    url: `${BASE}/api/waitlist`,
    connections: 40,
    amount: SUBMISSIONS,
    method: "POST",
    headers: { "content-type": "application/json" },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            name: `Mail bench ${counter}`,
            email: `mail-bench-${label}-${counter++}@example.com`,
          }),
        }),
      },
    ],
  });
  if (result["2xx"] !== SUBMISSIONS)
    throw new Error(`Mail bench: ${result["2xx"]} of ${SUBMISSIONS} submissions acknowledged`);
  return SUBMISSIONS / (result.duration || 1);
}

export async function benchMail(): Promise<MailFigures> {
  const waitingDir = mkdtempSync(path.join(tmpdir(), "tieout-mail-bench-"));
  const deliveringDir = mkdtempSync(path.join(tmpdir(), "tieout-mail-bench-"));
  const live = await startSink();
  const later = await startSink();
  let server: ChildProcess | undefined;
  try {
    // 1. Without mail, then with the outbox delivering while the submissions arrive.
    server = startServer(waitingDir);
    await until(answers, 60_000, "the server without mail answering");
    const withoutMail = await submit("waiting");
    await stop(server);

    server = startServer(deliveringDir, live.url);
    await until(answers, 60_000, "the server with mail answering");
    const withMail = await submit("live");
    await until(() => live.unique() >= SUBMISSIONS, 300_000, "the live delivery");
    await stop(server);

    // 2 and 3. The waiting mails, delivered by a restart with a relay, cut by kill -9 part way.
    server = startServer(waitingDir, later.url);
    await until(() => later.total() >= SUBMISSIONS * KILL_AT, 300_000, "delivery up to the kill");
    await stop(server, "SIGKILL");
    const deliveredBeforeKill = later.total();
    const deliveryPerSecond = deliveredBeforeKill / ((performance.now() - later.firstAt()) / 1000);
    server = startServer(waitingDir, later.url);
    // Rows the killed instance had leased wait for their lease (5 minutes) before another
    // instance sends them; the bench waits for every one.
    await until(() => later.unique() >= SUBMISSIONS, 420_000, "delivery after the restart");
    await new Promise((r) => setTimeout(r, 2_000));
    await stop(server);
    server = undefined;

    return {
      submissions: SUBMISSIONS,
      withoutMail,
      withMail,
      deliveredBeforeKill,
      deliveryPerSecond,
      lost: SUBMISSIONS - later.unique(),
      doubled: later.total() - later.unique(),
    };
  } finally {
    if (server && server.exitCode === null) await stop(server, "SIGKILL");
    await live.close();
    await later.close();
    rmSync(waitingDir, { recursive: true, force: true });
    rmSync(deliveringDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchMail());
