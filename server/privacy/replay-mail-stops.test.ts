/**
 * A restore stops again the mail stopped after its backup (decision 042), on a real migrated
 * database: every suppression is a line of the log, written by the list's one door with the
 * address as a keyed hash; a restore reads those lines back and puts each on the list again,
 * withdrawing again a consent an unsubscribe withdrew; and broadcasts the backup held as being sent
 * or scheduled are paused, their unsent mails withheld, for an administrator to decide.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { afterEach, describe, expect, test } from "vitest";
import { queryRows, type Db } from "#db/client.ts";
import { readErasureLogs } from "#server/audit/erasure-ledger.ts";
import { mailStopKeyId, MAIL_STOP_EVENT } from "#server/audit/mail-stop-ledger.ts";
import { openMail } from "#server/broadcasts/mail-service.ts";
import { parseEnv } from "#server/env.ts";
import { suppressionHashes, suppressionKeys } from "#server/mail/suppressions.ts";
import { endWhatTheBackupHeldOpen, pausedByRestore } from "#server/operations/after-restore.ts";
import { missingMailStopKeys, replayMailStops } from "#server/privacy/replay-mail-stops.ts";
import { setConsent } from "#server/waitlist/consent.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { captureLog } from "#tests/support/log-lines.ts";
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const database = databaseForThisFile();
const SECRET = "a key for this file's tests, 32 characters or more";
const admin = { adminEmail: "owner@tieout.test", clientAddress: "127.0.0.1" };
const HOUR = 3_600_000;

afterEach(async () => {
  const { db } = database();
  await db.execute(sql`TRUNCATE broadcasts, broadcast_recipients CASCADE`);
  await db.execute(
    sql`TRUNCATE outbox, mail_suppressions, mail_events, consent_events, waitlist_entries RESTART IDENTITY CASCADE`,
  );
});

function mail(db: Db, log = pino({ level: "silent" })) {
  return openMail({ db, env: parseEnv({}), log, secrets: [SECRET], onEnqueued: () => {} });
}

/** The log's lines as the restore reads them, from a file as the site would have written it. */
async function readBack(lines: Record<string, unknown>[], since: number) {
  const dir = mkdtempSync(path.join(tmpdir(), "tieout-stops-"));
  try {
    const file = path.join(dir, "site.log");
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    return await readErasureLogs([file], since);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const suppressionRows = (db: Db) =>
  queryRows<{ address: string | null; scope: string; reason: string; detail: string }>(
    db,
    sql`SELECT address, scope, reason, detail FROM mail_suppressions ORDER BY address_hash, scope`,
  );

describe("the ledger of mail stopped", () => {
  test("each suppression added is one line naming the address by its keyed hash, never in clear", async () => {
    const { db } = database();
    const captured = captureLog("warn");
    const { suppressions } = mail(db, captured.log);
    await db.transaction(async (tx) => {
      await suppressions.suppress(tx, {
        address: "Ada@Example.com",
        scope: "all",
        reason: "admin",
      });
      // Already there: nothing added, no second line.
      await suppressions.suppress(tx, {
        address: "ada@example.com",
        scope: "all",
        reason: "admin",
      });
      for (let i = 0; i < 3; i++)
        await suppressions.record(tx, {
          outboxId: null,
          address: "grace@example.com",
          kind: "soft-bounce",
        });
    });
    const keys = suppressionKeys([SECRET]);
    const lines = captured.events(MAIL_STOP_EVENT);
    // Written at info although the log says warn: the ledger is not a matter of LOG_LEVEL.
    expect(
      lines.map(({ scope, reason, subject, key }) => ({ scope, reason, subject, key })),
    ).toEqual([
      {
        scope: "all",
        reason: "admin",
        subject: suppressionHashes(keys, "ada@example.com")[0],
        key: mailStopKeyId(keys[0]!),
      },
      {
        scope: "all",
        reason: "soft-bounces",
        subject: suppressionHashes(keys, "grace@example.com")[0],
        key: mailStopKeyId(keys[0]!),
      },
    ]);
    expect(JSON.stringify(captured.lines())).not.toMatch(/ada@|grace@/i);
  });

  test("a restore puts back on the list what was stopped after the backup, and withdraws again what an unsubscribe withdrew", async () => {
    const { db } = database();
    await db.execute(sql`
      INSERT INTO waitlist_entries (name, email, state, confirmed_at)
      VALUES ('Ada', 'ada@example.com', 'confirmed', now()),
             ('Grace', 'grace@example.com', 'confirmed', now())`);
    await db.transaction((tx) =>
      setConsent(tx, { entryId: 1, kind: "product-news", given: true, place: "confirmation" }),
    );
    const taken = Date.now() - 2 * HOUR;

    // The site after the backup: Ada unsubscribes from product news on /account; a stranger's
    // address (never in the backup) hard-bounces; Grace's was suppressed long before the backup.
    const captured = captureLog("info");
    const live = mail(db, captured.log);
    await db.transaction(async (tx) => {
      await live.suppressions.suppress(tx, {
        address: "grace@example.com",
        scope: "all",
        reason: "complaint",
      });
      await live.suppressions.suppress(tx, {
        address: "ada@example.com",
        scope: "product-news",
        reason: "unsubscribe",
      });
      await live.suppressions.suppress(tx, {
        address: "stranger@example.com",
        scope: "all",
        reason: "hard-bounce",
      });
    });
    const [grace, ada, stranger] = captured.events(MAIL_STOP_EVENT);
    const log = [
      { ...grace!, time: taken - 3 * HOUR },
      { ...ada!, time: taken + HOUR },
      { ...stranger!, time: taken + HOUR + 1 },
    ];

    // The restored database: as the backup held it, before any of that.
    await db.execute(sql`TRUNCATE mail_suppressions, mail_events`);
    const read = await readBack(log, taken);
    expect(read.stops.map((s) => s.reason)).toEqual(["complaint", "unsubscribe", "hard-bounce"]);
    expect(
      missingMailStopKeys(read.stops, new Date(taken), ["another key, 32 characters long"]),
    ).toEqual([{ key: ada!.key, where: expect.stringMatching(/site\.log:2$/) as string }]);
    expect(missingMailStopKeys(read.stops, new Date(taken), [SECRET])).toEqual([]);

    const report = await db.transaction((tx) =>
      replayMailStops(tx, read.stops, new Date(taken), [SECRET]),
    );
    expect(report).toEqual({ considered: 2, suppressed: 2, withdrawn: 1 });
    const rows = await suppressionRows(db);
    expect(rows.map(({ address, scope, reason }) => ({ address, scope, reason }))).toEqual(
      expect.arrayContaining([
        { address: "ada@example.com", scope: "product-news", reason: "unsubscribe" },
        // Never held by the backup: named by its hash alone, and still stopped.
        { address: null, scope: "all", reason: "hard-bounce" },
      ]),
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]!.detail).toMatch(/^stopped again by a restore \(first stopped \d{4}-/);
    expect(
      await live.suppressions.stopping(["stranger@example.com"], "waitlist-news"),
    ).not.toBeNull();
    expect(await live.suppressions.stopping(["ada@example.com"], "product-news")).not.toBeNull();

    const [entry] = await queryRows<{ product_news_at: Date | null }>(
      db,
      sql`SELECT product_news_at FROM waitlist_entries WHERE id = 1`,
    );
    expect(entry!.product_news_at).toBeNull();
    const events = await queryRows<{ kind: string; given: boolean; place: string }>(
      db,
      sql`SELECT kind, given, place FROM consent_events WHERE entry_id = 1 ORDER BY id`,
    );
    expect(events.at(-1)).toEqual({ kind: "product-news", given: false, place: "restore" });

    // Carried out twice (a second restore from the same backup and log): nothing more.
    expect(
      await db.transaction((tx) => replayMailStops(tx, read.stops, new Date(taken), [SECRET])),
    ).toEqual({ considered: 2, suppressed: 0, withdrawn: 0 });
  });
});

describe("broadcasts a restore finds under way", () => {
  test("are paused with the reason, their unsent mails withheld; resumed, a schedule begins and a send goes on", async () => {
    const { db } = database();
    await db.execute(sql`
      INSERT INTO waitlist_entries (name, email, state, confirmed_at)
      SELECT 'Lead ' || i, 'lead-' || i || '@example.com', 'confirmed', now()
      FROM generate_series(1, 12) AS i`);
    const { broadcasts } = mail(db);
    const draft = (subject: string) => ({
      kind: "waitlist-news" as const,
      subject,
      body: "The beta opens to firms in Texas.",
      audience: { states: ["confirmed" as const], search: "" },
    });
    const sending = await broadcasts.create(draft("Under way"), admin);
    expect(await broadcasts.start(sending, admin)).toEqual({ ok: true, recipients: 12 });
    await db.execute(sql`UPDATE broadcasts SET pumped_at = now() - interval '1 minute'`);
    // 5 a minute: 5 handed to the outbox, still unsent, 7 waiting.
    expect(await broadcasts.pump(5)).toBe(5);
    const scheduled = await broadcasts.create(draft("Later"), admin);
    expect(await broadcasts.start(scheduled, admin, new Date(Date.now() + HOUR))).toEqual({
      ok: true,
    });
    const untouched = await broadcasts.create(draft("Still a draft"), admin);

    const taken = new Date(Date.now() - HOUR);
    const ended = await db.transaction((tx) => endWhatTheBackupHeldOpen(tx, taken));
    expect(ended).toMatchObject({ broadcasts: 2, broadcastMails: 5 });

    for (const id of [sending, scheduled]) {
      const row = await broadcasts.get(id);
      expect(row).toMatchObject({ status: "paused", pausedReason: pausedByRestore(taken) });
    }
    expect((await broadcasts.get(untouched))!.status).toBe("draft");
    expect(await broadcasts.progress(sending)).toMatchObject({
      recipients: 12,
      waiting: 7,
      pending: 0,
      failed: 5,
    });
    // Paused: the pump sends nothing.
    expect(await broadcasts.pump(6000)).toBe(0);

    // Resumed: the withheld failures are dated at the backup, so they do not pause it again.
    expect(await broadcasts.resume(sending, admin)).toEqual({ ok: true });
    await db.execute(
      sql`UPDATE broadcasts SET pumped_at = now() - interval '1 minute' WHERE id = ${sending}`,
    );
    expect(await broadcasts.pump(6000)).toBe(7);
    expect((await broadcasts.get(sending))!.status).toBe("sending");

    // The schedule, resumed, begins now with its recipients fixed.
    expect(await broadcasts.resume(scheduled, admin)).toEqual({ ok: true });
    expect(await broadcasts.get(scheduled)).toMatchObject({
      status: "sending",
      recipients: 12,
      pausedReason: null,
    });
  });
});
