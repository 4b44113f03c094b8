/**
 * Backups of the embedded database, end to end: `npm run backup` while the site runs and takes
 * entries, and while it is stopped; `npm run restore` into an empty DATA_DIR, carrying out again
 * what the site erased after the backup, from its log; the real server on the restored folder. PostgreSQL is in backups-postgres.spec.ts.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { exportTokenOf, signInVerified } from "#tests/support/accounts.ts";
import {
  everyRow,
  openAfterRestore,
  runCommand,
  withoutEndings,
} from "#tests/support/backup-commands.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { flood, submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ timeout: 300_000 });

// The site's secrets, as an operator keeps them: the same on the original and the restored site,
// and for the restore, which needs the key the ledger of erasures was written with.
const SESSION_SECRET = "backups-spec-session-secret-0123456789abcdef";
const ERASURE_KEY = "backups-spec-erasure-key-0123456789abcdef";

/** The emails the admin export lists, one per entry. */
async function exportedEmails(server: RunningServer, token: string): Promise<string[]> {
  const answer = await fetch(`${server.url}/api/admin/waitlist.csv`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(200);
  const [, ...rows] = (await answer.text()).trim().split("\r\n");
  return rows.map((row) => /"([^"]+@[^"]+)"/.exec(row)?.[1] ?? row).sort();
}

const parse = (rows: string[] | undefined) =>
  (rows ?? []).map((row) => JSON.parse(row) as Record<string, unknown>);

test("a backup taken while the site runs and takes entries is one moment of it, and the restored site serves every row", async ({
  newUser: admin,
  newFolder,
}) => {
  const env = { ADMIN_EMAILS: admin.email, SESSION_SECRET, ERASURE_KEY };
  const site = await startServer(env);
  const file = path.join(newFolder(), "live.sql.gz");
  let restoredDir: string;
  let adminCookie: string;
  let removeId: string | undefined;
  try {
    ({ cookie: adminCookie } = await signInVerified(site, admin));
    for (let i = 0; i < 300; i++) {
      const answer = await submitToWaitlist(site.url, {
        name: `Before ${i}`,
        email: `before-${i}@example.com`,
        company: i % 2 ? "Ledger & Co" : "",
        message: `Line one\nline "two"; it's ${i}`,
      });
      expect(answer.status).toBe(202);
    }

    // Entries keep arriving while the backup is taken.
    let backingUp = true;
    const during = flood(site.url, {
      count: 100_000,
      concurrency: 8,
      prefix: "during",
      stopWhen: () => !backingUp,
    });
    const backup = await runCommand("backup", [file], { DATA_DIR: site.dataDir }, { viaNpm: true });
    backingUp = false;
    const { acknowledged } = await during;
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(
      new RegExp(
        `The site \\(process ${site.process.pid}\\) is running: it copied its database in [\\d,]+ ms \\(its database work waited that long\\)\\. Dumping the copy\\.`,
      ),
    );
    expect(backup.stdout).toContain(
      `logical dump of our tables of the embedded database in ${site.dataDir} (site running).`,
    );
    expect(acknowledged.length).toBeGreaterThan(0);

    // Restoring over the running site's folder is refused, and the site goes on as before.
    const over = await runCommand("restore", [file, "--no-erasures"], { DATA_DIR: site.dataDir });
    expect(over.code).toBe(1);
    expect(over.stderr).toContain(
      `already holds a database (${path.join(site.dataDir, "pglite")})`,
    );

    // After the backup, an administrator removes an entry it holds: the restore must not bring
    // it back. The site's log, from its start, says so.
    const list = await fetch(`${site.url}/admin/waitlist?q=before-7%40example.com`, {
      headers: { cookie: adminCookie },
    });
    removeId = /value="remove:(\d+)"/.exec(await list.text())?.[1];
    expect(removeId).toBeDefined();
    const removed = await fetch(`${site.url}/admin/waitlist`, {
      method: "POST",
      headers: { cookie: adminCookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: `act=remove%3A${removeId}`,
      redirect: "manual",
    });
    expect(removed.status).toBeLessThan(400);
    await expect
      .poll(() => site.output().includes('"event":"erasure"'), { timeout: 10_000 })
      .toBe(true);
    expect(
      (await submitToWaitlist(site.url, { name: "After", email: "after@example.com" })).status,
    ).toBe(202);

    const log = path.join(newFolder(), "site.log");
    writeFileSync(log, site.output());
    restoredDir = newFolder();
    const restore = await runCommand(
      "restore",
      [file, "--erasures", log],
      { DATA_DIR: restoredDir, ERASURE_KEY },
      { viaNpm: true },
    );
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain("Every row the backup counted is there:");
    // The passkey the administrator enrolled before the backup ends with it (decision 039).
    expect(restore.stdout).toContain(
      "Administrators' credentials ended too (1 passkey, 10 recovery codes)",
    );
    expect(restore.stdout).toMatch(
      /Erasures: 1 logged since the backup was taken \([\d,]+ log lines from \S+ to \S+\), carried out again: 1 found something to erase \(1 waitlist entry\)\./,
    );
  } finally {
    await site.stop();
  }

  // One moment: every entry in the backup came with its confirmation mail and its two links,
  // written in the same transaction, and nothing came without its entry.
  const rows = await everyRow({ dataDir: restoredDir });
  const entries = parse(rows.waitlist_entries);
  const ids = new Set(entries.map((e) => e.id));
  const mails = parse(rows.outbox).filter((m) =>
    String(m.key).startsWith("waitlist-confirm-mail:"),
  );
  expect(new Set(mails.map((m) => Number(String(m.key).split(":")[1])))).toEqual(ids);
  const tokens = parse(rows.waitlist_tokens);
  expect(tokens).toHaveLength(2 * ids.size);
  expect(tokens.every((t) => ids.has(t.entry_id))).toBe(true);
  const emails = entries.map((e) => String(e.email));
  for (let i = 0; i < 300; i++)
    if (i === 7) expect(emails).not.toContain("before-7@example.com");
    else expect(emails).toContain(`before-${i}@example.com`);
  expect(emails).not.toContain("after@example.com");
  expect(parse(rows.sessions).map((s) => s.uid)).toContain(admin.uid);

  const restored = await startServer(env, { dataDir: restoredDir });
  try {
    // The administrator signs in again and enrols a new passkey: the restore ended the old one.
    const { cookie: again } = await signInVerified(restored, admin);
    expect(await exportedEmails(restored, await exportTokenOf(restored, again))).toEqual(
      emails.sort(),
    );
    // The session signed in before the backup ended with the restore (it may have ended after
    // the backup was taken): the administrator signs in again.
    const stale = await fetch(`${restored.url}/admin/waitlist?q=before-299%40example.com`, {
      headers: { cookie: adminCookie },
      redirect: "manual",
    });
    expect(stale.headers.get("location")).toBe("/login");
    const page = await fetch(`${restored.url}/admin/waitlist?q=before-299%40example.com`, {
      headers: { cookie: again },
      redirect: "manual",
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("before-299@example.com");
    // The Activity page shows what the restore erased again: the removed entry, by number.
    const activity = await fetch(`${restored.url}/admin/activity`, {
      headers: { cookie: again },
    });
    const row = (await activity.text())
      .split("<tr")
      .find((r) => r.includes(`>#${removeId}<`) && r.includes("Erased again after a restore"));
    expect(row, `no Activity row for #${removeId}`).toBeDefined();
    // New entries continue after the restored ones.
    expect(
      (await submitToWaitlist(restored.url, { name: "New", email: "new@example.com" })).status,
    ).toBe(202);
  } finally {
    await restored.stop();
  }
  const after = parse((await everyRow({ dataDir: restoredDir })).waitlist_entries);
  const newest = after.find((e) => e.email === "new@example.com")!;
  expect(Number(newest.id)).toBeGreaterThan(Math.max(...entries.map((e) => Number(e.id))));
});

test("a backup of the stopped site restores into an empty DATA_DIR row for row, and never over a database", async ({
  newFolder,
}) => {
  const site = await startServer();
  try {
    for (let i = 0; i < 20; i++)
      expect(
        (
          await submitToWaitlist(site.url, {
            name: `Stopped ${i}`,
            email: `stopped-${i}@example.com`,
          })
        ).status,
      ).toBe(202);
  } finally {
    await site.stop();
  }
  const before = await everyRow({ dataDir: site.dataDir });
  expect(before.waitlist_entries).toHaveLength(20);

  const file = path.join(newFolder(), "stopped.sql");
  const backup = await runCommand("backup", [file], { DATA_DIR: site.dataDir }, { viaNpm: true });
  expect(backup.code, backup.stderr).toBe(0);
  expect(backup.stdout).toContain(
    `Backing up the embedded database in ${site.dataDir} (site stopped): reading it directly.`,
  );
  expect(backup.stdout).toContain(
    "Rows: admin_audit_log 0, admin_challenges 0, admin_export_tokens 0, admin_locks 0, admin_passkeys 0, admin_recovery_codes 0, admin_verification_failures 0, audiences 0, bounce_reports 0, broadcast_recipients 0, broadcasts 0, consent_events 0, mail_events 0, mail_suppressions 0, outbox 20, page_views 0, privacy_requests 0, rate_limit_windows ",
  );
  expect(backup.stdout).toContain(
    "waitlist_entries 20, waitlist_imports 0, waitlist_tokens 40, webhook_attempts 0, webhook_endpoints 0.",
  );

  const refused = await runCommand("restore", [file, "--no-erasures"], { DATA_DIR: site.dataDir });
  expect(refused.code).toBe(1);
  expect(refused.stderr.trim()).toBe(
    `Cannot restore ${file}: DATA_DIR (${site.dataDir}) already holds a database (${path.join(site.dataDir, "pglite")}): a restore writes only into an empty DATA_DIR and overwrites nothing. Point DATA_DIR at a new folder, or move this one away first. Nothing was changed.`,
  );
  expect(await everyRow({ dataDir: site.dataDir })).toEqual(before);

  const restoredDir = path.join(newFolder(), "data");
  const restore = await runCommand("restore", [file, "--no-erasures"], { DATA_DIR: restoredDir });
  expect(restore.code, restore.stderr).toBe(0);
  // Every row comes back; the confirmation links the backup held open end (decision 035).
  const restoredRows = await everyRow({ dataDir: restoredDir });
  expect(withoutEndings(restoredRows)).toEqual(withoutEndings(before));
  expect(openAfterRestore(before)).toHaveLength(20);
  expect(openAfterRestore(restoredRows)).toEqual([]);
  expect(restore.stdout).toContain(
    "Ended what the backup held open, since it may have ended after the backup was taken: 0 sessions (everyone signs in again), 20 waitlist confirmation links. Removal and unsubscribe links still work. An entry whose confirmation link ended is kept 14 days from its last confirmation mail; its owner submitting the form again is sent a new one.",
  );

  const restored = await startServer({}, { dataDir: restoredDir });
  try {
    // A repeat of a restored address is recognised as already on the list: no new row.
    expect(
      (await submitToWaitlist(restored.url, { name: "Again", email: "STOPPED-3@example.com" }))
        .status,
    ).toBe(202);
  } finally {
    await restored.stop();
  }
  expect((await everyRow({ dataDir: restoredDir })).waitlist_entries).toHaveLength(20);
});
