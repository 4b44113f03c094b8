/**
 * The site's server as the broadcast bench runs it (scripts/bench/broadcasts.ts): the same app,
 * services, outbox worker and broadcast pump as `npm start` (server/index.ts), without a local
 * inbox, plus a channel to the bench over IPC. An administrator starts, pauses and resumes a
 * broadcast on an admin page behind a passkey; the bench asks this process to make the same calls
 * on the same service, since the embedded database is one process's alone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { startBenchSite } from "./bench-site.ts";

export type BenchRequest =
  | { op: "start"; subject: string; body: string }
  | { op: "pause" | "resume" | "progress"; id: number }
  /** How long the event loop was held up since the last ask, in ms: p99 and max. */
  | { op: "loop" }
  /** The CPU time used so far, ms: by the thread that answers visitors, and by the process. */
  | { op: "cpu" };
export type BenchAnswer = { ok: boolean; id?: number; recipients?: number; [k: string]: unknown };

/** Each thread's CPU so far, ms, by the kernel's accounts (/proc, 10 ms ticks): id, name, nice. */
function threadCpu(): { id: number; name: string; nice: number; ms: number }[] {
  const threads = [];
  for (const id of readdirSync("/proc/self/task")) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${id}/stat`, "utf8");
    } catch {
      continue;
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    threads.push({ id: Number(id), name, nice: Number(fields[16]), ms: ticks * 10 });
  }
  return threads;
}

const ACTOR = { adminEmail: "bench@example.com", clientAddress: "127.0.0.1" };

const { services } = await startBenchSite();

const broadcasts = services.mail.broadcasts;
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
async function answer(request: BenchRequest): Promise<BenchAnswer> {
  switch (request.op) {
    case "start": {
      const saved = await broadcasts.save(
        null,
        {
          kind: "waitlist-news",
          subject: request.subject,
          body: request.body,
          audience: { states: ["confirmed"], search: "" },
        },
        ACTOR,
      );
      if (!saved.ok) return { ok: false, message: saved.message };
      const started = await broadcasts.start(saved.id, ACTOR);
      return started.ok
        ? { ok: true, id: saved.id, recipients: started.recipients }
        : { ok: false, message: started.message };
    }
    case "pause":
      return broadcasts.pause(request.id, ACTOR);
    case "resume":
      return broadcasts.resume(request.id, ACTOR);
    case "progress":
      return { ok: true, ...(await broadcasts.progress(request.id)) };
    case "cpu": {
      const main = process.threadCpuUsage();
      const all = process.cpuUsage();
      return {
        ok: true,
        main: (main.user + main.system) / 1000,
        all: (all.user + all.system) / 1000,
        threads: threadCpu(),
      };
    }
    case "loop": {
      const delay = { ok: true, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
      loop.reset();
      return delay;
    }
  }
}

process.on("message", (request: BenchRequest & { seq: number }) => {
  void answer(request)
    .catch((error: unknown) => ({ ok: false, message: String(error) }))
    .then((reply) => process.send?.({ seq: request.seq, ...reply }));
});
process.send?.({ seq: 0, ok: true, listening: true });
