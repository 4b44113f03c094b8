/**
 * The pages that keep the legal texts' promises (decision 025): /security states what we do from
 * the same figures as the DPA and the Privacy Policy; /.well-known/security.txt names the contact;
 * /subprocessors lists the sub-processors the DPA's section 5.3 promises, with an Atom feed.
 */
import { expect, HYDRATED_PAGE, test } from "#tests/support/fixtures.ts";

test("/security says how data is protected, with the DPA's and the Privacy Policy's figures and links to them", async ({
  page,
}) => {
  await page.goto("/security");
  await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
  const main = page.getByRole("main");
  for (const heading of [
    "Encryption",
    "Where your data lives",
    "AI models and your data",
    "Access control and logging",
    "Security incidents",
    "Retention and deletion",
    "Certifications and audits",
    "Citing us in your WISP",
    "Tax return information (IRC §7216)",
    "Report a vulnerability",
  ])
    await expect(main.getByRole("heading", { level: 2, name: heading }), heading).toBeVisible();

  await expect(main).toContainText("encrypted with TLS 1.3 or higher");
  await expect(main).toContainText("encrypted at rest with AES-256");
  await expect(main).toContainText("Customer Content is not used to train AI models.");
  await expect(main).toContainText("processes it in the United States");
  await expect(main).toContainText(
    "does not hold a SOC 2 report or an ISO/IEC 27001 certification, and we do not claim either",
  );
  await expect(main).toContainText("FTC Safeguards Rule (16 CFR Part 314)");
  await expect(main).toContainText("Section 7216 of the Internal Revenue Code");
  await expect(main).toContainText("no later than 72 hours after we become aware of it");
  await expect(main).toContainText(
    "within 30 days of closure, and from our backups within 90 days of closure",
  );
  await expect(main.getByRole("link", { name: "security@tieout.ai" })).toHaveAttribute(
    "href",
    "mailto:security@tieout.ai",
  );

  // The figures are the agreements' own: each link lands on the clause that states them.
  await main.getByRole("link", { name: "section 7 of the DPA" }).click();
  await expect(page).toHaveURL(/\/dpa#security-incidents$/);
  await expect(page.getByRole("main")).toContainText(
    "no later than 72 hours after becoming aware of it",
  );
  await page.goto("/security");
  await page.getByRole("main").getByRole("link", { name: "our Privacy Policy" }).click();
  await expect(page).toHaveURL(/\/privacy-policy#retention$/);
  await expect(page.getByRole("main")).toContainText(
    "in any event within 30 days after closure, we delete account data and Customer Content from our active systems. Copies in our backups are deleted within 90 days after closure.",
  );
  await page.goto("/security");
  await page.getByRole("main").getByRole("link", { name: "Our sub-processors page" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sub-processors" })).toBeVisible();
});

test("/.well-known/security.txt follows RFC 9116: contact, an expiry within a year, policy, language, canonical", async ({
  request,
  baseURL,
}) => {
  const response = await request.get("/.well-known/security.txt");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  const text = await response.text();
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, "m").exec(text)?.[1];
  expect(field("Contact")).toBe("mailto:security@tieout.ai");
  expect(field("Policy")).toBe(`${baseURL}/security#report-a-vulnerability`);
  expect(field("Preferred-Languages")).toBe("en");
  expect(field("Canonical")).toBe(`${baseURL}/.well-known/security.txt`);
  const expires = Date.parse(field("Expires") ?? "");
  expect(expires).toBeGreaterThan(Date.now());
  expect(expires).toBeLessThan(Date.now() + 365 * 86_400_000);
});

test("/subprocessors lists each sub-processor's purpose, data and location; the DPA's 5.3 and the footer lead to it", async ({
  page,
}) => {
  await page.goto("/dpa");
  await page
    .getByRole("main")
    .getByRole("link", { name: "a current list of its Sub-processors" })
    .click();
  await expect(page).toHaveURL(/\/subprocessors$/);
  const table = page.getByRole("table", {
    name: "Sub-processors: name, purpose, data and location",
  });
  await expect(table.getByRole("columnheader")).toHaveText(["Name", "Purpose", "Data", "Location"]);
  const row = table.getByRole("row", { name: /Anthropic, PBC/ });
  await expect(row.getByRole("cell")).toHaveText([
    "Runs the AI models that read a task's workbook data and draft its output.",
    "The parts of Customer Content and instructions that each task needs.",
    "United States",
  ]);
  for (const name of [
    "Google LLC Google Cloud",
    "Google LLC Firebase Authentication",
    "Anthropic, PBC Claude API",
    "Stripe, Inc. Stripe Payments",
    "Amazon Web Services, Inc. Amazon Simple Email Service",
  ])
    await expect(table.getByRole("rowheader", { name }), name).toBeVisible();
  await expect(page.getByRole("main")).toContainText("No change has been announced.");

  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  await footer.getByRole("link", { name: "Sub-processors" }).click();
  await expect(page).toHaveURL(/\/subprocessors$/);
  await page.getByRole("contentinfo").getByRole("link", { name: "Security" }).click();
  await expect(page).toHaveURL(/\/security$/);
});

for (const javaScriptEnabled of [true, false])
  test(`/subprocessors reads on a phone without sideways scrolling, each row a block of named values; a table at 1440 px (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
  }) => {
    const phone = await browser.newContext({
      viewport: { width: 375, height: 812 },
      hasTouch: true,
      isMobile: true,
      javaScriptEnabled,
    });
    const desktop = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      javaScriptEnabled,
    });
    try {
      const page = await phone.newPage();
      await page.goto("/subprocessors");
      if (javaScriptEnabled) {
        // A first touch starts the app (decision 009): the layout holds after hydration too.
        await page.tap("h1");
        await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
      }
      const table = page.getByRole("table", {
        name: "Sub-processors: name, purpose, data and location",
      });
      await table.scrollIntoViewIfNeeded();
      const widths = await table.evaluate((t) => ({
        page: document.scrollingElement!.scrollWidth,
        viewport: document.scrollingElement!.clientWidth,
        box: t.parentElement!.scrollWidth,
        boxShown: t.parentElement!.clientWidth,
      }));
      expect(widths.page, "the page scrolls sideways").toBeLessThanOrEqual(widths.viewport);
      expect(widths.box, "the table scrolls sideways").toBeLessThanOrEqual(widths.boxShown);
      // Still a table to a screen reader, with its column headers, though no header row is drawn.
      await expect(table.getByRole("columnheader")).toHaveText([
        "Name",
        "Purpose",
        "Data",
        "Location",
      ]);
      const row = table.getByRole("row", { name: /Anthropic, PBC/ });
      const name = await row.getByRole("rowheader").boundingBox();
      const cells = row.getByRole("cell");
      await expect(cells).toHaveCount(3);
      let above = name!.y + name!.height;
      for (const [i, column] of ["Purpose", "Data", "Location"].entries()) {
        const cell = cells.nth(i);
        const box = (await cell.boundingBox())!;
        // Each value sits under the one before it, full width, and names its column above it.
        expect(box.y, `${column} is under what comes before it`).toBeGreaterThanOrEqual(above - 1);
        expect(box.x + box.width, `${column} fits the screen`).toBeLessThanOrEqual(375);
        const label = await cell.evaluate((td) => {
          const before = getComputedStyle(td, "::before");
          return { content: before.content, display: before.display };
        });
        expect(label.content, `${column}'s name is shown`).toMatch(new RegExp(`^"${column}"`));
        expect(label.display).toBe("block");
        above = box.y + box.height;
      }

      const wide = await desktop.newPage();
      await wide.goto("/subprocessors");
      const headers = wide.getByRole("table").getByRole("columnheader");
      for (const heading of ["Name", "Purpose", "Data", "Location"])
        await expect(headers.filter({ hasText: heading })).toBeVisible();
      // Side by side in one row: the four headers share a line.
      const tops = await headers.evaluateAll((all) =>
        all.map((h) => h.getBoundingClientRect().top),
      );
      expect(new Set(tops).size).toBe(1);
      const purpose = wide
        .getByRole("row", { name: /Anthropic, PBC/ })
        .getByRole("cell")
        .first();
      expect(await purpose.evaluate((td) => getComputedStyle(td, "::before").content)).toBe("none");
    } finally {
      await phone.close();
      await desktop.close();
    }
  });

test("/subprocessors announces its Atom feed, which is served as Atom", async ({
  page,
  request,
  baseURL,
}) => {
  await page.goto("/subprocessors");
  const alternate = page.locator('head link[rel="alternate"][type="application/atom+xml"]');
  await expect(alternate).toHaveAttribute("href", `${baseURL}/subprocessors/feed.atom`);
  await expect(page.getByRole("link", { name: "the Atom feed of changes" })).toHaveAttribute(
    "href",
    `${baseURL}/subprocessors/feed.atom`,
  );
  const feed = await request.get("/subprocessors/feed.atom");
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
  const xml = await feed.text();
  expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
  expect(xml).toContain(`<id>${baseURL}/subprocessors</id>`);
  expect(xml).toContain("<title>Tieout sub-processor changes</title>");
  expect(xml).toContain(`<link rel="self" href="${baseURL}/subprocessors/feed.atom"/>`);
  expect(xml).toContain("<updated>2025-06-01T00:00:00.000Z</updated>");
});
