import { sql } from "drizzle-orm";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { queryRows } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import { createAccounts } from "#server/firebase-admin.ts";
import { mailboxOf } from "#server/outbox/mailbox-quota.ts";
import { createPrivacyRequests } from "#server/privacy/requests.ts";
import { createSessionStore } from "#server/session-store.ts";
import { createSubprocessorSubscriptions } from "#server/subprocessors/subscriptions.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { SUBPROCESSORS } from "#src/content/subprocessors.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { testLedger } from "#tests/support/erasure-ledger.ts";

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

describe("confirmation mails to one mailbox in a day, across every form", () => {
  const database = databaseForThisFile();
  const env = parseEnv({ WAITLIST_RATE_LIMIT: "0", SITE_URL: "http://localhost:3000" });
  const log = pino({ level: "silent" });
  const meta = { clientKey: "test", clientAddress: "203.0.113.9", requestId: "r1" };
  const waitlist = () =>
    createWaitlistService({ db: database().db, env, log, ledger: testLedger() });
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
  /** The confirmation mails in the outbox that land in `mailbox`. */
  const mailsInto = async (mailbox: string) =>
    (
      await queryRows<{ address: string }>(
        database().db,
        sql`SELECT payload->'to'->0->>'address' AS address FROM outbox WHERE channel = 'email'`,
      )
    ).filter((row) => mailboxOf(row.address) === mailbox);

  it("are three, however the address is spelt and whichever form asks; the answers do not tell", async () => {
    const join = (email: string) => waitlist().submit({ name: "Dana", email }, meta);
    expect(await join("dana.reyes+w1@gmail.com")).toEqual({ kind: "created" });
    expect(await subscriptions().subscribe("DanaReyes+s@gmail.com", meta)).toEqual({
      kind: "accepted",
    });
    expect(await join("d.ana.reyes+w2@googlemail.com")).toEqual({ kind: "created" });
    expect(await mailsInto("danareyes@gmail.com")).toHaveLength(3);

    // The fourth and later ask the same, and get the same answers, but nothing more is sent.
    expect(
      await privacy().submit(
        { email: "Dana.Reyes+p@gmail.com", name: "Dana", kind: "access", details: "" },
        meta,
      ),
    ).toEqual({ kind: "accepted" });
    expect(await join("danareyes+w3@gmail.com")).toEqual({ kind: "created" });
    expect(await subscriptions().subscribe("dana.reyes+s2@gmail.com", meta)).toEqual({
      kind: "accepted",
    });
    expect(await mailsInto("danareyes@gmail.com")).toHaveLength(3);

    // What was kept: the waitlist entry (unconfirmed, with no link to use); no privacy request and
    // no subscription, which would be waiting for a mail that never comes.
    const count = (table: string) =>
      queryRows<{ n: number }>(
        database().db,
        sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE email ILIKE '%reyes%'`,
      ).then((rows) => rows[0]!.n);
    expect(await count("waitlist_entries")).toBe(3);
    expect(await count("subprocessor_subscribers")).toBe(1);
    expect(await count("privacy_requests")).toBe(0);

    // Someone else's mailbox is untouched.
    expect(await join("lee.park@gmail.com")).toEqual({ kind: "created" });
    expect(await mailsInto("leepark@gmail.com")).toHaveLength(1);
  });

  it("hold for submissions that arrive together and are written in one statement", async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        waitlist().submit({ name: "Sam", email: `sam.okafor+${i}@firm.example` }, meta),
      ),
    );
    expect(results.map((r) => r.kind)).toEqual(Array(5).fill("created"));
    expect(await mailsInto("sam.okafor@firm.example")).toHaveLength(3);
  });
});
