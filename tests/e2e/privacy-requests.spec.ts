/**
 * Privacy requests end to end (decision 030), with SMTP_URL on a real SMTP server on loopback and
 * accounts in the Auth emulator: the form on /privacy-request, with JavaScript and without; the
 * link in its mail, whose opening changes nothing and whose button acts; a deletion that erases
 * the waitlist entry, the subscription and the Firebase account, and ends the account's session;
 * a copy mailed as a file; a correction answered by an administrator on /admin/privacy; the same
 * answer and the same mail for an address that is known and one that is not.
 */
import { readFile } from "node:fs/promises";
import {
  createVerifiedAccount,
  signInBrowser,
  signInBrowserVerified,
  startSession,
} from "#tests/support/accounts.ts";
import { GONE_RESPONSE } from "#tests/support/console-messages.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { accountExists, signInWithPassword, uniqueEmail } from "#tests/support/emulator.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { confirmedLead, linkIn } from "#tests/support/mailbox.ts";
import type { RunningServer } from "#tests/support/server.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ mode: "serial", timeout: 90_000 });
test.use({
  expectedConsoleErrors: [GONE_RESPONSE],
  // Trusting the loopback proxy lets a test say, with X-Forwarded-For, where a request comes from.
  ownServerEnv: { ADMIN_EMAILS: E2E_ADMIN_EMAIL, TRUST_PROXY: "loopback" },
});

const CONFIRM = "Confirm your privacy request";
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

/** The mails to `address` whose subject is `subject`, once `count` of them arrived. */
async function mails(smtp: TestSmtp, address: string, subject: string, count: number) {
  const matching = () =>
    smtp.received.filter(
      (m) => m.to.includes(address.toLowerCase()) && m.parsed.subject === subject,
    );
  await expect.poll(() => matching().length, { timeout: 20_000 }).toBe(count);
  return matching();
}

/** The form as a browser without JavaScript posts it, from `from` when given. */
const postRequest = (server: RunningServer, fields: Record<string, string>, from?: string) =>
  fetch(`${server.url}/privacy-request`, {
    method: "POST",
    headers: { ...FORM, ...(from === undefined ? {} : { "X-Forwarded-For": from }) },
    body: new URLSearchParams({ name: "Dana Reyes", details: "", ...fields }),
  });

/** The text a reader sees in a page's main landmark, one space between the parts. */
const mainText = (html: string) =>
  (/<main[\s\S]*<\/main>/.exec(html)?.[0] ?? "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

test("without JavaScript: a deletion confirmed by its mail erases the entry, the subscription and the account, and opening the link alone does not", async ({
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  // Someone with everything: a confirmed waitlist entry, a subscription, an account signed in.
  const account = await createVerifiedAccount("privacy-delete");
  const email = account.email;
  await confirmedLead(server.url, smtp, { name: "Dana Reyes", email, company: "Reyes CPA" });
  const subscribe = () =>
    fetch(`${server.url}/subprocessors`, {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({ email }),
    });
  expect((await subscribe()).status).toBe(202);
  await mails(smtp, email, "Confirm your subscription to Tieout's sub-processor changes", 1);
  const session = await startSession(
    server.url,
    (await signInWithPassword(email, account.password)).idToken,
  );
  expect(session.status).toBe(200);
  const accountPage = () =>
    fetch(`${server.url}/account`, { headers: { cookie: session.cookie }, redirect: "manual" });
  expect((await accountPage()).status).toBe(200);

  // The form, posted as a browser without JavaScript does; the same answer for a stranger.
  const known = await postRequest(server, { email, kind: "deletion" });
  const stranger = uniqueEmail("privacy-stranger");
  const unknown = await postRequest(server, { email: stranger, kind: "deletion" });
  expect(known.status).toBe(202);
  expect(unknown.status).toBe(202);
  expect(mainText(await known.text())).toBe(mainText(await unknown.text()));
  expect(
    mainText(await (await postRequest(server, { email, kind: "deletion", name: "" })).text()),
  ).toContain("Enter your name");

  const [mail] = await mails(smtp, email, CONFIRM, 1);
  const [strangerMail] = await mails(smtp, stranger, CONFIRM, 1);
  const withoutToken = (text = "") => text.replace(/token=[\w-]+/g, "token=T");
  expect(withoutToken(mail!.parsed.text)).toBe(withoutToken(strangerMail!.parsed.text));
  const link = linkIn(
    { subject: CONFIRM, text: mail!.parsed.text ?? "" },
    "/privacy-request/confirm?token=",
  );

  // A mail scanner opens the link: a page with a button, and nothing changes.
  for (let i = 0; i < 3; i++) {
    const opened = await fetch(link);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("cache-control")).toBe("private, no-store");
    expect(mainText(await opened.text())).toContain("Erase my data");
  }
  expect(await accountExists(email)).toBe(true);
  expect((await accountPage()).status).toBe(200);

  // The owner presses the button, in a browser without JavaScript.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: CONFIRM })).toBeVisible();
  await page.getByRole("button", { name: "Erase my data" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your data is erased" })).toBeVisible();

  expect(await accountExists(email)).toBe(false);
  const refused = await accountPage();
  expect(refused.status).toBe(302);
  expect(refused.headers.get("location")).toBe("/login");
  // The subscription is gone: subscribing again asks for a new confirmation.
  expect((await subscribe()).status).toBe(202);
  await mails(smtp, email, "Confirm your subscription to Tieout's sub-processor changes", 2);
  // The entry is gone: the address can join the waitlist anew, and is asked to confirm again.
  expect((await submitToWaitlist(server.url, { name: "Dana Reyes", email })).status).toBe(202);
  await mails(smtp, email, "Confirm your place on the Tieout waitlist", 2);

  // The link worked once.
  await page.goto(link);
  await expect(
    page.getByRole("heading", { level: 1, name: "This link no longer works" }),
  ).toBeVisible();
  await context.close();
});

test("with JavaScript: a copy of the data arrives as a JSON file and in brief", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const email = uniqueEmail("privacy-access");
  await confirmedLead(server.url, smtp, { name: "Sam Ortiz", email, company: "Ortiz & Co" });
  await page.goto(`${server.url}/privacy-request`);
  // A press before the page has hydrated is held and given back once it has (decision 018): the
  // radio is checked then, not at the instant of the click.
  const copy = page.getByRole("radio", { name: "A copy of my data" });
  await copy.click();
  await expect(copy).toBeChecked();
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Your name").fill("Sam Ortiz");
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(page.getByRole("status")).toContainText("Check your inbox");

  const [mail] = await mails(smtp, email, CONFIRM, 1);
  await page.goto(
    linkIn({ subject: CONFIRM, text: mail!.parsed.text ?? "" }, "/privacy-request/confirm?token="),
  );
  await page.getByRole("button", { name: "Send my data" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Your data is on its way" }),
  ).toBeVisible();

  const [data] = await mails(smtp, email, "The personal data Tieout holds for you", 1);
  expect(data!.parsed.text).toContain("Company: Ortiz & Co");
  expect(data!.parsed.text).toContain("No account is held under this address.");
  const [file] = data!.parsed.attachments;
  expect(file?.filename).toMatch(/^tieout-data-\d{4}-\d{2}-\d{2}\.json$/);
  expect(file?.contentType).toBe("application/json");
  expect(JSON.parse(file!.content.toString("utf8"))).toMatchObject({
    email,
    waitlistEntry: { name: "Sam Ortiz", company: "Ortiz & Co", state: "confirmed" },
    subprocessorSubscription: null,
    account: null,
  });
});

test("a correction waits for an administrator on /admin/privacy, with its deadline; their answer is mailed and recorded", async ({
  page,
  context,
  admin,
  ownServer: server,
  mailSink: smtp,
}) => {
  const email = uniqueEmail("privacy-correct");
  expect(
    (
      await postRequest(server, {
        email,
        kind: "correction",
        details: "My company is Reyes CPA LLP.",
      })
    ).status,
  ).toBe(202);
  const [mail] = await mails(smtp, email, CONFIRM, 1);
  await page.goto(
    linkIn({ subject: CONFIRM, text: mail!.parsed.text ?? "" }, "/privacy-request/confirm?token="),
  );
  await page.getByRole("button", { name: "Confirm my request" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "We have your request" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("at the latest");

  await signInBrowserVerified(context, server, admin);
  await page.goto(`${server.url}/admin/privacy`);
  const table = page.getByRole("region", { name: "Open privacy requests" });
  const row = table.getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("Correction");
  await expect(row).toContainText("My company is Reyes CPA LLP.");
  await expect(row).toContainText(/(29|30) days left/);
  await row
    .getByLabel("What was done (mailed to the requester)")
    .fill("Your company now reads Reyes CPA LLP.");
  await row.getByRole("button", { name: /^Mark request \d+ done$/ }).click();
  await expect(page.getByRole("status")).toContainText("is answered");
  await expect(table.getByRole("row").filter({ hasText: email })).toHaveCount(0);

  const [done] = await mails(smtp, email, "Your privacy request is done", 1);
  expect(done!.parsed.text).toContain("Your company now reads Reyes CPA LLP.");
  await page.goto(`${server.url}/admin/activity`);
  const log = page.getByRole("region", { name: "Administrator activity" });
  await expect(
    log.getByRole("row").filter({ hasText: "Privacy request completed" }).first(),
  ).toContainText(admin.email);
  await expect(
    log.getByRole("row").filter({ hasText: "Privacy request confirmed" }).first(),
  ).toContainText("The requester");
});

test("the owner's download and their copy name the address they confirmed from, never the one a request was filed from", async ({
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  const account = await createVerifiedAccount("privacy-from");
  const email = account.email;
  const FILED_FROM = ["198.51.100.31", "198.51.100.32"];
  const CONFIRMED_FROM = ["203.0.113.41", "203.0.113.42"];
  const STRANGER = "192.0.2.55";
  /** The owner's browser, at an address of its own. */
  const ownersBrowser = async (address: string) => {
    const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": address } });
    return { context, page: await context.newPage() };
  };
  const linkOf = (mail: { parsed: { text?: string | false } } | undefined) =>
    linkIn({ subject: CONFIRM, text: mail?.parsed.text || "" }, "/privacy-request/confirm?token=");

  // A correction is made from one place and confirmed from another, in the owner's browser: it
  // stays open for an administrator, so the download on /account has it too.
  const correction = { email, kind: "correction", details: "My company is Reyes CPA LLP." };
  expect((await postRequest(server, correction, FILED_FROM[0])).status).toBe(202);
  const first = await ownersBrowser(CONFIRMED_FROM[0]!);
  await first.page.goto(linkOf((await mails(smtp, email, CONFIRM, 1))[0]));
  await first.page.getByRole("button", { name: "Confirm my request" }).click();
  await expect(
    first.page.getByRole("heading", { level: 1, name: "We have your request" }),
  ).toBeVisible();
  await first.context.close();
  // Someone else names the address and never confirms.
  expect((await postRequest(server, { email, kind: "deletion" }, STRANGER)).status).toBe(202);
  await mails(smtp, email, CONFIRM, 2);

  // The owner downloads their data on /account.
  const signedIn = await ownersBrowser(CONFIRMED_FROM[1]!);
  await signInBrowser(signedIn.context, server.url, account);
  await signedIn.page.goto(`${server.url}/account`);
  const downloading = signedIn.page.waitForEvent("download");
  await signedIn.page.getByRole("button", { name: "Download my data" }).click();
  const downloaded = await readFile(await (await downloading).path(), "utf8");
  await signedIn.context.close();
  type Audit = { auditEntries: { action: string; fromAddress: string | null }[] };
  const fromAddresses = (held: Audit) => held.auditEntries.map((r) => [r.action, r.fromAddress]);
  expect(fromAddresses(JSON.parse(downloaded) as Audit)).toEqual([
    ["privacy-request", null],
    ["privacy-confirm", CONFIRMED_FROM[0]],
    ["privacy-request", null],
  ]);
  for (const address of [...FILED_FROM, STRANGER]) expect(downloaded).not.toContain(address);

  // A copy is asked for from one place and confirmed from another.
  expect((await postRequest(server, { email, kind: "access" }, FILED_FROM[1])).status).toBe(202);
  const second = await ownersBrowser(CONFIRMED_FROM[1]!);
  await second.page.goto(linkOf((await mails(smtp, email, CONFIRM, 3))[2]));
  await second.page.getByRole("button", { name: "Send my data" }).click();
  await expect(
    second.page.getByRole("heading", { level: 1, name: "Your data is on its way" }),
  ).toBeVisible();
  await second.context.close();
  const [copy] = await mails(smtp, email, "The personal data Tieout holds for you", 1);
  const file = copy!.parsed.attachments[0]!.content.toString("utf8");
  expect(fromAddresses(JSON.parse(file) as Audit)).toEqual([
    ["privacy-request", null],
    ["privacy-confirm", CONFIRMED_FROM[0]],
    ["privacy-request", null],
    ["privacy-request", null],
    ["privacy-confirm", CONFIRMED_FROM[1]],
  ]);
  for (const address of [...FILED_FROM, STRANGER]) {
    expect(file).not.toContain(address);
    expect(copy!.parsed.text).not.toContain(address);
  }
});
