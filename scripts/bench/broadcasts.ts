/**
 * Broadcasts at scale (issue 36, decision 041), for `npm run bench`, in one run:
 * 1. Fixing the recipients: `start` on an embedded database with 100,000 confirmed entries (one
 *    INSERT … SELECT), median of 3, a new broadcast each time.
 * 2. Delivery at the configured rate: the real server (scripts/bench/broadcast-server.ts) sends a
 *    10,000-recipient broadcast at BROADCAST_RATE_PER_MINUTE to a real SMTP server on loopback;
 *    mails received per minute over a steady window.
 * 3. What that costs a visitor: the home page under the same load while a broadcast sends and
 *    while it is paused, in rounds alternated, the p99 of every answer of each side's rounds (the
 *    median of the rounds' own p99s beside it): as fast as the server answers, and at a steady 200
 *    requests/s with the server's longest event-loop stall. At the default rate, on a server of
 *    its own (the target, with what one mail costs the server's CPU), and at the 3,000 a minute of
 *    step 2 (information: ten times the default, where the embedded database's share of the one
 *    thread shows).
 * 4. kill -9 in the middle of that send, with a mail on the wire, then a restart: per recipient
 *    address, how many never got the mail and how many got it twice.
 *
 * `NODE_ENV=production npm exec -- node --import tsx scripts/bench/broadcasts.ts [--small]` runs
 * it alone (after a build), on the pinned Node 24: the server's mail thread loads its TypeScript
 * from source, which Node 20 cannot (decision 051). With `--visitors`, step 3 at the default rate
 * alone; with `--visitors --control`, the same with the broadcast paused on both sides: what the
 * comparison reads when nothing differs; `--rounds N` sets how many rounds of each. With `--per-mail`, one mail's CPU alone, three times.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { pooledP99Ratio } from "./pooled-p99.ts";
import type { BenchToSink, SinkToBench } from "./broadcast-sink-thread.ts";
import { openDatabase, queryRows, type Db } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import { openMail } from "#server/broadcasts/mail-service.ts";
import type { BenchAnswer, BenchRequest } from "./broadcast-server.ts";
import { benchServerEnv } from "./server-env.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PORT = 4610;
const BASE = `http://127.0.0.1:${PORT}`;
const RATE_PER_MINUTE = 3000;
/** The steady load of the information figure: well under what the server answers on this machine. */
const VISITORS_PER_SECOND = 200;
const ACTOR = { adminEmail: "bench@example.com", clientAddress: "127.0.0.1" };
const SUBJECT = "What is new on the Tieout waitlist";
const BODY = `Hello from **Tieout**.

We open the beta to firms in [Texas](https://tieout.example/texas) next week:

- Bring a trial balance
- Bring a question or two

Thank you for waiting with us.`;
/** A person's browser, as bench.ts presents itself, so that each request is a counted view. */
const PERSON =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36";

const BROADCAST_TARGETS = {
  /** Seconds to fix 100,000 recipients. */
  startSeconds: 5,
  /** Mails received per minute, within this share of the configured rate. */
  rateTolerance: 0.05,
  /** The home page's p99 while a broadcast sends, over the same load without it. */
  p99Ratio: 1.1,
};

export type BroadcastSizes = {
  /** Confirmed entries the timed `start` fixes as recipients. */
  startEntries: number;
  /** Recipients of the broadcast the server sends (and is killed in the middle of). */
  sendRecipients: number;
  /** The steady window over which the rate is measured, seconds. */
  rateWindowSeconds: number;
  /**
   * Recipients of the broadcast sent at the default rate while visitors load the home page (more
   * when the rounds need them, so the send never ends before the last round).
   */
  defaultRecipients: number;
  /** Rounds of visitor load, each once while sending and once while paused. */
  loadRounds: number;
  loadSeconds: number;
};

export const FULL_SIZES: BroadcastSizes = {
  startEntries: 100_000,
  sendRecipients: 10_000,
  defaultRecipients: 2_000,
  rateWindowSeconds: 60,
  loadRounds: 9,
  loadSeconds: 5,
};

/** For working on this file: the same steps, small. */
const SMALL_SIZES: BroadcastSizes = {
  startEntries: 1_000,
  sendRecipients: 3_000,
  defaultRecipients: 500,
  rateWindowSeconds: 10,
  loadRounds: 2,
  loadSeconds: 3,
};

export type BroadcastFigures = {
  startEntries: number;
  /** `start` with startEntries recipients, each run and the median, ms. */
  startRuns: number[];
  startMs: number;
  /** The CPU time of `start`, median: what it costs on a machine nobody else uses. */
  startCpuMs: number;
  ratePerMinute: number;
  /** Mails received per minute over the steady window, and how many that was. */
  receivedPerMinute: number;
  windowMails: number;
  windowSeconds: number;
  /** Mails the pump handed the outbox per minute over about the same window. */
  handedPerMinute: number;
  /** The server's CPU time over that window, as a share of one core. */
  serverCpuShare: number;
  /** A visitor's p99 at BROADCAST_RATE_PER_MINUTE's default (the target), and at ratePerMinute. */
  atDefault: VisitorFigures;
  atStress: VisitorFigures;
  sendRecipients: number;
  /** Mails received when the server was killed, and the outbox rows it had leased then. */
  receivedAtKill: number;
  leasedAtKill: number;
  lost: number;
  /** Recipients who received the mail more than once, and the extra mails. */
  twice: number;
  extraMails: number;
  seconds: number;
};

/** The home page under load while a broadcast sends and while it is paused. */
type VisitorFigures = {
  ratePerMinute: number;
  /** The home page's p99 per round, sending and paused, and their medians, ms. */
  p99Sending: number[];
  p99Idle: number[];
  p99SendingMs: number;
  p99IdleMs: number;
  /** The p99 of every answer of every round, sending and paused, ms. */
  pooledP99SendingMs: number;
  pooledP99IdleMs: number;
  /** A 90% interval for their ratio, the rounds drawn again in pairs (scripts/bench/pooled-p99.ts). */
  pooledRatioLow: number;
  pooledRatioHigh: number;
  /** Requests per second the same load got while sending and while paused (medians). */
  rpsSending: number;
  rpsIdle: number;
  /** The same, at a steady VISITORS_PER_SECOND (medians of rounds), ms. */
  steadyP99SendingMs: number;
  steadyP99IdleMs: number;
  /** The server's longest event-loop stall during that steady load, sending and paused (medians). */
  loopMaxSendingMs: number;
  loopMaxIdleMs: number;
  /** Paused rounds whose outbox still held mail (a machine too busy to keep up): should be 0. */
  idleWithMail: number;
  /**
   * Mails the relay received a minute during the sending rounds' loads: a send that fell behind
   * under load would cost the visitors less than one that keeps its rate, so this is shown beside
   * the p99 (the rate is a ceiling, and a mail a turn late is still on time over the round).
   */
  mailsPerMinuteSending: number;
  /** What one mail cost the server with no visitors, ms of CPU (at the default rate). */
  perMail?: { mails: number; mainMs: number; allMs: number };
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
/** A time to a tenth of a millisecond, as printed. */
const ms1 = (ms: number) => ms.toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The CPU time a process has used so far, user and system, in milliseconds (Linux). */
function cpuOf(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
}

async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  everyMs = 50,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Broadcast bench: ${what} did not happen in time`);
    await sleep(everyMs);
  }
}

/** Confirmed entries that waitlist news reaches, `bench-<i>@example.com`. */
async function seedEntries(db: Db, n: number) {
  await db.execute(sql`
    INSERT INTO waitlist_entries (name, email, company, created_at, state, confirmed_at)
    SELECT 'Bench ' || i, 'bench-' || i || '@example.com', 'Bench LLP',
      now() - make_interval(secs => i), 'confirmed', now() - make_interval(secs => i)
    FROM generate_series(1, ${n}) AS i`);
  await db.execute(sql`ANALYZE`);
}

/**
 * 1. `start` on `entries` confirmed entries, three new broadcasts, each timed, with the CPU time
 * it took (the embedded database runs in this thread): on a busy machine the two part.
 */
async function timeStart(entries: number): Promise<{ wall: number; cpu: number }[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tieout-broadcast-bench-"));
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await seedEntries(database.db, entries);
    const { broadcasts } = openMail({
      db: database.db,
      env: parseEnv(benchServerEnv(PORT, dataDir)),
      log: pino({ level: "silent" }),
      secrets: ["the broadcast bench's key, 32 characters or more"],
      onEnqueued: () => {},
    });
    const runs: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await broadcasts.create(
        {
          kind: "waitlist-news",
          subject: SUBJECT,
          body: BODY,
          audience: { states: ["confirmed"], search: "" },
        },
        ACTOR,
      );
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const started = await broadcasts.start(id, ACTOR);
      const cpu = process.cpuUsage(cpu0);
      runs.push({ wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 });
      if (!started.ok || started.recipients !== entries)
        throw new Error(`Broadcast bench: start fixed ${JSON.stringify(started)}`);
    }
    return runs;
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A real SMTP server that accepts everything and counts the mails each recipient received, on a
 * thread of its own at the lowest priority (scripts/bench/broadcast-sink-thread.ts: the relay is
 * another machine in a deployment). Told to, it interrupts the sender when a given number of mails
 * has arrived: the next mail's data is in, its acceptance not yet given, and the sender's other
 * rows of that batch are leased.
 */
async function startSink() {
  const perRecipient = new Map<string, number>();
  const arrivals: number[] = [];
  let interruption: (() => void) | null = null;
  const thread = new Worker(new URL("./broadcast-sink-thread.ts", import.meta.url));
  const post = (message: BenchToSink) => thread.postMessage(message);
  const closed = new Promise<void>((resolve) =>
    thread.on("message", (m: SinkToBench) => m.type === "closed" && resolve()),
  );
  const listening = await new Promise<{ url: string; lowered: boolean }>((resolve, reject) => {
    thread.once("error", reject);
    thread.on("message", (message: SinkToBench) => {
      switch (message.type) {
        case "listening":
          resolve(message);
          break;
        case "arrival":
          for (const address of message.to)
            perRecipient.set(address, (perRecipient.get(address) ?? 0) + 1);
          arrivals.push(message.at - performance.timeOrigin);
          break;
        case "interrupting":
          interruption?.();
          interruption = null;
          post({ type: "go-on" });
          break;
      }
    });
  });
  if (!listening.lowered)
    console.log("Broadcast bench: the relay's thread could not yield the CPU on this system");
  return {
    url: listening.url,
    perRecipient,
    arrivals,
    interruptAt(at: number, then: () => void) {
      interruption = then;
      post({ type: "interrupt-at", at });
    },
    async close() {
      post({ type: "close" });
      await closed;
      await thread.terminate();
    },
  };
}

/**
 * The server, started again should it stop before listening: on a machine other work crowds, a
 * plugin can miss Fastify's start-up timeout, which is not what this bench measures.
 */
async function startServer(dataDir: string, smtpUrl: string, ratePerMinute = RATE_PER_MINUTE) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(dataDir, smtpUrl, ratePerMinute);
    } catch (error) {
      if (attempt === 3) throw error;
      console.log(
        `Broadcast bench: the server did not start (${String(error)}); starting it again`,
      );
    }
  }
}

/** The site's server on `dataDir`, delivering to `smtpUrl`, and a way to ask it for things. */
async function startServerOnce(dataDir: string, smtpUrl: string, ratePerMinute: number) {
  const child: ChildProcess = fork(path.join(ROOT, "scripts/bench/broadcast-server.ts"), [], {
    cwd: ROOT,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    env: {
      ...benchServerEnv(PORT, dataDir),
      SMTP_URL: smtpUrl,
      BROADCAST_RATE_PER_MINUTE: String(ratePerMinute),
      LOG_LEVEL: "warn",
    },
  });
  let seq = 0;
  const waiting = new Map<number, (answer: BenchAnswer) => void>();
  child.on("message", (message: BenchAnswer & { seq: number }) => {
    waiting.get(message.seq)?.(message);
    waiting.delete(message.seq);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await Promise.race([
    new Promise<void>((resolve) => waiting.set(0, () => resolve())),
    exited.then(() => {
      throw new Error("Broadcast bench: the server stopped before it listened");
    }),
  ]);
  return {
    pid: child.pid!,
    async ask(request: BenchRequest): Promise<BenchAnswer> {
      const answer = new Promise<BenchAnswer>((resolve) => waiting.set(++seq, resolve));
      child.send({ ...request, seq });
      const reply = await answer;
      if (!reply.ok) throw new Error(`Broadcast bench: ${request.op}: ${JSON.stringify(reply)}`);
      return reply;
    },
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}

/** A load's result, with every answer's time (ms, sorted) and their p99. */
type LoadResult = autocannon.Result & { p99: number; times: number[] };

/** The p99 of times sorted ascending: the time 99 in 100 answers took at most. */
const p99Of = (sorted: number[]) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? NaN;

/**
 * The home page under load (40 connections, as fast as it answers, a person's browser, so each
 * answer is a counted view), or at a steady `perSecond` from 10 connections, in its own thread: the
 * SMTP server counting mails in this one must not slow the client's clock. With it, `p99`: the p99
 * of every answer's time as measured, to the microsecond. autocannon's own keeps whole
 * milliseconds, and at a p99 of 9 ms one millisecond is the whole margin of the 1.1 target.
 *
 * Asked without compression, unlike bench.ts: autocannon appends every body to a string, and
 * brotli's bytes, which are not text, take it about eight times as long as the page's text
 * (measured 2026-12-06: 4,951 against 41,343 answers a second from a bare server sending the same
 * 9,977 bytes either way). With brotli the client, not the server, is the limit, and a send's cost
 * to the server hardly shows (decision 054).
 */
function loadHome(seconds: number, perSecond?: number) {
  return new Promise<LoadResult>((resolve, reject) => {
    const worker = new Worker(
      // Outside the main thread autocannon leaves its result raw: aggregated here, as it would be.
      `const { workerData, parentPort } = require("node:worker_threads");
      const autocannon = require(workerData.autocannon);
      const options = { url: workerData.url, duration: workerData.seconds, headers: workerData.headers,
        ...(workerData.perSecond ? { connections: 10, overallRate: workerData.perSecond } : { connections: 40 }) };
      const times = [];
      const instance = autocannon(options, (error, result) => {
        times.sort((a, b) => a - b);
        parentPort.postMessage(error ? { error: String(error) } : { result: { ...autocannon.aggregateResult([result], options), times } });
      });
      instance.on("response", (client, status, bytes, ms) => { if (status >= 200 && status < 300) times.push(ms); });`,
      {
        eval: true,
        workerData: {
          url: `${BASE}/`,
          seconds,
          perSecond,
          headers: { "user-agent": PERSON },
          autocannon: createRequire(import.meta.url).resolve("autocannon"),
        },
      },
    );
    worker.once("message", (m: { error?: string; result?: Omit<LoadResult, "p99"> }) => {
      void worker.terminate();
      if (m.result) resolve({ ...m.result, p99: p99Of(m.result.times) });
      else reject(new Error(m.error ?? "the load failed"));
    });
    worker.once("error", reject);
  });
}

/**
 * The home page's p99 under the same load while `server` sends broadcast `broadcastId` and while
 * it is paused, alternated, the order turning each round; the send is left running.
 */
async function visitorsDuring(
  server: Awaited<ReturnType<typeof startServer>>,
  broadcastId: number,
  sizes: BroadcastSizes,
  ratePerMinute: number,
  sink: Awaited<ReturnType<typeof startSink>>,
  control = false,
): Promise<VisitorFigures> {
  await loadHome(2);
  const phase = () => ({
    p99: [] as number[],
    times: [] as number[][],
    rps: [] as number[],
    steadyP99: [] as number[],
    loopMax: [] as number[],
  });
  const sendingPhase = phase();
  const idlePhase = phase();
  let paused = false;
  /** Rounds "paused" whose outbox still held mail when the load began. */
  let idleWithMail = 0;
  let mailsSending = 0;
  let secondsSending = 0;
  const measure = async (phaseSending: boolean) => {
    const sending = phaseSending && !control;
    if (paused === sending) {
      await server.ask({ op: sending ? "resume" : "pause", id: broadcastId });
      paused = !sending;
    }
    // Paused, nothing runs once the outbox has sent what it held (within a second at this rate,
    // unless the machine is too busy to keep up: then a round waits for it, a while); resumed,
    // the first turn comes within a second.
    if (sending) await sleep(1_500);
    else {
      const deadline = performance.now() + 90_000;
      while ((await server.ask({ op: "progress", id: broadcastId })).pending !== 0) {
        if (performance.now() > deadline) {
          idleWithMail++;
          break;
        }
        await sleep(250);
      }
    }
    const into = phaseSending ? sendingPhase : idlePhase;
    const receivedBefore = sink.arrivals.length;
    const full = await loadHome(sizes.loadSeconds);
    if (phaseSending) {
      mailsSending += sink.arrivals.length - receivedBefore;
      secondsSending += full.duration;
    }
    into.p99.push(full.p99);
    into.times.push(full.times);
    into.rps.push(full.requests.total / full.duration);
    await server.ask({ op: "loop" });
    const steady = await loadHome(sizes.loadSeconds, VISITORS_PER_SECOND);
    into.steadyP99.push(steady.latency.p99);
    into.loopMax.push(Number((await server.ask({ op: "loop" })).max));
  };
  for (let round = 0; round < sizes.loadRounds; round++) {
    // The order turns each round, and the send is left running at the end.
    if (round % 2 === 0) {
      await measure(false);
      await measure(true);
    } else {
      await measure(true);
      await measure(false);
    }
  }
  if (paused) await server.ask({ op: "resume", id: broadcastId });
  const interval = pooledP99Ratio(sendingPhase.times, idlePhase.times);
  const figures: VisitorFigures = {
    ratePerMinute,
    p99Sending: sendingPhase.p99,
    p99Idle: idlePhase.p99,
    p99SendingMs: median(sendingPhase.p99),
    p99IdleMs: median(idlePhase.p99),
    pooledP99SendingMs: p99Of(sendingPhase.times.flat().sort((a, b) => a - b)),
    pooledP99IdleMs: p99Of(idlePhase.times.flat().sort((a, b) => a - b)),
    pooledRatioLow: interval.low,
    pooledRatioHigh: interval.high,
    rpsSending: median(sendingPhase.rps),
    rpsIdle: median(idlePhase.rps),
    steadyP99SendingMs: median(sendingPhase.steadyP99),
    steadyP99IdleMs: median(idlePhase.steadyP99),
    loopMaxSendingMs: median(sendingPhase.loopMax),
    loopMaxIdleMs: median(idlePhase.loopMax),
    idleWithMail,
    mailsPerMinuteSending: secondsSending > 0 ? (mailsSending / secondsSending) * 60 : 0,
  };
  // Each round's two sides ran one after the other, on the machine as it was then.
  const roundRatios = sendingPhase.p99.map((p99, i) => p99 / idlePhase.p99[i]!);
  console.log(
    `Each round's ratio, sending / paused: ${roundRatios.map((r) => r.toFixed(2)).join(", ")}; their median ${median(roundRatios).toFixed(2)}`,
  );
  console.log(
    `Home p99 while a broadcast sends at ${ratePerMinute}/min / paused: ${ms1(figures.p99SendingMs)} / ${ms1(figures.p99IdleMs)} ms = ${(figures.p99SendingMs / figures.p99IdleMs).toFixed(2)} (rounds: ${figures.p99Sending.map(ms1).join(", ")} / ${figures.p99Idle.map(ms1).join(", ")}); every answer of the rounds: ${ms1(figures.pooledP99SendingMs)} / ${ms1(figures.pooledP99IdleMs)} ms = ${(figures.pooledP99SendingMs / figures.pooledP99IdleMs).toFixed(2)} (90%: ${interval.low.toFixed(2)} to ${interval.high.toFixed(2)}); at ${VISITORS_PER_SECOND} requests/s: ${figures.steadyP99SendingMs} / ${figures.steadyP99IdleMs} ms = ${(figures.steadyP99SendingMs / figures.steadyP99IdleMs).toFixed(2)}, the event loop held up at most ${Math.round(figures.loopMaxSendingMs)} / ${Math.round(figures.loopMaxIdleMs)} ms`,
  );
  return figures;
}

/**
 * What one mail of a send costs the server, with no visitors: CPU time over `seconds` sending and
 * `seconds` paused (the same server, the same broadcast), the difference over the mails received,
 * on the thread that answers visitors and in the whole process (the mail thread's work too).
 */
async function cpuPerMail(
  server: Awaited<ReturnType<typeof startServer>>,
  broadcastId: number,
  sink: Awaited<ReturnType<typeof startSink>>,
  seconds: number,
) {
  type ThreadCpu = { id: number; name: string; nice: number; ms: number };
  const cpu = async () => {
    const answer = await server.ask({ op: "cpu" });
    return {
      main: Number(answer.main),
      all: Number(answer.all),
      threads: answer.threads as ThreadCpu[],
    };
  };
  await server.ask({ op: "pause", id: broadcastId });
  while ((await server.ask({ op: "progress", id: broadcastId })).pending !== 0) await sleep(250);
  const idleFrom = await cpu();
  await sleep(seconds * 1000);
  const idleTo = await cpu();
  await server.ask({ op: "resume", id: broadcastId });
  await sleep(1_500);
  const mailsFrom = sink.arrivals.length;
  const sendFrom = await cpu();
  await sleep(seconds * 1000);
  const sendTo = await cpu();
  const mails = sink.arrivals.length - mailsFrom;
  const per = (key: "main" | "all") =>
    (sendTo[key] - sendFrom[key] - (idleTo[key] - idleFrom[key])) / mails;
  const used = (from: ThreadCpu[], to: ThreadCpu[]) =>
    new Map(to.map((t) => [t.id, t.ms - (from.find((f) => f.id === t.id)?.ms ?? 0)]));
  const idleUsed = used(idleFrom.threads, idleTo.threads);
  const sendUsed = used(sendFrom.threads, sendTo.threads);
  const byThread = sendTo.threads
    .map((t) => ({
      thread: `${t.name}#${t.id}${t.nice ? ` nice ${t.nice}` : ""}`,
      ms: ((sendUsed.get(t.id) ?? 0) - (idleUsed.get(t.id) ?? 0)) / mails,
    }))
    .filter((t) => Math.abs(t.ms) >= 0.05);
  console.log(
    `One mail's CPU by thread: ${byThread.map((t) => `${t.thread} ${t.ms.toFixed(2)} ms`).join(", ")}`,
  );
  return { mails, mainMs: per("main"), allMs: per("all") };
}

/**
 * A visitor's p99 at BROADCAST_RATE_PER_MINUTE's default: a server of its own, sending to entries
 * of its own. With `control`, the "sending" rounds leave the broadcast paused too: what the same
 * comparison gives when nothing differs, the bench's own noise.
 */
async function visitorsAtDefaultRate(
  sink: Awaited<ReturnType<typeof startSink>>,
  sizes: BroadcastSizes,
  control = false,
): Promise<VisitorFigures> {
  const defaultRate = parseEnv({}).broadcastRatePerMinute;
  const quietDir = mkdtempSync(path.join(tmpdir(), "tieout-broadcast-bench-"));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const database = await openDatabase({ dataDir: quietDir, databaseUrl: undefined });
    // Enough people that the send outlasts the CPU reading and every round's sending half (the
    // resume's wait, the full load, the steady load), twice over.
    const sendingSeconds = sizes.loadSeconds * 2 + sizes.loadRounds * (2 + sizes.loadSeconds * 2);
    const needed = Math.ceil(((defaultRate / 60) * sendingSeconds * 2) / 100) * 100;
    await seedEntries(database.db, Math.max(sizes.defaultRecipients, needed));
    await database.close();
    server = await startServer(quietDir, sink.url, defaultRate);
    const received = sink.arrivals.length;
    const started = await server.ask({ op: "start", subject: SUBJECT, body: BODY });
    await until(
      () => sink.arrivals.length > received,
      60_000,
      "the first mail at the default rate",
    );
    const perMail = await cpuPerMail(server, started.id!, sink, sizes.loadSeconds * 2);
    const figures = await visitorsDuring(server, started.id!, sizes, defaultRate, sink, control);
    await server.stop();
    server = undefined;
    return { ...figures, perMail };
  } finally {
    await server?.stop("SIGKILL");
    rmSync(quietDir, { recursive: true, force: true });
  }
}

/** A command line's whole number of at least 1, or a clear stop. */
function wholeArgument(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a whole number of at least 1`);
  return n;
}

export async function benchBroadcasts(
  sizes: BroadcastSizes = FULL_SIZES,
): Promise<BroadcastFigures> {
  const began = performance.now();

  // 1. Fixing the recipients.
  const timed = await timeStart(sizes.startEntries);
  const startRuns = timed.map((r) => r.wall);
  const startMs = median(startRuns);
  const startCpuMs = median(timed.map((r) => r.cpu));
  console.log(
    `Broadcast start, ${sizes.startEntries.toLocaleString("en-US")} recipients: ${Math.round(startMs)} ms, ${Math.round(startCpuMs)} ms CPU (runs: ${startRuns.map(Math.round).join(", ")} ms)`,
  );

  const dataDir = mkdtempSync(path.join(tmpdir(), "tieout-broadcast-bench-"));
  const sink = await startSink();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    {
      const database = await openDatabase({ dataDir, databaseUrl: undefined });
      await seedEntries(database.db, sizes.sendRecipients);
      await database.close();
    }
    server = await startServer(dataDir, sink.url);
    const { id } = await server.ask({ op: "start", subject: SUBJECT, body: BODY });
    const broadcastId = id!;

    // 2. The rate over a steady window: from 5 s after the first mail arrived.
    await until(() => sink.arrivals.length > 0, 60_000, "the first mail");
    const windowStart = sink.arrivals[0]! + 5_000;
    const windowEnd = windowStart + sizes.rateWindowSeconds * 1000;
    // What the pump handed the outbox over the same window, beside what arrived: which of the
    // two sets the pace, should it be off.
    const handed = async () => {
      const p = await server!.ask({ op: "progress", id: broadcastId });
      return { at: performance.now(), handed: Number(p.recipients) - Number(p.waiting) };
    };
    await sleep(windowStart - performance.now());
    const handedFrom = await handed();
    const cpuFrom = cpuOf(server.pid);
    await sleep(windowEnd - performance.now());
    const handedTo = await handed();
    const serverCpuShare = (cpuOf(server.pid) - cpuFrom) / (handedTo.at - handedFrom.at);
    await sleep(500);
    const windowMails = sink.arrivals.filter((t) => t >= windowStart && t < windowEnd).length;
    const receivedPerMinute = (windowMails / sizes.rateWindowSeconds) * 60;
    const handedPerMinute =
      ((handedTo.handed - handedFrom.handed) / (handedTo.at - handedFrom.at)) * 60_000;
    console.log(
      `Broadcast delivery: ${Math.round(receivedPerMinute)} mails/min received over ${sizes.rateWindowSeconds} s, ${Math.round(handedPerMinute)} /min handed to the outbox (configured ${RATE_PER_MINUTE}); server CPU ${Math.round(serverCpuShare * 100)}% of a core`,
    );

    // 3. A visitor's p99 during this send (ten times the default rate), then, after the kill
    // below, on a server of its own at the default rate.
    const atStress = await visitorsDuring(server, broadcastId, sizes, RATE_PER_MINUTE, sink);

    // 4. kill -9 in the middle of the send, with a mail on the wire, then a restart.
    const killing = server;
    let killed: Promise<void> | undefined;
    sink.interruptAt(sizes.sendRecipients / 2, () => {
      killed = killing.stop("SIGKILL");
    });
    await until(() => killed !== undefined, 600_000, "the middle of the send");
    await killed;
    const receivedAtKill = sink.arrivals.length;
    // The killed server's leases on outbox rows run 5 minutes (server/outbox/worker.ts), then any
    // instance sends those rows. Nothing else happens in those minutes, so they are skipped:
    // the leases are made due now, before the restart, as their running out would.
    let leasedAtKill = 0;
    {
      const database = await openDatabase({ dataDir, databaseUrl: undefined });
      const leased = await queryRows<{ n: number }>(
        database.db,
        sql`WITH due AS (
              UPDATE outbox SET next_attempt_at = now()
              WHERE status = 'pending' AND attempts > 0 AND next_attempt_at > now() RETURNING 1)
            SELECT count(*)::int AS n FROM due`,
      );
      leasedAtKill = leased[0]?.n ?? 0;
      await database.close();
    }
    console.log(
      `Broadcast killed with -9 at ${receivedAtKill.toLocaleString("en-US")} of ${sizes.sendRecipients.toLocaleString("en-US")} mails (${leasedAtKill} leased); restarting…`,
    );
    server = await startServer(dataDir, sink.url);
    const restarted = server;
    const done = async () => {
      const progress = await restarted.ask({ op: "progress", id: broadcastId });
      return progress.waiting === 0 && progress.pending === 0;
    };
    await until(
      async () => sink.perRecipient.size >= sizes.sendRecipients && (await done()),
      // Three times what the rest takes at the rate, and two minutes more.
      3 * (sizes.sendRecipients / (RATE_PER_MINUTE / 60)) * 1000 + 120_000,
      "the send after the restart",
      250,
    );
    // A mail sent twice would arrive right after; give it time to.
    await sleep(2_000);
    await server.stop();
    server = undefined;

    let lost = 0;
    let twice = 0;
    let extraMails = 0;
    for (let i = 1; i <= sizes.sendRecipients; i++) {
      const n = sink.perRecipient.get(`bench-${i}@example.com`) ?? 0;
      if (n === 0) lost++;
      if (n > 1) {
        twice++;
        extraMails += n - 1;
      }
    }
    console.log(`After kill -9 and a restart: ${lost} lost, ${twice} sent twice`);

    // 3, at the default rate: a server of its own, sending to entries of its own.
    const atDefault = await visitorsAtDefaultRate(sink, sizes);

    return {
      startEntries: sizes.startEntries,
      startRuns,
      startMs,
      startCpuMs,
      ratePerMinute: RATE_PER_MINUTE,
      receivedPerMinute,
      windowMails,
      windowSeconds: sizes.rateWindowSeconds,
      handedPerMinute,
      serverCpuShare,
      atDefault,
      atStress,
      sendRecipients: sizes.sendRecipients,
      receivedAtKill,
      leasedAtKill,
      lost,
      twice,
      extraMails,
      seconds: (performance.now() - began) / 1000,
    };
  } finally {
    await server?.stop("SIGKILL");
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A visitor's figures during a send as rows: the first a target when `target`. */
function visitorRows(v: VisitorFigures, where: string, target: boolean): string[][] {
  const ratio = v.pooledP99SendingMs / v.pooledP99IdleMs;
  return [
    [
      `Home p99 of every answer under load (40 connections, ${v.p99Sending.length} rounds of each, alternated) while a broadcast sends at ${v.ratePerMinute} a minute (${where}) / while it is paused`,
      `${ms1(v.pooledP99SendingMs)} / ${ms1(v.pooledP99IdleMs)} ms = ${ratio.toFixed(2)} (90%: ${v.pooledRatioLow.toFixed(2)} to ${v.pooledRatioHigh.toFixed(2)}, the rounds drawn again in pairs); the median of the rounds' own p99s ${ms1(v.p99SendingMs)} / ${ms1(v.p99IdleMs)} ms = ${(v.p99SendingMs / v.p99IdleMs).toFixed(2)}; ${Math.round(v.rpsSending)} / ${Math.round(v.rpsIdle)} req/s; the relay received ${Math.round(v.mailsPerMinuteSending)} mails a minute during the sending loads${v.idleWithMail > 0 ? `; in ${v.idleWithMail} paused rounds the outbox was still sending` : ""}`,
      target ? `≤ ${BROADCAST_TARGETS.p99Ratio}` : "(information)",
      target ? (ratio <= BROADCAST_TARGETS.p99Ratio ? "met" : "MISSED") : "",
    ],
    [
      `Home p99 at a steady ${VISITORS_PER_SECOND} requests/s while it sends at ${v.ratePerMinute} a minute / paused; the server's longest event-loop stall in each${v.perMail ? "; one mail's CPU, no visitors: on the thread that answers visitors / in all" : ""}`,
      `${v.steadyP99SendingMs} / ${v.steadyP99IdleMs} ms = ${(v.steadyP99SendingMs / v.steadyP99IdleMs).toFixed(2)}; stall ${Math.round(v.loopMaxSendingMs)} / ${Math.round(v.loopMaxIdleMs)} ms${v.perMail ? `; ${v.perMail.mainMs.toFixed(1)} / ${v.perMail.allMs.toFixed(1)} ms (${v.perMail.mails} mails)` : ""}`,
      "(information)",
      "",
    ],
  ];
}

/** The figures as rows of bench.ts's summary: what, measured, target, met or MISSED. */
export function broadcastRows(f: BroadcastFigures): string[][] {
  const n = (x: number) => x.toLocaleString("en-US");
  const rateOff = Math.abs(f.receivedPerMinute / f.ratePerMinute - 1);
  const ok = (met: boolean) => (met ? "met" : "MISSED");
  return [
    [
      `Broadcast start: ${n(f.startEntries)} recipients fixed (one INSERT … SELECT), embedded database, median of ${f.startRuns.length}`,
      `${(f.startMs / 1000).toFixed(2)} s (runs: ${f.startRuns.map((ms) => (ms / 1000).toFixed(2)).join(", ")} s); ${(f.startCpuMs / 1000).toFixed(2)} s CPU`,
      `< ${BROADCAST_TARGETS.startSeconds} s`,
      ok(f.startMs < BROADCAST_TARGETS.startSeconds * 1000),
    ],
    [
      `Broadcast delivery to a local SMTP server at BROADCAST_RATE_PER_MINUTE=${f.ratePerMinute}, the real server, ${n(f.sendRecipients)} recipients: received per minute over ${f.windowSeconds} s of steady sending`,
      `${Math.round(f.receivedPerMinute)} /min (${n(f.windowMails)} mails), ${(rateOff * 100).toFixed(1)}% off; handed to the outbox ${Math.round(f.handedPerMinute)} /min; server CPU ${Math.round(f.serverCpuShare * 100)}% of a core`,
      `within ${BROADCAST_TARGETS.rateTolerance * 100}% of ${f.ratePerMinute}`,
      ok(rateOff <= BROADCAST_TARGETS.rateTolerance),
    ],
    ...visitorRows(f.atDefault, "the default rate, a server of its own", true),
    ...visitorRows(f.atStress, "that rate, the same server", false),
    [
      `kill -9 in the middle of that send (at ${n(f.receivedAtKill)} mails, ${f.leasedAtKill} leased), then a restart: recipients who got nothing / got it twice`,
      `${f.lost} / ${f.twice} of ${n(f.sendRecipients)}${f.extraMails > f.twice ? ` (${f.extraMails} extra mails)` : ""}`,
      "0 lost; 0 twice",
      ok(f.lost === 0 && f.twice === 0),
    ],
  ];
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes("--per-mail")) {
  // One mail's CPU alone, at ten times the default rate: the same ten mails a turn (turnMsFor),
  // ten times as many of them measured, so a change to a mail's statements shows above the noise.
  const sink = await startSink();
  const dataDir = mkdtempSync(path.join(tmpdir(), "tieout-broadcast-bench-"));
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    await seedEntries(database.db, 5_000);
    await database.close();
    server = await startServer(dataDir, sink.url, RATE_PER_MINUTE);
    const started = await server.ask({ op: "start", subject: SUBJECT, body: BODY });
    await until(() => sink.arrivals.length > 0, 60_000, "the first mail");
    for (let run = 0; run < 3; run++) {
      const perMail = await cpuPerMail(server, started.id!, sink, 10);
      console.log(
        `One mail's CPU at ${RATE_PER_MINUTE} a minute, no visitors: ${perMail.mainMs.toFixed(2)} ms on the thread that answers visitors, ${perMail.allMs.toFixed(2)} ms in all (${perMail.mails} mails)`,
      );
    }
    await server.stop();
    server = undefined;
  } finally {
    await server?.stop("SIGKILL");
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
} else if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes("--visitors")) {
  // The default rate's visitor rounds alone; with --control, both phases paused (the noise).
  const sink = await startSink();
  try {
    const rounds = process.argv.indexOf("--rounds");
    const sizes = {
      ...(process.argv.includes("--small") ? SMALL_SIZES : FULL_SIZES),
      ...(rounds > 0 ? { loadRounds: wholeArgument(process.argv[rounds + 1], "--rounds") } : {}),
    };
    for (const row of visitorRows(
      await visitorsAtDefaultRate(sink, sizes, process.argv.includes("--control")),
      process.argv.includes("--control") ? "CONTROL: paused in both" : "the default rate",
      true,
    ))
      console.log(`${row[0]}: ${row[1]} (${row[2]}) ${row[3]}`);
  } finally {
    await sink.close();
  }
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchBroadcasts(
    process.argv.includes("--small") ? SMALL_SIZES : FULL_SIZES,
  );
  console.log(figures);
  for (const row of broadcastRows(figures))
    console.log(`${row[0]}: ${row[1]} (${row[2]}) ${row[3]}`);
}
