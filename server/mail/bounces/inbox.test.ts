/**
 * What comes back to the bounce address, against a real migrated database (decision 041): reports
 * written as relays and mailbox providers write them (the fixtures beside this file), pointed at
 * mails this test put in the outbox.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { afterEach, expect, test } from "vitest";
import { queryRows, type Db } from "#db/client.ts";
import { createBounceInbox, verpKey } from "#server/mail/bounces/inbox.ts";
import { verpAddress } from "#server/mail/bounces/verp.ts";
import { UNLOGGED } from "#server/audit/mail-stop-ledger.ts";
import { createSuppressions, suppressionKeys } from "#server/mail/suppressions.ts";
import { enqueue } from "#server/outbox/outbox.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

const database = databaseForThisFile();
const SECRET = "a key for this file's tests, 32 characters or more";
const BOUNCES = "bounces@tieout.ai";
const KEY = verpKey(SECRET);
const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");

afterEach(async () => {
  await database().db.execute(
    sql`TRUNCATE outbox, mail_suppressions, mail_events, bounce_reports RESTART IDENTITY`,
  );
});

function setUp(db: Db) {
  const suppressions = createSuppressions({
    db,
    keys: suppressionKeys([SECRET]),
    ledger: UNLOGGED,
  });
  const inbox = createBounceInbox({
    db,
    suppressions,
    bounceAddress: BOUNCES,
    verpKey: KEY,
    log: pino({ level: "silent" }),
  });
  return { suppressions, inbox };
}

/** A mail to `to`, as sent: its outbox id and Message-ID. */
async function sent(db: Db, to: string, key = `mail-to-${to}`) {
  await db.transaction((tx) =>
    enqueue(tx, [
      {
        key,
        channel: "email",
        email: {
          category: "waitlist-news",
          from: { name: "Tieout", address: "hello@tieout.ai" },
          to: { name: undefined, address: to },
          subject: "News",
          text: "News",
        },
      },
    ]),
  );
  const [row] = await queryRows<{ id: number; message_id: string }>(
    db,
    sql`SELECT id, message_id FROM outbox WHERE key = ${key}`,
  );
  return { id: Number(row!.id), messageId: row!.message_id };
}

/** A fixture re-addressed to the VERP address of outbox row `id`. */
const pointedAt = (name: string, id: number) =>
  Buffer.from(
    fixture(name).replaceAll(
      /bounces\+[0-9a-z]+-[0-9a-f]{16}@tieout\.ai/g,
      verpAddress(BOUNCES, id, KEY),
    ),
  );

const events = (db: Db) =>
  queryRows<{ kind: string; outbox_id: number }>(
    db,
    sql`SELECT kind, outbox_id FROM mail_events ORDER BY id`,
  );

test("a hard bounce names its mail by the VERP token and suppresses the recipient; read twice, it counts once", async () => {
  const db = database().db;
  const { suppressions, inbox } = setUp(db);
  const mail = await sent(db, "m.okafor@lakeside-dental.example");
  const report = pointedAt("postfix-user-unknown.eml", mail.id);
  await inbox.handle(report, "imap");
  await inbox.handle(report, "imap");
  expect(await events(db)).toEqual([{ kind: "hard-bounce", outbox_id: mail.id }]);
  expect(await suppressions.of(["m.okafor@lakeside-dental.example"])).toEqual([
    { scope: "all", reason: "hard-bounce" },
  ]);
});

test("soft bounces are counted: the third in 30 days suppresses the address", async () => {
  const db = database().db;
  const { suppressions, inbox } = setUp(db);
  for (let n = 1; n <= 3; n++) {
    const mail = await sent(db, "full@northwind.example", `soft-${n}`);
    // Each report is its own message (its bytes differ by the token).
    await inbox.handle(pointedAt("provider-mailbox-full.eml", mail.id), "smtp");
    const suppressed = await suppressions.of(["full@northwind.example"]);
    expect(suppressed).toEqual(n < 3 ? [] : [{ scope: "all", reason: "soft-bounces" }]);
  }
});

test("a complaint names its mail by the Message-ID it quotes", async () => {
  const db = database().db;
  const { suppressions, inbox } = setUp(db);
  const mail = await sent(db, "reader@pinemail.example");
  const report = fixture("arf-abuse.eml")
    .replaceAll("<b84f2d17-6c0e-4a93-85d1-0e3f7a9c2b68@tieout.ai>", mail.messageId)
    // Without a token of ours: only the quoted Message-ID can name the mail.
    .replaceAll(/bounces\+[0-9a-z]+-[0-9a-f]{16}@tieout\.ai/g, BOUNCES);
  await inbox.handle(Buffer.from(report), "imap");
  expect(await events(db)).toEqual([{ kind: "complaint", outbox_id: mail.id }]);
  expect(await suppressions.of(["reader@pinemail.example"])).toEqual([
    { scope: "all", reason: "complaint" },
  ]);
});

test("what cannot be read, or names no mail of ours, is kept for an administrator, never dropped", async () => {
  const db = database().db;
  const { inbox } = setUp(db);
  await inbox.handle(Buffer.from(fixture("vacation-reply.eml")), "imap");
  // A forged token: the MAC does not match, so it names nothing.
  await inbox.handle(
    Buffer.from(
      fixture("postfix-user-unknown.eml").replaceAll(
        /bounces\+[0-9a-z]+-[0-9a-f]{16}@tieout\.ai/g,
        "bounces+1-0000000000000000@tieout.ai",
      ),
    ),
    "smtp",
  );
  const kept = await queryRows<{ outcome: string; raw: string | null }>(
    db,
    sql`SELECT outcome, raw FROM bounce_reports ORDER BY id`,
  );
  expect(kept.map((k) => k.outcome)).toEqual(["unparsed", "unmatched"]);
  expect(kept.every((k) => (k.raw ?? "").length > 100)).toBe(true);
  expect(await events(db)).toEqual([]);
});
