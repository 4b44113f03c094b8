/**
 * The ledger of erasures (decisions 032, 035): every erasure a person asked for is one `erasure`
 * line in the site's log, written once its transaction has committed. A restore brings back what
 * was erased after its backup was taken; `npm run restore -- FILE --erasures LOG` reads these
 * lines and carries the later erasures out again (server/privacy/replay-erasures.ts).
 *
 * A line names every address of every row it erased, each by a keyed hash (HMAC-SHA256 with
 * ERASURE_KEY, or in emulator mode a key kept in DATA_DIR), never by the address: without the key,
 * someone holding the log cannot test a guessed address against it. The line also names the key
 * by an id derived from it, so a restore given the wrong key says so instead of matching nothing.
 * An account's erasure also names its Firebase uid, as `account.deleted` lines already do.
 */
import { createHash, createHmac } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import {
  ledgerFields,
  parseMailStopLine,
  type LedgerLogger,
  type LoggedMailStop,
} from "#server/audit/mail-stop-ledger.ts";

const ERASURE_EVENT = "erasure";

/**
 * What was erased, as the replay carries it out again:
 * - `everything`: a confirmed privacy deletion request: all the site holds under the address;
 * - `waitlist entry`: an entry, by its owner's removal link or an administrator's Remove;
 * - `subscription`: the address's sub-processor subscription, by its unsubscribe link;
 * - `account`: a member's own deletion: the account's sessions and every entry it erased (the one
 *   it joined through, whatever its address, and the one under its verified address).
 */
type ErasureScope = "everything" | "waitlist entry" | "subscription" | "account";

/** An erasure as the site records it: the addresses of every row it erased, in clear. */
export type ErasureRecord =
  | { scope: Exclude<ErasureScope, "account">; addresses: readonly string[] }
  | { scope: "account"; uid: string; addresses: readonly string[] };

/**
 * An erasure as a line names it: `subjects`, the hash of each address, made with the key whose id
 * is `key`; `key` null for a line of an older version, whose one subject (or none, for an account
 * without a verified address) was an unkeyed hash (`legacySubject`).
 */
type Erasure = ({ scope: Exclude<ErasureScope, "account"> } | { scope: "account"; uid: string }) & {
  key: string | null;
  subjects: string[];
};

/** An erasure read from the log, with when it was logged (ms since the epoch, the line's `time`). */
export type TimedErasure = Erasure & { time: number };

/** ...and where it was read, for messages: `file:line`. */
type LoggedErasure = TimedErasure & { where: string };

const LEGACY_PREFIX = "tieout erasure\n";
const SUBJECT = /^[0-9a-f]{64}$/;
const KEY_ID = /^[0-9a-f]{16}$/;
const MAX_UID = 128;
/** The latest time a Date can hold, in ms since the epoch. */
const MAX_TIME = 8.64e15;
/** More addresses than one erasure can erase (an account's entries are a handful). */
const MAX_SUBJECTS = 1000;

const normalised = (email: string) => email.trim().toLowerCase();

/** A key's id, as lines name it: not the key, and no help in finding it. */
export function erasureKeyId(key: string): string {
  return createHmac("sha256", key)
    .update("tieout erasure ledger key id")
    .digest("hex")
    .slice(0, 16);
}

/** The hash a line made with `key` names an address by: HMAC-SHA256, case and spaces ignored. */
export function erasureSubject(key: string, email: string): string {
  return createHmac("sha256", key).update(normalised(email)).digest("hex");
}

/** The unkeyed hash lines written before decision 035 name an address by. */
export function legacySubject(email: string): string {
  return createHash("sha256")
    .update(LEGACY_PREFIX + normalised(email))
    .digest("hex");
}

export type ErasureLedger = {
  /**
   * Writes one `erasure` line per erasure. Call it after the erasing transaction committed. The
   * lines are the ledger a restore reads, so they are written at info whatever LOG_LEVEL says,
   * unless it says `silent` (no log at all).
   */
  record: (erasures: readonly ErasureRecord[]) => void;
};

/**
 * The ledger, writing with the first of `keys` (ERASURE_KEY, newest first). Without a key there
 * is no ledger: the site does not start.
 */
export function createErasureLedger(log: LedgerLogger, keys: readonly string[]): ErasureLedger {
  const key = keys[0];
  if (!key) throw new Error("the ledger of erasures needs a key (ERASURE_KEY)");
  const id = erasureKeyId(key);
  return {
    record(erasures) {
      if (log.level === "silent" || erasures.length === 0) return;
      const ledger = log.child({}, { level: "info" });
      for (const { addresses, ...erasure } of erasures)
        ledger.info(
          {
            event: ERASURE_EVENT,
            ...erasure,
            key: id,
            subjects: [...new Set(addresses.map((a) => erasureSubject(key, a)))],
          },
          "erased (a restore carries it out again: npm run restore -- FILE --erasures LOG)",
        );
    },
  };
}

/** How often a running site writes a `erasure.ledger` line, so that its log always reaches back. */
const LEDGER_MARK_MS = 60 * 60_000;

/**
 * Writes an `erasure.ledger` line now and every hour until stopped, at info whatever LOG_LEVEL
 * says (unless `silent`): a restore checks that the log it is given reaches back to the backup,
 * and a site logging only warnings would otherwise write nothing for hours.
 */
export function startLedgerMarks(log: LedgerLogger): { stop: () => void } {
  const mark = () => {
    if (log.level === "silent") return;
    log
      .child({}, { level: "info" })
      .info({ event: `${ERASURE_EVENT}.ledger` }, "the ledger of erasures is this log");
  };
  mark();
  const timer = setInterval(mark, LEDGER_MARK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

export class ErasureLogError extends Error {
  override name = "ErasureLogError";
}

/**
 * One log line read: an erasure, null for any other line, or the reason a line that says it is an
 * erasure cannot be read (then the replay must not go on without it). A line may carry a prefix
 * before its JSON (a timestamp from Docker or journald): the JSON starts at its first `{`.
 */
export function parseErasureLine(line: string): TimedErasure | null | { unreadable: string } {
  const read = ledgerFields(line, ERASURE_EVENT);
  if (read === null || "unreadable" in read) return read;
  const { fields } = read;
  const { time, scope, uid, key } = fields;
  // Milliseconds a Date can hold: a forged 1e300 must be refused here, not crash a restore later.
  if (typeof time !== "number" || !Number.isSafeInteger(time) || time < 0 || time > MAX_TIME)
    return { unreadable: "it has no time in milliseconds (the log's `time` field)" };
  if (
    scope !== "everything" &&
    scope !== "waitlist entry" &&
    scope !== "subscription" &&
    scope !== "account"
  )
    return { unreadable: `its scope ${JSON.stringify(scope)} is not one the site writes` };
  const subjects = subjectsOf(fields);
  if (typeof subjects === "string") return { unreadable: subjects };
  if (key !== undefined && !(typeof key === "string" && KEY_ID.test(key)))
    return { unreadable: "its key id is not one of ours" };
  // A line of an older version has no key: its one subject is unkeyed, and it must have one
  // unless it is an account's.
  if (key === undefined && scope !== "account" && subjects.length === 0)
    return { unreadable: "its subject is not a hash of ours" };
  const common = { key: typeof key === "string" ? key : null, subjects, time };
  if (scope === "account") {
    if (typeof uid !== "string" || uid === "" || uid.length > MAX_UID)
      return { unreadable: "an account's erasure without its uid" };
    return { scope, uid, ...common };
  }
  return { scope, ...common };
}

/** A line's hashes: `subjects` (a keyed line) or `subject` (an older one, one hash or null). */
function subjectsOf(fields: Record<string, unknown>): string[] | string {
  const { subjects, subject, key } = fields;
  if (key !== undefined) {
    if (
      !Array.isArray(subjects) ||
      subjects.length > MAX_SUBJECTS ||
      !subjects.every((s) => typeof s === "string" && SUBJECT.test(s))
    )
      return "its subjects are not hashes of ours";
    return subjects as string[];
  }
  if (subject === undefined || subject === null) return [];
  if (typeof subject === "string" && SUBJECT.test(subject)) return [subject];
  return "its subject is not a hash of ours";
}

/** A log file's lines, gunzipped when it is gzip (a rotated log), told by its first bytes. */
async function linesOf(file: string): Promise<AsyncIterable<string>> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new ErasureLogError(`${file}: there is no such file`);
    if (code === "EACCES" || code === "EPERM")
      throw new ErasureLogError(`${file}: it cannot be read (permission denied)`);
    throw new ErasureLogError(`${file}: it cannot be opened (${(error as Error).message})`);
  }
  try {
    if ((await handle.stat()).isDirectory())
      throw new ErasureLogError(`${file}: it is a folder, not a log file`);
    const magic = Buffer.alloc(2);
    await handle.read(magic, 0, 2, 0);
    let stream: Readable = createReadStream(file);
    if (magic[0] === 0x1f && magic[1] === 0x8b) {
      const raw = stream;
      stream = raw.pipe(createGunzip());
      raw.on("error", (error) => stream.destroy(error));
    }
    return createInterface({ input: stream, crlfDelay: Infinity });
  } finally {
    await handle.close();
  }
}

export type ErasureLogs = {
  erasures: LoggedErasure[];
  /** The ledger of mail stopped (server/audit/mail-stop-ledger.ts), read from the same lines. */
  stops: LoggedMailStop[];
  /** Lines read, of every kind. */
  lines: number;
  /** The earliest and latest `time` of any line, ms since the epoch; null without one. */
  first: number | null;
  last: number | null;
  /**
   * Stretches after `since` (the backup's time) longer than two hours without a line: a running
   * site marks its log every hour, so there the log is missing a file, or the site was stopped.
   */
  gaps: { from: number; to: number }[];
};

/** A stretch without a line longer than this is a gap (twice the site's hourly mark). */
const GAP_MS = 2 * LEDGER_MARK_MS;

/**
 * The gaps in a log's times after `since`: between the last line before it (or `since` itself)
 * and the first after, and between lines after it. `times` in any order.
 */
export function gapsAfter(times: readonly number[], since: number): { from: number; to: number }[] {
  const before = times.filter((t) => t <= since);
  const after = times.filter((t) => t > since).sort((a, b) => a - b);
  const points = [before.length > 0 ? Math.max(...before) : since, ...after];
  const gaps: { from: number; to: number }[] = [];
  for (let i = 1; i < points.length; i++)
    if (points[i]! - points[i - 1]! > GAP_MS) gaps.push({ from: points[i - 1]!, to: points[i]! });
  return gaps;
}

const TIME = /"time"\s*:\s*(\d{12,14})\b/;

/**
 * Reads the erasures and the stops of mail in the site's log files, each in the order they were
 * logged, with the span of time the files cover and the gaps in it after `since`. A line that says
 * it is either but cannot be read is an ErasureLogError naming its file and line: going on without
 * it could bring back what someone had erased, or mail them again.
 */
export async function readErasureLogs(files: string[], since: number): Promise<ErasureLogs> {
  const read: ErasureLogs = {
    erasures: [],
    stops: [],
    lines: 0,
    first: null,
    last: null,
    gaps: [],
  };
  // The times after `since`, for the gaps, and the last one before it.
  const times: number[] = [];
  let lastBefore: number | null = null;
  for (const file of files) {
    let n = 0;
    try {
      for await (const line of await linesOf(file)) {
        n++;
        const time = TIME.exec(line);
        if (time) {
          const ms = Number(time[1]);
          read.first = read.first === null ? ms : Math.min(read.first, ms);
          read.last = read.last === null ? ms : Math.max(read.last, ms);
          if (ms > since) times.push(ms);
          else lastBefore = lastBefore === null ? ms : Math.max(lastBefore, ms);
        }
        const stop = parseMailStopLine(line);
        if (stop !== null) {
          if ("unreadable" in stop)
            throw new ErasureLogError(
              `${file} line ${n} is a stop of mail that cannot be read: ${stop.unreadable}`,
            );
          read.stops.push({ ...stop, where: `${file}:${n}` });
          continue;
        }
        const erasure = parseErasureLine(line);
        if (erasure === null) continue;
        if ("unreadable" in erasure)
          throw new ErasureLogError(
            `${file} line ${n} is an erasure that cannot be read: ${erasure.unreadable}`,
          );
        read.erasures.push({ ...erasure, where: `${file}:${n}` });
      }
    } catch (error) {
      if (error instanceof ErasureLogError) throw error;
      throw new ErasureLogError(
        `${file} could not be read to its end (line ${n}): ${(error as Error).message}`,
      );
    }
    read.lines += n;
  }
  read.erasures.sort((a, b) => a.time - b.time);
  read.stops.sort((a, b) => a.time - b.time);
  read.gaps = gapsAfter(lastBefore === null ? times : [lastBefore, ...times], since);
  return read;
}
