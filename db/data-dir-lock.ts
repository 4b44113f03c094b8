/**
 * One process per embedded-database folder (DATA_DIR), also across hosts and PID namespaces:
 * the lock the server, `npm run backup` and `npm run restore` hold while they use the folder.
 * See docs/decisions/005.
 */
import { randomUUID } from "node:crypto";
import {
  closeSync,
  fstatSync,
  futimesSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { z } from "zod";
import { DatabaseStartError } from "#db/start-error.ts";

/** DATA_DIR is locked by a live process: a server, a backup or a restore. */
export class DataDirInUse extends DatabaseStartError {
  override name = "DataDirInUse";
  constructor(
    message: string,
    /** The process holding the lock, as numbered in its own PID namespace. */
    readonly pid: number,
    /** Who that is, for messages: `process 12`, or with its host and PID namespace when elsewhere. */
    readonly holder = `process ${pid}`,
  ) {
    super(message);
  }
}

/**
 * How long a holder elsewhere (another host or PID namespace, where its pid means nothing here)
 * may go without refreshing the lock before it is presumed dead: six missed heartbeats, so a busy
 * or briefly stalled holder keeps its lock; short enough that a container restarted after a crash
 * waits half a minute at most. See docs/decisions/005.
 */
const STALE_AFTER_MS = 30_000;
const HEARTBEAT_MS = 5_000;
const LOCK_FILE = "pglite.lock";

type LockOptions = {
  staleAfterMs?: number;
  heartbeatMs?: number;
  /**
   * Told, in one sentence for the operator, when the lock is held elsewhere and was refreshed
   * lately, so the call waits to see whether its holder still runs. The lock logs nothing itself.
   */
  onWait?: (message: string) => void;
  /** For tests: runs after a lock is judged stale, before it is taken over. */
  beforeTakeover?: () => void;
};

/** Who holds a lock file, as it says. Lock files of earlier versions hold a pid and nothing else. */
const LockRecordSchema = z.object({
  pid: z.number().int(),
  hostname: z.string(),
  pidNamespace: z.string(),
  bootId: z.string(),
  token: z.string().min(1),
  since: z.string(),
});
type LockRecord = z.infer<typeof LockRecordSchema>;
type Holder =
  | ({ format: "current" } & LockRecord)
  | { format: "pid only"; pid: number }
  | { format: "unreadable"; pid: 0 };

/** A lock file as read once: what it says, and its inode and mtime from the same open. */
type Reading = { holder: Holder; text: string; ino: number; mtimeMs: number };

type Self = Pick<LockRecord, "hostname" | "pidNamespace" | "bootId">;

/** A file of /proc, or "" where the system has none. */
function orEmpty(read: () => string): string {
  try {
    return read();
  } catch {
    return "";
  }
}

/**
 * Where our pid means something: the host, the PID namespace (`pid:[4026531836]`; the same number
 * names the first namespace of every host, hence the host too) and the kernel's boot id, which
 * tells apart two hosts of one name, and a host from itself before a reboot. Empty where the
 * system does not say.
 */
function getSelf(): Self {
  return {
    hostname: hostname(),
    pidNamespace: orEmpty(() => readlinkSync("/proc/self/ns/pid")),
    bootId: orEmpty(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()),
  };
}

function parseHolder(text: string): Holder {
  if (/^\s*\d+\s*$/.test(text)) return { format: "pid only", pid: Number(text) };
  try {
    const record = LockRecordSchema.safeParse(JSON.parse(text));
    if (record.success) return { format: "current", ...record.data };
  } catch {
    // Not JSON: judged as unreadable below.
  }
  return { format: "unreadable", pid: 0 };
}

/**
 * Whether the holder's pid can be checked here: the same host, boot and PID namespace. A PID
 * namespace number is reused only once every process in it has gone, so a match is never another
 * live namespace. On Linux an empty namespace is unknown; elsewhere there are no PID namespaces.
 */
function isInOurPidSpace(holder: Holder, self: Self): boolean {
  return (
    holder.format === "current" &&
    holder.hostname === self.hostname &&
    holder.bootId === self.bootId &&
    holder.pidNamespace === self.pidNamespace &&
    (self.pidNamespace !== "" || process.platform !== "linux")
  );
}

function isAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function describeHolder(holder: Holder, self: Self): string {
  if (holder.format === "unreadable") return "an unknown process";
  if (holder.format === "pid only" || isInOurPidSpace(holder, self)) return `process ${holder.pid}`;
  return `process ${holder.pid} on host ${holder.hostname}, PID namespace ${holder.pidNamespace || "unknown"}`;
}

/**
 * Opens, stats and reads in one go: the open makes a network file system fetch fresh attributes
 * (close-to-open consistency), so the mtime is the holder's last heartbeat, not a cached one.
 */
function readLock(file: string): Reading | undefined {
  let fd;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const { ino, mtimeMs } = fstatSync(fd);
    const text = readFileSync(fd, "utf8");
    return { holder: parseHolder(text), text, ino, mtimeMs };
  } finally {
    closeSync(fd);
  }
}

function isSameReading(a: Reading, b: Reading): boolean {
  return a.text === b.text && a.ino === b.ino && a.mtimeMs === b.mtimeMs;
}

/** Creates `file` with our record if nothing is there; its open descriptor, or undefined. */
function createLockFile(file: string, record: LockRecord): number | undefined {
  let fd;
  try {
    fd = openSync(file, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw error;
  }
  writeSync(fd, `${JSON.stringify(record)}\n`);
  return fd;
}

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * One process per PGlite directory, also across hosts and PID namespaces (containers sharing a
 * volume): `DATA_DIR/pglite.lock` says who holds it (pid, host, PID namespace, boot id, a random
 * token, since when), and its holder refreshes the file's mtime every few seconds. A holder in our
 * own PID namespace is judged by its pid (dead, or our own pid: taken over at once, so a restart
 * after a crash is quick). Any other is judged by that heartbeat: taken over once it has not
 * moved for `staleAfterMs`; while it is fresh, this call waits (blocking, and at most that long)
 * and refuses with DataDirInUse as soon as it moves. So a container restarted after a crash starts
 * once its predecessor's heartbeat is stale, and a second replica is refused. A stale lock is
 * removed only under `pglite.lock.takeover`, a claim one process at a time can hold, and only if
 * it is still the file judged stale, so of several processes taking it over one wins.
 *
 * Returns the function that releases it. The server, `npm run backup` (site stopped) and
 * `npm run restore` each hold it while they use the folder. See docs/decisions/005.
 */
export function lockDataDir(dir: string, options: LockOptions = {}): () => void {
  const staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, LOCK_FILE);
  const self = getSelf();
  const record: LockRecord = {
    pid: process.pid,
    ...self,
    token: randomUUID(),
    since: new Date().toISOString(),
  };
  const claim = { file: `${lock}.takeover`, self, record, staleAfterMs };
  // Waiting, taking over and losing a race each go round once or twice; this ends a livelock.
  const giveUpAt = performance.now() + 3 * staleAfterMs + 10_000;
  let judgedStale: Reading | undefined;
  while (performance.now() < giveUpAt) {
    const fd = createLockFile(lock, { ...record, since: new Date().toISOString() });
    if (fd !== undefined) return holdLock(lock, fd, record.token, heartbeatMs, claim);
    const found = readLock(lock);
    if (!found) continue;
    let verdict =
      judgedStale && isSameReading(found, judgedStale)
        ? "stale"
        : judgeHolder(found, self, staleAfterMs);
    if (verdict === "watch")
      verdict = watchHeartbeat(lock, dir, found, self, options, staleAfterMs);
    if (verdict === "live") throw lockHeldBy(found.holder, dir, self);
    if (verdict === "stale") {
      judgedStale = found;
      options.beforeTakeover?.();
      removeIfUnchanged(lock, found, claim);
    }
  }
  throw new DatabaseStartError(
    `Could not lock ${dir}: ${lock} kept changing hands, or ${claim.file} is held by a process that does not finish. Try again; if it persists, make sure nothing else uses ${dir}.`,
  );
}

type Verdict = "live" | "stale" | "watch" | "changed";

function judgeHolder(found: Reading, self: Self, staleAfterMs: number): Verdict {
  const { holder } = found;
  if (isInOurPidSpace(holder, self))
    return holder.pid === process.pid || !isAlive(holder.pid) ? "stale" : "live";
  // An earlier version's lock names no namespace: a live pid here may be it, so it is refused as
  // before; a dead one may be a process elsewhere, so the file's age decides, as below.
  if (holder.format === "pid only" && holder.pid !== process.pid && isAlive(holder.pid))
    return "live";
  return Date.now() - found.mtimeMs > staleAfterMs ? "stale" : "watch";
}

/**
 * A holder elsewhere refreshed the lock lately: it is alive (heartbeat moves: "live"), dead (no
 * move for `staleAfterMs` since the last one, or since we began to watch should the clocks
 * disagree: "stale"), or the file changed hands meanwhile ("changed": judge it afresh).
 */
function watchHeartbeat(
  lock: string,
  dir: string,
  first: Reading,
  self: Self,
  options: LockOptions,
  staleAfterMs: number,
): Verdict {
  const ago = Math.max(0, Math.round((Date.now() - first.mtimeMs) / 1000));
  options.onWait?.(
    `The embedded database in ${dir} is locked by ${describeHolder(first.holder, self)}, whose last heartbeat was ${ago} s ago: waiting up to ${Math.ceil(staleAfterMs / 1000)} s for the next one (if none comes, it has stopped, and this process takes the lock over).`,
  );
  const watchedSince = performance.now();
  const poll = Math.max(10, Math.min(250, staleAfterMs / 10));
  for (;;) {
    sleep(poll);
    const now = readLock(lock);
    if (!now || now.text !== first.text || now.ino !== first.ino) return "changed";
    if (now.mtimeMs !== first.mtimeMs) return "live";
    if (Date.now() - now.mtimeMs > staleAfterMs || performance.now() - watchedSince >= staleAfterMs)
      return "stale";
  }
}

function lockHeldBy(holder: Holder, dir: string, self: Self): DataDirInUse {
  const who = describeHolder(holder, self);
  const how =
    holder.format === "current" && !isInOurPidSpace(holder, self)
      ? ": it runs elsewhere (another host or container) and keeps refreshing its lock."
      : ".";
  return new DataDirInUse(
    `Another server (${who}) is already using the embedded database in ${dir}${how} ` +
      "One process per DATA_DIR: stop it, give this one another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server between instances.",
    holder.pid,
    who,
  );
}

type Claim = { file: string; self: Self; record: LockRecord; staleAfterMs: number };

/**
 * Runs `step` holding the claim, a file only one process at a time can create; false when another
 * process holds it (and is not provably gone). A claim lives for a few system calls, so one left
 * by a process that died holding it is removed: at once when its pid is dead here, after
 * `staleAfterMs` when it comes from elsewhere.
 */
function withClaim(claim: Claim, step: () => void): boolean {
  const fd = createLockFile(claim.file, claim.record);
  if (fd === undefined) {
    const found = readLock(claim.file);
    if (found && judgeHolder(found, claim.self, claim.staleAfterMs) === "stale") {
      const now = readLock(claim.file);
      if (now && isSameReading(now, found)) rmSync(claim.file, { force: true });
    }
    return false;
  }
  closeSync(fd);
  try {
    step();
  } finally {
    if (readLock(claim.file)?.text === `${JSON.stringify(claim.record)}\n`)
      rmSync(claim.file, { force: true });
  }
  return true;
}

/**
 * Removes a lock judged stale, if it still is that file: another process may have taken it over
 * since it was read, and a heartbeat may have moved. Never blind: the claim keeps two takers from
 * removing a file each, the second one the first one's new lock.
 */
function removeIfUnchanged(lock: string, stale: Reading, claim: Claim) {
  const done = withClaim(claim, () => {
    const now = readLock(lock);
    if (now && isSameReading(now, stale)) rmSync(lock, { force: true });
  });
  if (!done) sleep(10);
}

/** Keeps the heartbeat going until released; the release removes the lock only if still ours. */
function holdLock(
  lock: string,
  fd: number,
  token: string,
  heartbeatMs: number,
  claim: Claim,
): () => void {
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      futimesSync(fd, now, now);
    } catch {
      // The next beat tries again; a holder that cannot touch its own file is judged stale.
    }
  }, heartbeatMs);
  // Holding the lock never keeps the process alive.
  heartbeat.unref();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    closeSync(fd);
    const removeIfOurs = () => {
      const now = readLock(lock);
      if (now?.holder.format === "current" && now.holder.token === token)
        rmSync(lock, { force: true });
    };
    // A claim held elsewhere is a takeover under way (ours was judged stale): theirs to finish.
    for (let attempt = 0; attempt < 3 && !withClaim(claim, removeIfOurs); attempt++) sleep(10);
  };
}
