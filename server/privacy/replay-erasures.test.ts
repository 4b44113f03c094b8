/**
 * Erasures carried out again on a restored database (decisions 032, 035), on a real migrated
 * PGlite: each scope erases what the original erasure did, whatever case the address was written
 * in, by the addresses its line names with the site's key; erasures logged before the backup are
 * left alone; one that finds nothing changes nothing and is counted as such; one that cannot be
 * matched is named; a line keyed with a key not given stops the replay before anything changes.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import {
  erasureKeyId,
  erasureSubject,
  legacySubject,
  type ErasureRecord,
  type TimedErasure,
} from "#server/audit/erasure-ledger.ts";
import {
  ErasureKeyMissing,
  missingErasureKeys,
  REPLAY_MARGIN_MS,
  replayErasures,
} from "#server/privacy/replay-erasures.ts";
import { createSubprocessorSubscriptions } from "#server/subprocessors/subscriptions.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { testAnswers, testLedger, TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";

const database = databaseForThisFile();
const db = () => database().db;
const env = parseEnv({ WAITLIST_RATE_LIMIT: "0", SITE_URL: "http://localhost:3000" });
const log = pino({ level: "silent" });
const meta = { clientKey: "t", requestId: "t" };

let serial = 0;
const address = (name: string) => `${name}-${++serial}-${Date.now()}@example-cpa.com`;

async function join(email: string) {
  const result = await createWaitlistService({
    db: db(),
    env,
    log,
    ledger: testLedger(),
    answers: testAnswers(db()),
  }).submit({ name: "Someone", email }, meta);
  expect(result.kind).toBe("created");
}

async function subscribe(email: string) {
  const subscriptions = createSubprocessorSubscriptions({
    db: db(),
    env,
    log,
    ledger: testLedger(),
    changes: [],
  });
  expect(await subscriptions.subscribe(email, meta)).toEqual({ kind: "accepted" });
}

/** What the database holds under an address, by table, and the mails to it. */
async function heldUnder(email: string) {
  const count = async (query: ReturnType<typeof sql>) =>
    Number((await queryRows<{ n: number }>(db(), query))[0]?.n ?? 0);
  return {
    entries: await count(
      sql`SELECT count(*)::int AS n FROM waitlist_entries WHERE lower(email) = lower(${email})`,
    ),
    subscriptions: await count(
      sql`SELECT count(*)::int AS n FROM subprocessor_subscribers WHERE lower(email) = lower(${email})`,
    ),
    requests: await count(
      sql`SELECT count(*)::int AS n FROM privacy_requests WHERE lower(email) = lower(${email})`,
    ),
    sessions: await count(
      sql`SELECT count(*)::int AS n FROM sessions WHERE lower(email) = lower(${email})`,
    ),
    mails: await count(
      sql`SELECT count(*)::int AS n FROM outbox, jsonb_array_elements(payload -> 'to') AS r
          WHERE lower(r ->> 'address') = lower(${email})`,
    ),
  };
}

/** The Activity page's rows of erasures a restore carried out again. */
const replayedOnActivity = () =>
  queryRows<{
    admin_email: string | null;
    entry_id: number | null;
    outcome: string;
    client_address: string;
  }>(
    db(),
    sql`SELECT admin_email, entry_id::int AS entry_id, outcome, client_address
        FROM admin_audit_log WHERE action = 'erasure-replay' ORDER BY id`,
  );

const none = { entries: 0, subscriptions: 0, requests: 0, sessions: 0, mails: 0 };

async function session(uid: string, email: string | null) {
  await db().execute(
    sql`INSERT INTO sessions (id, uid, email, expires_at)
        VALUES (${`s-${++serial}`}, ${uid}, ${email}, now() + interval '1 day')`,
  );
}

const backupTaken = new Date();
/** An erasure as the site's ledger names it, keyed with the tests' key, logged at `time`. */
const logged = (erasure: ErasureRecord, time: number): TimedErasure => {
  const { addresses, ...rest } = erasure;
  return {
    ...rest,
    key: erasureKeyId(TEST_ERASURE_KEY),
    subjects: addresses.map((a) => erasureSubject(TEST_ERASURE_KEY, a)),
    time,
  };
};
const after = (erasure: ErasureRecord, seconds = 60) =>
  logged(erasure, backupTaken.getTime() + seconds * 1000);

const replay = (erasures: TimedErasure[]) =>
  db().transaction((tx) => replayErasures(tx, erasures, backupTaken, [TEST_ERASURE_KEY]));

test("a deletion of everything, carried out again, erases the address's entry, subscription, requests, sessions and mail, whatever its case", async () => {
  const gone = address("Gone");
  const kept = address("kept");
  await join(gone);
  await subscribe(gone.toUpperCase());
  await session("uid-gone", gone);
  await db().execute(
    sql`INSERT INTO privacy_requests (kind, email, name, state, token_hash, token_expires_at)
        VALUES ('access', ${gone}, 'Gone', 'unconfirmed', ${`h-${serial}`}, now() + interval '1 day')`,
  );
  await join(kept);
  await subscribe(kept);
  expect(await heldUnder(gone)).toMatchObject({ entries: 1, subscriptions: 1, sessions: 1 });
  const keptBefore = await heldUnder(kept);
  const [entry] = await queryRows<{ id: number }>(
    db(),
    sql`SELECT id::int AS id FROM waitlist_entries WHERE email = ${gone}`,
  );

  const report = await replay([after({ scope: "everything", addresses: [gone.toLowerCase()] })]);
  expect(await heldUnder(gone)).toEqual(none);
  expect(await heldUnder(kept)).toEqual(keptBefore);
  expect(report).toEqual({
    considered: 1,
    effective: 1,
    notHeld: 0,
    unmatched: [],
    entries: 1,
    subscriptions: 1,
    sessions: 1,
    requests: 1,
  });
  // The Activity page says what the restore erased again, by the site, the entry by number.
  expect(await replayedOnActivity()).toContainEqual({
    admin_email: null,
    entry_id: entry!.id,
    outcome: `everything erased again (erased ${new Date(backupTaken.getTime() + 60_000).toISOString().replace(/\.\d{3}Z$/, "Z")}, after the backup)`,
    client_address: "automatic",
  });
});

test("an entry, a subscription and an account are each erased as they were, and nothing else of the address", async () => {
  const entryGone = address("entry");
  const subscriptionGone = address("subscription");
  const member = address("member");
  await join(entryGone);
  await subscribe(entryGone);
  await join(subscriptionGone);
  await subscribe(subscriptionGone);
  await join(member);
  await db().execute(
    sql`UPDATE waitlist_entries SET state = 'joined', joined_uid = 'uid-member', joined_at = now()
        WHERE email = ${member}`,
  );
  await session("uid-member", member);
  await session("uid-member", null);

  const report = await replay([
    after({ scope: "waitlist entry", addresses: [entryGone] }),
    after({ scope: "subscription", addresses: [subscriptionGone] }),
    after({ scope: "account", uid: "uid-member", addresses: [] }),
  ]);
  expect(await heldUnder(entryGone)).toMatchObject({ entries: 0, subscriptions: 1 });
  expect(await heldUnder(subscriptionGone)).toMatchObject({ entries: 1, subscriptions: 0 });
  expect(await heldUnder(member)).toMatchObject({ entries: 0, sessions: 0 });
  expect(await queryRows(db(), sql`SELECT id FROM sessions WHERE uid = 'uid-member'`)).toHaveLength(
    0,
  );
  expect(report).toMatchObject({ considered: 3, effective: 3, entries: 2, subscriptions: 1 });
  expect(report.sessions).toBe(2);
});

test("erasures logged before the backup (past the clocks' margin) are left alone, and one that finds nothing changes nothing", async () => {
  const rejoined = address("rejoined");
  const neverHere = address("never");
  await join(rejoined);
  const before = await heldUnder(rejoined);
  const recorded = (await replayedOnActivity()).length;
  const report = await replay([
    // Erased an hour before the backup, then joined again: the backup holds the new entry.
    logged({ scope: "waitlist entry", addresses: [rejoined] }, backupTaken.getTime() - 3_600_000),
    // Just inside the margin would count; this one is just outside it.
    logged(
      { scope: "everything", addresses: [rejoined] },
      backupTaken.getTime() - REPLAY_MARGIN_MS - 1,
    ),
    after({ scope: "everything", addresses: [neverHere] }),
    after({ scope: "account", uid: "uid-nobody", addresses: [neverHere] }),
  ]);
  expect(await heldUnder(rejoined)).toEqual(before);
  // Nothing erased, nothing recorded.
  expect(await replayedOnActivity()).toHaveLength(recorded);
  // Both named only an address the backup never held: said as such, not as "nothing".
  expect(report).toEqual({
    considered: 2,
    effective: 0,
    notHeld: 2,
    unmatched: [],
    entries: 0,
    subscriptions: 0,
    sessions: 0,
    requests: 0,
  });
  // Carried out twice, an erasure finds nothing the second time.
  const twice = address("twice");
  await join(twice);
  const erasure = after({ scope: "waitlist entry", addresses: [twice] });
  expect((await replay([erasure])).effective).toBe(1);
  expect((await replay([erasure])).effective).toBe(0);
});

test("a member who joined through an invitation after the backup, under an address Firebase never verified, is erased again by the address of the entry they erased", async () => {
  // In the backup: the entry, invited, not yet joined (no uid on it).
  const invited = address("invited");
  await join(invited);
  await db().execute(sql`UPDATE waitlist_entries SET state = 'invited' WHERE email = ${invited}`);
  // After the backup the member joined with another, unverified address and deleted the
  // account: the site's line names the uid and the entry's address.
  const report = await replay([
    after({ scope: "account", uid: "uid-joined-later", addresses: [invited] }),
  ]);
  expect(await heldUnder(invited)).toMatchObject({ entries: 0, mails: 0 });
  expect(report).toMatchObject({ considered: 1, effective: 1, entries: 1, unmatched: [] });
  // Its links went with it: the invitation cannot be used again.
  expect(
    await queryRows(
      db(),
      sql`SELECT 1 FROM waitlist_tokens t LEFT JOIN waitlist_entries e ON e.id = t.entry_id
          WHERE e.id IS NULL`,
    ),
  ).toEqual([]);
});

test("a line of the older form is matched by its unkeyed hash, and an account's line without an address is named, never counted as nothing", async () => {
  const old = address("old");
  await join(old);
  const report = await db().transaction((tx) =>
    replayErasures(
      tx,
      [
        {
          scope: "waitlist entry",
          key: null,
          subjects: [legacySubject(old)],
          time: backupTaken.getTime() + 1000,
          where: "site.log:3",
        },
        {
          scope: "account",
          uid: "uid-old",
          key: null,
          subjects: [],
          time: backupTaken.getTime() + 2000,
          where: "site.log:9",
        },
      ] as (TimedErasure & { where: string })[],
      backupTaken,
      [TEST_ERASURE_KEY],
    ),
  );
  expect(await heldUnder(old)).toMatchObject({ entries: 0 });
  expect(report).toMatchObject({
    considered: 2,
    effective: 1,
    notHeld: 0,
    unmatched: [{ where: "site.log:9", uid: "uid-old" }],
  });
});

test("a line keyed with a key the restore was not given stops the replay before anything is erased", async () => {
  const kept = address("kept-by-key");
  await join(kept);
  const other = "another site's ledger key, 32 characters or more";
  const erasure = {
    ...logged({ scope: "waitlist entry", addresses: [kept] }, backupTaken.getTime() + 1000),
    key: erasureKeyId(other),
    subjects: [erasureSubject(other, kept)],
    where: "site.log:12",
  };
  expect(missingErasureKeys([erasure], backupTaken, [TEST_ERASURE_KEY])).toEqual([
    { key: erasureKeyId(other), where: "site.log:12" },
  ]);
  expect(missingErasureKeys([erasure], backupTaken, [TEST_ERASURE_KEY, other])).toEqual([]);
  await expect(replay([erasure])).rejects.toThrow(ErasureKeyMissing);
  expect(await heldUnder(kept)).toMatchObject({ entries: 1 });
  // Given both keys (the newest first), it is matched.
  const both = await db().transaction((tx) =>
    replayErasures(tx, [erasure], backupTaken, [TEST_ERASURE_KEY, other]),
  );
  expect(both.effective).toBe(1);
  expect(await heldUnder(kept)).toMatchObject({ entries: 0 });
});
