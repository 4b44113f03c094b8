import { sql } from "drizzle-orm";
import { pino } from "pino";
import { expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import { createSubprocessorSubscriptions, todayUtc } from "#server/subprocessors/subscriptions.ts";
import type { IsoDate } from "#src/content/dates.ts";
import { SUBPROCESSORS, type SubprocessorChange } from "#src/content/subprocessors.ts";
import { erasureSubject } from "#server/audit/erasure-ledger.ts";
import { testLedger, TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { captureLog } from "#tests/support/log-lines.ts";

const database = databaseForThisFile();
const env = parseEnv({ WAITLIST_RATE_LIMIT: "0", SITE_URL: "http://localhost:3000" });
const meta = { clientKey: "test", requestId: "r1" };

/** `days` after today, as the content writes dates. */
const inDays = (days: number) => todayUtc(new Date(Date.now() + days * 86_400_000));

const change = (id: string, published: IsoDate, effective: IsoDate): SubprocessorChange => ({
  id,
  published,
  effective,
  summary: `We will take card payments through Stripe (${id}).`,
  adds: "stripe",
});

function subscriptions(changes: readonly SubprocessorChange[] = []) {
  return createSubprocessorSubscriptions({
    db: database().db,
    env,
    log: pino({ level: "silent" }),
    ledger: testLedger(),
    list: SUBPROCESSORS,
    changes,
  });
}

type Mail = {
  key: string;
  to: string;
  subject: string;
  text: string;
  headers: Record<string, string>;
};

/** The mails in the outbox to `address`, oldest first. */
async function mailsTo(address: string): Promise<Mail[]> {
  const rows = await queryRows<{
    key: string;
    payload: Omit<Mail, "key" | "to"> & { to: { address: string }[] };
  }>(
    database().db,
    sql`SELECT key, payload FROM outbox WHERE payload->'to'->0->>'address' = ${address} ORDER BY id`,
  );
  return rows.map((r) => ({ ...r.payload, key: r.key, to: r.payload.to[0]!.address }));
}

/** The token of the link to `/subprocessors/<purpose>` in a mail's text. */
function tokenIn(mail: Mail, purpose: "confirm" | "unsubscribe"): string {
  const found = new RegExp(`/subprocessors/${purpose}\\?token=([\\w-]+)`).exec(mail.text);
  if (!found?.[1]) throw new Error(`no ${purpose} link in ${mail.subject}`);
  return found[1];
}

async function subscribed(address: string, service = subscriptions()) {
  expect(await service.subscribe(address, meta)).toEqual({ kind: "accepted" });
  const [mail] = await mailsTo(address);
  expect(await service.useLink("confirm", tokenIn(mail!, "confirm"), meta)).toEqual({
    kind: "confirmed",
  });
}

test("a new address gets one confirmation mail; the same address in another case gets none, and the same answer", async () => {
  const service = subscriptions();
  let wakes = 0;
  service.onEnqueued(() => wakes++);
  expect(await service.subscribe("nia@example-cpa.com", meta)).toEqual({ kind: "accepted" });
  expect(await service.subscribe("  NIA@Example-CPA.com ", meta)).toEqual({ kind: "accepted" });
  const mails = await mailsTo("nia@example-cpa.com");
  expect(mails).toHaveLength(1);
  expect(mails[0]!.subject).toBe("Confirm your subscription to Tieout's sub-processor changes");
  expect(mails[0]!.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  expect(mails[0]!.headers["List-Unsubscribe"]).toMatch(
    /^<http:\/\/localhost:3000\/subprocessors\/unsubscribe\?token=[\w-]{43}>$/,
  );
  expect(wakes).toBe(1);
});

test("an address that is not one, or a throwaway one, is refused with a sentence for the field", async () => {
  const service = subscriptions();
  expect(await service.subscribe("not an address", meta)).toMatchObject({ kind: "invalid" });
  expect(await service.subscribe("tom@mailinator.com", meta)).toEqual({
    kind: "invalid",
    message: "Please use a permanent address: throwaway addresses cannot receive our notices.",
  });
  expect(await mailsTo("tom@mailinator.com")).toEqual([]);
});

test("opening the confirm link changes nothing; pressing it confirms once and mails the changes still ahead", async () => {
  const ahead = change("ahead", inDays(-5), inDays(40));
  const done = change("done", inDays(-60), inDays(-10));
  const service = subscriptions([done, ahead]);
  await service.subscribe("ola@example-cpa.com", meta);
  const token = tokenIn((await mailsTo("ola@example-cpa.com"))[0]!, "confirm");
  for (let i = 0; i < 2; i++)
    expect(await service.checkLink("confirm", token)).toEqual({
      maskedEmail: "o***@example-cpa.com",
    });
  expect(await mailsTo("ola@example-cpa.com")).toHaveLength(1);

  expect(await service.useLink("confirm", token, meta)).toEqual({ kind: "confirmed" });
  expect(await service.useLink("confirm", token, meta)).toEqual({ kind: "gone" });
  expect(await service.checkLink("confirm", token)).toBeNull();
  const notices = (await mailsTo("ola@example-cpa.com")).slice(1);
  expect(notices.map((m) => m.key)).toEqual([
    expect.stringMatching(/^subprocessor-notice:ahead:\d+$/),
  ]);
  expect(notices[0]!.text).toContain("We will take card payments through Stripe (ahead).");
  expect(notices[0]!.text).toContain("New sub-processor: Stripe, Inc. (Stripe Payments)");
});

test("start-up announces each change ahead once per confirmed subscriber, however many instances run it", async () => {
  const next = change("next-one", todayUtc(), inDays(30));
  await subscribed("pia@example-cpa.com");
  await subscribed("quin@example-cpa.com");
  await subscriptions().subscribe("wade@example-cpa.com", meta); // never confirms

  const instances = [subscriptions([next]), subscriptions([next]), subscriptions([next])];
  const counts = await Promise.all(instances.map((instance) => instance.announce()));
  expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
  expect(await subscriptions([next]).announce()).toBe(0);

  for (const address of ["pia@example-cpa.com", "quin@example-cpa.com"]) {
    const notices = (await mailsTo(address)).filter((m) =>
      m.key.startsWith("subprocessor-notice:next-one:"),
    );
    expect(notices, address).toHaveLength(1);
    expect(notices[0]!.subject).toMatch(/^Tieout sub-processor change, effective \w+ \d+, \d{4}$/);
    expect(notices[0]!.headers["List-Unsubscribe"]).toContain("/subprocessors/unsubscribe?token=");
  }
  expect((await mailsTo("wade@example-cpa.com")).map((m) => m.key)).toEqual([
    expect.stringMatching(/^subprocessor-confirm-mail:/),
  ]);
});

test("a change already in effect is not announced", async () => {
  await subscribed("ren@example-cpa.com");
  const past = change("in-force", inDays(-40), todayUtc());
  expect(await subscriptions([past]).announce()).toBe(0);
  expect(await mailsTo("ren@example-cpa.com")).toHaveLength(1);
});

test("the unsubscribe link erases the subscriber, their tokens and every mail to them", async () => {
  const service = subscriptions([change("gone-later", todayUtc(), inDays(31))]);
  await subscribed("sol@example-cpa.com", service);
  await service.announce();
  const notice = (await mailsTo("sol@example-cpa.com")).at(-1)!;
  const token = tokenIn(notice, "unsubscribe");
  expect(await service.checkLink("unsubscribe", token)).toEqual({
    maskedEmail: "s***@example-cpa.com",
  });
  const captured = captureLog();
  const logged = createSubprocessorSubscriptions({
    db: database().db,
    env,
    log: captured.log,
    ledger: testLedger(captured.log),
    list: SUBPROCESSORS,
    changes: [],
  });
  expect(await logged.useLink("unsubscribe", token, meta)).toEqual({ kind: "unsubscribed" });
  // The ledger of erasures names the address by its hash, for a restore to erase it again.
  expect(captured.events("erasure")).toEqual([
    expect.objectContaining({
      scope: "subscription",
      subjects: [erasureSubject(TEST_ERASURE_KEY, "sol@example-cpa.com")],
    }),
  ]);
  expect(await mailsTo("sol@example-cpa.com")).toEqual([]);
  const left = await queryRows<{ n: number }>(
    database().db,
    sql`SELECT (SELECT count(*) FROM subprocessor_subscribers WHERE email = 'sol@example-cpa.com')
      + (SELECT count(*) FROM subprocessor_tokens t WHERE NOT EXISTS (
          SELECT 1 FROM subprocessor_subscribers s WHERE s.id = t.subscriber_id)) AS n`,
  );
  expect(Number(left[0]!.n)).toBe(0);
  expect(await service.useLink("unsubscribe", token, meta)).toEqual({ kind: "gone" });
});
