import { expect, test } from "#tests/support/fixtures.ts";

test("the home page costs no JavaScript and no stylesheet request until the visitor interacts", async ({
  page,
}) => {
  const requests: { url: string; type: string }[] = [];
  page.on("request", (r) => requests.push({ url: r.url(), type: r.resourceType() }));
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  expect(requests.filter((r) => r.type === "script")).toEqual([]);
  expect(requests.filter((r) => r.type === "stylesheet")).toEqual([]);
  // Styled all the same: the CSS is in the page.
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain("Inter");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(0);

  await page.mouse.move(200, 200);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  expect(requests.filter((r) => r.type === "script").length).toBeGreaterThan(0);
});

test("the sign-in page hydrates at once, without waiting for an interaction", async ({ page }) => {
  await page.goto("/login");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
});

test("a click on Download DPA that arrives before React is ready still downloads the file", async ({
  page,
}) => {
  await page.goto("/dpa");
  await page.waitForLoadState("networkidle");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download DPA" }).click();
  expect((await download).suggestedFilename()).toBe("Tieout_DPA.docx");
});
