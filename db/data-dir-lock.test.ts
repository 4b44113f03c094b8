/**
 * DATA_DIR's lock (db/data-dir-lock.ts): one process per embedded database folder, also
 * when the processes are in different PID namespaces (containers sharing a volume) or on different
 * hosts, where a pid read from the lock file means nothing. Lock files are written by hand here as
 * another holder would leave them; the processes that race, or run in a PID namespace of their
 * own, are real (tests/support/data-dir-lock-holder.ts).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, describe, expect, test, vi } from "vitest";
import { DataDirInUse, lockDataDir } from "#db/data-dir-lock.ts";

// Every test but the first few starts Node processes of its own: about a second each.
vi.setConfig({ testTimeout: 60_000 });

const ROOT = path.resolve(import.meta.dirname, "..");
const HOLDER = "tests/support/data-dir-lock-holder.ts";
const work = mkdtempSync(path.join(tmpdir(), "tieout-lock-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
});

let folders = 0;
function newDataDir(): string {
  const dir = path.join(work, `data-${++folders}`);
  mkdirSync(dir);
  return dir;
}

const lockFile = (dir: string) => path.join(dir, "pglite.lock");
const readLock = (dir: string) => readFileSync(lockFile(dir), "utf8");
const holderOf = (dir: string) => JSON.parse(readLock(dir)) as { pid: number; token: string };

function orEmpty(read: () => string): string {
  try {
    return read();
  } catch {
    return "";
  }
}

/** Where this process runs, as a lock file records it. */
const HERE = {
  hostname: hostname(),
  pidNamespace: orEmpty(() => readlinkSync("/proc/self/ns/pid")),
  bootId: orEmpty(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()),
};

/** A lock file as another holder leaves it, last refreshed `ageMs` ago. */
function writeLock(
  dir: string,
  holder: Partial<typeof HERE> & { pid: number },
  { ageMs = 0 }: { ageMs?: number } = {},
) {
  const record = { ...HERE, ...holder, token: "theirs", since: new Date().toISOString() };
  writeLockText(dir, JSON.stringify(record), { ageMs });
}

function writeLockText(dir: string, text: string, { ageMs = 0 }: { ageMs?: number } = {}) {
  writeFileSync(lockFile(dir), text);
  const refreshed = new Date(Date.now() - ageMs);
  utimesSync(lockFile(dir), refreshed, refreshed);
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid;
}

/** The pid of a process that runs until the test ends. */
function livePid(): number {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
  started.push(child);
  return child.pid!;
}

/** A holder's heartbeat, kept by another process: the lock file's mtime, every 20 ms. */
function keepRefreshing(file: string) {
  const script = `const fs = require("node:fs"); setInterval(() => fs.utimesSync(${JSON.stringify(file)}, new Date(), new Date()), 20);`;
  started.push(spawn(process.execPath, ["-e", script]));
}

function takeLock(dir: string, options: Parameters<typeof lockDataDir>[1] = {}) {
  const waits: string[] = [];
  const unlock = lockDataDir(dir, { ...options, onWait: (message) => waits.push(message) });
  return { unlock, waits };
}

function refusal(take: () => unknown): DataDirInUse {
  try {
    take();
  } catch (error) {
    if (error instanceof DataDirInUse) return error;
    throw error;
  }
  throw new Error("The lock was taken.");
}

const ONE_PROCESS_PER_DATA_DIR =
  "One process per DATA_DIR: stop it, give this one another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server between instances.";

type Said = {
  ready?: true;
  held?: { pid: number; pidNamespace: string };
  refused?: { pid: number; message: string };
};

/** tests/support/data-dir-lock-holder.ts in a process of its own, or in a new PID namespace. */
function startHolder(
  dir: string,
  options: Record<string, unknown> = {},
  { inNewPidNamespace = false } = {},
) {
  const node = [process.execPath, "--import", "tsx", HOLDER, dir, JSON.stringify(options)];
  const child = inNewPidNamespace
    ? spawn("unshare", ["--pid", "--fork", "--mount-proc", "--kill-child", ...node], { cwd: ROOT })
    : spawn(node[0]!, node.slice(1), { cwd: ROOT });
  started.push(child);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    /** Its next line, once it has said it. */
    next: async (): Promise<Said> => {
      const { value, done } = await lines.next();
      if (done) throw new Error(`The holder ended without a word: ${stderr}`);
      return JSON.parse(value) as Said;
    },
    exited: new Promise<number | null>((resolve) => child.once("close", resolve)),
  };
}

test("a free DATA_DIR is locked with who holds it, refreshed while held, and released", async () => {
  const dir = newDataDir();
  const { unlock, waits } = takeLock(dir, { heartbeatMs: 20 });
  expect(waits).toEqual([]);
  const record = JSON.parse(readLock(dir)) as Record<string, unknown>;
  expect(record).toEqual({
    pid: process.pid,
    ...HERE,
    token: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
    since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
  });

  const longAgo = new Date(Date.now() - 3_600_000);
  utimesSync(lockFile(dir), longAgo, longAgo);
  await vi.waitFor(() => expect(statSync(lockFile(dir)).mtimeMs).toBeGreaterThan(+longAgo));

  unlock();
  expect(readdirSync(dir)).toEqual([]);
  unlock();
});

describe("a holder in our own PID namespace is judged by its pid", () => {
  test.each([
    ["a dead process", deadPid],
    ["our own pid (a restart that got the same pid)", () => process.pid],
  ])("the lock of %s is taken over at once", (_, pid) => {
    const dir = newDataDir();
    writeLock(dir, { pid: pid() });
    const { unlock, waits } = takeLock(dir);
    expect(waits).toEqual([]);
    expect(holderOf(dir).token).not.toBe("theirs");
    unlock();
  });

  test("a live process keeps its lock: refused at once, its lock untouched", () => {
    const dir = newDataDir();
    const pid = livePid();
    writeLock(dir, { pid });
    const before = readLock(dir);
    const refused = refusal(() => takeLock(dir));
    expect(refused.message).toBe(
      `Another server (process ${pid}) is already using the embedded database in ${dir}. ${ONE_PROCESS_PER_DATA_DIR}`,
    );
    expect(refused.pid).toBe(pid);
    expect(refused.holder).toBe(`process ${pid}`);
    expect(readLock(dir)).toBe(before);
  });
});

describe("a lock file of an earlier version, a pid alone, is still understood", () => {
  test("a live pid: refused, as before", () => {
    const dir = newDataDir();
    const pid = livePid();
    writeLockText(dir, String(pid));
    const refused = refusal(() => takeLock(dir));
    expect(refused.message).toBe(
      `Another server (process ${pid}) is already using the embedded database in ${dir}. ${ONE_PROCESS_PER_DATA_DIR}`,
    );
    expect(readLock(dir)).toBe(String(pid));
  });

  test("a dead pid, the file older than the bound: taken over at once", () => {
    const dir = newDataDir();
    writeLockText(dir, `${deadPid()}\n`, { ageMs: 60_000 });
    const { unlock, waits } = takeLock(dir, { staleAfterMs: 30_000 });
    expect(waits).toEqual([]);
    expect(holderOf(dir).pid).toBe(process.pid);
    unlock();
  });

  test("a dead pid in a fresh file may be a process elsewhere: waited on, then taken over", () => {
    const dir = newDataDir();
    const pid = deadPid();
    writeLockText(dir, String(pid));
    const { unlock, waits } = takeLock(dir, { staleAfterMs: 200 });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatch(
      /^The embedded database in .+ is locked by process \d+, whose last heartbeat was \d+ s ago: waiting up to 1 s for the next one \(if none comes, it has stopped, and this process takes the lock over\)\.$/,
    );
    expect(waits[0]).toContain(`locked by process ${pid},`);
    expect(holderOf(dir).pid).toBe(process.pid);
    unlock();
  });
});

describe.each([
  ["in another PID namespace", { pidNamespace: "pid:[4026530000]" }, HERE.hostname],
  ["on another host", { hostname: "another-host" }, "another-host"],
  ["on a host of our name, but another boot", { bootId: "another-boot" }, HERE.hostname],
  ["in a PID namespace it could not name", { pidNamespace: "" }, HERE.hostname],
])("a holder %s is judged by its heartbeat, not its pid", (_, elsewhere, shownHost) => {
  // A pid alive here: it must not matter, since it is not the holder's.
  const holder = () => ({ ...elsewhere, pid: livePid() });

  test("its heartbeat older than the bound: taken over at once", () => {
    const dir = newDataDir();
    writeLock(dir, holder(), { ageMs: 60_000 });
    const { unlock, waits } = takeLock(dir, { staleAfterMs: 30_000 });
    expect(waits).toEqual([]);
    expect(holderOf(dir).pid).toBe(process.pid);
    unlock();
  });

  test("its heartbeat fresh but stopped: waited on up to the bound, then taken over", () => {
    const dir = newDataDir();
    const { pid } = holder();
    writeLock(dir, { ...elsewhere, pid });
    const { unlock, waits } = takeLock(dir, { staleAfterMs: 300 });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toContain(`is locked by process ${pid} on host ${shownHost}, PID namespace`);
    expect(holderOf(dir).pid).toBe(process.pid);
    unlock();
  });

  test("its heartbeat moving: refused with DataDirInUse, its lock untouched", () => {
    const dir = newDataDir();
    const { pid } = holder();
    writeLock(dir, { ...elsewhere, pid });
    keepRefreshing(lockFile(dir));
    const refused = refusal(() => takeLock(dir, { staleAfterMs: 20_000 }));
    expect(refused.message).toMatch(
      new RegExp(
        `^Another server \\(process ${pid} on host ${shownHost}, PID namespace .*\\) is already using the embedded database in ${dir}: it runs elsewhere \\(another host or container\\) and keeps refreshing its lock\\. One process per DATA_DIR`,
      ),
    );
    expect(refused.pid).toBe(pid);
    expect(holderOf(dir).token).toBe("theirs");
  });
});

test("the release removes the lock only while it is ours", () => {
  const dir = newDataDir();
  const { unlock } = takeLock(dir);
  // Taken over meanwhile, as from a holder whose heartbeat stalled past the bound.
  writeLock(dir, { pid: deadPid() });
  const theirs = readLock(dir);
  unlock();
  expect(readLock(dir)).toBe(theirs);
});

test("a process that ends without releasing the lock still exits, and the next one takes its lock over at once", async () => {
  const dir = newDataDir();
  const holder = startHolder(dir, { leave: true });
  expect((await holder.next()).held).toBeDefined();
  // The heartbeat's timer does not keep the process alive.
  expect(await holder.exited).toBe(0);
  const { unlock, waits } = takeLock(dir);
  expect(waits).toEqual([]);
  expect(holderOf(dir).pid).toBe(process.pid);
  unlock();
});

test.each([
  ["a dead process in our PID namespace", () => ({ pid: deadPid() }), 0],
  ["a holder on another host, stale", () => ({ pid: 1, hostname: "another-host" }), 60_000],
])(
  "five processes taking over the lock of %s at the same moment: exactly one wins",
  async (_, holder, ageMs) => {
    const dir = newDataDir();
    writeLock(dir, holder(), { ageMs });
    // Each pauses between judging the lock stale and taking it over, so all five judge it first.
    const takers = Array.from({ length: 5 }, () =>
      startHolder(dir, { waitForGo: true, pauseBeforeTakeoverMs: 300 }),
    );
    for (const taker of takers) expect((await taker.next()).ready).toBe(true);
    for (const taker of takers) taker.child.stdin.write("go\n");
    const outcomes = await Promise.all(takers.map((taker) => taker.next()));

    const winners = outcomes.flatMap((said) => (said.held ? [said.held.pid] : []));
    expect(winners).toHaveLength(1);
    const refusedBy = outcomes.flatMap((said) => (said.refused ? [said.refused.pid] : []));
    expect(refusedBy).toEqual([winners[0], winners[0], winners[0], winners[0]]);
    expect(holderOf(dir).pid).toBe(winners[0]);
    expect(readdirSync(dir)).toEqual(["pglite.lock"]);

    for (const taker of takers) taker.child.stdin.end();
    await Promise.all(takers.map((taker) => taker.exited));
    expect(readdirSync(dir)).toEqual([]);
  },
);

describe("across PID namespaces, for real (unshare)", () => {
  const unshare = spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "--kill-child", "true"]);
  const UNSHARE_MISSING =
    "needs `unshare --pid --fork --mount-proc` (util-linux, as root or with user namespaces allowed)";

  test("a holder in its own PID namespace keeps its lock while it runs; killed with kill -9, its lock is taken over once its heartbeat is stale", async ({
    skip,
  }) => {
    skip(unshare.status !== 0, UNSHARE_MISSING);
    const dir = newDataDir();
    const holder = startHolder(dir, { heartbeatMs: 100 }, { inNewPidNamespace: true });
    const { held } = await holder.next();
    // Pid 1, or close: a pid that is alive out here too, or dead, and in either case not the holder.
    expect(held!.pid).toBeLessThan(10);
    expect(held!.pidNamespace).not.toBe(HERE.pidNamespace);

    const refused = refusal(() => takeLock(dir, { staleAfterMs: 2_000 }));
    expect(refused.holder).toBe(
      `process ${held!.pid} on host ${HERE.hostname}, PID namespace ${held!.pidNamespace}`,
    );

    // kill -9 of the holder itself (unshare's child), then its namespace goes with it.
    const unsharePid = holder.child.pid!;
    const nodePid = Number(
      readFileSync(`/proc/${unsharePid}/task/${unsharePid}/children`, "utf8").trim(),
    );
    process.kill(nodePid, "SIGKILL");
    await holder.exited;

    const { unlock, waits } = takeLock(dir, { staleAfterMs: 2_000 });
    expect(holderOf(dir).pid).toBe(process.pid);
    expect(waits).toHaveLength(1);
    unlock();
  });

  test("a process in another PID namespace cannot take a lock held here, though our pid means nothing there", async ({
    skip,
  }) => {
    skip(unshare.status !== 0, UNSHARE_MISSING);
    const dir = newDataDir();
    const { unlock } = takeLock(dir, { heartbeatMs: 50 });
    const taker = startHolder(dir, { staleAfterMs: 2_000 }, { inNewPidNamespace: true });
    const { refused } = await taker.next();
    expect(refused?.pid).toBe(process.pid);
    expect(refused?.message).toContain(
      `Another server (process ${process.pid} on host ${HERE.hostname}, PID namespace ${HERE.pidNamespace}) is already using the embedded database in ${dir}`,
    );
    expect(holderOf(dir).pid).toBe(process.pid);
    unlock();
  });
});
