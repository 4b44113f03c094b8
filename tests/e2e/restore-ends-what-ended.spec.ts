/**
 * A restore is not a time machine for what ended (PRODUCT.md rule 21, decision 035), on the
 * embedded database and on PostgreSQL, with a real backup and restore, the Auth emulator and a
 * real SMTP server. After the backup: a member joins through an invitation under an address
 * Firebase never verified and deletes the account; an administrator declines another lead and
 * signs out; a third lead confirms. On the restored site none of it comes back: the member's entry
 * stays erased, every invitation and confirmation link the backup held is dead, and the
 * administrator's old cookie opens nothing.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser } from "@playwright/test";
import { signInBrowser, signInVerified, signOut } from "#tests/support/accounts.ts";
import { codesFromSink, useCookie, verifyAdmin } from "#tests/support/admin-passkey.ts";
import { openAfterRestore, everyRow, runCommand } from "#tests/support/backup-commands.ts";
import { accountExists, uniqueEmail } from "#tests/support/emulator.ts";
import { expect, test, waitForHydration } from "#tests/support/fixtures.ts";
import { confirmedLead, linkIn, waitForMails } from "#tests/support/mailbox.ts";
import { createDatabase, startPostgres, type Postgres } from "#tests/support/postgres.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ mode: "serial", timeout: 300_000 });
// The mail sink is this spec's own (fixtures.ts); each test starts its site and the restored one.
test.use({ ownServerEnv: {} });

const PASSWORD = "restored-member-password-1";
// The site's secrets, as the operator keeps them: the same for the site and for the restore.
const ERASURE_KEY = "restore-spec ledger key that is long enough";
const SESSION_SECRET = "restore-spec session secret that is long enough";

let postgres: Postgres;
test.beforeAll(() => {
  // Beside the other PostgreSQL specs' ports, below Linux's ephemeral range.
  postgres = startPostgres(25472 + Number(process.env.TEST_PARALLEL_INDEX ?? 0));
});
test.afterAll(() => postgres?.remove());

const newDatabase = (name: string) => createDatabase(postgres, name);

/** The administrator presses a row's button on the list; resolves with what the page said. */
async function act(site: RunningServer, cookie: string, action: string, email: string) {
  const list = await fetch(`${site.url}/admin/waitlist?q=${encodeURIComponent(email)}`, {
    headers: { cookie },
  });
  const id = new RegExp(`value="${action}:(\\d+)"`).exec(await list.text())?.[1];
  expect(id, `a ${action} button for ${email}`).toBeDefined();
  const done = await fetch(`${site.url}/admin/waitlist`, {
    method: "POST",
    headers: { cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: `act=${action}%3A${id}`,
    redirect: "manual",
  });
  expect(done.status).toBeLessThan(400);
}

/** The lead's invitation link, from the mail the administrator's Invite sent. */
async function invite(
  site: RunningServer,
  smtp: TestSmtp,
  cookie: string,
  email: string,
): Promise<string> {
  await act(site, cookie, "invite", email);
  const [, invitation] = await waitForMails(smtp, email, 2);
  return linkIn(invitation!, "/signup?invite=");
}

/** Opens the invitation, makes the account (its address unverified), then deletes it. */
async function joinAndLeave(browser: Browser, link: string, email: string) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(link);
    await waitForHydration(page);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto(new URL("/account", link).href);
    await expect(page.getByText("Not yet")).toBeVisible();
    await waitForHydration(page);
    const section = page.getByRole("region", { name: "Delete my account" });
    await section.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await section.getByRole("button", { name: "Delete my account" }).click();
    await expect(page).toHaveURL(/\/account\/deleted$/);
    expect(await accountExists(email)).toBe(false);
  } finally {
    await context.close();
  }
}

for (const engine of ["embedded", "PostgreSQL"] as const)
  test(`${engine}: after a restore, an erased member stays erased, links spent or ended stay dead, and a signed-out cookie opens nothing`, async ({
    admin,
    browser,
    mailSink: smtp,
    newFolder,
  }) => {
    const database: Record<string, string> =
      engine === "PostgreSQL" ? { DATABASE_URL: await newDatabase("restore_spec_site") } : {};
    const env = {
      SMTP_URL: smtp.url,
      ADMIN_EMAILS: admin.email,
      SIGNUP_MODE: "invite",
      ERASURE_KEY,
      SESSION_SECRET,
      ...database,
    };
    const member = uniqueEmail("restore-member");
    const declined = uniqueEmail("restore-declined");
    const waiting = uniqueEmail("restore-waiting");
    const file = path.join(newFolder(), "backup.sql.gz");
    const log = path.join(newFolder(), "site.log");
    let memberLink: string;
    let declinedLink: string;
    let confirmLink: string;
    let adminCookie: string;

    const site = await startServer(env);
    try {
      // Before the backup: two leads invited, a third waiting for its confirmation, and an
      // administrator signed in.
      ({ cookie: adminCookie } = await signInVerified(
        { ...site, adminCodes: codesFromSink(smtp) },
        admin,
      ));
      await confirmedLead(site.url, smtp, { name: "Mo Member", email: member });
      await confirmedLead(site.url, smtp, { name: "Dee Declined", email: declined });
      expect(
        (await submitToWaitlist(site.url, { name: "Wes Waiting", email: waiting })).status,
      ).toBe(202);
      confirmLink = linkIn((await waitForMails(smtp, waiting, 1))[0]!, "/waitlist/confirm?token=");
      memberLink = await invite(site, smtp, adminCookie, member);
      declinedLink = await invite(site, smtp, adminCookie, declined);

      const backup = await runCommand(
        "backup",
        [file],
        engine === "PostgreSQL" ? database : { DATA_DIR: site.dataDir },
        { viaNpm: true },
      );
      expect(backup.code, backup.stderr).toBe(0);

      // After it: the member joins with an address Firebase never verified, and leaves; the
      // administrator declines the other lead and signs out; the waiting lead confirms.
      await joinAndLeave(browser, memberLink, member);
      await act(site, adminCookie, "decline", declined);
      await signOut(site.url, adminCookie);
      const confirmed = await fetch(confirmLink, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: new URL(confirmLink).searchParams.get("token")! }),
      });
      expect(await confirmed.text()).toContain("Your address is confirmed");
      await expect
        .poll(() => site.output().includes('"event":"erasure"'), { timeout: 10_000 })
        .toBe(true);
    } finally {
      await site.stop();
    }
    // The ledger names the member's entry by a keyed hash, never the address.
    expect(site.output()).not.toContain(member);
    writeFileSync(log, site.output());

    const target: { DATABASE_URL: string } | { DATA_DIR: string } =
      engine === "PostgreSQL"
        ? { DATABASE_URL: await newDatabase("restore_spec_restored") }
        : { DATA_DIR: path.join(newFolder(), "data") };
    const restore = await runCommand(
      "restore",
      [file, "--erasures", log],
      { ...target, ERASURE_KEY },
      { viaNpm: true },
    );
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(
      /Ended what the backup held open, since it may have ended after the backup was taken: [1-9]\d* sessions? \(everyone signs in again\), 1 waitlist confirmation link, 2 invitation links\. Removal and unsubscribe links still work\. Administrators' credentials ended too \(1 passkey, 10 recovery codes\): each administrator sets up a new passkey with their password and a mailed code, and scripts need new export tokens \(npm run admin -- export-token EMAIL\)\. Resend the invitations from \/admin\/waitlist\. An entry whose confirmation link ended is kept 14 days from its last confirmation mail; its owner submitting the form again is sent a new one\./,
    );
    expect(restore.stdout).toMatch(
      /Erasures: 1 logged since the backup was taken \([^)]*\), carried out again: 1 found something to erase \(1 waitlist entry[^)]*\)\./,
    );
    expect(restore.stdout).not.toContain("found nothing");
    expect(restore.stderr).toBe("");
    const rows = await everyRow(
      "DATA_DIR" in target ? { dataDir: target.DATA_DIR } : { databaseUrl: target.DATABASE_URL },
    );
    expect(openAfterRestore(rows)).toEqual([]);
    expect((rows.waitlist_entries ?? []).join("\n")).not.toContain(member);

    const restored =
      "DATA_DIR" in target
        ? await startServer(env, { dataDir: target.DATA_DIR })
        : await startServer({ ...env, ...target });
    const context = await browser.newContext();
    try {
      // The cookie signed out after the backup opens nothing: not a page, not the export.
      const page = await fetch(`${restored.url}/admin`, {
        headers: { cookie: adminCookie },
        redirect: "manual",
      });
      expect(page.status).toBeGreaterThanOrEqual(300);
      expect(page.status).toBeLessThan(400);
      expect(page.headers.get("location")).toMatch(/^\/login/);
      const csv = await fetch(`${restored.url}/api/admin/waitlist.csv`, {
        headers: { cookie: adminCookie },
      });
      expect(csv.status).toBe(401);

      // Every link the backup held that grants something says it no longer works.
      const visitor = await context.newPage();
      for (const link of [memberLink, declinedLink]) {
        await visitor.goto(link.replace(/^http:\/\/[^/]+/, restored.url));
        await expect(
          visitor.getByRole("heading", { level: 1, name: "This invitation no longer works" }),
        ).toBeVisible();
      }
      await visitor.goto(confirmLink.replace(/^http:\/\/[^/]+/, restored.url));
      await expect(
        visitor.getByRole("heading", { level: 1, name: "This link no longer works" }),
      ).toBeVisible();

      // Signed in anew, the administrator finds the two other leads, and not the member.
      // The restore ended the passkey too: a new one, with a code mailed to the administrator.
      const { cookie: signedIn } = await signInBrowser(context, restored.url, admin);
      const cookie = await verifyAdmin(restored, admin.email, signedIn, codesFromSink(smtp));
      await useCookie(context, restored.url, cookie);
      const exported = await (
        await visitor.request.get(`${restored.url}/api/admin/waitlist.csv`)
      ).text();
      expect(exported).toContain(declined);
      expect(exported).toContain(waiting);
      expect(exported).not.toContain(member);
      await signOut(restored.url, cookie);
    } finally {
      await context.close();
      await restored.stop();
    }
  });
