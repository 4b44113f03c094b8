/**
 * The questions after confirming (issue 37, decision 043), as a lead and the administrator meet
 * them: offered on the page that says the address is confirmed, every one optional, skipped with
 * one press, saved by a plain form with or without JavaScript, changed later behind their link,
 * and shown and filtered by on the admin's list. The production build on this spec's own server,
 * its mail caught by a real SMTP server.
 */
import type { Page } from "@playwright/test";
import { asAdmin } from "#tests/support/accounts.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { axeViolations, expect, test } from "#tests/support/fixtures.ts";
import { confirmedLead, linkIn, waitForMails } from "#tests/support/mailbox.ts";
import type { RunningServer } from "#tests/support/server.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ timeout: 90_000 });
test.use({ ownServerEnv: { ADMIN_EMAILS: E2E_ADMIN_EMAIL } });

/** Joins the list as `email` and opens the confirmation link's page, as its owner would. */
async function openConfirmLink(page: Page, server: RunningServer, smtp: TestSmtp, email: string) {
  expect((await submitToWaitlist(server.url, { name: "Quinn Asker", email })).status).toBe(202);
  const [mail] = await waitForMails(smtp, email, 1);
  await page.goto(linkIn(mail!, "/waitlist/confirm?token="));
}

/** Answers as a person would: two lists, two boxes, one more box, and the state. */
async function answer(page: Page) {
  await page.getByLabel("How many people work at your firm?").selectOption("2 to 5");
  await page.getByLabel("What is your role?").selectOption("Owner or partner");
  await page.getByRole("checkbox", { name: "UltraTax CS" }).check();
  await page.getByRole("checkbox", { name: "Drake Tax" }).check();
  await page.getByRole("checkbox", { name: "Individuals (Form 1040)" }).check();
  await page.getByLabel("Where do you mainly practise?").selectOption("Texas");
}

/** The token of the questions' form on the page: the link that opens them later. */
const answersLink = async (page: Page, server: RunningServer) =>
  `${server.url}/waitlist/answers?token=${await page
    .locator('form[action="/waitlist/answers"] input[name="token"]')
    .inputValue()}`;

test("after confirming, a lead answers the questions; the admin sees the answers and filters by them", async ({
  page,
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  const email = uniqueEmail("asker");
  await openConfirmLink(page, server, smtp, email);
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(page.getByRole("heading", { name: "Your address is confirmed" })).toBeVisible();
  await expect(page.getByText("Each one is optional")).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await answer(page);
  await page.getByRole("button", { name: "Save my answers" }).click();
  await expect(
    page.getByRole("heading", { name: "Thank you: your answers are saved" }),
  ).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  const context = await browser.newContext();
  try {
    await asAdmin(context, server, async () => {
      const admin = await context.newPage();
      await admin.goto(`${server.url}/admin/waitlist?q=${encodeURIComponent(email)}`);
      const row = admin.getByRole("row", { name: /Quinn Asker/ });
      await expect(row.getByRole("list", { name: "Answers" }).getByRole("listitem")).toHaveText([
        "Firm size: 2 to 5",
        "Role: Owner or partner",
        "Software: UltraTax CS, Drake Tax",
        "Returns: Individuals (Form 1040)",
        "Where: Texas",
      ]);

      // Filtered by where they practise: there. By a firm size they did not give: not there.
      await admin.getByText("More filters: source, dates, answers").click();
      await admin.getByRole("checkbox", { name: "Texas" }).check();
      await admin.getByRole("button", { name: "Search" }).click();
      await expect(admin).toHaveURL(/[?&]practice=us-tx/);
      await expect(admin.getByRole("row", { name: /Quinn Asker/ })).toBeVisible();
      await expect(admin.getByText("More filters: source, dates, answers (1 set)")).toBeVisible();
      expect(await axeViolations(admin)).toEqual([]);

      await admin.getByRole("checkbox", { name: "Just me" }).check();
      await admin.getByRole("button", { name: "Search" }).click();
      await expect(admin).toHaveURL(/[?&]firmSize=solo/);
      await expect(admin.getByText("No entries match.")).toBeVisible();
    });
  } finally {
    await context.close();
  }
});

test("skipping is one press, and the link opens the questions unanswered", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  await openConfirmLink(page, server, smtp, uniqueEmail("skipper"));
  await page.getByRole("button", { name: "Confirm my address" }).click();
  const link = await answersLink(page, server);
  await page.getByRole("link", { name: "Skip the questions" }).click();
  await expect(page).toHaveURL(`${server.url}/`);

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Tell us about your firm" })).toBeVisible();
  await expect(page.getByLabel("How many people work at your firm?")).toHaveValue("");
  await expect(page.getByRole("checkbox", { checked: true })).toHaveCount(0);
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the plain form saves the answers, and the link later shows and changes them", async ({
    page,
    ownServer: server,
    mailSink: smtp,
  }) => {
    await openConfirmLink(page, server, smtp, uniqueEmail("plain-asker"));
    await page.getByRole("button", { name: "Confirm my address" }).click();
    await expect(page.getByRole("heading", { name: "Your address is confirmed" })).toBeVisible();
    const link = await answersLink(page, server);
    await answer(page);
    await page.getByRole("button", { name: "Save my answers" }).click();
    await expect(
      page.getByRole("heading", { name: "Thank you: your answers are saved" }),
    ).toBeVisible();

    // Opened twice (a mail scanner first), the page shows the answers and changes nothing.
    expect((await fetch(link)).status).toBe(200);
    await page.goto(link);
    await expect(page.getByLabel("How many people work at your firm?")).toHaveValue("2-5");
    await expect(page.getByRole("checkbox", { name: "Drake Tax" })).toBeChecked();
    await page.getByLabel("How many people work at your firm?").selectOption("6 to 20");
    await page.getByRole("checkbox", { name: "Drake Tax" }).uncheck();
    await page.getByRole("button", { name: "Save my answers" }).click();
    await expect(
      page.getByRole("heading", { name: "Thank you: your answers are saved" }),
    ).toBeVisible();

    await page.goto(link);
    await expect(page.getByLabel("How many people work at your firm?")).toHaveValue("6-20");
    await expect(page.getByRole("checkbox", { name: "Drake Tax" })).not.toBeChecked();
    await expect(page.getByRole("checkbox", { name: "UltraTax CS" })).toBeChecked();
    await expect(page.getByLabel("Where do you mainly practise?")).toHaveValue("us-tx");
  });
});

test("a forged link, an odd spelling of one, and a form the page never wrote change nothing", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const email = uniqueEmail("hostile-asker");
  const link = await confirmedLead(server.url, smtp, { name: "Hal Stile", email });
  const token = new URL(link).searchParams.get("token")!;
  const post = (fields: [string, string][]) =>
    fetch(`${server.url}/waitlist/answers`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });

  // Two sizes at once, and a choice the page never offered: refused, with a sentence.
  for (const fields of [
    [
      ["firmSize", "solo"],
      ["firmSize", "100+"],
    ],
    [["software", "excel-macro"]],
  ] satisfies [string, string][][]) {
    const refused = await post([["token", token], ...fields]);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("The form was not sent as the page wrote it.");
  }

  // A token with its last character changed, another entry's number, a NUL: no such link.
  const forged = `${token.slice(0, -1)}${token.endsWith("0") ? "1" : "0"}`;
  const [id, ...rest] = token.split(".");
  const otherEntry = [(Number.parseInt(id!, 36) + 1).toString(36), ...rest].join(".");
  for (const bad of [forged, otherEntry, `${token}%00`]) {
    expect(
      (
        await post([
          ["token", bad],
          ["role", "owner"],
        ])
      ).status,
    ).toBe(410);
    await page.goto(`${server.url}/waitlist/answers?token=${bad}`);
    await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  }

  // Nothing above was kept: the link still opens the questions unanswered.
  await page.goto(link);
  await expect(page.getByLabel("What is your role?")).toHaveValue("");
  await expect(page.getByLabel("How many people work at your firm?")).toHaveValue("");
});
