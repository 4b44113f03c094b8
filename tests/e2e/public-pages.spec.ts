import { axeViolations, expect, test, waitForReady } from "#tests/support/fixtures.ts";
import { ALL_PAGES } from "#tests/support/pages.ts";

for (const page of ALL_PAGES) {
  test.describe(`${page.path}`, () => {
    test("answers 200 with its main content in the HTML, before any JavaScript", async ({
      request,
    }) => {
      const response = await request.get(page.path);
      expect(response.status()).toBe(200);
      expect(response.headers()["content-type"]).toContain("text/html");
      const html = await response.text();
      expect(html).toContain(`<main id="main"`);
      expect(html).toContain(page.heading.replace(/'/g, "&#x27;"));
      expect(html).toContain(page.text);
    });

    test("is readable with JavaScript turned off", async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const noJs = await context.newPage();
      await noJs.goto(page.path);
      await expect(noJs.getByRole("heading", { level: 1, name: page.heading })).toBeVisible();
      await expect(noJs.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
      await context.close();
    });

    test("is ready (hydrated, or a document) without errors and has no axe violations at 1280 px and 375 px", async ({
      page: tab,
    }) => {
      for (const width of [1280, 375]) {
        await tab.setViewportSize({ width, height: 900 });
        await tab.goto(page.path);
        await waitForReady(tab);
        await expect(tab.getByRole("heading", { level: 1, name: page.heading })).toBeVisible();
        expect(await axeViolations(tab), `axe at ${width}px`).toEqual([]);
        const overflow = await tab.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0);
      }
    });
  });
}
