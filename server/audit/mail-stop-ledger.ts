/**
 * The ledger of mail stopped (decision 042): every suppression the site adds (a refusal, a bounce,
 * a complaint, an unsubscribe from a mail or from /account, an administrator's) is one
 * `mail.stopped` line in the site's log, beside the erasure ledger's lines. A restore reads them
 * with the erasures (`readErasureLogs`) and stops again what was stopped after its backup, so a
 * person who unsubscribed or whose address bounced is not mailed again because of a restore.
 *
 * The line is written by the suppression list's one door (server/mail/suppressions.ts), in the
 * transaction, before it commits: a line whose transaction then failed stops a mail that was not
 * stopped, which errs the safe way, and no caller can add a suppression without its line.
 *
 * A line names the address by the suppression list's own keyed hash (never the address) and that
 * key by an id derived from it, so a restore given the wrong ERASURE_KEY says so.
 */
import { createHmac, type KeyObject } from "node:crypto";
import { SUPPRESSION_REASONS, SUPPRESSION_SCOPES } from "#db/schema.ts";

export const MAIL_STOP_EVENT = "mail.stopped";

/** The site's logger, as a ledger (this one, the erasures') writes through it. */
export type LedgerLogger = {
  level: string;
  child: (
    bindings: object,
    options: { level: string },
  ) => {
    info: (fields: object, message: string) => void;
  };
};

type Scope = (typeof SUPPRESSION_SCOPES)[number];
type Reason = (typeof SUPPRESSION_REASONS)[number];

/** A stop as a line names it: the address's hash under the key whose id is `key`. */
export type MailStop = { scope: Scope; reason: Reason; key: string; subject: string; time: number };

/** ...and where it was read, for messages: `file:line`. */
export type LoggedMailStop = MailStop & { where: string };

const SUBJECT = /^[0-9a-f]{64}$/;
const KEY_ID = /^[0-9a-f]{16}$/;
/** The latest time a Date can hold, in ms since the epoch. */
const MAX_TIME = 8.64e15;

/** A suppression key's id, as lines name it: not the key, and no help in finding it. */
export function mailStopKeyId(key: KeyObject): string {
  return createHmac("sha256", key)
    .update("tieout mail stop ledger key id")
    .digest("hex")
    .slice(0, 16);
}

export type MailStopLedger = {
  /**
   * Writes one line for a suppression, named by `subject` (its hash under `key`). Written at info
   * whatever LOG_LEVEL says, unless it says `silent` (no log at all), as the erasure ledger's.
   */
  record: (stop: { key: KeyObject; subject: string; scope: Scope; reason: Reason }) => void;
};

export function createMailStopLedger(log: LedgerLogger): MailStopLedger {
  return {
    record({ key, subject, scope, reason }) {
      if (log.level === "silent") return;
      log
        .child({}, { level: "info" })
        .info(
          { event: MAIL_STOP_EVENT, scope, reason, key: mailStopKeyId(key), subject },
          "mail stopped (a restore stops it again: npm run restore -- FILE --erasures LOG)",
        );
    },
  };
}

/** For tests and scripts that keep no log: the lines go nowhere. */
export const UNLOGGED: MailStopLedger = { record: () => {} };

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === "string" && (list as readonly string[]).includes(value);

/**
 * A ledger line's fields when the line is one of `event` (its JSON starts at its first `{`, after
 * any prefix Docker or journald wrote), null for any other line, or why a line that says it is
 * one cannot be read.
 */
export function ledgerFields(
  line: string,
  event: string,
): { fields: Record<string, unknown> } | null | { unreadable: string } {
  if (!line.includes(event)) return null;
  const start = line.indexOf("{");
  if (start < 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(line.slice(start));
  } catch {
    // Only a line that says so is one; anything else is some other program's text.
    return line.includes(`"event":"${event}"`) ||
      new RegExp(`"event"\\s*:\\s*"${event.replace(".", "\\.")}"`).test(line)
      ? { unreadable: "it is not whole JSON (cut short or edited?)" }
      : null;
  }
  if (typeof value !== "object" || value === null) return null;
  const fields = value as Record<string, unknown>;
  return fields.event === event ? { fields } : null;
}

/**
 * One log line read: a stop, null for any other line, or the reason a line that says it is a stop
 * cannot be read (then the restore must not go on without it). A line may carry a prefix before
 * its JSON, as erasure lines may.
 */
export function parseMailStopLine(line: string): MailStop | null | { unreadable: string } {
  const read = ledgerFields(line, MAIL_STOP_EVENT);
  if (read === null || "unreadable" in read) return read;
  const { fields } = read;
  const { time, scope, reason, key, subject } = fields;
  if (typeof time !== "number" || !Number.isSafeInteger(time) || time < 0 || time > MAX_TIME)
    return { unreadable: "it has no time in milliseconds (the log's `time` field)" };
  if (!isOneOf(SUPPRESSION_SCOPES, scope))
    return { unreadable: `its scope ${JSON.stringify(scope)} is not one the site writes` };
  if (!isOneOf(SUPPRESSION_REASONS, reason))
    return { unreadable: `its reason ${JSON.stringify(reason)} is not one the site writes` };
  if (!(typeof key === "string" && KEY_ID.test(key)))
    return { unreadable: "its key id is not one of ours" };
  if (!(typeof subject === "string" && SUBJECT.test(subject)))
    return { unreadable: "its subject is not a hash of ours" };
  return { scope, reason, key, subject, time };
}
