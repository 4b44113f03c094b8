/**
 * Privacy requests against a real migrated database and the Auth emulator (decision 030): what a
 * request writes, that opening its link changes nothing, what confirming a copy, a deletion and a
 * correction does, the same mail for a known and an unknown address, the bound per address, the
 * sweep, and a deletion retried after Firebase was unreachable.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { AUDIT_ACTIONS } from "#db/schema.ts";
import { recordAudit } from "#server/audit/audit-log.ts";
import { parseEnv } from "#server/env.ts";
import { createAccounts } from "#server/identity/firebase-admin.ts";
import { heldUnderAddress } from "#server/privacy/data-held.ts";
import { createPrivacyRequests, parsePrivacyRequest } from "#server/privacy/requests.ts";
import { createSessionStore } from "#server/identity/session-store.ts";
import { createSubprocessorSubscriptions } from "#server/subprocessors/subscriptions.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { createVerifiedAccount } from "#tests/support/accounts.ts";
import { erasureSubject } from "#server/audit/erasure-ledger.ts";
import { testAnswers, testLedger, TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { captureLog } from "#tests/support/log-lines.ts";
import { E2E_PROJECT_ID } from "#tests/support/e2e-env.ts";
import { emulatorEnvForThisFile } from "#tests/support/emulator-for-file.ts";
import { accountExists, uniqueEmail } from "#tests/support/emulator.ts";

const database = databaseForThisFile();
const env = emulatorEnvForThisFile();
const log = pino({ level: "silent" });
const meta = { clientKey: "test", clientAddress: "203.0.113.9", requestId: "r1" };
/** Whoever filed a request for an address, from elsewhere: not necessarily its owner. */
const FILER = { ...meta, clientAddress: "198.51.100.23" };
const STRANGER = { ...meta, clientAddress: "192.0.2.77" };

function service(accounts = createAccounts(env), logger: typeof log = log) {
  return createPrivacyRequests({
    db: database().db,
    env,
    log: logger,
    accounts,
    store: createSessionStore(database().db),
    ledger: testLedger(logger),
  });
}

type Mail = { key: string; subject: string; text: string; attachments?: { content: string }[] };

/** The mails in the outbox to `address`, oldest first. */
async function mailsTo(address: string): Promise<Mail[]> {
  const rows = await queryRows<{ key: string; payload: Omit<Mail, "key"> }>(
    database().db,
    sql`SELECT key, payload FROM outbox
        WHERE lower(payload->'to'->0->>'address') = lower(${address}) ORDER BY id`,
  );
  return rows.map((r) => ({ ...r.payload, key: r.key }));
}

/** The token of the confirmation link in the newest confirmation mail to `address`. */
async function linkTokenFor(address: string): Promise<string> {
  const mail = (await mailsTo(address)).findLast((m) => m.key.startsWith("privacy-confirm-mail"));
  const found = /\/privacy-request\/confirm\?token=([\w-]+)/.exec(mail?.text ?? "");
  if (!found?.[1]) throw new Error(`no confirmation link to ${address}`);
  return found[1];
}

async function requestRow(id: number) {
  const [row] = await queryRows<{ state: string; email: string | null; outcome: string | null }>(
    database().db,
    sql`SELECT state, email, outcome FROM privacy_requests WHERE id = ${id}`,
  );
  return row;
}

const newestRequestId = async () =>
  (
    await queryRows<{ id: number }>(
      database().db,
      sql`SELECT max(id)::int AS id FROM privacy_requests`,
    )
  )[0]!.id;

async function auditOf(id: number) {
  return queryRows<{ action: string; admin_email: string | null; outcome: string }>(
    database().db,
    sql`SELECT action, admin_email, outcome FROM admin_audit_log WHERE request_id = ${id} ORDER BY id`,
  );
}

/** A waitlist entry under `email`, made as the form makes one. */
async function joinWaitlist(email: string, name: string, company: string, message = "") {
  const result = await createWaitlistService({
    db: database().db,
    env,
    log,
    ledger: testLedger(),
    answers: testAnswers(database().db),
  }).submit({ name, email, company, message }, { clientKey: "w" });
  expect(result.kind).toBe("created");
}

const ask = (email: string, kind: string, details = "") =>
  service().submit({ email, name: "Dana Reyes", kind, details }, meta);

describe("the form's fields", () => {
  test("each problem is named under its field; a correction needs its details", () => {
    expect(parsePrivacyRequest({ email: "nope", name: "", kind: "erase", details: "" })).toEqual({
      ok: false,
      errors: {
        email: expect.stringContaining("email address") as string,
        name: expect.stringContaining("name") as string,
        kind: expect.stringContaining("Choose") as string,
      },
    });
    const correction = parsePrivacyRequest({
      email: "a@b.co",
      name: "A",
      kind: "correction",
      details: " ",
    });
    expect(correction).toEqual({
      ok: false,
      errors: { details: expect.stringContaining("For a correction") as string },
    });
    // Too long is its own sentence, whatever the kind.
    expect(
      parsePrivacyRequest({
        email: "a@b.co",
        name: "A",
        kind: "access",
        details: "x".repeat(2001),
      }),
    ).toEqual({
      ok: false,
      errors: { details: expect.stringContaining("at most 2000 characters") as string },
    });
    // PostgreSQL cannot store a NUL: refused with the field's sentence, never a failed insert.
    expect(
      parsePrivacyRequest({
        email: "a@b.co",
        name: "A\u0000B",
        kind: "access",
        details: "x\u0007",
      }),
    ).toMatchObject({
      ok: false,
      errors: { name: expect.any(String) as string, details: expect.any(String) as string },
    });
    expect(
      parsePrivacyRequest({ email: " a@b.co ", name: "A", kind: "deletion", details: "" }),
    ).toEqual({ ok: true, email: "a@b.co", name: "A", kind: "deletion", details: "" });
  });
});

test("a request writes one row, its audit entry and a confirmation mail that reads the same for a known and an unknown address", async () => {
  const known = uniqueEmail("privacy-known");
  const unknown = uniqueEmail("privacy-unknown");
  await joinWaitlist(known, "Known Person", "");
  expect(await ask(known, "deletion")).toEqual({ kind: "accepted" });
  const knownId = await newestRequestId();
  expect(await ask(unknown, "deletion")).toEqual({ kind: "accepted" });

  const [knownMail] = (await mailsTo(known)).filter((m) => m.key.startsWith("privacy-"));
  const [unknownMail] = await mailsTo(unknown);
  const withoutToken = (text: string) => text.replace(/token=[\w-]+/, "token=T");
  expect(withoutToken(knownMail!.text)).toBe(withoutToken(unknownMail!.text));
  expect(knownMail!.subject).toBe("Confirm your privacy request");
  expect(await requestRow(knownId)).toMatchObject({ state: "unconfirmed", email: known });
  expect(await auditOf(knownId)).toEqual([
    { action: "privacy-request", admin_email: null, outcome: "deletion" },
  ]);
});

test("opening the link only reads; an address gets at most three waiting requests a day, and is told when it has had them", async () => {
  const email = uniqueEmail("privacy-bound");
  for (let i = 0; i < 5; i++)
    expect((await ask(email, "access")).kind).toBe(i < 3 ? "accepted" : "paused");
  expect((await mailsTo(email)).length).toBe(3);
  const token = await linkTokenFor(email);
  const requests = service();
  expect(await requests.checkLink(token)).toEqual({
    request: "access",
    maskedEmail: expect.stringMatching(/^p\*\*\*@/) as string,
  });
  expect(await requests.checkLink(token)).not.toBeNull();
  expect(await requests.checkLink("not-a-token")).toBeNull();
});

test("the three a day are per mailbox: capitals and +tags of one address share them", async () => {
  const email = uniqueEmail("privacy-tags");
  const [local, domain] = email.split("@") as [string, string];
  const spellings = [1, 2, 3, 4, 5].map((i) => `${local}+${i}@${domain.toUpperCase()}`);
  for (const [i, spelling] of spellings.entries())
    expect((await ask(spelling, "access")).kind).toBe(i < 3 ? "accepted" : "paused");
  const written = await queryRows<{ n: number }>(
    database().db,
    sql`SELECT count(*)::int AS n FROM privacy_requests WHERE email LIKE ${`${local}+%`}`,
  );
  expect(written[0]!.n).toBe(3);
  // Someone else at the same firm is not held up.
  expect(await ask(`other-${email}`, "access")).toEqual({ kind: "accepted" });
  expect((await mailsTo(`other-${email}`)).length).toBe(1);
});

test("a confirmed deletion erases the entry, the subscription, the sessions and the Firebase account, once", async () => {
  const account = await createVerifiedAccount("privacy-delete");
  const email = account.email;
  await joinWaitlist(email, "Dana Reyes", "Reyes CPA");
  await createSubprocessorSubscriptions({
    db: database().db,
    env,
    log,
    ledger: testLedger(),
  }).subscribe(email, {
    clientKey: "s",
    requestId: "s1",
  });
  await database().db.execute(
    sql`INSERT INTO sessions (id, uid, expires_at, email) VALUES ('privacy-s1', ${account.uid}, now() + interval '1 day', ${email})`,
  );
  await ask(email, "deletion");
  const id = await newestRequestId();
  const token = await linkTokenFor(email);

  const captured = captureLog();
  const requests = service(createAccounts(env), captured.log);
  expect(await requests.confirm(token, meta)).toEqual({ kind: "done", request: "deletion" });
  expect(captured.events("erasure")).toEqual([
    expect.objectContaining({
      scope: "everything",
      subjects: [erasureSubject(TEST_ERASURE_KEY, email)],
    }),
    expect.objectContaining({ scope: "account", uid: account.uid, subjects: [] }),
  ]);
  expect(JSON.stringify(captured.lines())).not.toContain(email);
  const count = async (table: string) =>
    (
      await queryRows<{ n: number }>(
        database().db,
        sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE lower(email) = lower(${email})`,
      )
    )[0]!.n;
  expect(await count("waitlist_entries")).toBe(0);
  expect(await count("subprocessor_subscribers")).toBe(0);
  expect(await count("sessions")).toBe(0);
  expect(await count("privacy_requests")).toBe(0);
  expect(await mailsTo(email)).toEqual([]);
  expect(await accountExists(email)).toBe(false);
  expect(await requestRow(id)).toMatchObject({
    state: "completed",
    email: null,
    outcome: "erased: account, sessions, waitlist entry, subscription",
  });
  expect((await auditOf(id)).map((r) => r.action)).toEqual([
    "privacy-request",
    "privacy-confirm",
    "privacy-complete",
  ]);
  expect(await requests.confirm(token, meta)).toEqual({ kind: "gone" });
});

test("a confirmed deletion also erases the entry the account joined through under another address, and the ledger names it", async () => {
  const account = await createVerifiedAccount("privacy-joined");
  const invited = uniqueEmail("privacy-invited");
  await joinWaitlist(invited, "Jo Joined", "Joined LLP");
  await database().db.execute(
    sql`UPDATE waitlist_entries SET state = 'joined', joined_uid = ${account.uid}, joined_at = now()
        WHERE email = ${invited}`,
  );
  await ask(account.email, "deletion");
  const id = await newestRequestId();
  const captured = captureLog();
  const requests = service(createAccounts(env), captured.log);
  expect(await requests.confirm(await linkTokenFor(account.email), meta)).toEqual({
    kind: "done",
    request: "deletion",
  });
  const left = await queryRows<{ n: number }>(
    database().db,
    sql`SELECT count(*)::int AS n FROM waitlist_entries WHERE email = ${invited}`,
  );
  expect(left[0]!.n).toBe(0);
  expect(await requestRow(id)).toMatchObject({ outcome: "erased: account, waitlist entry" });
  // A restore finds the entry by its address, whatever the backup said of its uid.
  expect(captured.events("erasure")).toEqual([
    expect.objectContaining({ scope: "everything" }),
    expect.objectContaining({
      scope: "account",
      uid: account.uid,
      subjects: [erasureSubject(TEST_ERASURE_KEY, invited)],
    }),
  ]);
});

test("a confirmed access request mails what is held, as a JSON file and in brief; of the audit rows, only the owner's confirmation carries an address", async () => {
  const email = uniqueEmail("privacy-access");
  await joinWaitlist(email, "Sam Ortiz", "Ortiz & Co", "Hello");
  // Someone else names the address and never confirms; then a request is made from one place and
  // confirmed from another (the owner's, who reads the mail).
  await service().submit({ email, name: "Not Sam", kind: "deletion", details: "" }, STRANGER);
  const strangers = await newestRequestId();
  await service().submit({ email, name: "Sam Ortiz", kind: "access", details: "" }, FILER);
  const id = await newestRequestId();
  expect(await service().confirm(await linkTokenFor(email), meta)).toEqual({
    kind: "done",
    request: "access",
  });
  const mail = (await mailsTo(email)).find((m) => m.key === `privacy-access-mail:${id}`);
  expect(mail?.text).toContain("Company: Ortiz & Co");
  expect(mail?.text).toContain("No account is held under this address.");
  const content = mail!.attachments![0]!.content;
  const file = JSON.parse(content) as {
    email: string;
    waitlistEntry: { name: string; company: string };
    account: null;
    auditEntries: { action: string; requestId: number; fromAddress: string | null }[];
  };
  expect(file).toMatchObject({
    email,
    waitlistEntry: { name: "Sam Ortiz", company: "Ortiz & Co" },
    account: null,
  });
  expect(
    file.auditEntries.map(({ action, requestId, fromAddress }) => ({
      action,
      requestId,
      fromAddress,
    })),
  ).toEqual([
    { action: "privacy-request", requestId: strangers, fromAddress: null },
    { action: "privacy-request", requestId: id, fromAddress: null },
    { action: "privacy-confirm", requestId: id, fromAddress: meta.clientAddress },
  ]);
  expect(content).not.toContain(FILER.clientAddress);
  expect(content).not.toContain(STRANGER.clientAddress);
  expect(mail?.text).not.toContain(FILER.clientAddress);
  expect(await requestRow(id)).toMatchObject({ state: "completed", email: null });
});

test("what is held names the address of no audit action but the owner's own confirmation, whoever wrote the row", async () => {
  const email = uniqueEmail("privacy-actions");
  await service().submit({ email, name: "Dana Reyes", kind: "correction", details: "A" }, FILER);
  const id = await newestRequestId();
  // One row of every action the log knows, about this request, each from an address of its own.
  const from = (i: number) => `192.0.2.${100 + i}`;
  await recordAudit(
    database().db,
    AUDIT_ACTIONS.map((action, i) => ({
      adminEmail: null,
      action,
      entryId: null,
      requestId: id,
      outcome: "test",
      clientAddress: from(i),
    })),
  );
  // An administrator's row of the owner's kind is still not the owner's.
  await recordAudit(database().db, [
    {
      adminEmail: "admin@example.com",
      action: "privacy-confirm",
      entryId: null,
      requestId: id,
      outcome: "test",
      clientAddress: "192.0.2.99",
    },
  ]);
  const shown = (await heldUnderAddress(database().db, email)).auditEntries
    .filter((row) => row.fromAddress !== null)
    .map((row) => [row.action, row.fromAddress]);
  expect(shown).toEqual([["privacy-confirm", from(AUDIT_ACTIONS.indexOf("privacy-confirm"))]]);
});

test("a correction waits for an administrator, with its deadline; their note is mailed and the request cleared", async () => {
  const email = uniqueEmail("privacy-correct");
  await ask(email, "correction", "My company is Reyes CPA LLP.");
  const id = await newestRequestId();
  const requests = service();
  const result = await requests.confirm(await linkTokenFor(email), meta);
  expect(result).toMatchObject({ kind: "open", request: "correction" });
  const open = (await requests.overview()).open.find((r) => r.id === id);
  expect(open).toMatchObject({
    kind: "correction",
    email,
    details: "My company is Reyes CPA LLP.",
  });
  const days = (Date.parse(open!.dueAt) - Date.parse(open!.createdAt)) / 86_400_000;
  expect(days).toBeGreaterThanOrEqual(28);
  expect(days).toBeLessThanOrEqual(30);

  const by = { adminEmail: "admin@example.com", clientAddress: "198.51.100.2", requestId: "r2" };
  expect(await requests.complete(id, "  ", by)).toMatchObject({ kind: "invalid" });
  expect(await requests.complete(id, "Changed the company name.", by)).toEqual({
    kind: "completed",
  });
  expect(await requests.complete(id, "Again.", by)).toEqual({ kind: "not-open" });
  const done = (await mailsTo(email)).find((m) => m.key === `privacy-corrected-mail:${id}`);
  expect(done?.text).toContain("Changed the company name.");
  expect(await requestRow(id)).toMatchObject({
    state: "completed",
    email: null,
    outcome: "corrected",
  });
  expect((await auditOf(id)).at(-1)).toEqual({
    action: "privacy-complete",
    admin_email: "admin@example.com",
    outcome: "corrected",
  });
});

test("a deletion confirmed while Firebase is unreachable stays open, and the sweep finishes it", async () => {
  const account = await createVerifiedAccount("privacy-retry");
  await ask(account.email, "deletion");
  const id = await newestRequestId();
  const away = createAccounts(
    parseEnv({
      FIREBASE_PROJECT_ID: `${E2E_PROJECT_ID}-away`,
      FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9",
    }),
  );
  const result = await service(away).confirm(await linkTokenFor(account.email), meta);
  expect(result).toMatchObject({ kind: "open", request: "deletion" });
  expect(await accountExists(account.email)).toBe(true);

  expect(await service().sweep()).toBeGreaterThanOrEqual(1);
  expect(await accountExists(account.email)).toBe(false);
  expect(await requestRow(id)).toMatchObject({ state: "completed", email: null });
});

test("the sweep closes a request never confirmed once its link expires, and removes sent privacy mails", async () => {
  const email = uniqueEmail("privacy-expire");
  await ask(email, "access");
  const id = await newestRequestId();
  await database().db.execute(
    sql`UPDATE privacy_requests SET token_expires_at = now() - interval '1 second' WHERE id = ${id}`,
  );
  await database().db.execute(
    sql`UPDATE outbox SET status = 'sent', sent_at = now() WHERE key LIKE 'privacy-%'`,
  );
  await service().sweep();
  expect(await requestRow(id)).toMatchObject({
    state: "completed",
    email: null,
    outcome: "never confirmed",
  });
  expect(await mailsTo(email)).toEqual([]);
});

test("a deletion also erases the copy an earlier access request left waiting to be sent", async () => {
  const email = uniqueEmail("privacy-earlier-copy");
  await joinWaitlist(email, "Pat Person", "Person CPA", "our plans for the busy season");
  await ask(email, "access");
  expect(await service().confirm(await linkTokenFor(email), meta)).toMatchObject({
    kind: "done",
  });
  // The copy waits (the relay is down); its request is completed and no longer names the address.
  expect((await mailsTo(email)).some((m) => m.key.startsWith("privacy-access-mail"))).toBe(true);
  await ask(email, "deletion");
  expect(await service().confirm(await linkTokenFor(email), meta)).toEqual({
    kind: "done",
    request: "deletion",
  });
  expect(await mailsTo(email)).toEqual([]);
});

test("a privacy mail that failed long after its request closed goes a week after it failed", async () => {
  const email = uniqueEmail("privacy-late-failure");
  await ask(email, "access");
  const id = await newestRequestId();
  await service().confirm(await linkTokenFor(email), meta);
  // The site was down for days: the mail was given up ten days after the request was completed.
  await database().db.execute(
    sql`UPDATE privacy_requests SET completed_at = now() - interval '20 days' WHERE id = ${id}`,
  );
  await database().db.execute(
    sql`UPDATE outbox SET status = 'failed', failed_at = now() - interval '6 days'
        WHERE key LIKE ${`privacy-%-mail:${id}`}`,
  );
  await service().sweep();
  expect((await mailsTo(email)).length).toBeGreaterThan(0);
  await database().db.execute(
    sql`UPDATE outbox SET failed_at = now() - interval '8 days' WHERE key LIKE ${`privacy-%-mail:${id}`}`,
  );
  await service().sweep();
  expect(await mailsTo(email)).toEqual([]);
});
