import type { Locator } from "@playwright/test";
import { expect, test, waitForReady } from "#tests/support/fixtures.ts";

for (const path of ["/terms-of-service", "/privacy-policy", "/dpa", "/security"]) {
  test(`${path}: the table of contents links to every section heading`, async ({ page }) => {
    await page.goto(path);
    await waitForReady(page);
    const contents = page.getByRole("navigation", { name: "Contents" });
    const entries = contents.getByRole("link");
    const count = await entries.count();
    expect(count).toBeGreaterThanOrEqual(10);
    for (let i = 0; i < count; i++) {
      const href = await entries.nth(i).getAttribute("href");
      expect(href).toMatch(/^#[a-z0-9-]+$/);
      await expect(page.locator(`h2${href}`)).toHaveCount(1);
    }
    // Following an entry lands on its heading, at the top and clear of the fixed header, however
    // far down the page the heading is and whatever the sections before it stood in for.
    const follow = async (entry: Locator) => {
      const target = (await entry.getAttribute("href"))!;
      await entry.click();
      await expect(page).toHaveURL(new RegExp(`${target}$`));
      const heading = page.locator(`h2${target}`);
      await expect
        .poll(async () => (await heading.boundingBox())?.y ?? -1)
        .toBeGreaterThanOrEqual(64);
      return heading;
    };
    const middle = await follow(entries.nth(count - 3));
    expect((await middle.boundingBox())?.y).toBeLessThan(130);
    // The last one, too, which the end of the page may keep from reaching the top.
    await follow(entries.nth(count - 1));
  });
}

test("Terms and Privacy are effective June 1, 2025", async ({ page }) => {
  for (const path of ["/terms-of-service", "/privacy-policy"]) {
    await page.goto(path);
    await expect(page.getByRole("main")).toContainText("Effective June 1, 2025");
  }
});

test("the DPA names the parties and their roles, its effective date and its sections", async ({
  page,
}) => {
  await page.goto("/dpa");
  await expect(
    page.getByRole("heading", { level: 1, name: "Data Processing Addendum" }),
  ).toBeVisible();
  const main = page.getByRole("main");
  await expect(main).toContainText('Tieout, Inc. ("Provider"), acting as Processor');
  await expect(main).toContainText('("Customer"), acting as Controller');
  await expect(main).toContainText("date of execution");
  await expect(page.getByRole("heading", { level: 2, name: /^4\. .*Processor/ })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: /^5\. Sub-processors/ })).toBeVisible();
  await expect(main).toContainText("TLS 1.3");
  await expect(main).toContainText("AES-256");
  await expect(page.getByRole("heading", { level: 2, name: "Signature Page" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: /^Annex A/ })).toBeVisible();
});
