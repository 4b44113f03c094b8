import { sql } from "drizzle-orm";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { queryRows } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import { createAccounts } from "#server/identity/firebase-admin.ts";
import { forgetMailbox, mailboxOf, windowKey } from "#server/outbox/mailbox-quota.ts";
import { createPrivacyRequests } from "#server/privacy/requests.ts";
import { createSessionStore } from "#server/identity/session-store.ts";
import { createSubprocessorSubscriptions } from "#server/subprocessors/subscriptions.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { SUBPROCESSORS } from "#src/content/subprocessors.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { testAnswers, testLedger } from "#tests/support/erasure-ledger.ts";

describe("the mailbox an address delivers to", () => {
  it("ignores capitals and a +tag", () => {
    expect(mailboxOf("Dana.Reyes+tax@Firm.COM")).toBe("dana.reyes@firm.com");
    expect(mailboxOf("dana.reyes@firm.com")).toBe("dana.reyes@firm.com");
  });

  it("ignores dots at Gmail, under either of its domains", () => {
    expect(mailboxOf("Dana.Reyes+1@GoogleMail.com")).toBe("danareyes@gmail.com");
    expect(mailboxOf("d.a.n.a.reyes@gmail.com")).toBe("danareyes@gmail.com");
  });

  it("keeps an address that starts with + whole, since there is no mailbox before the tag", () => {
    expect(mailboxOf("+1@firm.com")).toBe("+1@firm.com");
  });
});

describe("confirmation mails to one mailbox in a day, per form", () => {
  const database = databaseForThisFile();
  const env = parseEnv({ WAITLIST_RATE_LIMIT: "0", SITE_URL: "http://localhost:3000" });
  const log = pino({ level: "silent" });
  const meta = { clientKey: "test", clientAddress: "203.0.113.9", requestId: "r1" };
  const waitlist = () =>
    createWaitlistService({
      db: database().db,
      env,
      log,
      ledger: testLedger(),
      answers: testAnswers(database().db),
    });
  const subscriptions = () =>
    createSubprocessorSubscriptions({
      db: database().db,
      env,
      log,
      ledger: testLedger(),
      list: SUBPROCESSORS,
    });
  const privacy = () =>
    createPrivacyRequests({
      db: database().db,
      env,
      log,
      ledger: testLedger(),
      accounts: createAccounts(env),
      store: createSessionStore(database().db),
    });
  /** The confirmation mails in the outbox that land in `mailbox`, by the form that wrote them. */
  const mailsInto = async (mailbox: string, form = "") =>
    (
      await queryRows<{ address: string }>(
        database().db,
        sql`SELECT payload->'to'->0->>'address' AS address FROM outbox
            WHERE channel = 'email' AND key LIKE ${`${form}%`}`,
      )
    ).filter((row) => mailboxOf(row.address) === mailbox);
  const count = (table: string, like: string) =>
    queryRows<{ n: number }>(
      database().db,
      sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE email ILIKE ${like}`,
    ).then((rows) => rows[0]!.n);
  const askPrivacy = (email: string) =>
    privacy().submit({ email, name: "Dana", kind: "deletion", details: "" }, meta);

  it("are three from each form, however the address is spelt; what one form is asked cannot spend another's", async () => {
    // A stranger asks for three privacy requests under Dana's address, each spelt differently.
    for (const email of ["dana.reyes+p1@gmail.com", "DanaReyes@gmail.com", "d.ana.reyes@gmail.com"])
      expect(await askPrivacy(email)).toEqual({ kind: "accepted" });
    expect(await mailsInto("danareyes@gmail.com", "privacy-")).toHaveLength(3);

    // Dana's own deletion request is now refused, and says so: nothing is written or sent.
    const refused = await askPrivacy("dana.reyes@gmail.com");
    expect(refused.kind).toBe("paused");
    expect(await count("privacy_requests", "%reyes%")).toBe(3);
    expect(await mailsInto("danareyes@gmail.com", "privacy-")).toHaveLength(3);

    // Her waitlist entry and her subscription still get their mails: each form counts alone.
    expect(
      await waitlist().submit({ name: "Dana", email: "dana.reyes@gmail.com" }, meta),
    ).toMatchObject({
      kind: "created",
    });
    expect(await subscriptions().subscribe("dana.reyes@gmail.com", meta)).toEqual({
      kind: "accepted",
    });
    expect(await mailsInto("danareyes@gmail.com", "waitlist-")).toHaveLength(1);
    expect(await mailsInto("danareyes@gmail.com", "subprocessor-")).toHaveLength(1);

    // Someone else's mailbox is untouched.
    expect(await askPrivacy("lee.park@gmail.com")).toEqual({ kind: "accepted" });
  });

  it("past three, the waitlist keeps a new entry but mails nothing and answers paused", async () => {
    const join = (email: string) => waitlist().submit({ name: "Kim", email }, meta);
    for (const email of ["kim+1@firm.example", "kim+2@firm.example", "KIM+3@firm.example"])
      expect(await join(email)).toMatchObject({ kind: "created" });
    expect(await join("kim@firm.example")).toMatchObject({ kind: "paused" });
    expect(await mailsInto("kim@firm.example")).toHaveLength(3);
    expect(await count("waitlist_entries", "kim%@firm.example")).toBe(4);
    const tokens = await queryRows<{ n: number }>(
      database().db,
      sql`SELECT count(*)::int AS n FROM waitlist_tokens t JOIN waitlist_entries e ON e.id = t.entry_id
          WHERE e.email = 'kim@firm.example'`,
    );
    expect(tokens[0]!.n).toBe(0);
  });

  it("paused or not is decided before the address is looked up: a known address and a new one answer alike", async () => {
    const join = (email: string) => waitlist().submit({ name: "Ona", email }, meta);
    // Ona is on the list, with a link that works; a repeat gets no mail but counts.
    expect(await join("ona@firm.example")).toMatchObject({ kind: "created" });
    expect(await join("ona@firm.example")).toMatchObject({ kind: "exists" });
    expect(await join("ona+new@firm.example")).toMatchObject({ kind: "created" });
    // The fourth submission of the day for the mailbox, known or new, is paused alike.
    expect(await join("ona@firm.example")).toMatchObject({ kind: "paused" });
    expect(await join("ona+fresh@firm.example")).toMatchObject({ kind: "paused" });
    expect(await mailsInto("ona@firm.example")).toHaveLength(2);

    // The same for the sub-processor form: a subscriber and a stranger are paused alike.
    expect(await subscriptions().subscribe("ona@firm.example", meta)).toEqual({ kind: "accepted" });
    expect(await subscriptions().subscribe("ona@firm.example", meta)).toEqual({ kind: "accepted" });
    expect(await subscriptions().subscribe("ona@firm.example", meta)).toEqual({ kind: "accepted" });
    expect((await subscriptions().subscribe("ona@firm.example", meta)).kind).toBe("paused");
    expect((await subscriptions().subscribe("ona+other@firm.example", meta)).kind).toBe("paused");
    expect(await count("subprocessor_subscribers", "ona%")).toBe(1);
  });

  it("hold for submissions that arrive together and are written in one statement", async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        waitlist().submit({ name: "Sam", email: `sam.okafor+${i}@firm.example` }, meta),
      ),
    );
    expect(results.map((r) => r.kind).sort()).toEqual([
      "created",
      "created",
      "created",
      "paused",
      "paused",
    ]);
    expect(await mailsInto("sam.okafor@firm.example")).toHaveLength(3);
    expect(await count("waitlist_entries", "sam.okafor%")).toBe(5);
  });

  it("a confirmed deletion forgets every form's count for the mailbox; the windows hold no address", async () => {
    const windows = await queryRows<{ key: string }>(
      database().db,
      sql`SELECT key FROM rate_limit_windows WHERE key LIKE 'daily:%'`,
    );
    expect(windows.length).toBeGreaterThan(0);
    for (const { key } of windows) {
      expect(key).toMatch(/^daily:confirmation-mail:(waitlist|subprocessors|privacy):[\w-]{43}$/);
      expect(key).not.toContain("@");
    }
    const tx = database().db;
    await forgetMailbox(tx, "Dana.Reyes+x@GoogleMail.com");
    const left = await queryRows<{ key: string }>(
      database().db,
      sql`SELECT key FROM rate_limit_windows WHERE key IN (${sql.join(
        (["waitlist", "subprocessors", "privacy"] as const).map(
          (form) => sql`${"daily:" + windowKey(form, "danareyes@gmail.com")}`,
        ),
        sql`, `,
      )})`,
    );
    expect(left).toEqual([]);
  });
});
