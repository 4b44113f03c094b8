/**
 * An administrator reaches the admin from the site's header: 'Admin' beside Account and Sign Out
 * on a wide screen, inside the header's Menu on a phone, with JavaScript and without. Nobody else
 * sees it, and the pages shared between anonymous visitors never carry it (decision 010).
 */
import type { Browser, Page } from "@playwright/test";
import {
  MAIN_SERVER,
  signInBrowserVerified,
  signOut,
  type Account,
} from "#tests/support/accounts.ts";
import { expect, test, waitForHydration } from "#tests/support/fixtures.ts";

const header = (page: Page) => page.getByRole("banner");
const PHONE = { viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true };

/** A browser of the administrator's own, signed in; signed out again after `run`. */
async function adminBrowser(
  browser: Browser,
  baseURL: string,
  admin: Account,
  options: Parameters<Browser["newContext"]>[0],
  run: (page: Page) => Promise<void>,
) {
  const context = await browser.newContext(options);
  // The admin opens to a session verified with a passkey (decision 039).
  const { cookie } = await signInBrowserVerified(context, { ...MAIN_SERVER, url: baseURL }, admin);
  try {
    const page = await context.newPage();
    // As the fixtures' page does: a hydration mismatch or a script error fails the test.
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await run(page);
    expect(errors, "the page logged errors").toEqual([]);
  } finally {
    await context.close();
    await signOut(baseURL, cookie);
  }
}

for (const javaScriptEnabled of [true, false]) {
  const js = javaScriptEnabled ? "on" : "off";

  test(`at 1440 px an administrator's header has Admin, which opens the dashboard (JavaScript ${js})`, async ({
    browser,
    baseURL,
    admin,
  }) => {
    await adminBrowser(
      browser,
      baseURL!,
      admin,
      { viewport: { width: 1440, height: 900 }, javaScriptEnabled },
      async (page) => {
        const response = await page.goto("/privacy-policy");
        // A page that names its visitor is kept by no cache.
        expect(response?.headers()["cache-control"]).toBe("private, no-store");
        const nav = header(page).getByRole("navigation", { name: "Account" });
        await expect(nav.getByRole("link")).toHaveText(["Admin", "Account", "Join Waitlist"], {
          useInnerText: true,
        });
        await nav.getByRole("link", { name: "Admin" }).click();
        await expect(page).toHaveURL("/admin");
        await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
      },
    );
  });

  test(`on a phone the header's Menu holds Admin, Account and Sign Out (JavaScript ${js})`, async ({
    browser,
    baseURL,
    admin,
  }) => {
    await adminBrowser(browser, baseURL!, admin, { ...PHONE, javaScriptEnabled }, async (page) => {
      await page.goto("/contact");
      const menu = header(page).getByText("Menu", { exact: true });
      await expect(header(page).getByRole("link", { name: "Admin" })).toBeHidden();
      // The header fits the screen: nothing in it reaches past the right edge.
      for (const control of [menu, header(page).getByRole("link", { name: /Waitlist/ })]) {
        const box = (await control.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(375);
      }
      await menu.tap();
      const items = header(page).getByRole("group");
      await expect(items.getByRole("link", { name: "Admin" })).toBeVisible();
      await expect(items.getByRole("link", { name: "Account" })).toBeVisible();
      await expect(items.getByRole("button", { name: "Sign Out" })).toBeVisible();
      await items.getByRole("link", { name: "Admin" }).tap();
      await expect(page).toHaveURL("/admin");
      await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
      // The menu does not stay open over the page it led to.
      await expect(header(page).getByRole("link", { name: "Admin" })).toBeHidden();
    });
  });
}

test("on a phone the Menu closes on Escape, giving focus back to it, and on a press outside", async ({
  browser,
  baseURL,
  admin,
}) => {
  await adminBrowser(browser, baseURL!, admin, PHONE, async (page) => {
    await page.goto("/contact");
    await waitForHydration(page);
    const menu = header(page).getByText("Menu", { exact: true });
    const admins = header(page).getByRole("link", { name: "Admin" });
    await menu.tap();
    await expect(admins).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(admins).toBeHidden();
    await expect(menu).toBeFocused();
    await menu.tap();
    await expect(admins).toBeVisible();
    // A tap on the page beside the open menu, not on it.
    await page.touchscreen.tap(10, 500);
    await expect(admins).toBeHidden();
  });
});

test("signing in through the form as the administrator shows Admin at once", async ({
  page,
  admin,
}) => {
  await page.goto("/login");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL("/");
  await expect(header(page).getByRole("link", { name: "Admin" })).toBeVisible();
  // Sign out here, so the shared administrator keeps no session of this test's.
  await header(page).getByRole("button", { name: "Sign Out" }).click();
  await expect(header(page).getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(header(page).getByRole("link", { name: "Admin" })).toHaveCount(0);
});

test("a member sees no Admin, and the pages anonymous visitors share never carry it", async ({
  signedInUser: _member,
  page,
  browser,
  baseURL,
  admin,
}) => {
  await page.goto("/privacy-policy");
  await expect(header(page).getByRole("link", { name: "Account" })).toBeVisible();
  await expect(page.locator('a[href="/admin"]')).toHaveCount(0);

  // The administrator reads the page first; an anonymous visitor then gets the shared copy.
  await adminBrowser(browser, baseURL!, admin, {}, async (adminPage) => {
    await adminPage.goto("/privacy-policy");
    await expect(header(adminPage).getByRole("link", { name: "Admin" })).toBeVisible();
  });
  const anonymous = await fetch(`${baseURL}/privacy-policy`);
  expect(anonymous.headers.get("cache-control")).toBe("public, no-cache");
  const html = await anonymous.text();
  expect(html).toContain(">Sign In<");
  expect(html).not.toContain('href="/admin"');
  expect(html).not.toContain(">Admin<");
});
