/**
 * Saved audiences (issue 37, decision 044), as the administrator uses them: the list narrowed by
 * answers and saved under a name; the audience's count shown before its invitation batch, which
 * invites exactly that many or, when the number moved since the page was shown, nothing; a draft
 * broadcast aimed at it counting the same people. The production build on this spec's own server,
 * its mail caught by a real SMTP server.
 */
import type { Page } from "@playwright/test";
import { asAdmin } from "#tests/support/accounts.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { axeViolations, expect, test } from "#tests/support/fixtures.ts";
import { confirmedLead, waitForMails } from "#tests/support/mailbox.ts";
import type { RunningServer } from "#tests/support/server.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";

test.describe.configure({ timeout: 120_000 });
test.use({ ownServerEnv: { ADMIN_EMAILS: E2E_ADMIN_EMAIL } });

/** A confirmed lead of this run who answered that they practise in `state`. */
async function leadIn(server: RunningServer, smtp: TestSmtp, email: string, state: string) {
  const link = await confirmedLead(server.url, smtp, { name: `Lee ${state}`, email });
  const saved = await fetch(`${server.url}/waitlist/answers`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    body: new URLSearchParams([
      ["token", new URL(link).searchParams.get("token")!],
      ["practice", state],
    ]),
  });
  expect(saved.status).toBe(200);
}

const audienceRow = (page: Page, name: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("link", { name }) });

test("an audience saved from the list: its count before its invitation batch, a batch refused when the count moved, and a broadcast aimed at it", async ({
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  const run = Date.now().toString(36);
  const texans = [`tx-a-${run}@example-cpa.com`, `tx-b-${run}@example-cpa.com`];
  for (const email of texans) await leadIn(server, smtp, email, "us-tx");
  await leadIn(server, smtp, `ny-${run}@example-cpa.com`, "us-ny");
  const name = `Texas ${run}`;

  const context = await browser.newContext();
  try {
    await asAdmin(context, server, async () => {
      const page = await context.newPage();
      await page.goto(`${server.url}/admin/waitlist?q=${run}`);
      await expect(page.getByText("Narrow the list with the search and filters above")).toHaveCount(
        0,
      );
      await page.getByText("More filters: source, dates, answers").click();
      await page.getByRole("checkbox", { name: "Texas" }).check();
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/[?&]practice=us-tx/);
      await expect(page.getByRole("row", { name: /Lee us-ny/ })).toHaveCount(0);
      await expect(page.getByRole("row", { name: /Lee us-tx/ })).toHaveCount(2);

      // Saved, it is listed with what it holds now, and the Activity log says so.
      await page.getByLabel("Save this filter as an audience").fill(name);
      await page.getByRole("button", { name: "Save audience" }).click();
      await expect(page.getByRole("status")).toHaveText(`Saved the audience “${name}”.`);
      await expect(audienceRow(page, name)).toContainText(
        "2 now, 2 confirmed and not yet invited.",
      );
      expect(await axeViolations(page)).toEqual([]);
      // The same name again is refused.
      await page.getByLabel("Save this filter as an audience").fill(name.toUpperCase());
      await page.getByRole("button", { name: "Save audience" }).click();
      await expect(page.getByRole("alert")).toHaveText(
        `An audience is already named “${name.toUpperCase()}”.`,
      );

      // A third Texan confirms after the page showed 2: the batch of 2 is refused, nothing sent.
      await leadIn(server, smtp, `tx-c-${run}@example-cpa.com`, "us-tx");
      await audienceRow(page, name)
        .getByRole("button", { name: `Invite 2 in ${name}` })
        .click();
      await expect(page.getByRole("alert")).toHaveText(
        `“${name}” now has 3 to invite, not 2. Check the number and press again.`,
      );
      await expect(audienceRow(page, name)).toContainText(
        "3 now, 3 confirmed and not yet invited.",
      );

      // A draft broadcast aimed at it counts the same three (waitlist news, confirmed entries).
      await page.goto(`${server.url}/admin/broadcasts/new`);
      await page.getByRole("radio", { name: /^Waitlist news/ }).check();
      await page.getByLabel("Subject").fill("Texas opens next week");
      await page.getByLabel("Body").fill("The beta opens to firms in **Texas** next week.");
      await page.getByRole("checkbox", { name: "Confirmed" }).check();
      await page.getByLabel("Saved audience").selectOption(name);
      await page.getByRole("button", { name: "Save draft" }).click();
      await expect(page.getByText("This goes to 3 people.")).toBeVisible();
      await expect(page.getByLabel("Saved audience")).toHaveValue(/^\d+$/);

      // Now the batch of 3: each invited, each mailed its invitation.
      await page.goto(`${server.url}/admin/waitlist?q=${run}`);
      await audienceRow(page, name)
        .getByRole("button", { name: `Invite 3 in ${name}` })
        .click();
      await expect(page.getByRole("status")).toHaveText("3 invited.");
      await expect(audienceRow(page, name)).toContainText(
        "3 now, 0 confirmed and not yet invited.",
      );
      for (const email of [...texans, `tx-c-${run}@example-cpa.com`]) {
        const mails = await waitForMails(smtp, email, 2);
        expect(mails.at(-1)?.subject).toBe("Your invitation to Tieout");
      }

      // Deleted, it is gone from the list and the composer.
      await audienceRow(page, name)
        .getByRole("button", { name: `Delete the audience ${name}` })
        .click();
      await expect(page.getByRole("status")).toHaveText(`Deleted the audience “${name}”.`);
      await expect(audienceRow(page, name)).toHaveCount(0);
      await page.goto(`${server.url}/admin/activity`);
      await expect(page.getByText("Audience saved").first()).toBeVisible();
      await expect(page.getByText("Audience deleted").first()).toBeVisible();
    });
  } finally {
    await context.close();
  }
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the list is filtered by an answer and saved as an audience, its count shown", async ({
    browser,
    ownServer: server,
    mailSink: smtp,
  }) => {
    const run = `plain${Date.now().toString(36)}`;
    await leadIn(server, smtp, `tx-${run}@example-cpa.com`, "us-tx");
    await leadIn(server, smtp, `ny-${run}@example-cpa.com`, "us-ny");
    const name = `Texas ${run}`;
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      await asAdmin(context, server, async () => {
        const page = await context.newPage();
        await page.goto(`${server.url}/admin/waitlist?q=${run}`);
        // The filters' disclosure is a <details>: it opens without JavaScript.
        await page.getByText("More filters: source, dates, answers").click();
        await page.getByRole("checkbox", { name: "Texas" }).check();
        await page.getByRole("button", { name: "Search" }).click();
        await expect(page).toHaveURL(/[?&]practice=us-tx/);
        await expect(page.getByRole("row", { name: /Lee us-tx/ })).toHaveCount(1);
        await expect(page.getByRole("row", { name: /Lee us-ny/ })).toHaveCount(0);
        await page.getByLabel("Save this filter as an audience").fill(name);
        await page.getByRole("button", { name: "Save audience" }).click();
        await expect(page.getByRole("status")).toHaveText(`Saved the audience “${name}”.`);
        await expect(audienceRow(page, name)).toContainText(
          "1 now, 1 confirmed and not yet invited.",
        );
      });
    } finally {
      await context.close();
    }
  });
});
