/**
 * Importing a sheet (issue 37, part 5), as an administrator does it: upload the CSV an old form
 * service filled, read each row's outcome, change a column's mapping, state the consent basis, and
 * import; a bad file is refused with what to change and nothing imported. With JavaScript, and
 * with it off. The production build on this spec's own server, its mail caught by a real SMTP server.
 */
import type { Page } from "@playwright/test";
import { asAdmin } from "#tests/support/accounts.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { axeViolations, expect, test } from "#tests/support/fixtures.ts";
import { mailsTo, waitForMails } from "#tests/support/mailbox.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ timeout: 120_000 });
test.use({ ownServerEnv: { ADMIN_EMAILS: E2E_ADMIN_EMAIL } });

/** Uploads `csv` as `name` on the import page, as an administrator picks a file. */
async function upload(page: Page, serverUrl: string, name: string, csv: string | Buffer) {
  await page.goto(`${serverUrl}/admin/import`);
  await page.getByLabel("CSV file").setInputFiles({
    name,
    mimeType: "text/csv",
    buffer: typeof csv === "string" ? Buffer.from(csv, "utf8") : csv,
  });
  await page.getByRole("button", { name: "Upload and preview" }).click();
}

test("an old form's sheet: previewed row by row, mapped, and imported as confirmed before", async ({
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  const tag = uniqueEmail("sheet").split("@")[0]!;
  const known = `${tag}-known@example-cpa.com`;
  expect((await submitToWaitlist(server.url, { name: "Known", email: known })).status).toBe(202);
  const sheet = [
    "Timestamp,Email Address,Your name,Firm,Phone",
    `3/4/2026 10:11:12,${tag}-ann@example-cpa.com,Ann Ames,Ames CPA,+1 512 555 0100`,
    `3/5/2026 09:00:00,${tag.toUpperCase()}-ANN@example-cpa.com,Ann Again,,`,
    `3/6/2026 09:00:00,${known},Known Again,,`,
    `3/7/2026 09:00:00,not an address,Nobody,,`,
    `3/8/2026 09:00:00,${tag}-bo@example-cpa.com,Bo Burns,Burns LLP,`,
  ].join("\r\n");
  const context = await browser.newContext();
  try {
    await asAdmin(context, server, async () => {
      const page = await context.newPage();
      await page.goto(`${server.url}/admin/import`);
      expect(await axeViolations(page)).toEqual([]);

      // A formula in a cell: the file is refused whole, with where it is.
      await upload(page, server.url, "bad.csv", `Email,Name\n${tag}-x@example-cpa.com,=1+1\n`);
      await expect(page.getByRole("alert")).toContainText(
        'Row 2, column "Name" (B2) starts like a formula',
      );
      // The reason, which quotes the cell, is read by an id: the address carries no words, and
      // words put there by someone else's link show nothing.
      await expect(page).toHaveURL(/\/admin\/import\?refused=[0-9a-f]{32}$/);
      await page.goto(
        `${server.url}/admin/import?refused=${encodeURIComponent("Call +1 555 0100 now")}`,
      );
      await expect(page.getByRole("heading", { name: "Upload a sheet" })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);

      await upload(page, server.url, "old-form.csv", sheet);
      await expect(page).toHaveURL(/\/admin\/import\/[0-9a-f]{32}$/);
      // The columns the headers name are mapped already.
      await expect(page.getByLabel("Email (required)")).toHaveValue("1");
      await expect(page.getByLabel("Full name (required)")).toHaveValue("2");
      await expect(page.getByLabel("Company")).toHaveValue("3");
      const tiles = page.getByRole("list", { name: "What the import would do" });
      await expect(tiles.getByRole("listitem")).toHaveText([
        /^2\s*new$/,
        /^1\s*already there$/,
        /^1\s*merged duplicates$/,
        /^0\s*suppressed$/,
        /^1\s*invalid$/,
      ]);
      const rows = page.getByRole("region", { name: "Each row's outcome" }).getByRole("row");
      await expect(rows.filter({ hasText: "Merged into row 2" })).toHaveCount(1);
      await expect(rows.filter({ hasText: "Please enter a valid email address." })).toHaveCount(1);
      expect(await axeViolations(page)).toEqual([]);

      // The company column left out: the preview says the same, and the entries will have none.
      await page.getByLabel("Company").selectOption("Not in the file");
      await page.getByRole("button", { name: "Update the preview" }).click();
      await expect(page).toHaveURL(/company=-1/);

      // Confirmed before, but no statement: refused, nothing imported.
      await page.getByLabel(/They confirmed with us before/).check();
      await page.getByRole("button", { name: "Import 2 entries" }).click();
      await expect(page.getByRole("alert")).toContainText("Say how these people confirmed");
      await page
        .getByLabel(/How they confirmed/)
        .fill("They confirmed through the form service's double opt-in.");
      await page.getByRole("button", { name: "Import 2 entries" }).click();
      await expect(page.getByRole("status")).toContainText(
        "2 entries were added (as confirmed before); 1 already there, 1 merged, 0 suppressed and 1 invalid rows were left out.",
      );
      await expect(
        page.getByText("They confirmed through the form service's double opt-in."),
      ).toBeVisible();
      // The import answered with a redirect: a reload reads what it did and posts nothing again.
      await page.reload();
      await expect(page.getByRole("status")).toContainText("2 entries were added");
      await page.getByRole("link", { name: "Import another sheet" }).click();
      const earlier = page.getByRole("region", { name: "Earlier imports" });
      await expect(earlier.getByRole("row", { name: /old-form\.csv/ })).toContainText(
        "Confirmed before",
      );

      await page.goto(`${server.url}/admin/waitlist?q=${encodeURIComponent(tag)}`);
      const ann = page.getByRole("row", { name: /Ann Ames/ });
      await expect(ann).toContainText("Confirmed");
      // The sheet's own sign-up date, and no company: its column was left out.
      await expect(ann).toContainText("Mar 4, 2026");
      await expect(ann).not.toContainText("Ames CPA");
      await expect(page.getByRole("row", { name: /Bo Burns/ })).toContainText("Confirmed");
      // Confirmed before: nobody is mailed to confirm again.
      expect(mailsTo(smtp, `${tag}-ann@example-cpa.com`)).toHaveLength(0);

      await page.goto(`${server.url}/admin/activity`);
      await expect(page.getByRole("row", { name: /Sheet imported/ }).first()).toContainText(
        "old-form.csv: 2 new (confirmed before), 1 already there, 1 merged, 0 suppressed, 1 invalid",
      );
    });
  } finally {
    await context.close();
  }
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("unconfirmed: the new addresses wait, each mailed a confirmation link", async ({
    browser,
    ownServer: server,
    mailSink: smtp,
  }) => {
    const email = uniqueEmail("imported");
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      await asAdmin(context, server, async () => {
        const page = await context.newPage();
        await upload(page, server.url, "list.csv", `email,name\n${email},Una Confirmed\n`);
        await expect(page.getByRole("button", { name: "Import 1 entry" })).toBeVisible();
        await page.getByLabel(/Unconfirmed: each new address/).check();
        await page.getByRole("button", { name: "Import 1 entry" }).click();
        await expect(page.getByRole("status")).toContainText("1 entry was added");
        const [mail] = await waitForMails(smtp, email, 1);
        expect(mail!.subject).toBe("Confirm your place on the Tieout waitlist");
      });
    } finally {
      await context.close();
    }
  });
});
