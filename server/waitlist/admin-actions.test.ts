/**
 * The admin's actions and the invitation's way to an account, on a real PGlite database: what
 * each action writes (state, tokens, outbox rows, audit rows) and that it writes all or nothing.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { WAITLIST_STATES } from "#db/schema.ts";
import { parseEnv } from "#server/env.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { ENTRY_STATES } from "#src/features/waitlist/lifecycle.ts";
import type { AdminMeta } from "#src/features/waitlist/types.ts";
import { erasureSubject } from "#server/audit/erasure-ledger.ts";
import { testAnswers, testLedger, TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { captureLog } from "#tests/support/log-lines.ts";
import { ANY_ENTRY } from "#src/features/waitlist/entry-filter.ts";

const database = databaseForThisFile();
const db = () => database().db;

const waitlist = (log = pino({ level: "silent" })) =>
  createWaitlistService({
    db: db(),
    env: parseEnv({ WAITLIST_RATE_LIMIT: "0", SITE_URL: "http://localhost:3000" }),
    log,
    ledger: testLedger(log),
    answers: testAnswers(db()),
  });

const meta: AdminMeta = {
  adminEmail: "boss@tieout.test",
  clientAddress: "203.0.113.9",
  requestId: "r1",
};

let serial = 0;
/** A new entry, in the state asked for (confirmed by its owner unless it is waiting). */
async function entry(state: "waiting" | "confirmed" = "confirmed") {
  const email = `lead-${++serial}-${Date.now()}@example-cpa.com`;
  const result = await waitlist().submit(
    { name: `Lead ${serial}`, email },
    { clientKey: "t", requestId: "t" },
  );
  expect(result.kind).toBe("created");
  const [row] = await queryRows<{ id: number }>(
    db(),
    sql`UPDATE waitlist_entries SET state = ${state},
          confirmed_at = CASE WHEN ${state} = 'confirmed' THEN now() END
        WHERE email = ${email} RETURNING id`,
  );
  return { id: Number(row!.id), email };
}

const stateOf = async (id: number) =>
  (
    await queryRows<{ state: string }>(
      db(),
      sql`SELECT state FROM waitlist_entries WHERE id = ${id}`,
    )
  )[0]?.state;

/** The mails the admin's actions wrote for an entry: their subject and text. */
const adminMails = (id: number) =>
  queryRows<{ key: string; subject: string; text: string }>(
    db(),
    sql`SELECT key, payload->>'subject' AS subject, payload->>'text' AS text FROM outbox
        WHERE key LIKE ${`waitlist-admin-mail:${id}:%`} ORDER BY id`,
  );

const auditOf = (id: number) =>
  queryRows<{ action: string; outcome: string; admin_email: string; client_address: string }>(
    db(),
    sql`SELECT action, outcome, admin_email, client_address FROM admin_audit_log
        WHERE entry_id = ${id} ORDER BY id`,
  );

const invitationIn = (text: string) => /\/signup\?invite=([\w-]{43})/.exec(text)?.[1];

test("the lifecycle's states are the database's", () => {
  expect([...ENTRY_STATES]).toEqual([...WAITLIST_STATES]);
});

describe("Invite", () => {
  test("writes the state, one invitation mail with its sign-up link, and an audit row; a second invite sends nothing", async () => {
    const a = await entry();
    const first = await waitlist().act({ action: "invite", ids: [a.id], tell: [] }, meta);
    expect(first).toEqual({ kind: "done", action: "invite", outcomes: { invited: 1 } });
    expect(await stateOf(a.id)).toBe("invited");
    const [mail] = await adminMails(a.id);
    expect(mail?.subject).toBe("Your invitation to Tieout");
    expect(mail?.text).toContain("http://localhost:3000/signup?invite=");
    expect(mail?.text).toContain("The link works for 14 days");
    expect(mail?.text).toContain("http://localhost:3000/waitlist/remove?token=");
    expect(await waitlist().checkInvitation(invitationIn(mail!.text)!)).toEqual({
      email: a.email,
    });

    const again = await waitlist().act({ action: "invite", ids: [a.id], tell: [] }, meta);
    expect(again).toEqual({ kind: "done", action: "invite", outcomes: { "already-invited": 1 } });
    expect(await adminMails(a.id)).toHaveLength(1);
    expect(await auditOf(a.id)).toEqual([
      {
        action: "invite",
        outcome: "invited",
        admin_email: "boss@tieout.test",
        client_address: "203.0.113.9",
      },
      {
        action: "invite",
        outcome: "already-invited",
        admin_email: "boss@tieout.test",
        client_address: "203.0.113.9",
      },
    ]);
  });

  test("an address its owner never confirmed gets no invitation; a bulk invite says what happened to each", async () => {
    const [waiting, confirmed, invited] = [await entry("waiting"), await entry(), await entry()];
    await waitlist().act({ action: "invite", ids: [invited.id], tell: [] }, meta);
    const result = await waitlist().act(
      { action: "invite", ids: [waiting.id, confirmed.id, invited.id, 999_999_999], tell: [] },
      meta,
    );
    expect(result).toEqual({
      kind: "done",
      action: "invite",
      outcomes: { "not-confirmed": 1, invited: 1, "already-invited": 1, gone: 1 },
    });
    expect(await stateOf(waiting.id)).toBe("waiting");
    expect(await adminMails(waiting.id)).toHaveLength(0);
  });

  test("all or nothing: when one mail of a bulk invite cannot be written, no entry is invited and nothing is logged", async () => {
    const good = await entry();
    const bad = await entry();
    // An address the outbox refuses to put in a header (it was never valid for the form).
    await db().execute(
      sql`UPDATE waitlist_entries SET email = 'two words@example.com' WHERE id = ${bad.id}`,
    );
    const result = await waitlist().act(
      { action: "invite", ids: [good.id, bad.id], tell: [] },
      meta,
    );
    expect(result).toEqual({ kind: "unavailable" });
    expect(await stateOf(good.id)).toBe("confirmed");
    expect(await adminMails(good.id)).toHaveLength(0);
    expect(await auditOf(good.id)).toEqual([]);
  });
});

describe("Resend", () => {
  test("waits an hour after the last invitation; then a fresh link ends the old one", async () => {
    const a = await entry();
    await waitlist().act({ action: "invite", ids: [a.id], tell: [] }, meta);
    expect(await waitlist().act({ action: "resend", ids: [a.id], tell: [] }, meta)).toEqual({
      kind: "done",
      action: "resend",
      outcomes: { "too-soon": 1 },
    });
    await db().execute(
      sql`UPDATE waitlist_entries SET invite_sent_at = now() - interval '61 minutes' WHERE id = ${a.id}`,
    );
    expect(await waitlist().act({ action: "resend", ids: [a.id], tell: [] }, meta)).toEqual({
      kind: "done",
      action: "resend",
      outcomes: { resent: 1 },
    });
    const [first, second] = await adminMails(a.id);
    expect(second?.key).toBe(`waitlist-admin-mail:${a.id}:2`);
    expect(await waitlist().checkInvitation(invitationIn(first!.text)!)).toBeNull();
    expect(await waitlist().checkInvitation(invitationIn(second!.text)!)).toEqual({
      email: a.email,
    });
  });

  test("is refused for an entry that was never invited", async () => {
    const a = await entry();
    expect(await waitlist().act({ action: "resend", ids: [a.id], tell: [] }, meta)).toEqual({
      kind: "done",
      action: "resend",
      outcomes: { "not-invited": 1 },
    });
  });
});

describe("Decline", () => {
  test("sends nothing unless Tell them is ticked, and then only to a confirmed address; it ends the invitation", async () => {
    const quiet = await entry();
    const told = await entry();
    const unconfirmed = await entry("waiting");
    await waitlist().act({ action: "invite", ids: [told.id], tell: [] }, meta);
    const [invitation] = await adminMails(told.id);

    expect(await waitlist().act({ action: "decline", ids: [quiet.id], tell: [] }, meta)).toEqual({
      kind: "done",
      action: "decline",
      outcomes: { declined: 1 },
    });
    expect(await adminMails(quiet.id)).toHaveLength(0);

    expect(
      await waitlist().act({ action: "decline", ids: [told.id], tell: [told.id] }, meta),
    ).toEqual({ kind: "done", action: "decline", outcomes: { "declined-told": 1 } });
    const mails = await adminMails(told.id);
    expect(mails.map((m) => m.subject)).toEqual([
      "Your invitation to Tieout",
      "About your place on the Tieout waitlist",
    ]);
    expect(await waitlist().checkInvitation(invitationIn(invitation!.text)!)).toBeNull();

    expect(
      await waitlist().act(
        { action: "decline", ids: [unconfirmed.id], tell: [unconfirmed.id] },
        meta,
      ),
    ).toEqual({ kind: "done", action: "decline", outcomes: { "declined-not-told": 1 } });
    expect(await adminMails(unconfirmed.id)).toHaveLength(0);
    expect(await stateOf(unconfirmed.id)).toBe("declined");
  });
});

describe("Remove", () => {
  test("erases the entry, its tokens and every outbox row that names it; its audit rows stay", async () => {
    const a = await entry();
    await waitlist().act({ action: "invite", ids: [a.id], tell: [] }, meta);
    const captured = captureLog();
    expect(
      await waitlist(captured.log).act({ action: "remove", ids: [a.id], tell: [] }, meta),
    ).toEqual({
      kind: "done",
      action: "remove",
      outcomes: { removed: 1 },
    });
    // One line in the ledger of erasures, naming the address by its hash only.
    expect(captured.events("erasure")).toEqual([
      expect.objectContaining({
        scope: "waitlist entry",
        subjects: [erasureSubject(TEST_ERASURE_KEY, a.email)],
      }),
    ]);
    expect(JSON.stringify(captured.lines())).not.toContain(a.email);
    const left = await queryRows<{ entries: number; tokens: number; outbox: number }>(
      db(),
      sql`SELECT (SELECT count(*) FROM waitlist_entries WHERE id = ${a.id})::int AS entries,
                 (SELECT count(*) FROM waitlist_tokens WHERE entry_id = ${a.id})::int AS tokens,
                 (SELECT count(*) FROM outbox WHERE payload::text LIKE ${`%${a.email}%`})::int AS outbox`,
    );
    expect(left).toEqual([{ entries: 0, tokens: 0, outbox: 0 }]);
    expect((await auditOf(a.id)).map((r) => r.outcome)).toEqual(["invited", "removed"]);
    const again = captureLog();
    expect(
      await waitlist(again.log).act({ action: "remove", ids: [a.id], tell: [] }, meta),
    ).toEqual({
      kind: "done",
      action: "remove",
      outcomes: { gone: 1 },
    });
    expect(again.events("erasure")).toEqual([]);
  });
});

describe("the audit log", () => {
  test("is append-only in the database: UPDATE, DELETE and TRUNCATE are refused", async () => {
    const a = await entry();
    await waitlist().act({ action: "decline", ids: [a.id], tell: [] }, meta);
    for (const change of [
      sql`UPDATE admin_audit_log SET admin_email = 'someone@else.test'`,
      sql`DELETE FROM admin_audit_log WHERE entry_id = ${a.id}`,
      sql`TRUNCATE admin_audit_log`,
    ])
      // Drizzle reports the failed query; the database's own refusal is its cause.
      await expect(
        db()
          .execute(change)
          .catch((error: Error) => Promise.reject(new Error(String(error.cause)))),
      ).rejects.toThrow(/admin_audit_log is append-only: \w+ refused/);
    expect(await auditOf(a.id)).toHaveLength(1);
  });
});

describe("joining from an invitation", () => {
  test("the invitation's token joins its entry for the address it was sent to, verified or not", async () => {
    const a = await entry();
    await waitlist().act({ action: "invite", ids: [a.id], tell: [] }, meta);
    const token = invitationIn((await adminMails(a.id))[0]!.text)!;
    const asking = { uid: "u-1", emailVerified: false, invitation: token, openSignup: false };

    expect(await waitlist().join({ ...asking, email: "someone-else@example.com" })).toBe("none");
    expect(await stateOf(a.id)).toBe("invited");
    expect(await waitlist().join({ ...asking, email: a.email.toUpperCase() })).toBe("joined");
    expect(await stateOf(a.id)).toBe("joined");
    // The link is used; the account that joined keeps its place without it.
    expect(await waitlist().checkInvitation(token)).toBeNull();
    expect(await waitlist().join({ ...asking, email: a.email, invitation: null })).toBe("member");
    expect(await waitlist().act({ action: "invite", ids: [a.id], tell: [] }, meta)).toEqual({
      kind: "done",
      action: "invite",
      outcomes: { "already-joined": 1 },
    });
  });

  test("an expired invitation no longer opens sign-up, nor joins by its token", async () => {
    const a = await entry();
    await waitlist().act({ action: "invite", ids: [a.id], tell: [] }, meta);
    const token = invitationIn((await adminMails(a.id))[0]!.text)!;
    await db().execute(
      sql`UPDATE waitlist_tokens SET expires_at = now() - interval '1 second'
          WHERE entry_id = ${a.id} AND purpose = 'invite'`,
    );
    expect(await waitlist().checkInvitation(token)).toBeNull();
    expect(
      await waitlist().join({
        uid: "u-4",
        email: a.email,
        emailVerified: false,
        invitation: token,
        openSignup: false,
      }),
    ).toBe("none");
    expect(await stateOf(a.id)).toBe("invited");
  });

  test("without the link, the verified address joins an invited entry; sign-up open or not decides for the others", async () => {
    const invited = await entry();
    const confirmed = await entry();
    await waitlist().act({ action: "invite", ids: [invited.id], tell: [] }, meta);
    const asking = { uid: "u-2", invitation: null, openSignup: false };
    expect(await waitlist().join({ ...asking, email: invited.email, emailVerified: false })).toBe(
      "none",
    );
    expect(await waitlist().join({ ...asking, email: invited.email, emailVerified: true })).toBe(
      "joined",
    );
    const other = { uid: "u-3", email: confirmed.email, emailVerified: true, invitation: null };
    expect(await waitlist().join({ ...other, openSignup: false })).toBe("none");
    expect(await stateOf(confirmed.id)).toBe("confirmed");
    expect(await waitlist().join({ ...other, openSignup: true })).toBe("joined");
  });
});

describe("the admin list", () => {
  test("its counts by state follow every insert, change of state and erasure, as the entries themselves say", async () => {
    const counted = async () =>
      (await waitlist().list({ filter: ANY_ENTRY, position: null, limit: 1 })).counts;
    const actual = async () => {
      const counts: Record<string, number> = Object.fromEntries(ENTRY_STATES.map((s) => [s, 0]));
      for (const { state, n } of await queryRows<{ state: string; n: number }>(
        db(),
        sql`SELECT state, count(*)::int AS n FROM waitlist_entries GROUP BY state`,
      ))
        counts[state] = Number(n);
      return counts;
    };
    const [a, b] = [await entry(), await entry("waiting")];
    await waitlist().act({ action: "invite", ids: [a.id], tell: [] }, meta);
    await waitlist().act({ action: "decline", ids: [b.id], tell: [] }, meta);
    expect(await counted()).toEqual(await actual());
    await waitlist().act({ action: "remove", ids: [a.id, b.id], tell: [] }, meta);
    // An update that leaves the state as it was moves no count.
    await db().execute(sql`UPDATE waitlist_entries SET admin_mails = admin_mails`);
    expect(await counted()).toEqual(await actual());
  });

  test("pages newest first by keyset, forwards and back, with a state filter and a search", async () => {
    // 120 entries in one transaction share one created_at: the id keeps them in order.
    await db().execute(sql`
      INSERT INTO waitlist_entries (name, email, company)
      SELECT 'Paged ' || i, 'paged-' || i || '@example-cpa.com', CASE WHEN i % 10 = 0 THEN 'Tenth LLP' END
      FROM generate_series(1, 120) AS i`);
    const list = (more: object = {}) =>
      waitlist().list({
        filter: { ...ANY_ENTRY, query: "paged-" },
        position: null,
        limit: 50,
        ...more,
      });
    const first = await list();
    const second = await list({ position: { after: first.older! } });
    const third = await list({ position: { after: second.older! } });
    const names = [first, second, third].flatMap((p) => p.entries.map((e) => e.name));
    expect(names).toEqual(Array.from({ length: 120 }, (_, i) => `Paged ${120 - i}`));
    expect([first.newer, third.older]).toEqual([null, null]);
    const back = await list({ position: { before: third.newer! } });
    expect(back.entries.map((e) => e.name)).toEqual(second.entries.map((e) => e.name));
    expect(back.newer).not.toBeNull();

    const tenth = await waitlist().list({
      filter: { ...ANY_ENTRY, query: "tenth", state: "waiting" },
      position: null,
      limit: 50,
    });
    expect(tenth.entries.map((e) => e.name)).toEqual(
      Array.from({ length: 12 }, (_, i) => `Paged ${120 - i * 10}`),
    );
    const none = await waitlist().list({
      filter: { ...ANY_ENTRY, query: "paged-", state: "joined" },
      position: null,
      limit: 50,
    });
    expect(none.entries).toEqual([]);
    expect(first.counts.waiting).toBeGreaterThanOrEqual(120);
    // A cursor this list never wrote starts at the newest, never an error.
    for (const after of ["'; DROP TABLE x", "2026-02-30T10:11:12.123456Z_42"])
      expect((await list({ position: { after } })).entries[0]?.name, after).toBe("Paged 120");
  });
});
