/**
 * A member deleting their own account, against a real migrated database and the Auth emulator:
 * the rows go with the Firebase account, and the ledger of erasures says so by uid and by hash,
 * for a restore to carry it out again (decision 032).
 */
import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { createAccountService } from "#server/account/account.ts";
import { createAccounts } from "#server/identity/firebase-admin.ts";
import { erasureSubject } from "#server/audit/erasure-ledger.ts";
import { testAnswers, testLedger, TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";
import { createSessionStore } from "#server/identity/session-store.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { createVerifiedAccount, idTokenFor } from "#tests/support/accounts.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { emulatorEnvForThisFile } from "#tests/support/emulator-for-file.ts";
import { accountExists } from "#tests/support/emulator.ts";
import { captureLog } from "#tests/support/log-lines.ts";

const database = databaseForThisFile();
const env = emulatorEnvForThisFile();

test("deleting one's account erases its sessions and entry, records it for the admin's Activity page, and logs one erasure naming the uid and the address's hash", async () => {
  const member = await createVerifiedAccount("deletes-self");
  const captured = captureLog();
  const db = database().db;
  await createWaitlistService({
    db,
    env,
    log: captured.log,
    ledger: testLedger(),
    answers: testAnswers(db),
  }).submit({ name: "Del", email: member.email }, { clientKey: "t", requestId: "t" });
  await db.execute(
    sql`INSERT INTO sessions (id, uid, email, expires_at)
        VALUES ('deletes-self-1', ${member.uid}, ${member.email}, now() + interval '1 day')`,
  );
  const accounts = createAccounts(env);
  const service = createAccountService({
    db,
    accounts,
    store: createSessionStore(db),
    log: captured.log,
    ledger: testLedger(captured.log),
  });

  const [entry] = await queryRows<{ id: number }>(
    db,
    sql`SELECT id::int AS id FROM waitlist_entries WHERE lower(email) = lower(${member.email})`,
  );
  expect(await service.deleteAccount(member.uid, await idTokenFor(member), "203.0.113.7")).toEqual({
    kind: "deleted",
  });
  // The admin's Activity page shows it: by the member, the entry by number, from where.
  const audit = await queryRows<{
    admin_email: string | null;
    outcome: string;
    client_address: string;
  }>(
    db,
    sql`SELECT admin_email, outcome, client_address FROM admin_audit_log
        WHERE action = 'account-delete' AND entry_id = ${entry!.id}`,
  );
  expect(audit).toEqual([
    { admin_email: null, outcome: "account and entry deleted", client_address: "203.0.113.7" },
  ]);
  expect(await accountExists(member.email)).toBe(false);
  const [left] = await queryRows<{ entries: number; sessions: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM waitlist_entries WHERE lower(email) = lower(${member.email}))::int AS entries,
               (SELECT count(*) FROM sessions WHERE uid = ${member.uid})::int AS sessions`,
  );
  expect(left).toEqual({ entries: 0, sessions: 0 });
  expect(captured.events("erasure")).toEqual([
    expect.objectContaining({
      scope: "account",
      uid: member.uid,
      subjects: [erasureSubject(TEST_ERASURE_KEY, member.email)],
    }),
  ]);
  expect(JSON.stringify(captured.lines()).toLowerCase()).not.toContain(member.email.toLowerCase());
});
