import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { parseImapUrl, startImapReader } from "#server/mail/bounces/imap-reader.ts";
import { startDovecot, type Dovecot } from "#tests/support/dovecot.ts";
import { captureLog } from "#tests/support/log-lines.ts";
import { closedPort } from "#tests/support/test-smtp.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url);
/**
 * Every fixture, with the CRLF line ends that IMAP stores and hands back, and as it comes back: an
 * IMAP literal cannot carry a NUL (RFC 3501, section 4.3), and Dovecot keeps one as 0x80.
 */
const fixtures = readdirSync(FIXTURES)
  .filter((name) => name.endsWith(".eml"))
  .sort()
  .map((name) => {
    const text = readFileSync(new URL(name, FIXTURES)).toString("latin1");
    const raw = Buffer.from(text.replace(/\r?\n/g, "\r\n"), "latin1");
    return { name, raw, stored: raw.map((byte) => (byte === 0 ? 0x80 : byte)) };
  });
const fixture = (name: string) => fixtures.find((f) => f.name === `${name}.eml`)!.raw;

const POLL_MS = 200;

/** A handler that keeps what it is given, and always succeeds. */
const into = (kept: Buffer[]) => (source: Buffer) => {
  kept.push(source);
  return Promise.resolve();
};
const WAIT = { timeout: 15_000, interval: 50 };

describe("parseImapUrl", () => {
  test("reads user, password, host, port and mailbox, with defaults", () => {
    expect(parseImapUrl("imaps://me%40example.com:p%40ss%2F1@imap.example.com/Bounces")).toEqual({
      host: "imap.example.com",
      port: 993,
      secure: true,
      user: "me@example.com",
      pass: "p@ss/1",
      mailbox: "Bounces",
    });
    expect(parseImapUrl("imap://me:pw@[::1]:1143")).toMatchObject({
      host: "::1",
      port: 1143,
      secure: false,
      mailbox: "INBOX",
    });
  });

  test("refuses what is not an IMAP URL with a user, without repeating the password", () => {
    for (const bad of ["http://me:secret@host/", "imap://host/INBOX", "not a url secret"])
      expect(() => parseImapUrl(bad)).toThrow(/^(?!.*secret)/);
    expect(() => parseImapUrl("imap://host/INBOX")).toThrow(/needs a user/);
  });
});

describe("against a real Dovecot", { timeout: 30_000 }, () => {
  let dovecot: Dovecot;
  beforeAll(async () => {
    dovecot = await startDovecot();
  });
  afterAll(() => dovecot?.stop());

  test("hands over every message, then deletes it; stop() closes the connection", async () => {
    for (const { raw } of fixtures) await dovecot.append(raw);
    expect(await dovecot.count()).toBe(fixtures.length);

    const received: Buffer[] = [];
    const { log, events } = captureLog();
    const reader = startImapReader({
      url: dovecot.url,
      log,
      pollMs: POLL_MS,
      handle: into(received),
    });
    try {
      await vi.waitFor(() => expect(received).toHaveLength(fixtures.length), WAIT);
      await vi.waitFor(async () => expect(await dovecot.count()).toBe(0), WAIT);
    } finally {
      await reader.stop();
    }
    // Byte for byte, the garbage included.
    expect(received.map((r) => r.toString("base64")).sort()).toEqual(
      fixtures.map((f) => Buffer.from(f.stored).toString("base64")).sort(),
    );
    expect(events("bounces.imap_error")).toEqual([]);
    // Every session the server saw (the reader's, and the test's own) has logged out.
    await vi.waitFor(() => {
      const log = dovecot.log();
      const logins = log.match(/: Login: /g)?.length ?? 0;
      expect(log.match(/Disconnected: Logged out/g)?.length, log).toBe(logins);
    }, WAIT);
    // Stopping twice is harmless.
    await reader.stop();
  });

  test("a message that arrives while the reader idles is read at once, not at the next poll", async () => {
    const received: Buffer[] = [];
    const reader = startImapReader({
      url: dovecot.url,
      log: captureLog().log,
      // Far beyond the test: only IDLE can bring this message in time.
      pollMs: 10 * 60_000,
      handle: into(received),
    });
    try {
      // Time to log in, poll once, and start IDLE a second after.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const appended = Date.now();
      await dovecot.append(fixture("vacation-reply"));
      await vi.waitFor(() => expect(received).toHaveLength(1), WAIT);
      expect(Date.now() - appended).toBeLessThan(5_000);
      await vi.waitFor(async () => expect(await dovecot.count()).toBe(0), WAIT);
    } finally {
      await reader.stop();
    }
  });

  test("a handler that throws leaves its message in the mailbox, for the next poll", async () => {
    for (const name of ["arf-abuse", "postfix-delayed", "vacation-reply"])
      await dovecot.append(fixture(name));
    const refused = fixture("postfix-delayed");
    const tries: Buffer[] = [];
    const { log, events } = captureLog();
    const reader = startImapReader({
      url: dovecot.url,
      log,
      pollMs: POLL_MS,
      handle: (source) => {
        tries.push(source);
        return source.equals(refused)
          ? Promise.reject(new Error("the database is down"))
          : Promise.resolve();
      },
    });
    try {
      // Tried again at a later poll, and still there.
      await vi.waitFor(
        () => expect(tries.filter((t) => t.equals(refused)).length).toBeGreaterThanOrEqual(2),
        WAIT,
      );
      expect(await dovecot.count()).toBe(1);
    } finally {
      await reader.stop();
    }
    expect(events("bounces.imap_handle_error")[0]).toMatchObject({
      err: { message: "the database is down" },
    });

    // Once the handler works again, it goes.
    const later: Buffer[] = [];
    const second = startImapReader({
      url: dovecot.url,
      log,
      pollMs: POLL_MS,
      handle: into(later),
    });
    try {
      await vi.waitFor(async () => expect(await dovecot.count()).toBe(0), WAIT);
    } finally {
      await second.stop();
    }
    expect(later).toEqual([refused]);
  });

  test("stop() waits for the message in hand, which is then deleted", async () => {
    await dovecot.append(fixture("arf-abuse"));
    let release: () => void = () => {};
    let started = false;
    let finished = false;
    const reader = startImapReader({
      url: dovecot.url,
      log: captureLog().log,
      pollMs: POLL_MS,
      handle: async () => {
        started = true;
        await new Promise<void>((resolve) => (release = resolve));
        finished = true;
      },
    });
    await vi.waitFor(() => expect(started).toBe(true), WAIT);
    const stopped = reader.stop();
    setTimeout(() => release(), 300);
    await stopped;
    expect(finished).toBe(true);
    expect(await dovecot.count()).toBe(0);
  });

  test("beyond loopback, imap:// insists on STARTTLS rather than sending the password in clear", async () => {
    const { log, events } = captureLog();
    const url = new URL(dovecot.url);
    // Loopback as well, but not an address the reader knows as such.
    url.hostname = "127.0.0.2";
    const reader = startImapReader({
      url: url.toString(),
      log,
      pollMs: POLL_MS,
      handle: () => Promise.resolve(),
    });
    try {
      await vi.waitFor(() => expect(events("bounces.imap_error").length).toBeGreaterThan(0), WAIT);
    } finally {
      await reader.stop();
    }
    expect(JSON.stringify(events("bounces.imap_error")[0])).toMatch(/STARTTLS/i);
    expect(dovecot.log()).not.toMatch(/Login: user=<[^>]*>.*rip=127\.0\.0\.2/);
  });

  test("a wrong password is logged and retried, never thrown", async () => {
    const { log, events } = captureLog();
    const url = new URL(dovecot.url);
    url.password = "wrong";
    const reader = startImapReader({
      url: url.toString(),
      log,
      pollMs: POLL_MS,
      handle: async () => {},
    });
    try {
      await vi.waitFor(() => expect(events("bounces.imap_error").length).toBeGreaterThan(0), WAIT);
    } finally {
      await reader.stop();
    }
    expect(events("bounces.imap_error")[0]).toMatchObject({ failures: 1, retryInMs: 1000 });
    expect(JSON.stringify(events("bounces.imap_error"))).not.toContain("wrong");
  });
});

test("a server that is down, then drops the connection, is reconnected to with backoff", async () => {
  const port = await closedPort();
  const received: Buffer[] = [];
  const { log, events } = captureLog();
  const reader = startImapReader({
    url: `imap://${encodeURIComponent("bounces@tieout.test")}:x@127.0.0.1:${port}/INBOX`,
    log,
    pollMs: POLL_MS,
    handle: into(received),
  });
  let dovecot: Dovecot | undefined;
  let errorsBeforeDrop = 0;
  try {
    await vi.waitFor(() => expect(events("bounces.imap_error").length).toBeGreaterThan(0), WAIT);
    // The reader was given a password for a server not yet there: start one that takes it.
    dovecot = await startDovecot({ port, password: "x" });
    await dovecot.append(fixture("postfix-user-unknown"));
    await vi.waitFor(() => expect(received).toHaveLength(1), WAIT);

    // The server goes away under the open session, and comes back empty.
    errorsBeforeDrop = events("bounces.imap_error").length;
    await dovecot.stop();
    await vi.waitFor(
      () => expect(events("bounces.imap_error").length).toBeGreaterThan(errorsBeforeDrop),
      WAIT,
    );
    dovecot = await startDovecot({ port, password: "x" });
    await dovecot.append(fixture("provider-user-unknown"));
    await vi.waitFor(() => expect(received).toHaveLength(2), WAIT);
    await vi.waitFor(async () => expect(await dovecot!.count()).toBe(0), WAIT);
  } finally {
    await reader.stop();
    await dovecot?.stop();
  }
  expect(received).toEqual([fixture("postfix-user-unknown"), fixture("provider-user-unknown")]);
  const retries = events("bounces.imap_error").map((line) => line.retryInMs);
  // The first step after a failure, and again after the drop: a session that worked resets it.
  expect(retries[0]).toBe(1000);
  expect(retries[errorsBeforeDrop]).toBe(1000);
  // Doubling while the server stays away.
  if (retries.length > errorsBeforeDrop + 1) expect(retries[errorsBeforeDrop + 1]).toBe(2000);
}, 60_000);
