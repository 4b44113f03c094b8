/**
 * Broadcasts against a real migrated database (decision 041): who a broadcast reaches, that its
 * recipients are fixed when sending starts, that each gets at most one mail however many turns run
 * at once, the rate, pausing, and the refusals an administrator reads.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { afterEach, describe, expect, test } from "vitest";
import { queryRows, type Db } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import { openMail } from "#server/broadcasts/mail-service.ts";
import { setConsent } from "#server/waitlist/consent.ts";
import { createAnswersService } from "#server/waitlist/answers.ts";
import { answersLinkKey } from "#server/waitlist/answers-link.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

const database = databaseForThisFile();
const env = parseEnv({});
const log = pino({ level: "silent" });
const admin = { adminEmail: "owner@tieout.test", clientAddress: "127.0.0.1" };
const SECRET = "a key for this file's tests, 32 characters or more";
const BODY =
  "The beta opens to firms in **Texas** next week.\n\n- Bring a trial balance\n- Bring coffee";

function mail(db: Db) {
  return openMail({
    db,
    env,
    log,
    secrets: [SECRET],
    onEnqueued: () => {},
  });
}

afterEach(async () => {
  // Broadcasts keep counting up: the audit log, which is append-only, names them by number.
  await database().db.execute(sql`TRUNCATE broadcasts, broadcast_recipients CASCADE`);
  await database().db.execute(
    sql`TRUNCATE outbox, mail_suppressions, mail_events, waitlist_entries RESTART IDENTITY CASCADE`,
  );
});

/** Entries in each state, confirmed where the state implies it. */
async function entries(db: Db, n: number, state = "confirmed", prefix = "lead") {
  await db.execute(sql`
    INSERT INTO waitlist_entries (name, email, state, confirmed_at)
    SELECT 'Lead ' || i, ${prefix} || '-' || i || '@example.com', ${state},
      CASE WHEN ${state} = 'waiting' THEN NULL ELSE now() END
    FROM generate_series(1, ${n}) AS i`);
}

const outboxRows = (db: Db) =>
  queryRows<{ key: string; category: string; to: string }>(
    db,
    sql`SELECT key, payload ->> 'category' AS category, payload -> 'to' -> 0 ->> 'address' AS "to"
        FROM outbox ORDER BY id`,
  );

describe("broadcasts", () => {
  test("waitlist news reaches confirmed entries that did not stop it; product news only those who asked", async () => {
    const db = database().db;
    await entries(db, 3, "confirmed");
    await entries(db, 2, "waiting", "unconfirmed");
    await entries(db, 1, "declined", "declined");
    await db.transaction(async (tx) => {
      await setConsent(tx, { entryId: 1, kind: "waitlist-news", given: false, place: "one-click" });
      await setConsent(tx, {
        entryId: 2,
        kind: "product-news",
        given: true,
        place: "confirmation",
      });
    });
    const { broadcasts } = mail(db);
    const audience = { states: ["confirmed", "invited", "joined"] as const, search: "" };
    expect(
      await broadcasts.count("waitlist-news", { ...audience, states: [...audience.states] }),
    ).toEqual({
      reach: 2,
      suppressed: 0,
    });
    expect(
      await broadcasts.count("product-news", { ...audience, states: [...audience.states] }),
    ).toEqual({
      reach: 1,
      suppressed: 0,
    });
  });

  test("recipients are fixed when sending starts; each gets one mail, even with turns running at once", async () => {
    const db = database().db;
    await entries(db, 40);
    const { broadcasts } = mail(db);
    const id = await broadcasts.create(
      {
        kind: "waitlist-news",
        subject: "Texas",
        body: BODY,
        audience: { states: ["confirmed"], search: "" },
      },
      admin,
    );
    expect(await broadcasts.start(id, admin)).toEqual({ ok: true, recipients: 40 });
    // Joined after the start: not a recipient.
    await entries(db, 5, "confirmed", "late");
    // The rate's clock, moved back a minute: a minute's worth is due now.
    await db.execute(sql`UPDATE broadcasts SET pumped_at = now() - interval '1 minute'`);
    const handed = await Promise.all([
      broadcasts.pump(6000),
      broadcasts.pump(6000),
      broadcasts.pump(6000),
    ]);
    expect(handed.reduce((a, b) => a + b, 0)).toBe(40);
    const rows = await outboxRows(db);
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((r) => r.to)).size).toBe(40);
    expect(rows.every((r) => r.category === "waitlist-news")).toBe(true);
    expect(rows.some((r) => r.to.startsWith("late-"))).toBe(false);
    // Nothing more to hand over, however often it turns.
    expect(await broadcasts.pump(6000)).toBe(0);
    expect((await broadcasts.progress(id)).waiting).toBe(0);
  });

  test("waitlist news carries the questions' link to those who may answer, and it opens their own answers", async () => {
    const db = database().db;
    await entries(db, 1, "confirmed", "asked");
    await entries(db, 1, "joined", "member");
    await db.transaction((tx) =>
      setConsent(tx, { entryId: 1, kind: "product-news", given: true, place: "confirmation" }),
    );
    const { broadcasts } = mail(db);
    for (const kind of ["waitlist-news", "product-news"] as const) {
      const id = await broadcasts.create(
        {
          kind,
          subject: kind,
          body: BODY,
          audience: { states: ["confirmed", "joined"], search: "" },
        },
        admin,
      );
      expect((await broadcasts.start(id, admin)).ok).toBe(true);
    }
    await db.execute(sql`UPDATE broadcasts SET pumped_at = now() - interval '1 minute'`);
    while ((await broadcasts.pump(6000)) > 0);
    const mails = await queryRows<{ category: string; to: string; text: string }>(
      db,
      sql`SELECT payload ->> 'category' AS category, payload -> 'to' -> 0 ->> 'address' AS "to",
            payload ->> 'text' AS text FROM outbox ORDER BY id`,
    );
    const link = (m: { text: string }) => /\/waitlist\/answers\?token=(\S+)/.exec(m.text)?.[1];
    const asked = mails.filter((m) => m.category === "waitlist-news" && m.to.startsWith("asked-"));
    expect(asked).toHaveLength(1);
    const answers = createAnswersService({ db, keys: [answersLinkKey(SECRET)], log });
    expect(await answers.check(link(asked[0]!))).toEqual({
      maskedEmail: "a***@example.com",
      answers: {},
    });
    // A member has joined: no questions. Product news never carries them.
    expect(mails.filter((m) => m !== asked[0]).map(link)).toEqual([undefined, undefined]);
  });

  test("the rate: a turn hands over what the time since the last one allows, no more", async () => {
    const db = database().db;
    await entries(db, 100);
    const { broadcasts } = mail(db);
    const id = await broadcasts.create(
      {
        kind: "waitlist-news",
        subject: "Rate",
        body: BODY,
        audience: { states: ["confirmed"], search: "" },
      },
      admin,
    );
    await broadcasts.start(id, admin);
    // 60 a minute is one a second: ten seconds ago, ten are due.
    await db.execute(sql`UPDATE broadcasts SET pumped_at = now() - interval '10 seconds'`);
    expect(await broadcasts.pump(60)).toBe(10);
    expect(await broadcasts.pump(60)).toBe(0);
  });

  test("a second Send, a time in the past, an audience of nobody: each refused, nothing sent", async () => {
    const db = database().db;
    await entries(db, 2);
    const { broadcasts } = mail(db);
    const draft = { kind: "waitlist-news" as const, subject: "Hello", body: BODY };
    const nobody = await broadcasts.create(
      { ...draft, audience: { states: ["joined"], search: "" } },
      admin,
    );
    expect(await broadcasts.start(nobody, admin)).toMatchObject({
      ok: false,
      message: "This audience has nobody in it: nothing was sent.",
    });
    expect((await broadcasts.get(nobody))?.status).toBe("draft");
    const id = await broadcasts.create(
      { ...draft, audience: { states: ["confirmed"], search: "" } },
      admin,
    );
    expect(await broadcasts.start(id, admin, new Date(Date.now() - 60_000))).toMatchObject({
      ok: false,
      field: "at",
    });
    expect(await broadcasts.start(id, admin)).toEqual({ ok: true, recipients: 2 });
    expect(await broadcasts.start(id, admin)).toMatchObject({
      ok: false,
      message: "This broadcast is already sending: it was not started again.",
    });
    const [recipients] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM broadcast_recipients`,
    );
    expect(recipients?.n).toBe(2);
  });

  test("someone suppressed or unsubscribed after the start gets nothing, and the progress says so", async () => {
    const db = database().db;
    await entries(db, 3);
    const { broadcasts, suppressions } = mail(db);
    const id = await broadcasts.create(
      {
        kind: "waitlist-news",
        subject: "News",
        body: BODY,
        audience: { states: ["confirmed"], search: "" },
      },
      admin,
    );
    await broadcasts.start(id, admin);
    await db.transaction(async (tx) => {
      await suppressions.suppress(tx, {
        address: "lead-1@example.com",
        scope: "all",
        reason: "complaint",
      });
      await setConsent(tx, { entryId: 2, kind: "waitlist-news", given: false, place: "account" });
    });
    await db.execute(sql`UPDATE broadcasts SET pumped_at = now() - interval '1 minute'`);
    expect(await broadcasts.pump(600)).toBe(1);
    expect(await broadcasts.progress(id)).toMatchObject({
      recipients: 3,
      waiting: 0,
      pending: 1,
      suppressed: 1,
      unsubscribed: 1,
    });
  });

  test("pause stops the turns, resume carries on without a burst, cancel ends it; each is an Activity row", async () => {
    const db = database().db;
    await entries(db, 10);
    const { broadcasts } = mail(db);
    const id = await broadcasts.create(
      {
        kind: "waitlist-news",
        subject: "News",
        body: BODY,
        audience: { states: ["confirmed"], search: "" },
      },
      admin,
    );
    await broadcasts.start(id, admin);
    expect(await broadcasts.pause(id, admin)).toEqual({ ok: true });
    await db.execute(sql`UPDATE broadcasts SET pumped_at = now() - interval '1 hour'`);
    expect(await broadcasts.pump(60)).toBe(0);
    expect(await broadcasts.resume(id, admin)).toEqual({ ok: true });
    // The hour paused is not owed: resumed, it starts from now.
    expect(await broadcasts.pump(60)).toBe(0);
    expect(await broadcasts.cancel(id, admin)).toEqual({ ok: true });
    expect(await broadcasts.resume(id, admin)).toMatchObject({ ok: false });
    const actions = await queryRows<{ action: string; broadcast_id: number }>(
      db,
      sql`SELECT action, broadcast_id FROM admin_audit_log WHERE broadcast_id = ${id} ORDER BY id`,
    );
    expect(actions.map((a) => a.action)).toEqual([
      "broadcast-start",
      "broadcast-pause",
      "broadcast-resume",
      "broadcast-cancel",
    ]);
    expect(actions.every((a) => Number(a.broadcast_id) === id)).toBe(true);
  });

  test("sending pauses itself when too many of its recent mails failed", async () => {
    const db = database().db;
    await entries(db, 30);
    const { broadcasts } = mail(db);
    const id = await broadcasts.create(
      {
        kind: "waitlist-news",
        subject: "News",
        body: BODY,
        audience: { states: ["confirmed"], search: "" },
      },
      admin,
    );
    await broadcasts.start(id, admin);
    await db.execute(sql`UPDATE broadcasts SET pumped_at = now() - interval '12 seconds'`);
    expect(await broadcasts.pump(60)).toBe(12);
    // The relay refused every one of them.
    await db.execute(
      sql`UPDATE outbox SET status = 'failed', failed_at = now(), last_error = '550'`,
    );
    await db.execute(sql`UPDATE broadcasts SET pumped_at = now() - interval '12 seconds'`);
    expect(await broadcasts.pump(60)).toBe(0);
    const paused = await broadcasts.get(id);
    expect(paused?.status).toBe("paused");
    expect(paused?.pausedReason).toMatch(/^Paused by itself: 12 of the 12 mails/);
  });

  test("failures pause only their own broadcast, and only when they are a tenth of its recent mails", async () => {
    const db = database().db;
    await entries(db, 30);
    const { broadcasts } = mail(db);
    const draft = {
      kind: "waitlist-news" as const,
      subject: "News",
      body: BODY,
      audience: { states: ["confirmed" as const], search: "" },
    };
    const failing = await broadcasts.create(draft, admin);
    const other = await broadcasts.create(draft, admin);
    await broadcasts.start(failing, admin);
    await broadcasts.start(other, admin);
    await db.execute(sql`UPDATE broadcasts SET pumped_at = now() - interval '12 seconds'`);
    expect(await broadcasts.pump(60)).toBe(24);
    await db.execute(sql`
      UPDATE outbox SET status = 'failed', failed_at = now(), last_error = '550'
      WHERE starts_with(key, ${`broadcast:${failing}:`})`);
    // 150 of its mails went out in the same ten minutes: 12 failures in 162 is under a tenth.
    await db.execute(sql`
      INSERT INTO outbox (key, channel, payload, status, sent_at)
      SELECT ${`broadcast:${failing}:`} || (1000000 + i), 'email', '{}'::jsonb, 'sent', now()
      FROM generate_series(1, 150) AS i`);
    await db.execute(sql`UPDATE broadcasts SET pumped_at = now() - interval '12 seconds'`);
    await broadcasts.pump(60);
    expect((await broadcasts.get(failing))?.status).toBe("sending");
    expect((await broadcasts.get(other))?.status).toBe("sending");
    // Sent longer ago than the window, they no longer count: 12 of 12 failed.
    await db.execute(sql`
      UPDATE outbox SET sent_at = now() - interval '11 minutes'
      WHERE starts_with(key, ${`broadcast:${failing}:`}) AND status = 'sent'`);
    await db.execute(sql`UPDATE broadcasts SET pumped_at = now() - interval '12 seconds'`);
    await broadcasts.pump(60);
    expect((await broadcasts.get(failing))?.pausedReason).toMatch(
      /^Paused by itself: 12 of the 12/,
    );
    expect((await broadcasts.get(other))?.status).toBe("sending");
  });

  test("a subject with a line break, a body with HTML, an empty audience choice: refused with what is wrong", async () => {
    const db = database().db;
    const { port } = mail(db);
    const base = {
      kind: "waitlist-news",
      subject: "Hello",
      body: BODY,
      audience: { states: ["confirmed"], search: "" },
    };
    expect(
      await port.broadcasts.save(null, { ...base, subject: "Hello\r\nBcc: x@example.com" }, admin),
    ).toMatchObject({
      ok: false,
      field: "subject",
    });
    expect(
      await port.broadcasts.save(null, { ...base, body: "Hi <script>alert(1)</script>" }, admin),
    ).toMatchObject({
      ok: false,
      field: "body",
    });
    expect(
      await port.broadcasts.save(null, { ...base, audience: { states: [], search: "" } }, admin),
    ).toMatchObject({
      ok: false,
      field: "audience",
    });
    const [count] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM broadcasts`,
    );
    expect(count?.n).toBe(0);
  });
});
