/**
 * A logger like the server's (pino, JSON lines) whose lines a test can read back: for the lines
 * that are part of what the site promises, such as the ledger of erasures.
 */
import { Writable } from "node:stream";
import { pino, type Logger } from "pino";
import { createErasureLedger, type ErasureRecord } from "#server/audit/erasure-ledger.ts";
import { createMailStopLedger, type MailStop } from "#server/audit/mail-stop-ledger.ts";
import { suppressionHashes, suppressionKeys } from "#server/mail/suppressions.ts";
import { TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";

/** A suppression the site added, as its line names it (by the address, hashed when written). */
type LoggedStop = Pick<MailStop, "scope" | "reason"> & { address: string };

export type CapturedLog = {
  log: Logger;
  /** Every line written so far, parsed. */
  lines: () => Record<string, unknown>[];
  /** The lines of one event. */
  events: (event: string) => Record<string, unknown>[];
};

export function captureLog(level: pino.LevelWithSilent = "warn"): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n"))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return {
    log: pino({ level }, sink),
    lines: () => [...lines],
    events: (event) => lines.filter((line) => line.event === event),
  };
}

/**
 * The text of a log as the site writes it, with each line at the time given: an erasure or a stop
 * of mail through the site's own writer (keyed with `key`), or an ordinary request line. For restores that read a
 * log.
 */
export function siteLogText(
  lines: { time: number; erasure?: ErasureRecord; stop?: LoggedStop }[],
  key = TEST_ERASURE_KEY,
): string {
  let text = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  for (const line of lines) {
    const log = pino({ timestamp: () => `,"time":${line.time}` }, sink);
    if (line.erasure) createErasureLedger(log, [key]).record([line.erasure]);
    else if (line.stop) {
      // As the suppression list writes it (server/mail/suppressions.ts), under its key.
      const [listKey] = suppressionKeys([key]);
      const [subject] = suppressionHashes([listKey!], line.stop.address);
      createMailStopLedger(log).record({ ...line.stop, key: listKey!, subject: subject! });
    } else log.info({ event: "request" }, "request");
  }
  return text;
}
