/**
 * The mail thread yields the CPU to the thread that answers visitors (decision 056): its nice value,
 * read as the kernel reports it in /proc, and nobody else's.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startMailCatcher, type MailCatcher } from "#server/mail/catcher.ts";
import { createEmailSender } from "#server/outbox/email.ts";
import { lowerThisThreadPriority, type PriorityOutcome } from "#server/outbox/thread-priority.ts";

const linux = existsSync("/proc/thread-self");

/** Each thread of this process and its nice value, the 19th field of /proc/self/task/<id>/stat. */
function niceByThread(): Map<number, number> {
  const threads = new Map<number, number>();
  for (const id of readdirSync("/proc/self/task")) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${id}/stat`, "utf8");
    } catch {
      continue; // a thread that ended while we looked
    }
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    threads.set(Number(id), Number(fields[16]));
  }
  return threads;
}

const MODULE = new URL("./thread-priority.ts", import.meta.url).href;

/**
 * Runs lowerThisThreadPriority with each of `nices` in turn on a new thread, which stays up until
 * told to end; the last call's outcome.
 */
async function onAThread(...nices: number[]) {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     import(workerData.module).then(({ lowerThisThreadPriority }) => {
       let outcome;
       for (const nice of workerData.nices) outcome = lowerThisThreadPriority(nice);
       parentPort.postMessage(outcome);
     }, (error) => parentPort.postMessage({ lowered: false, why: String(error) }));
     parentPort.on("message", () => parentPort.close());`,
    { eval: true, workerData: { module: MODULE, nices } },
  );
  const outcome = await new Promise<PriorityOutcome>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    outcome,
    end: async () => {
      worker.postMessage("end");
      await new Promise((resolve) => worker.once("exit", resolve));
    },
  };
}

describe.runIf(linux)("a thread's CPU priority", () => {
  test("a thread lowers its own priority and no other thread's", async () => {
    const before = niceByThread();
    const thread = await onAThread(10);
    try {
      expect(thread.outcome.lowered).toBe(true);
      if (!thread.outcome.lowered) return;
      const after = niceByThread();
      expect(after.get(thread.outcome.threadId)).toBe(10);
      for (const [id, nice] of before) {
        if (after.has(id)) expect(after.get(id), `thread ${id}`).toBe(nice);
      }
    } finally {
      await thread.end();
    }
  });

  test("the process's first thread is never lowered, and a nice value out of range is refused", () => {
    const before = niceByThread().get(process.pid);
    expect(lowerThisThreadPriority(10)).toEqual({
      lowered: false,
      why: "this is the process's first thread",
    });
    expect(niceByThread().get(process.pid)).toBe(before);
    for (const nice of [0, 20, -5, 2.5]) {
      expect(() => lowerThisThreadPriority(nice)).toThrow(/from 1 to 19/);
    }
  });

  test("a thread already lower keeps its value", async () => {
    const thread = await onAThread(19, 10);
    try {
      expect(thread.outcome.lowered).toBe(true);
      if (!thread.outcome.lowered) return;
      expect(niceByThread().get(thread.outcome.threadId)).toBe(19);
    } finally {
      await thread.end();
    }
  });
});

describe.runIf(linux)("the mail thread", () => {
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher({ smtpPort: 0, webPort: 0 });
  });
  afterAll(() => catcher.stop());

  test("sends at nice 10 while the thread that answers visitors stays at its own", async () => {
    const before = niceByThread();
    const sender = createEmailSender(catcher.relay);
    try {
      await sender.send(
        {
          category: "notice",
          from: { name: "Tieout", address: "hello@tieout.ai" },
          to: [{ name: "Ada", address: "ada@example.com" }],
          subject: "A mail sent from a lowered thread",
          text: "Hello",
          html: undefined,
          headers: {},
        },
        "<priority-1@tieout.ai>",
      );
      const after = niceByThread();
      const lowered = [...after].filter(([id, nice]) => !before.has(id) && nice === 10);
      expect(lowered).toHaveLength(1);
      expect(after.get(process.pid)).toBe(before.get(process.pid));
    } finally {
      sender.close();
    }
    await vi.waitFor(() =>
      expect(catcher.messages().map((m) => m.subject)).toContain(
        "A mail sent from a lowered thread",
      ),
    );
  });
});
