/**
 * A process that takes DATA_DIR's lock (db/client.ts, lockDataDir) and holds it, for
 * db/data-dir-lock.test.ts: started in a PID namespace of its own, or several at once racing for
 * one lock.
 *
 *   node --import tsx tests/support/data-dir-lock-holder.ts DIR '{"staleAfterMs": 2000}'
 *
 * Says what happened in one JSON line: `{"held": {"pid", "pidNamespace"}}`, then keeps the lock
 * until its stdin ends (and releases it) or it is killed; or `{"refused": {"pid", "message"}}`
 * and exits. Options: the lock's `staleAfterMs` and `heartbeatMs`; `waitForGo`, to print
 * `{"ready": true}` and try only once a line arrives on stdin, so several processes try at one
 * instant; `pauseBeforeTakeoverMs`, a pause between judging a lock stale and taking it over, so
 * they all judge it before any takes it; `leave`, to take the lock and end without releasing it.
 */
import { once } from "node:events";
import { readlinkSync } from "node:fs";
import { createInterface } from "node:readline";
import { DataDirInUse, lockDataDir } from "#db/data-dir-lock.ts";

type HolderOptions = {
  staleAfterMs?: number;
  heartbeatMs?: number;
  waitForGo?: boolean;
  pauseBeforeTakeoverMs?: number;
  leave?: boolean;
};

const [dir, json = "{}"] = process.argv.slice(2);
if (!dir) throw new Error("Usage: data-dir-lock-holder.ts DIR [OPTIONS_JSON]");
const options = JSON.parse(json) as HolderOptions;
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const stdin = options.leave ? undefined : createInterface({ input: process.stdin });
if (stdin && options.waitForGo) {
  const go = once(stdin, "line");
  say({ ready: true });
  await go;
}
const pause = options.pauseBeforeTakeoverMs;
let unlock: (() => void) | undefined;
try {
  unlock = lockDataDir(dir, {
    staleAfterMs: options.staleAfterMs,
    heartbeatMs: options.heartbeatMs,
    beforeTakeover: pause
      ? () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause)
      : undefined,
  });
} catch (error) {
  if (!(error instanceof DataDirInUse)) throw error;
  say({ refused: { pid: error.pid, message: error.message } });
  stdin?.close();
}
if (unlock) {
  say({ held: { pid: process.pid, pidNamespace: readlinkSync("/proc/self/ns/pid") } });
  if (stdin) {
    await once(stdin, "close");
    unlock();
  }
}
