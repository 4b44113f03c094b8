/**
 * `npm run restore -- FILE --erasures LOG…` (or `--no-erasures`): loads a backup from
 * `npm run backup` into an empty DATA_DIR or the empty database of DATABASE_URL (configured as
 * the server is), in one transaction; a target with anything in it is refused and left as it
 * was. Before the restore is final, every session and every link that grants something is ended,
 * and the erasures the site logged since the backup was taken are carried out again (decisions
 * 032, 035). See docs/decisions/027-backups.md.
 */
import path from "node:path";
import { describeDatabaseUrl } from "#db/client.ts";
import { DataDirInUse } from "#db/data-dir-lock.ts";
import {
  openDump,
  restoreEmbedded,
  restoreServer,
  RestoreError,
  unknownMigrations,
  type RestoreProgress,
} from "#db/restore.ts";
import {
  ErasureLogError,
  readErasureLogs,
  type ErasureLogs,
} from "#server/audit/erasure-ledger.ts";
import {
  missingErasureKeys,
  replayErasures,
  type ReplayReport,
} from "#server/privacy/replay-erasures.ts";
import { endWhatTheBackupHeldOpen, type EndedByRestore } from "#server/operations/after-restore.ts";
import {
  missingMailStopKeys,
  replayMailStops,
  type MailStopReport,
} from "#server/privacy/replay-mail-stops.ts";
import {
  fail,
  formatBytes,
  formatCount,
  loadConfiguration,
  ProgressLine,
  rowsPerTable,
  seconds,
} from "./backup-cli.ts";

const USAGE =
  "Usage: npm run restore -- FILE --erasures LOG [--erasures LOG…] | --no-erasures   (FILE: a file from npm run backup, into an empty DATA_DIR or DATABASE_URL; LOG: the site's log since the backup, whose erasures are carried out again)";

const HELP = `npm run restore -- FILE --erasures LOG [--erasures LOG…]
npm run restore -- FILE --no-erasures

Loads FILE, a file from npm run backup, into an empty DATA_DIR or the empty database of
DATABASE_URL, in one transaction.

--erasures LOG   the site's log (JSON lines, plain or .gz) from before the backup was taken to now;
                 the erasures logged since the backup are carried out again before the restore is
                 final, and the mail stopped since (unsubscribes, bounces, complaints) is stopped
                 again. Once per file.
--no-erasures    nothing was erased or stopped since the backup, or no log of it is left (then see
                 the README, Backups, for what to do).`;

/** FILE, and the logs to read erasures from (null for --no-erasures; undefined when not said). */
function parseArguments(args: string[]): { file: string; logs: string[] | null | undefined } {
  if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
    console.log(HELP);
    process.exit(0);
  }
  const files: string[] = [];
  const logs: string[] = [];
  let none = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--no-erasures") none = true;
    else if (arg === "--erasures") {
      const log = args[++i];
      if (!log || log.startsWith("--")) fail(`--erasures needs a log file after it. ${USAGE}`);
      logs.push(log);
    } else if (arg.startsWith("--erasures=")) logs.push(arg.slice("--erasures=".length));
    else if (arg.startsWith("-")) fail(`Unknown option ${arg}. ${USAGE}`);
    else files.push(arg);
  }
  if (files.length !== 1 || !files[0]) fail(USAGE);
  if (none && logs.length > 0) fail(`Say --erasures LOG or --no-erasures, not both. ${USAGE}`);
  return { file: files[0], logs: none ? null : logs.length > 0 ? logs : undefined };
}

const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const { file, logs } = parseArguments(process.argv.slice(2));
const env = loadConfiguration();
const started = performance.now();

let dump;
try {
  dump = await openDump(file);
} catch (error) {
  if (error instanceof RestoreError) fail(`Cannot restore ${file}: ${error.message}.`);
  throw error;
}
const newer = await unknownMigrations(dump.meta);
if (newer.length > 0) {
  dump.close();
  fail(
    `Cannot restore ${file}: it comes from a newer version of the site (migration ${newer.join(", ")} is not in db/migrations). Restore it with that version.`,
  );
}

const taken = new Date(dump.meta.taken);
if (logs === undefined) {
  dump.close();
  fail(
    `Cannot restore ${file} without a word on erasures: a restore brings back what was erased after the backup was taken (${at(taken.getTime())}). Give the site's log since then with --erasures LOG (once per file; .gz is read too), and what it erased is erased again. If nothing was erased since, or no log is left, say --no-erasures (see the README, Backups). Nothing was changed.`,
  );
}
let ledger: ErasureLogs | null = null;
if (logs !== null) {
  try {
    ledger = await readErasureLogs(logs, taken.getTime());
  } catch (error) {
    dump.close();
    if (error instanceof ErasureLogError)
      fail(`Cannot restore ${file}: ${error.message}. Nothing was changed.`);
    throw error;
  }
  // The log must reach back to the backup: erasures after it are what the restore would lose.
  if (ledger.first === null || ledger.first > taken.getTime()) {
    dump.close();
    fail(
      ledger.first === null
        ? `Cannot restore ${file}: ${logs.join(", ")} holds no line of the site's log (JSON with a "time"), so it cannot say what was erased since the backup was taken (${at(taken.getTime())}). Nothing was changed.`
        : `Cannot restore ${file}: the log given begins at ${at(ledger.first)}, after the backup was taken (${at(taken.getTime())}): erasures in between would be missed. Give the older log too (--erasures once per file). Nothing was changed.`,
    );
  }
  // Each erasure names its addresses by a hash keyed with ERASURE_KEY: without the key it was
  // made with, it matches nothing, and what it erased would come back.
  const missing = [
    ...missingErasureKeys(ledger.erasures, taken, env.erasureKeys),
    ...missingMailStopKeys(ledger.stops, taken, env.erasureKeys),
  ];
  if (missing.length > 0) {
    dump.close();
    fail(
      `Cannot restore ${file}: the erasures and stops of mail logged since the backup name addresses by hashes keyed with ${missing.map(({ key, where }) => `key ${key} (first at ${where})`).join(" and ")}, and ERASURE_KEY ${env.erasureKeys.length === 0 ? "is not set" : "holds no such key"}. Set ERASURE_KEY to the key the site ran with (every key it ran with, newest first, separated by commas; in emulator mode, the file erasure-key in its DATA_DIR). Nothing was changed.`,
    );
  }
}

let replayed: ReplayReport | null = null;
let stopped: MailStopReport | null = null;
let ended: EndedByRestore | null = null;
const finish = async (db: Parameters<typeof replayErasures>[0]) => {
  ended = await endWhatTheBackupHeldOpen(db, taken);
  if (ledger === null) return;
  const read = ledger;
  // The database's own words, not the query (its parameters are addresses).
  const failed = (what: string, error: unknown) => {
    const cause = (error as Error).cause;
    return new Error(
      `${what} could not be carried out again (${cause instanceof Error ? cause.message : (error as Error).message})`,
    );
  };
  try {
    replayed = await replayErasures(db, read.erasures, taken, env.erasureKeys);
  } catch (error) {
    throw failed("the erasures", error);
  }
  try {
    stopped = await replayMailStops(db, read.stops, taken, env.erasureKeys);
  } catch (error) {
    throw failed("the stops of mail", error);
  }
};

const target = env.databaseUrl
  ? `the database in DATABASE_URL (${describeDatabaseUrl(env.databaseUrl)})`
  : `DATA_DIR (${path.resolve(env.dataDir)})`;
const progress = new ProgressLine();
const onProgress = ({ bytes, of }: RestoreProgress) =>
  progress.update(
    `${formatBytes(bytes)} of ${formatBytes(of)} read (${Math.floor((100 * bytes) / Math.max(of, 1))}%)`,
  );

let counted: Record<string, number>;
try {
  counted = env.databaseUrl
    ? await restoreServer(env.databaseUrl, dump, { onProgress, finish })
    : await restoreEmbedded(env.dataDir, dump, {
        onProgress,
        onLockWait: (message) => console.log(message),
        finish,
      });
} catch (error) {
  progress.done();
  dump.close();
  if (error instanceof DataDirInUse)
    fail(
      `Cannot restore into ${target}: ${error.holder} is using it. A restore writes only into an empty DATA_DIR that no server uses; nothing was changed.`,
    );
  fail(`Cannot restore ${file}: ${(error as Error).message}. Nothing was changed.`);
}
progress.done();
console.log(
  `Restored ${file} (taken ${dump.meta.taken} from ${dump.meta.source}, ${dump.meta.method}) into ${target} in ${seconds(performance.now() - started)}.`,
);
console.log(`Every row the backup counted is there: ${rowsPerTable(counted)}.`);
// The restore's last step ran, or it would have stopped above.
console.log(endedSummary(ended!));
console.log(erasureSummary(ledger, replayed));
console.log(stopSummary(stopped));
for (const warning of [
  ...unmatchedWarnings(replayed),
  ...unkeyedWarnings(ledger),
  ...gapWarnings(ledger),
])
  console.error(warning);
console.log("Start the site on it as usual (npm start); it applies any newer migrations.");

/**
 * What the log may be missing: a stretch after the backup without a line (a running site writes
 * one every hour), or an end long before now. Said, not refused: the site may have been stopped.
 */
function gapWarnings(read: ErasureLogs | null): string[] {
  if (read === null || read.last === null) return [];
  const hours = (ms: number) => `${Math.round(ms / 3_600_000)} h`;
  const warnings = read.gaps.map(
    ({ from, to }) =>
      `Warning: the log has no line from ${at(from)} to ${at(to)} (${hours(to - from)}). If the site ran then, a log file of that time is missing and erasures made in it were not carried out again.`,
  );
  if (Date.now() - read.last > 2 * 3_600_000)
    warnings.push(
      `Warning: the log ends at ${at(read.last)}, ${hours(Date.now() - read.last)} ago. If the site ran since, give its newer log too: erasures made since were not carried out again.`,
    );
  return warnings;
}

/** The counts that are not 0, in words: "2 invitation links, 1 session". */
function inWords(counts: readonly (readonly [number, string, string])[]): string {
  return counts
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => `${formatCount(n)} ${n === 1 ? one : many}`)
    .join(", ");
}

/** What the restore ended, and what to do about it. */
function endedSummary(done: EndedByRestore): string {
  const links = inWords([
    [done.confirmations, "waitlist confirmation link", "waitlist confirmation links"],
    [done.invitations, "invitation link", "invitation links"],
    [done.subscriptions, "subscription confirmation link", "subscription confirmation links"],
    [done.privacyRequests, "privacy request link", "privacy request links"],
  ]);
  return (
    `Ended what the backup held open, since it may have ended after the backup was taken: ` +
    `${formatCount(done.sessions)} ${done.sessions === 1 ? "session" : "sessions"} (everyone signs in again)` +
    (links ? `, ${links}` : "") +
    `. Removal and unsubscribe links still work.` +
    (done.passkeys + done.recoveryCodes + done.exportTokens > 0
      ? ` Administrators' credentials ended too (${inWords([
          [done.passkeys, "passkey", "passkeys"],
          [done.recoveryCodes, "recovery code", "recovery codes"],
          [done.exportTokens, "export token", "export tokens"],
        ])}): each administrator sets up a new passkey with their password and a mailed code, and scripts need new export tokens (npm run admin -- export-token EMAIL).`
      : "") +
    (done.broadcasts > 0
      ? ` ${formatCount(done.broadcasts)} ${done.broadcasts === 1 ? "broadcast" : "broadcasts"} being sent or scheduled ${done.broadcasts === 1 ? "was" : "were"} paused` +
        (done.broadcastMails > 0
          ? `, and ${formatCount(done.broadcastMails)} of ${done.broadcasts === 1 ? "its" : "their"} mails the backup held unsent withheld (they may have gone after it was taken)`
          : "") +
        ": resume or cancel each on /admin/broadcasts."
      : "") +
    (done.invitations > 0 ? " Resend the invitations from /admin/waitlist." : "") +
    (done.confirmations > 0
      ? " An entry whose confirmation link ended is kept 14 days from its last confirmation mail; its owner submitting the form again is sent a new one."
      : "")
  );
}

/**
 * Lines of the older, unkeyed form logged after a keyed one: a site of this version never writes
 * them, so unless an instance of the older version still ran then, someone wrote them into the
 * log. They were carried out; said, so the operator can look.
 */
function unkeyedWarnings(read: ErasureLogs | null): string[] {
  const keyed = (read?.erasures ?? []).filter((e) => e.key !== null).map((e) => e.time);
  if (keyed.length === 0) return [];
  const since = Math.min(...keyed);
  return read!.erasures
    .filter((e) => e.key === null && e.time > since)
    .map(
      (e) =>
        `Warning: the erasure at ${e.where} has no key, but was logged after the site began keying its erasures (${at(since)}): unless an instance of an older version still ran then, it was not written by the site. It was carried out; look at it.`,
    );
}

/** An erasure that could not be matched in full, said as loudly as a terminal allows. */
function unmatchedWarnings(report: ReplayReport | null): string[] {
  return (report?.unmatched ?? []).map(
    ({ where, uid }) =>
      `Warning: the erasure at ${where} (the account ${uid}, deleted by its member) names no address: it was written by an older version of the site. Its sessions were ended, but a waitlist entry it erased is back if the member joined through an invitation after the backup was taken. Find the entry the member joined with on /admin/waitlist and remove it.`,
  );
}

/** The stops of mail carried out again (decision 042). */
function stopSummary(report: MailStopReport | null): string {
  if (report === null)
    return "Mail stopped: none stopped again (--no-erasures): an unsubscribe, bounce or complaint after the backup was taken no longer stops mail; look at the suppression list.";
  if (report.considered === 0) return "Mail stopped: none logged since the backup was taken.";
  return (
    `Mail stopped: ${formatCount(report.considered)} ${report.considered === 1 ? "stop" : "stops"} logged since the backup was taken (an unsubscribe, a bounce, a complaint or an administrator's), stopped again: ` +
    `${formatCount(report.suppressed)} put back on the suppression list` +
    (report.withdrawn > 0
      ? `, ${formatCount(report.withdrawn)} ${report.withdrawn === 1 ? "consent" : "consents"} to news withdrawn again`
      : "") +
    "."
  );
}

function erasureSummary(read: ErasureLogs | null, report: ReplayReport | null): string {
  if (read === null || report === null)
    return "Erasures: none carried out again (--no-erasures): anything erased after the backup was taken is back.";
  const span = `${formatCount(read.lines)} log lines from ${at(read.first!)} to ${at(read.last!)}`;
  if (report.considered === 0) return `Erasures: none logged since the backup was taken (${span}).`;
  const what = inWords([
    [report.entries, "waitlist entry", "waitlist entries"],
    [report.subscriptions, "subscription", "subscriptions"],
    [report.sessions, "session", "sessions"],
    [report.requests, "privacy request", "privacy requests"],
  ]);
  const unmatched = report.unmatched.length;
  return (
    `Erasures: ${formatCount(report.considered)} logged since the backup was taken (${span}), carried out again: ` +
    `${formatCount(report.effective)} found something to erase${what ? ` (${what})` : ""}` +
    (report.notHeld > 0
      ? `, ${formatCount(report.notHeld)} found nothing under the addresses they name (not in the backup, or erased by an earlier line)`
      : "") +
    (unmatched > 0
      ? `, ${formatCount(unmatched)} could not be matched in full (see the ${unmatched === 1 ? "warning" : "warnings"} below).`
      : ".")
  );
}
