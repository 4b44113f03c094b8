/** Saved audiences on a real database (decision 044): saving, refusals, deleting, and a batch. */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { ANY_ENTRY } from "#src/features/waitlist/entry-filter.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { testAnswers, testLedger } from "#tests/support/erasure-ledger.ts";

const database = databaseForThisFile();
const meta = { adminEmail: "owner@tieout.test", clientAddress: "127.0.0.1", requestId: "r" };
const waitlist = () =>
  createWaitlistService({
    db: database().db,
    env: parseEnv({ WAITLIST_RATE_LIMIT: "0", SITE_URL: "http://localhost:3000" }),
    log: pino({ level: "silent" }),
    ledger: testLedger(),
    answers: testAnswers(database().db),
  });

const texas = { ...ANY_ENTRY, answers: { practice: ["us-tx"] } };

test("an audience is saved once by name, lists what it holds, and its batch invites exactly what was shown", async () => {
  const db = database().db;
  await db.execute(sql`
    INSERT INTO waitlist_entries (name, email, state, confirmed_at, answers, created_at)
    SELECT 'Tex ' || i, 'tex-' || i || '@example.com',
      CASE WHEN i = 4 THEN 'waiting' ELSE 'confirmed' END,
      CASE WHEN i = 4 THEN NULL ELSE now() END,
      '{"practice":"us-tx"}', now() - i * interval '1 hour'
    FROM generate_series(1, 4) AS i`);
  await db.execute(sql`
    INSERT INTO waitlist_entries (name, email, state, confirmed_at, answers)
    VALUES ('Ny', 'ny@example.com', 'confirmed', now(), '{"practice":"us-ny"}')`);
  const { audiences } = waitlist();

  expect(await audiences.save("  Texas   firms ", texas, meta)).toEqual({
    ok: true,
    message: "Saved the audience “Texas firms”.",
  });
  expect(await audiences.save("TEXAS FIRMS", texas, meta)).toEqual({
    ok: false,
    message: "An audience is already named “TEXAS FIRMS”.",
  });
  expect(await audiences.save("Everyone", ANY_ENTRY, meta)).toMatchObject({ ok: false });
  expect(
    await audiences.save("One person", { ...texas, query: "tex-1@example.com" }, meta),
  ).toEqual({
    ok: false,
    message:
      "An audience cannot search for one person's address: search by a name, a company or a domain (@example-cpa.com).",
  });
  expect(
    await audiences.save("A firm's domain", { ...texas, query: "@example.com" }, meta),
  ).toMatchObject({ ok: true });
  expect(await audiences.save(" ", texas, meta)).toEqual({
    ok: false,
    message: "Name the audience.",
  });
  const [domain, listed] = await audiences.list();
  expect(await audiences.names()).toEqual([
    { id: domain!.id, name: "A firm's domain" },
    { id: listed!.id, name: "Texas firms" },
  ]);
  expect(domain?.name).toBe("A firm's domain");
  expect(listed).toMatchObject({
    name: "Texas firms",
    filter: "practice=us-tx",
    entries: 4,
    invitable: 3,
    createdBy: "owner@tieout.test",
  });

  // Shown 2, there are 3: nothing is sent. Shown 3: the three confirmed Texans, oldest first.
  expect(await audiences.invite(listed!.id, 2, meta)).toEqual({
    ok: false,
    message: "“Texas firms” now has 3 to invite, not 2. Check the number and press again.",
  });
  expect(
    await queryRows(db, sql`SELECT 1 FROM waitlist_entries WHERE state = 'invited'`),
  ).toHaveLength(0);
  expect(await audiences.invite(listed!.id, 3, meta)).toMatchObject({
    kind: "done",
    outcomes: { invited: 3 },
  });
  const invited = await queryRows<{ email: string }>(
    db,
    sql`SELECT email FROM waitlist_entries WHERE state = 'invited' ORDER BY email`,
  );
  expect(invited.map((r) => r.email)).toEqual([
    "tex-1@example.com",
    "tex-2@example.com",
    "tex-3@example.com",
  ]);
  expect(await audiences.invite(listed!.id, 0, meta)).toEqual({
    ok: false,
    message: "“Texas firms” has no confirmed entry to invite.",
  });

  // Deleted once; the Activity log has both steps, naming the filter.
  expect(await audiences.remove(listed!.id, meta)).toMatchObject({ ok: true });
  expect(await audiences.remove(listed!.id, meta)).toEqual({
    ok: false,
    message: "That audience is no longer there.",
  });
  const audit = await queryRows<{ action: string; outcome: string }>(
    db,
    sql`SELECT action, outcome FROM admin_audit_log
        WHERE action IN ('audience-save', 'audience-delete') ORDER BY id`,
  );
  expect(audit).toEqual([
    { action: "audience-save", outcome: `#${listed!.id} “Texas firms”: practice=us-tx` },
    // The search is not in the log: it may name someone.
    {
      action: "audience-save",
      outcome: `#${domain!.id} “A firm's domain”: a search and practice=us-tx`,
    },
    { action: "audience-delete", outcome: `#${listed!.id} “Texas firms”: practice=us-tx` },
  ]);
});
