/**
 * A logger like the server's (pino, JSON lines) whose lines a test can read back: for the lines
 * that are part of what the site promises, such as the ledger of erasures.
 */
import { Writable } from "node:stream";
import { pino, type Logger } from "pino";
import { createErasureLedger, type ErasureRecord } from "#server/audit/erasure-ledger.ts";
import { TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";

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
 * The text of a log as the site writes it, with each line at the time given: an erasure through
 * the site's own writer (keyed with `key`), or an ordinary request line. For restores that read a
 * log.
 */
export function siteLogText(
  lines: { time: number; erasure?: ErasureRecord }[],
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
    else log.info({ event: "request" }, "request");
  }
  return text;
}
