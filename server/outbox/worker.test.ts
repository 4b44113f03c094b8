/**
 * The outbox against real things: a migrated PGlite database (and, for two instances, Debian's
 * PostgreSQL), and a real SMTP server on loopback that accepts, refuses or is down.
 */
import { generateKeyPairSync } from "node:crypto";
import type { MessagePort } from "node:worker_threads";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { afterEach, describe, expect, test, vi } from "vitest";
import { openDatabase, queryRows, type Db } from "#db/client.ts";
import { parseEnv, type SmtpRelay } from "#server/env.ts";
import { createEmailSender } from "#server/outbox/email.ts";
import { enqueue, type EmailInput } from "#server/outbox/outbox.ts";
import { startOutboxWorker, type OutboxTiming, type OutboxWorker } from "#server/outbox/worker.ts";
import { UNLOGGED } from "#server/audit/mail-stop-ledger.ts";
import { createSuppressions, suppressionKeys } from "#server/mail/suppressions.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { startPostgres } from "#tests/support/postgres.ts";
import { closedPort, startTestSmtp, type TestSmtp } from "#tests/support/test-smtp.ts";

const FAST: OutboxTiming = {
  batch: 10,
  leaseMs: 2_000,
  pollMs: 50,
  firstDelayMs: 50,
  maxDelayMs: 200,
  giveUpMs: 60_000,
};
const log = pino({ level: "silent" });

const database = databaseForThisFile();

const running: OutboxWorker[] = [];
const servers: TestSmtp[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.stop()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await database().db.execute(
    sql`TRUNCATE outbox, mail_suppressions, mail_events RESTART IDENTITY`,
  );
});

function relayOf(url: string): SmtpRelay {
  const relay = parseEnv({ SMTP_URL: url }).mail.relay;
  if (!relay) throw new Error("no relay");
  return relay;
}

async function smtp(...args: Parameters<typeof startTestSmtp>) {
  const server = await startTestSmtp(...args);
  servers.push(server);
  return server;
}

const suppressionsOf = (db: Db) =>
  createSuppressions({
    db,
    keys: suppressionKeys(["a key for this file's tests, 32 chars+"]),
    ledger: UNLOGGED,
  });

/**
 * `statementPort`: the mail thread's own line to the embedded database, as the site runs on it
 * (decision 063); without it, the worker marks each mail itself, as on PostgreSQL.
 */
function worker(
  db: Db,
  url: string,
  timing: Partial<OutboxTiming> = {},
  { statementPort, outcomes = [] }: { statementPort?: () => MessagePort; outcomes?: string[] } = {},
) {
  const w = startOutboxWorker({
    db,
    suppressions: suppressionsOf(db),
    destinations: {
      email: createEmailSender(relayOf(url), undefined, statementPort),
      forward: undefined,
      slackWebhookUrl: undefined,
    },
    log,
    timing: { ...FAST, ...timing },
    onOutcome: (channel, outcome) => outcomes.push(`${channel} ${outcome}`),
  });
  running.push(w);
  return w;
}

const mail = (to: string, extra: Partial<EmailInput> = {}): EmailInput => ({
  category: "notice",
  from: { name: "Tieout", address: "hello@tieout.ai" },
  to: { name: "Ada Lovelace", address: to },
  subject: "Hello",
  text: "Plain text body",
  ...extra,
});

function put(db: Db, key: string, email: EmailInput) {
  return db.transaction((tx) => enqueue(tx, [{ key, channel: "email", email }]));
}

type Row = {
  key: string;
  status: string;
  attempts: number;
  last_error: string | null;
  message_id: string;
};
const rows = (db: Db) =>
  queryRows<Row>(db, sql`SELECT key, status, attempts, last_error, message_id FROM outbox`);

describe("the outbox worker", () => {
  test("one cause, one message: a key enqueued twice is delivered once, with its stored Message-ID", async () => {
    const server = await smtp();
    expect(await put(database().db, "cause-1", mail("ada@example.com"))).toBe(1);
    expect(await put(database().db, "cause-1", mail("ada@example.com"))).toBe(0);
    worker(database().db, server.url);
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    await vi.waitFor(async () => expect((await rows(database().db))[0]?.status).toBe("sent"));
    await new Promise((r) => setTimeout(r, 300));
    expect(server.received).toHaveLength(1);
    const [row] = await rows(database().db);
    const [got] = server.received;
    expect(got?.parsed.messageId).toBe(row?.message_id);
    expect(got?.to).toEqual(["ada@example.com"]);
    expect(got?.from).toBe("hello@tieout.ai");
    expect(got?.parsed.subject).toBe("Hello");
    expect(got?.parsed.text?.trim()).toBe("Plain text body");
  });

  test("a sent mail keeps its recipient and subject, not the body, headers and files that carried its links", async () => {
    const server = await smtp();
    const link =
      "https://tieout.ai/waitlist/remove?token=aTokenTheDatabaseKeepsOnlyHashed0123456789";
    await put(
      database().db,
      "cause-links",
      mail("ada@example.com", {
        text: `Leave the list: ${link}`,
        html: `<a href="${link}">Leave the list</a>`,
        headers: { "List-Unsubscribe": `<${link}>` },
        attachments: [{ filename: "data.json", content: "{}", contentType: "application/json" }],
      }),
    );
    // Until it is sent, the row holds the whole mail (a retry needs it).
    const [pending] = await queryRows<{ payload: string }>(
      database().db,
      sql`SELECT payload::text AS payload FROM outbox`,
    );
    expect(pending?.payload).toContain("aTokenTheDatabaseKeepsOnlyHashed");
    worker(database().db, server.url);
    await vi.waitFor(async () => expect((await rows(database().db))[0]?.status).toBe("sent"));
    expect(server.received[0]?.parsed.text).toContain(link);
    const [sent] = await queryRows<{ payload: Record<string, unknown> }>(
      database().db,
      sql`SELECT payload FROM outbox`,
    );
    expect(JSON.stringify(sent?.payload)).not.toContain("aTokenTheDatabaseKeepsOnlyHashed");
    expect(Object.keys(sent!.payload).sort()).toEqual(["category", "from", "subject", "to"]);
  });

  test("a temporary refusal (4xx) is retried and the message arrives once", async () => {
    const server = await smtp();
    server.answer((n) => (n === 0 ? "temporary" : "accept"));
    await put(database().db, "cause-4xx", mail("ada@example.com"));
    worker(database().db, server.url);
    await vi.waitFor(async () => expect((await rows(database().db))[0]?.status).toBe("sent"));
    expect(server.offered()).toBe(2);
    expect(server.received).toHaveLength(1);
    expect((await rows(database().db))[0]).toMatchObject({ attempts: 2, last_error: null });
  });

  test("a permanent refusal (5xx) stops retries and records the reason", async () => {
    const server = await smtp();
    server.answer(() => "permanent");
    await put(database().db, "cause-5xx", mail("nobody@example.com"));
    worker(database().db, server.url);
    await vi.waitFor(async () => expect((await rows(database().db))[0]?.status).toBe("failed"));
    await new Promise((r) => setTimeout(r, 400));
    expect(server.offered()).toBe(1);
    const [row] = await rows(database().db);
    expect(row?.attempts).toBe(1);
    expect(row?.last_error).toMatch(/550/);
  });

  test("a recipient the relay has no mailbox for (550 at RCPT TO) goes on the suppression list; a 550 to the message does not", async () => {
    const server = await smtp({
      noSuchUser: (address) => address.toLowerCase().startsWith("gone@"),
    });
    const db = database().db;
    await put(db, "cause-gone", mail("Gone@Example.com"));
    worker(db, server.url);
    await vi.waitFor(async () => expect((await rows(db))[0]?.status).toBe("failed"));
    const suppressions = suppressionsOf(db);
    expect(await suppressions.of(["gone@example.com"])).toEqual([
      { scope: "all", reason: "refused" },
    ]);
    // Even what the person asks for next is not sent to an address that takes no mail.
    await put(db, "cause-gone-again", mail("gone@example.com", { category: "requested" }));
    await vi.waitFor(async () =>
      expect((await rows(db)).find((r) => r.key === "cause-gone-again")?.status).toBe("suppressed"),
    );
    expect(server.received).toHaveLength(0);

    server.answer(() => "permanent");
    await put(db, "cause-content", mail("kept@example.com"));
    await vi.waitFor(async () =>
      expect((await rows(db)).find((r) => r.key === "cause-content")?.status).toBe("failed"),
    );
    expect(await suppressions.of(["kept@example.com"])).toEqual([]);
  });

  test("a mail is checked against the suppression list when it is sent, by its category", async () => {
    const server = await smtp();
    const db = database().db;
    const suppressions = suppressionsOf(db);
    await db.transaction(async (tx) => {
      await suppressions.suppress(tx, {
        address: "complained@example.com",
        scope: "all",
        reason: "complaint",
      });
      await suppressions.suppress(tx, {
        address: "no-news@example.com",
        scope: "product-news",
        reason: "unsubscribe",
      });
    });
    // Queued before anything is sent: the check is at sending, not at queueing.
    await put(db, "notice-to-complainer", mail("complained@example.com"));
    await put(db, "asked-by-complainer", mail("complained@example.com", { category: "requested" }));
    await put(
      db,
      "news-to-unsubscribed",
      mail("no-news@example.com", { category: "product-news" }),
    );
    await put(db, "other-news", mail("no-news@example.com", { category: "waitlist-news" }));
    worker(db, server.url);
    await vi.waitFor(async () =>
      expect((await rows(db)).every((r) => r.status !== "pending")).toBe(true),
    );
    const status = Object.fromEntries((await rows(db)).map((r) => [r.key, r.status]));
    expect(status).toEqual({
      "notice-to-complainer": "suppressed",
      "asked-by-complainer": "sent",
      "news-to-unsubscribed": "suppressed",
      "other-news": "sent",
    });
    expect(server.received.map((m) => m.to[0]).sort()).toEqual([
      "complained@example.com",
      "no-news@example.com",
    ]);
    // Nothing of a held-back mail's body is kept.
    const [held] = await queryRows<{ payload: Record<string, unknown>; last_error: string }>(
      db,
      sql`SELECT payload, last_error FROM outbox WHERE key = 'notice-to-complainer'`,
    );
    expect(held?.payload.text).toBeUndefined();
    expect(held?.last_error).toBe("suppressed: complaint");
  });

  test("a relay that is down keeps the message pending, then gives up after the bounded time with the reason", async () => {
    const url = `smtp://127.0.0.1:${await closedPort()}`;
    await put(database().db, "cause-down", mail("ada@example.com"));
    worker(database().db, url, { giveUpMs: 1_000 });
    await vi.waitFor(async () => {
      const [row] = await rows(database().db);
      expect(row?.status).toBe("pending");
      expect(row?.attempts).toBeGreaterThanOrEqual(2);
      expect(row?.last_error).toMatch(/ECONNREFUSED|ECONNECTION/);
    });
    await vi.waitFor(async () => expect((await rows(database().db))[0]?.status).toBe("failed"), {
      timeout: 5_000,
    });
  });

  test("a refused login is retried, not treated as the message's fault", async () => {
    const server = await smtp({ login: { user: "site", pass: "right" }, acceptPassword: "other" });
    await put(database().db, "cause-auth", mail("ada@example.com"));
    worker(database().db, server.url);
    await vi.waitFor(async () => {
      const [row] = await rows(database().db);
      expect(row?.attempts).toBeGreaterThanOrEqual(2);
      expect(row?.status).toBe("pending");
      expect(row?.last_error).toMatch(/EAUTH/);
    });
    expect(server.received).toHaveLength(0);
  });

  test("with the right login, the message is delivered", async () => {
    const server = await smtp({ login: { user: "site", pass: "p@ss:word" } });
    await put(database().db, "cause-login", mail("ada@example.com"));
    worker(database().db, server.url);
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
  });

  test("two workers on one database deliver each message once", async () => {
    const server = await smtp();
    for (let i = 0; i < 30; i++)
      await put(database().db, `many-${i}`, mail(`lead-${i}@example.com`));
    worker(database().db, server.url, { batch: 3 });
    worker(database().db, server.url, { batch: 3 });
    await vi.waitFor(() => expect(server.received).toHaveLength(30), { timeout: 10_000 });
    await new Promise((r) => setTimeout(r, 300));
    const recipients = server.received.flatMap((m) => m.to).sort();
    expect(new Set(recipients).size).toBe(30);
    expect(server.received).toHaveLength(30);
  });

  test("a row claimed by an instance that died is retried once its lease runs out, and only then", async () => {
    const server = await smtp();
    await put(database().db, "cause-crash", mail("ada@example.com"));
    // What a claim leaves behind when its instance is killed before recording the outcome.
    await database().db.execute(sql`
      UPDATE outbox SET attempts = 1, next_attempt_at = now() + interval '1 second'`);
    const claimedAt = Date.now();
    worker(database().db, server.url);
    await vi.waitFor(() => expect(server.received).toHaveLength(1), { timeout: 5_000 });
    expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(900);
    // The relay has the mail a moment before the worker records that it does.
    await vi.waitFor(async () =>
      expect((await rows(database().db))[0]).toMatchObject({ status: "sent", attempts: 2 }),
    );
    expect(server.received).toHaveLength(1);
  });

  test("a row whose sender stopped mid-send, due again past its give-up time, is not sent: it ends failed with the reason", async () => {
    const server = await smtp();
    await put(database().db, "cause-stuck", mail("ada@example.com"));
    // Enqueued 25 hours ago and claimed once; that claim's lease ran out with no outcome recorded.
    await database().db.execute(sql`
      UPDATE outbox SET created_at = now() - interval '25 hours', attempts = 1,
        next_attempt_at = now() - interval '1 second'`);
    worker(database().db, server.url, { giveUpMs: 24 * 60 * 60_000 });
    await vi.waitFor(async () => expect((await rows(database().db))[0]?.status).toBe("failed"));
    await new Promise((r) => setTimeout(r, 300));
    expect(server.offered()).toBe(0);
    const [row] = await queryRows<Row & { failed: boolean }>(
      database().db,
      sql`SELECT status, attempts, last_error, failed_at > now() - interval '1 minute' AS failed
          FROM outbox`,
    );
    expect(row).toEqual({
      status: "failed",
      attempts: 1,
      last_error:
        "gave up after 1 attempt over 24 h: no outcome was recorded (the sender stopped mid-send)",
      failed: true,
    });
  });

  test("past its give-up time, a row whose last attempt recorded an error is failed with that error; one never tried still gets its attempt", async () => {
    const server = await smtp();
    await put(database().db, "cause-tried", mail("tried@example.com"));
    await put(database().db, "cause-untried", mail("untried@example.com"));
    await database().db.execute(sql`
      UPDATE outbox SET created_at = now() - interval '25 hours'`);
    await database().db.execute(sql`
      UPDATE outbox SET attempts = 3, last_error = 'SMTP 451: Try again later'
      WHERE key = 'cause-tried'`);
    worker(database().db, server.url, { giveUpMs: 24 * 60 * 60_000 });
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    expect(server.received[0]?.to).toEqual(["untried@example.com"]);
    await vi.waitFor(async () =>
      expect(
        (await rows(database().db)).map((r) => [r.key, r.status, r.attempts, r.last_error]).sort(),
      ).toEqual([
        [
          "cause-tried",
          "failed",
          3,
          "gave up after 3 attempts over 24 h; last error recorded: SMTP 451: Try again later",
        ],
        ["cause-untried", "sent", 1, null],
      ]),
    );
  });

  test("the time a message was given up is recorded with it", async () => {
    const server = await smtp();
    server.answer(() => "permanent");
    await put(database().db, "cause-failed-at", mail("nobody@example.com"));
    worker(database().db, server.url);
    await vi.waitFor(async () => expect((await rows(database().db))[0]?.status).toBe("failed"));
    const [row] = await queryRows<{ recent: boolean }>(
      database().db,
      sql`SELECT failed_at BETWEEN created_at AND now() AS recent FROM outbox`,
    );
    expect(row?.recent).toBe(true);
  });

  test("a line break in a name or subject cannot add a header or a recipient", async () => {
    const server = await smtp();
    await put(
      database().db,
      "cause-inject",
      mail("ada@example.com", {
        to: { name: "Ada\r\nBcc: victim@example.com", address: "ada@example.com" },
        subject: "Hi\r\nX-Injected: yes\nCc: other@example.com",
      }),
    );
    await expect(
      put(database().db, "cause-inject-2", mail("ada@example.com\r\nBcc: victim@example.com")),
    ).rejects.toThrow(/not a plain email address/);
    // Made safe before it is stored, not left to the transport.
    const [stored] = await queryRows<{ payload: { to: { name: string }[]; subject: string } }>(
      database().db,
      sql`SELECT payload FROM outbox WHERE key = 'cause-inject'`,
    );
    expect(stored?.payload.to[0]?.name).toBe("Ada Bcc: victim@example.com");
    expect(stored?.payload.subject).toBe("Hi X-Injected: yes Cc: other@example.com");
    worker(database().db, server.url);
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    const [got] = server.received;
    expect(got?.to).toEqual(["ada@example.com"]);
    const headers = [...(got?.parsed.headers.keys() ?? [])];
    expect(headers).not.toContain("bcc");
    expect(headers).not.toContain("cc");
    expect(headers).not.toContain("x-injected");
    expect(got?.raw).not.toMatch(/^(Bcc|Cc|X-Injected):/im);
  });

  test("with DKIM configured, each message carries a DKIM-Signature for the domain", async () => {
    const server = await smtp();
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const env = parseEnv({
      SMTP_URL: server.url,
      DKIM_DOMAIN: "tieout.ai",
      DKIM_SELECTOR: "mail",
      DKIM_PRIVATE_KEY: pem,
    });
    await put(database().db, "cause-dkim", mail("ada@example.com"));
    const w = startOutboxWorker({
      db: database().db,
      suppressions: suppressionsOf(database().db),
      destinations: {
        email: createEmailSender(env.mail.relay!, env.mail.dkim),
        forward: undefined,
        slackWebhookUrl: undefined,
      },
      log,
      timing: FAST,
    });
    running.push(w);
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    const signature = server.received[0]?.parsed.headerLines.find(
      (h) => h.key === "dkim-signature",
    )?.line;
    expect(signature).toMatch(/\bd=tieout\.ai;/);
    expect(signature).toMatch(/\bs=mail;/);
  });
});

describe("a broadcast's mails, marked sent by the mail thread (decision 063)", () => {
  /** As the site runs on the embedded database: the mail thread has its own line to it. */
  const threadWorker = (db: Db, url: string, outcomes: string[]) =>
    worker(db, url, {}, { statementPort: database().statementPort, outcomes });
  const news = (to: string) => mail(to, { category: "waitlist-news" });
  const statuses = async (db: Db) =>
    Object.fromEntries((await rows(db)).map((r) => [r.key, [r.status, r.attempts]]));

  test("go one after another, each marked sent before the next leaves", async () => {
    const server = await smtp();
    const db = database().db;
    for (let i = 0; i < 6; i++) await put(db, `news-${i}`, news(`lead-${i}@example.com`));
    // What the database holds as each mail reaches the relay, before the relay answers it.
    const seen: Promise<Row[]>[] = [];
    server.answer(() => {
      seen.push(queryRows<Row>(db, sql`SELECT key, status FROM outbox ORDER BY id`));
      return "accept";
    });
    const outcomes: string[] = [];
    threadWorker(db, server.url, outcomes);
    await vi.waitFor(async () =>
      expect((await rows(db)).every((r) => r.status === "sent")).toBe(true),
    );
    expect(server.received.map((m) => m.to[0])).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => `lead-${i}@example.com`),
    );
    for (const [n, snapshot] of (await Promise.all(seen)).entries()) {
      const status = snapshot.map((r) => r.status);
      expect(status.slice(0, n)).toEqual(Array(n).fill("sent"));
      expect(status.slice(n + 1)).toEqual(Array(5 - n).fill("pending"));
    }
    expect(outcomes).toEqual(Array(6).fill("email sent"));
    // Marked as any sent mail is: its body gone, its recipient kept.
    const [first] = await queryRows<{ payload: Record<string, unknown>; sent_at: Date | null }>(
      db,
      sql`SELECT payload, sent_at FROM outbox WHERE key = 'news-0'`,
    );
    expect(first?.sent_at).not.toBeNull();
    expect(first?.payload.text).toBeUndefined();
    expect(first?.payload.to).toEqual([{ name: "Ada Lovelace", address: "lead-0@example.com" }]);
  });

  test("a recipient the relay refuses is recorded and suppressed, a listed one held back, and the rest go", async () => {
    const server = await smtp({ noSuchUser: (address) => address.startsWith("gone@") });
    const db = database().db;
    await db.transaction((tx) =>
      suppressionsOf(db).suppress(tx, {
        address: "no-news@example.com",
        scope: "waitlist-news",
        reason: "unsubscribe",
      }),
    );
    await put(db, "first", news("first@example.com"));
    await put(db, "gone", news("gone@example.com"));
    await put(db, "unsubscribed", news("no-news@example.com"));
    await put(db, "last", news("last@example.com"));
    const outcomes: string[] = [];
    threadWorker(db, server.url, outcomes);
    await vi.waitFor(async () =>
      expect((await rows(db)).every((r) => r.status !== "pending")).toBe(true),
    );
    expect(await statuses(db)).toEqual({
      first: ["sent", 1],
      gone: ["failed", 1],
      unsubscribed: ["suppressed", 1],
      last: ["sent", 1],
    });
    expect(server.received.map((m) => m.to[0])).toEqual(["first@example.com", "last@example.com"]);
    expect((await rows(db)).find((r) => r.key === "gone")?.last_error).toMatch(/550/);
    expect(await suppressionsOf(db).of(["gone@example.com"])).toEqual([
      { scope: "all", reason: "refused" },
    ]);
    expect(outcomes.sort()).toEqual([
      "email failed",
      "email sent",
      "email sent",
      "email suppressed",
    ]);
  });

  test("a mail that cannot be marked sent stops the rest until its lease runs out; only that mail goes again", async () => {
    const server = await smtp();
    const db = database().db;
    // The database refuses to mark one mail sent, as a full disk would.
    await db.execute(sql`
      CREATE FUNCTION refuse_stuck() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.key = 'stuck' AND NEW.status = 'sent' THEN RAISE EXCEPTION 'no space left'; END IF;
        RETURN NEW;
      END $$`);
    await db.execute(sql`
      CREATE TRIGGER refuse_stuck BEFORE UPDATE ON outbox
      FOR EACH ROW EXECUTE FUNCTION refuse_stuck()`);
    try {
      await put(db, "before", news("before@example.com"));
      await put(db, "stuck", news("stuck@example.com"));
      await put(db, "after", news("after@example.com"));
      const outcomes: string[] = [];
      threadWorker(db, server.url, outcomes);
      await vi.waitFor(() => expect(server.received).toHaveLength(2));
      await vi.waitFor(async () => expect((await statuses(db)).before).toEqual(["sent", 1]));
      // The one unmarked mail and the one never tried wait out their lease (2 s here).
      await new Promise((r) => setTimeout(r, 500));
      expect(await statuses(db)).toEqual({
        before: ["sent", 1],
        stuck: ["pending", 1],
        after: ["pending", 1],
      });
      expect(server.received.map((m) => m.to[0])).toEqual([
        "before@example.com",
        "stuck@example.com",
      ]);
      expect(outcomes).toEqual(["email sent"]);
    } finally {
      await db.execute(sql`DROP TRIGGER refuse_stuck ON outbox`);
      await db.execute(sql`DROP FUNCTION refuse_stuck()`);
    }
    await vi.waitFor(async () =>
      expect((await rows(db)).every((r) => r.status === "sent")).toBe(true),
    );
    expect(server.received.map((m) => m.to[0])).toEqual([
      "before@example.com",
      "stuck@example.com",
      "stuck@example.com",
      "after@example.com",
    ]);
    expect(await statuses(db)).toEqual({
      before: ["sent", 1],
      stuck: ["sent", 2],
      after: ["sent", 2],
    });
  });
});

describe("on PostgreSQL 15, two instances", () => {
  test("deliver each message once", async () => {
    const postgres = startPostgres(25_600 + Math.floor(Math.random() * 90));
    const one = await openDatabase({ dataDir: "", databaseUrl: postgres.url });
    const two = await openDatabase({ dataDir: "", databaseUrl: postgres.url });
    try {
      const server = await smtp();
      for (let i = 0; i < 40; i++) await put(one.db, `pg-${i}`, mail(`pg-${i}@example.com`));
      worker(one.db, server.url, { batch: 4 });
      worker(two.db, server.url, { batch: 4 });
      await vi.waitFor(() => expect(server.received).toHaveLength(40), { timeout: 15_000 });
      await new Promise((r) => setTimeout(r, 300));
      expect(server.received).toHaveLength(40);
      expect(new Set(server.received.flatMap((m) => m.to)).size).toBe(40);
      const statuses = await queryRows<{ status: string; n: number }>(
        one.db,
        sql`SELECT status, count(*)::int AS n FROM outbox GROUP BY status`,
      );
      expect(statuses).toEqual([{ status: "sent", n: 40 }]);
    } finally {
      await Promise.all(running.splice(0).map((w) => w.stop()));
      await one.close();
      await two.close();
      postgres.remove();
    }
  }, 60_000);
});
