/**
 * The ledger of erasures as the site writes it and a restore reads it (decisions 032, 035): keyed
 * hashes of every address erased, never an address; lines read through prefixes and gzip; lines of
 * the older, unkeyed form still read; a damaged erasure line stops the restore, other lines do not.
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
  createErasureLedger,
  erasureKeyId,
  erasureSubject,
  gapsAfter,
  legacySubject,
  parseErasureLine,
  readErasureLogs,
  startLedgerMarks,
  type ErasureRecord,
} from "#server/audit/erasure-ledger.ts";

const work = mkdtempSync(path.join(tmpdir(), "tieout-erasure-ledger-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const KEY = "the ledger key of these unit tests, 32+ characters";
const KEY_ID = erasureKeyId(KEY);

/** The lines a pino logger like the site's writes for these erasures. */
function logged(erasures: ErasureRecord[], level = "info"): string[] {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  createErasureLedger(pino({ level, base: { pid: 1, hostname: "web-1" } }, sink), [KEY]).record(
    erasures,
  );
  return lines;
}

test("an address is named by a hash keyed with ERASURE_KEY: without the key a guess cannot be tested, and the line holds no address and no key", () => {
  const subject = erasureSubject(KEY, "Ada.Lovelace@Example.com ");
  expect(subject).toMatch(/^[0-9a-f]{64}$/);
  expect(erasureSubject(KEY, "ada.lovelace@example.com")).toBe(subject);
  expect(erasureSubject(KEY, "ada.lovelace+x@example.com")).not.toBe(subject);
  // Another key, the unkeyed hash of older lines, and the bare SHA-256 all differ.
  expect(erasureSubject(`${KEY}!`, "ada.lovelace@example.com")).not.toBe(subject);
  expect(legacySubject("ada.lovelace@example.com")).not.toBe(subject);
  expect(subject).not.toBe(createHash("sha256").update("ada.lovelace@example.com").digest("hex"));
  // The key's id is not the key, and tells another key apart.
  expect(KEY_ID).toMatch(/^[0-9a-f]{16}$/);
  expect(erasureKeyId(`${KEY}!`)).not.toBe(KEY_ID);

  const [line] = logged([{ scope: "everything", addresses: ["Ada.Lovelace@Example.com"] }]);
  expect(line).not.toMatch(/lovelace|example/i);
  expect(line).not.toContain(KEY);
  expect(JSON.parse(line!)).toMatchObject({
    event: "erasure",
    scope: "everything",
    key: KEY_ID,
    subjects: [subject],
  });
  expect(() => createErasureLedger(pino({ level: "silent" }), [])).toThrow(/ERASURE_KEY/);
});

test("every line the site writes reads back as what it said: every address of every row, once each, with its time", () => {
  const h = (email: string) => erasureSubject(KEY, email);
  const written: ErasureRecord[] = [
    { scope: "everything", addresses: ["grace@example.com"] },
    { scope: "waitlist entry", addresses: ["grace@example.com"] },
    { scope: "subscription", addresses: ["grace@example.com"] },
    // An account's: the entry it joined through under another address, and its verified one.
    {
      scope: "account",
      uid: "Xy12abc",
      addresses: ["invited@example.com", "Grace@example.com", "grace@example.com"],
    },
    { scope: "account", uid: "NoEntryNoAddress", addresses: [] },
  ];
  const before = Date.now();
  const read = logged(written).map((line) => parseErasureLine(line));
  const time = expect.any(Number) as number;
  expect(read).toEqual([
    { scope: "everything", key: KEY_ID, subjects: [h("grace@example.com")], time },
    { scope: "waitlist entry", key: KEY_ID, subjects: [h("grace@example.com")], time },
    { scope: "subscription", key: KEY_ID, subjects: [h("grace@example.com")], time },
    {
      scope: "account",
      uid: "Xy12abc",
      key: KEY_ID,
      subjects: [h("invited@example.com"), h("grace@example.com")],
      time,
    },
    { scope: "account", uid: "NoEntryNoAddress", key: KEY_ID, subjects: [], time },
  ]);
  for (const r of read) expect((r as { time: number }).time).toBeGreaterThanOrEqual(before);
});

test("lines of the older, unkeyed form still read, as lines without a key", () => {
  const subject = legacySubject("grace@example.com");
  const line = (fields: object) =>
    JSON.stringify({ level: 30, time: 5, event: "erasure", msg: "erased", ...fields });
  expect(parseErasureLine(line({ scope: "waitlist entry", subject }))).toEqual({
    scope: "waitlist entry",
    key: null,
    subjects: [subject],
    time: 5,
  });
  expect(parseErasureLine(line({ scope: "account", uid: "u1", subject: null }))).toEqual({
    scope: "account",
    uid: "u1",
    key: null,
    subjects: [],
    time: 5,
  });
});

test("the lines are written at info even when the log says warn or error, and not at all when it is silent", () => {
  const erasure: ErasureRecord = { scope: "waitlist entry", addresses: ["a@example.com"] };
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
  const [line] = logged([{ scope: "subscription", addresses: ["a@example.com"] }]);
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
  const subject = legacySubject("a@example.com");
  const subjects = [erasureSubject(KEY, "a@example.com")];
  const line = (fields: object) => JSON.stringify({ level: 30, event: "erasure", ...fields });
  const cases: [string, string][] = [
    [line({ scope: "everything", subject }), "it has no time in milliseconds"],
    [line({ time: 1e300, scope: "everything", subject }), "it has no time in milliseconds"],
    [line({ time: -5, scope: "everything", subject }), "it has no time in milliseconds"],
    [line({ time: 1.5, scope: "everything", subject }), "it has no time in milliseconds"],
    [line({ time: 1, scope: "everything", key: KEY_ID }), "its subjects are not hashes of ours"],
    [
      line({ time: 1, scope: "everything", key: KEY_ID, subjects: ["a@example.com"] }),
      "its subjects are not hashes of ours",
    ],
    [line({ time: 1, scope: "everything", key: "k", subjects }), "its key id is not one of ours"],
    [
      line({ time: 1, scope: "everything", key: KEY_ID, subjects: Array(1001).fill(subjects[0]) }),
      "its subjects are not hashes of ours",
    ],
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
  const a = [erasureSubject(KEY, "a@example.com")];
  const b = legacySubject("b@example.com");
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
        at(1_795_500_100_000, { event: "erasure", scope: "everything", key: KEY_ID, subjects: a }),
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
    {
      scope: "everything",
      key: KEY_ID,
      subjects: a,
      time: 1_795_500_100_000,
      where: `${rotated}:2`,
    },
    {
      scope: "waitlist entry",
      key: null,
      subjects: [b],
      time: 1_795_600_300_000,
      where: `${plain}:2`,
    },
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
