/**
 * The daily allowance of confirmation mails, form by form, and the owner's own confirmation
 * (decision 036), end to end: the production build with SMTP_URL on a real SMTP server on loopback.
 * What a stranger types into one form cannot use up the mail another form owes the owner; a form
 * whose mail to an address is paused for the day says so, in plain words, and never that a mail
 * was sent; the next day, a repeat for an entry that has no working link is mailed a fresh one; and
 * the confirm page shows the name and company typed in the owner's name, for them to correct
 * before anything uses them.
 */
import { sql } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { openDatabase, queryRows } from "#db/client.ts";
import { asAdmin } from "#tests/support/accounts.ts";
import {
  TOO_MANY_REQUESTS_RESPONSE,
  UNPROCESSABLE_RESPONSE,
} from "#tests/support/console-messages.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { expect, test, waitForHydration } from "#tests/support/fixtures.ts";
import { linkIn, mailsTo, waitForMails } from "#tests/support/mailbox.ts";
import type { RunningServer } from "#tests/support/server.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({
  // A paused privacy or sub-processor form answers 429; a refused correction 422.
  expectedConsoleErrors: [TOO_MANY_REQUESTS_RESPONSE, UNPROCESSABLE_RESPONSE],
  ownServerEnv: { ADMIN_EMAILS: E2E_ADMIN_EMAIL },
});

const WAITLIST_CONFIRM = "Confirm your place on the Tieout waitlist";
const PRIVACY_CONFIRM = "Confirm your privacy request";
const SUBSCRIPTION_CONFIRM = "Confirm your subscription to Tieout's sub-processor changes";
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
/** Words a form may use only when it did send a mail. */
const CLAIMS_A_MAIL = /check your inbox|we have sent a mail|is on its way|we've emailed/i;

/** Long enough for the worker to have sent a mail, had anything caused one. */
const settle = () => new Promise((r) => setTimeout(r, 1500));
const subjects = (smtp: TestSmtp, address: string) => mailsTo(smtp, address).map((m) => m.subject);

/** Joins the waitlist on the form, as a person does; the page's answer. */
async function joinOnForm(server: RunningServer, page: Page, name: string, email: string) {
  await page.goto(`${server.url}/waitlist`);
  await page.getByLabel("Full Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("main").getByRole("button", { name: "Join Waitlist" }).click();
}

test("a stranger's three privacy requests pause that form for the address, and it says so; the owner's waitlist entry is still mailed", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const owner = uniqueEmail("dana");
  const [local, domain] = owner.split("@") as [string, string];
  // A stranger, without a browser, asks three times under the owner's address, spelt three ways.
  const spellings = [owner, `${local}+a@${domain}`, `${local}+b@${domain}`];
  for (const email of spellings) {
    const asked = await fetch(`${server.url}/privacy-request`, {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({ email, name: "Stranger", kind: "access", details: "" }),
    });
    expect(asked.status).toBe(202);
  }
  for (const email of spellings) await waitForMails(smtp, email, 1);

  // The owner asks for deletion, on the page, with JavaScript.
  await page.goto(`${server.url}/privacy-request`);
  await waitForHydration(page);
  await page.getByRole("radio", { name: "Delete my data" }).check();
  await page.getByLabel("Email address").fill(owner);
  await page.getByLabel("Your name").fill("Dana Reyes");
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(page.getByRole("alert")).toContainText("Mail to this address is paused for today");
  await expect(page.getByRole("alert")).toContainText("this request was not sent or saved");
  await expect(page.getByRole("main")).not.toContainText(CLAIMS_A_MAIL);
  // What was typed is kept for tomorrow's try.
  await expect(page.getByLabel("Your name")).toHaveValue("Dana Reyes");

  // Her own waitlist entry is mailed: the privacy form's requests did not spend the waitlist's.
  await joinOnForm(server, page, "Dana Reyes", owner);
  await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();
  await waitForMails(smtp, owner, 2);
  await settle();
  expect(subjects(smtp, owner).filter((s) => s === PRIVACY_CONFIRM)).toHaveLength(1);
  expect(subjects(smtp, owner).filter((s) => s === WAITLIST_CONFIRM)).toHaveLength(1);
});

test("the sub-processor form, paused for an address, says so without JavaScript, alike for a subscriber and a stranger", async ({
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  const subscriber = uniqueEmail("sub");
  const subscribe = (email: string) =>
    fetch(`${server.url}/subprocessors`, {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({ email }),
    });
  for (let i = 0; i < 3; i++) expect((await subscribe(subscriber)).status).toBe(202);
  await waitForMails(smtp, subscriber, 1);

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const answers: string[] = [];
  // The subscriber's own address, and a new address of the same mailbox: the same words.
  for (const email of [subscriber, subscriber.replace("@", "+new@")]) {
    await page.goto(`${server.url}/subprocessors`);
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Subscribe to changes" }).click();
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("Mail to this address is paused for today");
    await expect(page.getByRole("main")).not.toContainText(/check your inbox/i);
    answers.push((await alert.textContent()) ?? "");
  }
  expect(answers[1]).toBe(answers[0]);
  await context.close();
  await settle();
  expect(subjects(smtp, subscriber)).toEqual([SUBSCRIPTION_CONFIRM]);
});

test("past the waitlist's three mails a day the entry is kept and the page says mail is paused; the next day a repeat is mailed a fresh link, as is an entry whose link expired", async ({
  browser,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const owner = uniqueEmail("sam");
  const lost = uniqueEmail("lost");
  const [local, domain] = owner.split("@") as [string, string];
  // Someone spends the owner's waitlist mails for the day with three spellings of the mailbox.
  for (const n of [1, 2, 3]) {
    const answer = await submitToWaitlist(server.url, {
      name: "X",
      email: `${local}+${n}@${domain}`,
    });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toMatchObject({ ok: true, status: "accepted" });
  }
  for (const n of [1, 2, 3]) await waitForMails(smtp, `${local}+${n}@${domain}`, 1);
  // Another lead is mailed as usual, and loses the mail.
  expect((await submitToWaitlist(server.url, { name: "Lu", email: lost })).status).toBe(202);
  await waitForMails(smtp, lost, 1);

  // The owner joins without JavaScript: kept, and told plainly that nothing was mailed.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const noScript = await plain.newPage();
  await joinOnForm(server, noScript, "Sam Okafor", owner);
  await expect(noScript.getByText("Mail to this address is paused for today.")).toBeVisible();
  await expect(noScript.getByRole("main")).not.toContainText(CLAIMS_A_MAIL);
  await plain.close();
  // The API says the same for a known address as for a new one of the mailbox: nothing to learn.
  const known = await submitToWaitlist(server.url, { name: "X", email: `${local}+1@${domain}` });
  const fresh = await submitToWaitlist(server.url, { name: "X", email: `${local}+9@${domain}` });
  expect(known.status).toBe(202);
  expect(fresh.status).toBe(202);
  // Each with its own entry's link to share (decision 045); everything else the same.
  const { shareUrl: knownLink, ...body } = (await known.json()) as {
    status: string;
    message: string;
    shareUrl: string;
  };
  const { shareUrl: freshLink, ...freshBody } = (await fresh.json()) as typeof body & {
    shareUrl: string;
  };
  expect(freshBody).toEqual(body);
  for (const link of [knownLink, freshLink]) expect(link).toMatch(/\/waitlist\?ref=[0-9a-f]{16}$/);
  expect(body.status).toBe("paused");
  expect(body.message).not.toMatch(CLAIMS_A_MAIL);
  await settle();
  expect(mailsTo(smtp, owner)).toHaveLength(0);

  // A day passes: the day's counts close, and the lost lead's link expires.
  expect(await server.stop()).toBe(0);
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: undefined });
  try {
    await database.db.execute(
      sql`UPDATE rate_limit_windows SET window_start = window_start - interval '1 day'`,
    );
    await database.db.execute(sql`
      UPDATE waitlist_tokens SET expires_at = now() - interval '1 minute'
      WHERE purpose = 'confirm'
        AND entry_id = (SELECT id FROM waitlist_entries WHERE email = ${lost})`);
  } finally {
    await database.close();
  }
  await server.restart();

  // The owner tries again, with JavaScript: the entry kept yesterday gets its first link.
  await joinOnForm(server, page, "Sam Okafor", owner);
  await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();
  const [mail] = await waitForMails(smtp, owner, 1);
  expect(mail?.subject).toBe(WAITLIST_CONFIRM);
  await page.goto(linkIn(mail!, "/waitlist/confirm?token="));
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(page.getByRole("heading", { name: "Your address is confirmed" })).toBeVisible();

  // The lead whose mail was lost asks again and gets a new link; asking once more sends nothing.
  expect((await submitToWaitlist(server.url, { name: "Lu", email: lost })).status).toBe(202);
  const [first, second] = await waitForMails(smtp, lost, 2);
  expect(linkIn(second!, "/waitlist/confirm?token=")).not.toBe(
    linkIn(first!, "/waitlist/confirm?token="),
  );
  expect((await submitToWaitlist(server.url, { name: "Lu", email: lost })).status).toBe(202);
  await settle();
  expect(mailsTo(smtp, lost)).toHaveLength(2);
});

test("the confirm page shows the name and company typed in the owner's name; the owner corrects them, and the invitation greets them so", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const owner = uniqueEmail("reyes");
  // Someone else typed the owner's address, with a name and a company of their choosing.
  const typed = { name: "Mallory <b>Typed</b>", company: "Call 555-0100 now" };
  expect((await submitToWaitlist(server.url, { ...typed, email: owner })).status).toBe(202);
  const [mail] = await waitForMails(smtp, owner, 1);
  const confirm = linkIn(mail!, "/waitlist/confirm?token=");

  // Opening the link shows what was typed, as text in labelled fields, and changes nothing.
  const opened = await (await fetch(confirm)).text();
  expect(opened).not.toContain("<b>Typed</b>");
  await page.goto(confirm);
  await waitForHydration(page);
  const name = page.getByLabel("Full Name");
  const company = page.getByLabel("Company (Optional)");
  await expect(name).toHaveValue(typed.name);
  await expect(company).toHaveValue(typed.company);

  // A name left empty is refused at the field, and nothing is confirmed.
  await name.fill("");
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Please enter your name.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Confirm your address" })).toBeVisible();

  await name.fill("Dana Reyes");
  await company.fill("Reyes CPA");
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(page.getByRole("heading", { name: "Your address is confirmed" })).toBeVisible();

  // The administrator sees the corrected entry, and the invitation greets its owner by it.
  await asAdmin(page.context(), server, async () => {
    await page.goto(`${server.url}/admin/waitlist?q=${encodeURIComponent(owner)}`);
    const row = page.getByRole("row").filter({ hasText: owner });
    await expect(row).toContainText("Dana Reyes");
    await expect(row).toContainText("Reyes CPA");
    await expect(row).not.toContainText("Mallory");
    await row.getByRole("button", { name: `Invite ${owner}` }).click();
    await expect(page.getByRole("status")).toHaveText("1 invited.");
  });
  const [, invitation] = await waitForMails(smtp, owner, 2);
  expect(invitation?.subject).toBe("Your invitation to Tieout");
  expect(invitation?.text).toContain("Hello Dana Reyes,");
  expect(invitation?.text).not.toContain("Mallory");
});

test("without JavaScript the corrections are a plain form post, refused with the field's message or saved with the confirmation", async ({
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  const owner = uniqueEmail("plain");
  await submitToWaitlist(server.url, { name: "Wrong Name", email: owner });
  const [mail] = await waitForMails(smtp, owner, 1);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(linkIn(mail!, "/waitlist/confirm?token="));
  await expect(page.getByLabel("Full Name")).toHaveValue("Wrong Name");
  await page.getByLabel("Full Name").fill("");
  await page.getByLabel("Company (Optional)").fill("Plain & Co");
  const refused = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByRole("button", { name: "Confirm my address" }).click();
  expect((await refused).status()).toBe(422);
  await expect(page.getByLabel("Full Name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Please enter your name.")).toBeVisible();
  // What was typed stays typed.
  await expect(page.getByLabel("Company (Optional)")).toHaveValue("Plain & Co");

  await page.getByLabel("Full Name").fill("Pat Plain");
  const answered = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByRole("button", { name: "Confirm my address" }).click();
  expect((await answered).status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Your address is confirmed" })).toBeVisible();
  await context.close();

  // Saved with the confirmation: stopped, the database holds the corrected entry.
  expect(await server.stop()).toBe(0);
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: undefined });
  try {
    const [entry] = await queryRows<{ name: string; company: string; state: string }>(
      database.db,
      sql`SELECT name, company, state FROM waitlist_entries WHERE email = ${owner}`,
    );
    expect(entry).toEqual({ name: "Pat Plain", company: "Plain & Co", state: "confirmed" });
  } finally {
    await database.close();
  }
});
