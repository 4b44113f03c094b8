import { adminExportToken, MAIN_SERVER } from "#tests/support/accounts.ts";
import { expect, HYDRATED_PAGE, test } from "#tests/support/fixtures.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";

/** The legal texts a visitor reads as documents, sent without the app (decision 034). */
const DOCUMENTS = ["/terms-of-service", "/privacy-policy"];

for (const path of DOCUMENTS) {
  test(`${path} is a document: read, scrolled, pressed and tabbed through, it runs no app and fetches nothing`, async ({
    page,
  }) => {
    const requests: string[] = [];
    page.on("request", (request) => requests.push(new URL(request.url()).pathname));
    await page.goto(path);
    expect(await page.evaluate(() => document.scripts.length)).toBe(1);
    await page.mouse.move(200, 200);
    await page.mouse.wheel(0, 3000);
    await page.keyboard.press("Tab");
    await page.getByRole("navigation", { name: "Contents" }).getByRole("link").nth(2).click();
    await expect(page).toHaveURL(/#[a-z0-9-]+$/);
    expect(requests).toEqual([path]);
    await expect(page.locator(HYDRATED_PAGE)).toHaveCount(0);

    // A link loads the next page, which has its app as always.
    await page.getByRole("banner").getByRole("link", { name: "Sign In" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign In");
    await page.getByLabel("Email").click();
    await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
  });
}

test("a lead whose visit began on a legal text keeps that page, its campaign and the site that sent it", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("from-terms");
  await page.goto("/terms-of-service?utm_source=search-ad&utm_campaign=terms", {
    referer: "https://search.example.org/results?q=tieout+terms",
  });
  await page.getByRole("banner").getByRole("link", { name: "Join Waitlist" }).click();
  await expect(page).toHaveURL("/waitlist");
  await page.getByLabel("Full Name").fill("Careful Reader");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("main").getByRole("button", { name: "Join Waitlist" }).click();
  await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();

  const csv = await (
    await request.get("/api/admin/waitlist.csv", {
      headers: { Authorization: `Bearer ${await adminExportToken(MAIN_SERVER)}` },
    })
  ).text();
  const row = csv.split("\n").find((line) => line.includes(email)) ?? "";
  expect(row).toContain("search-ad");
  expect(row).toContain("https://search.example.org/results?q=tieout+terms");
  expect(row).toContain("/terms-of-service?utm_source=search-ad&utm_campaign=terms");
});

test("signed in, a legal text carries the app, so the header's Sign Out works", async ({
  signedInUser: _member,
  page,
}) => {
  await page.goto("/terms-of-service");
  await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
  const header = page.getByRole("banner");
  await header.getByRole("button", { name: "Sign Out" }).click();
  await expect(header.getByRole("link", { name: "Sign In" })).toBeVisible();
});

test("a reader who leaves a legal text and comes back, or reloads it, is where they left off", async ({
  page,
}) => {
  await page.goto("/terms-of-service");
  await page.mouse.wheel(0, 2400);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(2000);
  const left = await page.evaluate(() => Math.round(window.scrollY));

  await page.getByRole("banner").getByRole("link", { name: "Sign In" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign In");
  await page.goBack();
  await expect(page).toHaveURL("/terms-of-service");
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(left);

  await page.reload();
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(left);
});
