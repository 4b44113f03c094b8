import { expect, test, waitForHydration } from "#tests/support/fixtures.ts";

test.describe("home page", () => {
  test("tells an accountant what Tieout does", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("inside Excel");
    const main = page.getByRole("main");
    await expect(main).toContainText("workpapers");
    await expect(main).toContainText("tax filings");
    for (const feature of [
      "Smart categorization",
      "Reconciliation engine",
      "Up to 80% less prep time",
    ]) {
      await expect(page.getByRole("heading", { level: 3, name: feature })).toBeVisible();
    }
    await expect(main).toContainText("M1 adjustments");
    await expect(main).toContainText("retained earnings");
  });

  test("'See it in action' goes to the waitlist", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("link", { name: "See it in action" }).click();
    await expect(page).toHaveURL("/waitlist");
    await expect(page.getByRole("heading", { level: 1, name: "Join the Waitlist" })).toBeVisible();
  });

  test("the demo is a real clip behind a light poster: nothing loads or plays until asked", async ({
    page,
    request,
  }) => {
    const media: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/media/tieout-demo.")) media.push(r.url());
    });
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.locator("video")).toHaveCount(0);
    const poster = page.getByRole("link", { name: "Play the demo video" });
    await expect(poster.locator("img")).toHaveAttribute("loading", "lazy");
    await expect(poster.locator("source[type='image/webp']")).toHaveAttribute(
      "srcset",
      /480w.*800w.*1280w/,
    );
    // Space is reserved before any image arrives: no layout shift.
    const box = await poster.boundingBox();
    expect(box!.height).toBeGreaterThan(box!.width * 0.5);
    expect(media).toEqual([]);

    await poster.click();
    const video = page.locator("video");
    await expect(video).toBeVisible();
    await expect(video.locator("track[kind=captions]")).toHaveAttribute(
      "src",
      "/media/tieout-demo.en.vtt",
    );
    expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 })
      .toBeGreaterThan(0.5);
    expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(10);
    await expect(video).toBeFocused();

    for (const path of [
      "/media/tieout-demo.webm",
      "/media/tieout-demo.mp4",
      "/media/tieout-demo-poster.jpg",
      "/media/tieout-demo.en.vtt",
    ]) {
      expect((await request.get(path)).status(), path).toBe(200);
    }
    const ranged = await request.get("/media/tieout-demo.mp4", {
      headers: { Range: "bytes=0-99" },
    });
    expect(ranged.status()).toBe(206);
    expect((await ranged.body()).length).toBe(100);
  });

  test("the demo can be started and paused from the keyboard", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Play the demo video" }).focus();
    await page.keyboard.press("Enter");
    const video = page.locator("video");
    await expect(video).toBeFocused();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true);
    await page.keyboard.press("Space");
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  });

  test("without JavaScript the poster links to the clip itself", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Play the demo video" })).toHaveAttribute(
      "href",
      "/media/tieout-demo.mp4",
    );
    await context.close();
  });
});

test.describe("header and footer", () => {
  test("header: brand to home, Join Waitlist, Sign In; the short label on small screens", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/contact");
    await waitForHydration(page);
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Join Waitlist" })).toHaveAttribute(
      "href",
      "/waitlist",
    );
    await expect(header.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/login");
    await header.getByRole("link", { name: /Tieout/ }).click();
    await expect(page).toHaveURL("/");

    await page.setViewportSize({ width: 375, height: 800 });
    await expect(header.getByRole("link", { name: "Waitlist", exact: true })).toBeVisible();
    await expect(header.getByRole("link", { name: "Join Waitlist" })).toHaveCount(0);
  });

  test("the header stays fixed while the page scrolls", async ({ page }) => {
    await page.goto("/terms-of-service");
    await page.mouse.wheel(0, 3000);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    const box = await page.getByRole("banner").boundingBox();
    expect(box?.y).toBe(0);
  });

  test("footer: info and trust links, the Dover address, tagline and 2025 copyright", async ({
    page,
  }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    for (const [name, href] of [
      ["Contact", "/contact"],
      ["Terms of Service", "/terms-of-service"],
      ["Privacy Policy", "/privacy-policy"],
      ["DPA", "/dpa"],
      ["Security", "/security"],
      ["Sub-processors", "/subprocessors"],
    ] as const) {
      await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    await expect(footer.locator("address")).toContainText("Dover, DE");
    await expect(footer.locator("address")).toContainText("United States");
    await expect(footer).toContainText("Workpapers that tie out");
    await expect(footer).toContainText("© 2025");
  });

  test("every navigation starts at the top of the new page", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("contentinfo").scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL("/privacy-policy");
    await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

    await page.getByRole("contentinfo").scrollIntoViewIfNeeded();
    await page.getByRole("contentinfo").getByRole("link", { name: "Contact" }).click();
    await expect(page).toHaveURL("/contact");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test("contact: Get in Touch with the contact address as a mail link, and no form", async ({
  page,
}) => {
  await page.goto("/contact");
  await expect(page.getByRole("heading", { level: 1, name: "Get in Touch" })).toBeVisible();
  await expect(page.getByRole("link", { name: "hello@tieout.ai" })).toHaveAttribute(
    "href",
    "mailto:hello@tieout.ai",
  );
  await expect(page.getByRole("main")).toContainText("replies as soon as they see your message");
  await expect(page.getByRole("main").locator("form")).toHaveCount(0);
});
