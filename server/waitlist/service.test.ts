import { sql } from "drizzle-orm";
import { pino } from "pino";
import { expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { erasureSubject } from "#server/privacy/erasure-ledger.ts";
import { testLedger, TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";
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

  const { entries } = await waitlist.list({ query: "", state: null, position: null, limit: 10 });
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

  expect(await waitlist.useLink("confirm", token!, meta)).toEqual({ kind: "confirmed" });
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
