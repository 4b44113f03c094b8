/**
 * The ledger of erasures as the site writes it and a restore reads it (decision 032): a hash, not
 * the address; lines read through prefixes and gzip; a damaged erasure line stops the restore,
 * other lines do not.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, expect, test } from "vitest";
import {
  erasureSubject,
  gapsAfter,
  logErasures,
  parseErasureLine,
  readErasureLogs,
  startLedgerMarks,
  type Erasure,
} from "#server/privacy/erasure-ledger.ts";

const work = mkdtempSync(path.join(tmpdir(), "tieout-erasure-ledger-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The lines a pino logger like the site's writes for these erasures. */
function logged(erasures: Erasure[], level = "info"): string[] {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  logErasures(pino({ level, base: { pid: 1, hostname: "web-1" } }, sink), erasures);
  return lines;
}

test("an address is named by a hash that ignores case and spaces around it, and the line holds no address", () => {
  const subject = erasureSubject("Ada.Lovelace@Example.com ");
  expect(subject).toMatch(/^[0-9a-f]{64}$/);
  expect(erasureSubject("ada.lovelace@example.com")).toBe(subject);
  expect(erasureSubject("ada.lovelace+x@example.com")).not.toBe(subject);
  // Not the bare SHA-256 of the address that lists of hashed addresses elsewhere use.
  expect(subject).not.toBe(createHash("sha256").update("ada.lovelace@example.com").digest("hex"));

  const [line] = logged([{ scope: "everything", subject }]);
  expect(line).not.toMatch(/lovelace|example/i);
  expect(JSON.parse(line!)).toMatchObject({ event: "erasure", scope: "everything", subject });
});

test("every line the site writes reads back as what it said, with its time", () => {
  const subject = erasureSubject("grace@example.com");
  const written: Erasure[] = [
    { scope: "everything", subject },
    { scope: "waitlist entry", subject },
    { scope: "subscription", subject },
    { scope: "account", uid: "Xy12abc", subject },
    { scope: "account", uid: "NoVerifiedAddress", subject: null },
  ];
  const before = Date.now();
  const read = logged(written).map((line) => parseErasureLine(line));
  expect(read).toEqual(written.map((e) => ({ ...e, time: expect.any(Number) as number })));
  for (const r of read) expect((r as { time: number }).time).toBeGreaterThanOrEqual(before);
});

test("the lines are written at info even when the log says warn or error, and not at all when it is silent", () => {
  const erasure: Erasure = { scope: "waitlist entry", subject: erasureSubject("a@example.com") };
  for (const level of ["debug", "info", "warn", "error"])
    expect(
      logged([erasure], level).map((line) => JSON.parse(line) as { level: number }),
      level,
    ).toEqual([expect.objectContaining({ level: 30, event: "erasure" })]);
  expect(logged([erasure], "silent")).toEqual([]);
});

test("a running site marks its log as the ledger at once and every hour, whatever its level", () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const marks = startLedgerMarks(pino({ level: "warn" }, sink));
  marks.stop();
  expect(lines.map((line) => JSON.parse(line) as object)).toEqual([
    expect.objectContaining({ level: 30, event: "erasure.ledger" }),
  ]);
});

test("other lines are not erasures, even when they mention the word, and a prefix before the JSON is skipped", () => {
  const [line] = logged([{ scope: "subscription", subject: erasureSubject("a@example.com") }]);
  expect(parseErasureLine(`2026-11-26T10:00:00.000Z stdout F ${line}`)).toMatchObject({
    scope: "subscription",
  });
  for (const other of [
    "",
    "erasure",
    "npm run restore -- FILE --erasures LOG",
    '{"level":30,"time":1795689031854,"event":"privacy.fulfilled","msg":"erasure done"}',
    '{"level":30,"time":1795689031854,"event":"erasures","scope":"everything"}',
    "[1] erasure { not json",
  ])
    expect(parseErasureLine(other), other).toBeNull();
});

test("an erasure line that cannot be read says why", () => {
  const subject = erasureSubject("a@example.com");
  const line = (fields: object) => JSON.stringify({ level: 30, event: "erasure", ...fields });
  const cases: [string, string][] = [
    [line({ scope: "everything", subject }), "it has no time in milliseconds"],
    [line({ time: 1, scope: "everything" }), "its subject is not a hash of ours"],
    [line({ time: 1, scope: "everything", subject: "a@example.com" }), "not a hash of ours"],
    [line({ time: 1, scope: "nothing", subject }), 'its scope "nothing" is not one'],
    [line({ time: 1, scope: "account" }), "an account's erasure without its uid"],
    [line({ time: 1, scope: "account", uid: "u", subject: "x" }), "not a hash of ours"],
    [line({ time: 1, scope: "waitlist entry", subject }).slice(0, 60), "not whole JSON"],
  ];
  for (const [text, reason] of cases) {
    const read = parseErasureLine(text);
    expect(read, text).toHaveProperty("unreadable");
    expect((read as { unreadable: string }).unreadable, text).toContain(reason);
  }
});

test("log files are read plain or gzipped, in time order, with the span they cover; a damaged erasure names its file and line", async () => {
  const a = erasureSubject("a@example.com");
  const b = erasureSubject("b@example.com");
  const plain = path.join(work, "site.log");
  const rotated = path.join(work, "site.log.1.gz");
  const at = (time: number, fields: object) =>
    JSON.stringify({ level: 30, time, pid: 1, ...fields });
  writeFileSync(
    plain,
    [
      at(1_795_600_000_000, { msg: "server listening" }),
      at(1_795_600_300_000, { event: "erasure", scope: "waitlist entry", subject: b }),
      "not a log line at all",
      at(1_795_600_900_000, { msg: "request" }),
    ].join("\n") + "\n",
  );
  writeFileSync(
    rotated,
    gzipSync(
      [
        at(1_795_500_000_000, { msg: "server listening" }),
        at(1_795_500_100_000, { event: "erasure", scope: "everything", subject: a }),
      ].join("\r\n"),
    ),
  );
  // A backup taken between the rotated file's two lines: the day after it has no line at all.
  const read = await readErasureLogs([plain, rotated], 1_795_500_050_000);
  expect(read.lines).toBe(6);
  expect(read.first).toBe(1_795_500_000_000);
  expect(read.last).toBe(1_795_600_900_000);
  expect(read.gaps).toEqual([{ from: 1_795_500_100_000, to: 1_795_600_000_000 }]);
  expect(read.erasures).toEqual([
    { scope: "everything", subject: a, time: 1_795_500_100_000, where: `${rotated}:2` },
    { scope: "waitlist entry", subject: b, time: 1_795_600_300_000, where: `${plain}:2` },
  ]);

  const damaged = path.join(work, "damaged.log");
  writeFileSync(
    damaged,
    [at(1, { msg: "x" }), at(2, { event: "erasure", scope: "everything", subject: "abc" })].join(
      "\n",
    ),
  );
  await expect(readErasureLogs([plain, damaged], 0)).rejects.toThrow(
    `${damaged} line 2 is an erasure that cannot be read: its subject is not a hash of ours`,
  );
  await expect(readErasureLogs([path.join(work, "missing.log")], 0)).rejects.toThrow(
    "missing.log: there is no such file",
  );
  await expect(readErasureLogs([work], 0)).rejects.toThrow("it is a folder, not a log file");
  const cut = path.join(work, "cut.log.gz");
  writeFileSync(cut, gzipSync(at(1, { msg: "x" }) + "\n".repeat(1000)).subarray(0, 30));
  await expect(readErasureLogs([cut], 0)).rejects.toThrow(`${cut} could not be read to its end`);
});

test("a stretch of more than two hours without a line after the backup is a gap; before the backup, none counts", () => {
  const hour = 3_600_000;
  const since = 100 * hour;
  // Hourly marks before the backup, then a night without the log, then marks again.
  const times = [95, 97, 99, 100.5, 101.5, 106, 107, 107.5].map((h) => h * hour);
  expect(gapsAfter(times, since)).toEqual([{ from: 101.5 * hour, to: 106 * hour }]);
  // From the last line before the backup to the first after it.
  expect(gapsAfter([90 * hour, 103 * hour], since)).toEqual([{ from: 90 * hour, to: 103 * hour }]);
  // Two hours exactly is the longest stretch that is not a gap.
  expect(gapsAfter([99 * hour, 101 * hour, 103 * hour], since)).toEqual([]);
  expect(gapsAfter([], since)).toEqual([]);
});
