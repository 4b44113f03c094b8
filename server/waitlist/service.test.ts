import { sql } from "drizzle-orm";
import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { ANY_ENTRY } from "#src/features/waitlist/entry-filter.ts";
import { erasureSubject } from "#server/audit/erasure-ledger.ts";
import { testAnswers, testLedger, TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { captureLog } from "#tests/support/log-lines.ts";

const database = databaseForThisFile();

function waitlistWithReceivers() {
  const env = parseEnv({
    WAITLIST_FORWARD_URL: "http://127.0.0.1:1/formResponse",
    WAITLIST_FORWARD_FIELDS: "a,b,c,d",
    SLACK_WEBHOOK_URL: "https://hooks.slack.example/x",
    WAITLIST_RATE_LIMIT: "0",
  });
  return createWaitlistService({
    db: database().db,
    env,
    log: pino({ level: "silent" }),
    ledger: testLedger(),
    answers: testAnswers(database().db),
  });
}

const meta = { clientKey: "test", requestId: "r1" };

/** The outbox rows that name the entry with this address, by channel and key. */
const outboxOf = (email: string) =>
  queryRows<{ key: string; channel: string; payload: { text?: string } }>(
    database().db,
    sql`SELECT o.key, o.channel, o.payload FROM outbox o
        JOIN waitlist_entries w ON o.key LIKE 'waitlist-%:' || w.id
        WHERE lower(w.email) = ${email} ORDER BY o.channel`,
  );

test("a new entry and its outbox rows commit together; a repeat adds neither; the admin list reads the forwarding state", async () => {
  const waitlist = waitlistWithReceivers();
  const submit = (email: string) => waitlist.submit({ name: "Ada", email, company: "Acme" }, meta);
  const results = await Promise.all([
    submit("ada@example.com"),
    submit("ADA@example.com"),
    submit("bob@example.com"),
  ]);
  expect(results.map((r) => r.kind).sort()).toEqual(["created", "created", "exists"]);
  expect((await submit("bob@example.com")).kind).toBe("exists");

  // The confirmation mail and the collector's copy; Slack hears of an entry only once confirmed.
  for (const email of ["ada@example.com", "bob@example.com"])
    expect((await outboxOf(email)).map((r) => r.channel)).toEqual(["email", "forward"]);

  const { entries } = await waitlist.list({ filter: ANY_ENTRY, position: null, limit: 10 });
  expect(entries.map((e) => [e.forwardStatus, e.forwardAttempts])).toEqual([
    ["pending", 0],
    ["pending", 0],
  ]);
});

test("confirming an entry puts one Slack notice in the outbox with it and wakes the worker; pressing again adds none", async () => {
  const waitlist = waitlistWithReceivers();
  let wakes = 0;
  waitlist.onEnqueued(() => wakes++);
  await waitlist.submit(
    { name: "Cleo <Confirm>", email: "cleo@example.com", company: "C&Co" },
    meta,
  );
  expect(wakes).toBe(1);
  const [mail] = (await outboxOf("cleo@example.com")).filter((r) => r.channel === "email");
  const [, token] = /\/waitlist\/confirm\?token=([\w-]+)/.exec(JSON.stringify(mail?.payload)) ?? [];

  expect(await waitlist.useLink("confirm", token!, meta)).toMatchObject({ kind: "confirmed" });
  expect(wakes).toBe(2);
  const slack = (await outboxOf("cleo@example.com")).filter((r) => r.channel === "slack");
  expect(slack).toHaveLength(1);
  expect(slack[0]?.key).toMatch(/^waitlist-slack:\d+$/);
  expect(slack[0]?.payload.text).toBe(
    "Waitlist entry confirmed: Cleo &lt;Confirm&gt; &lt;cleo@example.com&gt;, C&amp;Co",
  );

  expect(await waitlist.useLink("confirm", token!, meta)).toEqual({ kind: "gone" });
  expect(wakes).toBe(2);
  expect((await outboxOf("cleo@example.com")).filter((r) => r.channel === "slack")).toHaveLength(1);
});

test("the owner's remove link erases the entry and writes one line in the ledger of erasures, by hash", async () => {
  const captured = captureLog();
  const env = parseEnv({ WAITLIST_RATE_LIMIT: "0" });
  const waitlist = createWaitlistService({
    db: database().db,
    env,
    log: captured.log,
    ledger: testLedger(captured.log),
    answers: testAnswers(database().db),
  });
  await waitlist.submit({ name: "Remy", email: "Remy@example.com" }, meta);
  const [mail] = (await outboxOf("remy@example.com")).filter((r) => r.channel === "email");
  const [, token] = /\/waitlist\/remove\?token=([\w-]+)/.exec(JSON.stringify(mail?.payload)) ?? [];

  expect(await waitlist.useLink("remove", token!, meta)).toEqual({ kind: "removed" });
  expect(await outboxOf("remy@example.com")).toEqual([]);
  expect(captured.events("erasure")).toEqual([
    expect.objectContaining({
      scope: "waitlist entry",
      subjects: [erasureSubject(TEST_ERASURE_KEY, "remy@example.com")],
    }),
  ]);
  expect(JSON.stringify(captured.lines()).toLowerCase()).not.toContain("remy@example.com");
  // Used again, the link finds nothing, and the ledger says nothing more.
  expect(await waitlist.useLink("remove", token!, meta)).toEqual({ kind: "gone" });
  expect(captured.events("erasure")).toHaveLength(1);
});

describe("a repeat submission for an entry never confirmed (decision 036)", () => {
  const env = parseEnv({ WAITLIST_RATE_LIMIT: "0" });
  const waitlist = () =>
    createWaitlistService({
      db: database().db,
      env,
      log: pino({ level: "silent" }),
      ledger: testLedger(),
      answers: testAnswers(database().db),
    });
  const idOf = async (email: string) =>
    (
      await queryRows<{ id: number }>(
        database().db,
        sql`SELECT id::int AS id FROM waitlist_entries WHERE lower(email) = ${email}`,
      )
    )[0]!.id;
  /** The entry's confirmation mails in the outbox, oldest first, with their links. */
  const confirmationsOf = async (email: string) => {
    const id = await idOf(email);
    const rows = await queryRows<{ key: string; payload: { text: string } }>(
      database().db,
      sql`SELECT key, payload FROM outbox
          WHERE key = ${`waitlist-confirm-mail:${id}`} OR key LIKE ${`waitlist-confirm-mail:${id}:%`}
          ORDER BY id`,
    );
    return rows.map((row) => ({
      key: row.key,
      confirm: /\/waitlist\/confirm\?token=([\w-]+)/.exec(row.payload.text)?.[1] ?? "",
      remove: /\/waitlist\/remove\?token=([\w-]+)/.exec(row.payload.text)?.[1] ?? "",
    }));
  };
  /** Its confirm links stop working, as 14 days would make them. */
  const expireLinks = async (email: string) =>
    database().db.execute(
      sql`UPDATE waitlist_tokens SET expires_at = now() - interval '1 second'
          WHERE entry_id = ${await idOf(email)} AND purpose = 'confirm'`,
    );
  /** A day passes for every mailbox's count. */
  const nextDay = () =>
    database().db.execute(
      sql`UPDATE rate_limit_windows SET window_start = window_start - interval '1 day'`,
    );

  test("gets a fresh confirmation mail once no link of it works, and none while one does", async () => {
    const join = () => waitlist().submit({ name: "Lou", email: "lou@example.com" }, meta);
    const first = await join();
    expect(first).toMatchObject({
      kind: "created",
      shareUrl: expect.stringMatching(/\?ref=[0-9a-f]{16}$/) as string,
    });
    // A repeat is told the same link to share as the first submission was (decision 045).
    expect(await join()).toEqual({
      kind: "exists",
      shareUrl: first.kind === "created" ? first.shareUrl : "",
    });
    expect(await confirmationsOf("lou@example.com")).toHaveLength(1);

    await expireLinks("lou@example.com");
    expect(await join()).toMatchObject({ kind: "exists" });
    const id = await idOf("lou@example.com");
    const mails = await confirmationsOf("lou@example.com");
    expect(mails.map((m) => m.key)).toEqual([
      `waitlist-confirm-mail:${id}`,
      `waitlist-confirm-mail:${id}:2`,
    ]);
    // The new link is live, the old one is not; a submission (the next day: three a day) now
    // sends nothing more.
    await nextDay();
    expect(await join()).toMatchObject({ kind: "exists" });
    expect(await confirmationsOf("lou@example.com")).toHaveLength(2);
    expect(await waitlist().checkLink("confirm", mails[0]!.confirm)).toBeNull();
    expect(await waitlist().checkLink("remove", mails[1]!.remove)).not.toBeNull();
    expect(await waitlist().useLink("confirm", mails[1]!.confirm, meta)).toMatchObject({
      kind: "confirmed",
    });
    // Confirmed: nothing is ever mailed for a repeat again.
    await expireLinks("lou@example.com");
    expect(await join()).toMatchObject({ kind: "exists" });
    expect(await confirmationsOf("lou@example.com")).toHaveLength(2);
  });

  test("submissions at once for one entry with no link send one mail", async () => {
    const join = () => waitlist().submit({ name: "Max", email: "max@example.com" }, meta);
    await join();
    await expireLinks("max@example.com");
    // Two services: two instances writing in their own batches.
    const [a, b] = [waitlist(), waitlist()];
    await Promise.all([
      a.submit({ name: "Max", email: "max@example.com" }, meta),
      b.submit({ name: "Max", email: "MAX@example.com" }, meta),
    ]);
    expect(await confirmationsOf("max@example.com")).toHaveLength(2);
  });

  test("an entry kept while mail was paused gets its first mail on a later day", async () => {
    const join = (email: string) => waitlist().submit({ name: "Ria", email }, meta);
    for (const n of [1, 2, 3]) await join(`ria+${n}@example.com`);
    expect(await join("ria@example.com")).toMatchObject({ kind: "paused" });
    expect(await confirmationsOf("ria@example.com")).toEqual([]);
    expect(await join("ria@example.com")).toMatchObject({ kind: "paused" });
    await nextDay();
    expect(await join("ria@example.com")).toMatchObject({ kind: "exists" });
    const [mail] = await confirmationsOf("ria@example.com");
    expect(mail?.key).toBe(`waitlist-confirm-mail:${await idOf("ria@example.com")}`);
    expect(await waitlist().checkLink("confirm", mail!.confirm)).not.toBeNull();
  });

  test("erasing the entry erases every confirmation mail it was sent", async () => {
    const join = () => waitlist().submit({ name: "Eve", email: "eve@example.com" }, meta);
    await join();
    for (let n = 0; n < 2; n++) {
      await expireLinks("eve@example.com");
      await join();
    }
    await nextDay();
    const mails = await confirmationsOf("eve@example.com");
    expect(mails).toHaveLength(3);
    const id = await idOf("eve@example.com");
    expect(await waitlist().useLink("remove", mails[0]!.remove, meta)).toEqual({ kind: "removed" });
    const left = await queryRows<{ key: string }>(
      database().db,
      sql`SELECT key FROM outbox WHERE key LIKE ${`waitlist-%:${id}`} OR key LIKE ${`waitlist-%:${id}:%`}`,
    );
    expect(left).toEqual([]);
  });
});

test("the confirm link shows its owner the name and company as typed; the confirmation saves their corrections, checked by the schema, before Slack hears of it", async () => {
  const waitlist = waitlistWithReceivers();
  await waitlist.submit(
    { name: "Mallory Typed-This", email: "dana@example.com", company: "Not Her Firm" },
    meta,
  );
  const [mail] = (await outboxOf("dana@example.com")).filter((r) => r.channel === "email");
  const text = JSON.stringify(mail?.payload);
  const [, confirm] = /\/waitlist\/confirm\?token=([\w-]+)/.exec(text) ?? [];
  const [, remove] = /\/waitlist\/remove\?token=([\w-]+)/.exec(text) ?? [];

  expect(await waitlist.checkLink("confirm", confirm!)).toMatchObject({
    details: { name: "Mallory Typed-This", company: "Not Her Firm" },
  });
  // The removal page has no need of them, and does not show them.
  expect(await waitlist.checkLink("remove", remove!)).not.toHaveProperty("details");

  // Refused by the schema: nothing confirmed or saved, and the link still works.
  expect(await waitlist.useLink("confirm", confirm!, meta, { name: "  ", company: "x" })).toEqual({
    kind: "invalid",
    maskedEmail: expect.any(String) as string,
    values: { name: "  ", company: "x" },
    fieldErrors: { name: "Please enter your name." },
  });
  expect(await waitlist.checkLink("confirm", confirm!)).not.toBeNull();

  expect(
    await waitlist.useLink("confirm", confirm!, meta, {
      name: " Dana \n  Reyes ",
      company: "Reyes <CPA>",
    }),
  ).toMatchObject({ kind: "confirmed" });
  const [entry] = await queryRows<{ name: string; company: string | null; state: string }>(
    database().db,
    sql`SELECT name, company, state FROM waitlist_entries WHERE email = 'dana@example.com'`,
  );
  expect(entry).toEqual({ name: "Dana Reyes", company: "Reyes <CPA>", state: "confirmed" });
  const [slack] = (await outboxOf("dana@example.com")).filter((r) => r.channel === "slack");
  expect(slack?.payload.text).toBe(
    "Waitlist entry confirmed: Dana Reyes &lt;dana@example.com&gt;, Reyes &lt;CPA&gt;",
  );
  // A link pressed again with other names changes nothing.
  expect(await waitlist.useLink("confirm", confirm!, meta, { name: "Eve", company: "" })).toEqual({
    kind: "gone",
  });
});
