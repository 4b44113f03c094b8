/**
 * Accessibility beyond the letter (issue 38): axe, with its best practices beside the WCAG 2.0 to
 * 2.2 A and AA rules (tests/support/fixtures.ts), finds nothing on every page that belongs to
 * someone, at 1280 and 375 px, each opened as its first-press visit opens it (the administrator's
 * pages verified with a passkey, a lead's pages behind the link in its mail). The public pages
 * are checked the same way in public-pages.spec.ts; the states a person meets on the way (a form's
 * errors, a refusal, a long list) in the specs of each feature, with the same fixture. The test at
 * the end holds every route to one or the other.
 */
import type { Page } from "@playwright/test";
import routes from "#src/routes.ts";
import { axeViolations, expect, test, waitForReady } from "#tests/support/fixtures.ts";
import {
  forgetOwnedPageMembers,
  OWNED_PAGES,
  OWNED_SERVER_ENV,
  prepareOwnedPages,
} from "#tests/support/owned-pages.ts";
import { PUBLIC_PRESS_PAGES } from "#tests/support/first-press.ts";
import { ALL_PAGES } from "#tests/support/pages.ts";

test.use({ ownServerEnv: OWNED_SERVER_ENV });
test.beforeAll(({ ownServer: server, mailSink: smtp }) => prepareOwnedPages({ server, smtp }));
test.afterAll(forgetOwnedPageMembers);

/** axe's findings at a phone's and a laptop's width, each named by the width. */
async function findingsAtBothWidths(page: Page): Promise<Record<string, unknown[]>> {
  const found: Record<string, unknown[]> = {};
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    const violations = await axeViolations(page);
    if (violations.length > 0) found[`${width}px`] = violations;
  }
  return found;
}

for (const [path, open] of Object.entries(OWNED_PAGES)) {
  test(`${path}: axe, best practices included, finds nothing at 1280 and 375 px`, async ({
    browser,
    ownServer: server,
    mailSink: smtp,
  }) => {
    const context = await browser.newContext();
    try {
      const { url } = await open({ server, smtp })(context);
      const page = await context.newPage();
      const answer = await page.goto(url);
      expect(answer?.status(), url).toBeLessThan(400);
      await waitForReady(page);
      expect(await findingsAtBothWidths(page)).toEqual({});
    } finally {
      await context.close();
    }
  });
}

/** Public pages that public-pages.spec.ts does not list: a deleted account's, not found, links. */
const OTHER_PUBLIC = PUBLIC_PRESS_PAGES.filter((path) => !ALL_PAGES.some((p) => p.path === path));

for (const path of OTHER_PUBLIC) {
  // A context of its own: these pages log what went wrong (a 404, a spent link) by design.
  test(`${path}: axe, best practices included, finds nothing at 1280 and 375 px`, async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL });
    try {
      const page = await context.newPage();
      await page.goto(path);
      await waitForReady(page);
      expect(await findingsAtBothWidths(page)).toEqual({});
    } finally {
      await context.close();
    }
  });
}

/*
 * The states a person meets with an error shown: the waitlist's form sent with a bad address, and
 * the import page with a file refused. (The feature specs check their own lists, empty and long,
 * and their own refusals, with the same fixture.) Without JavaScript the same components render the
 * same errors from the server; axe itself needs JavaScript to run, so it runs here, with it.
 */
test("/waitlist with its errors shown: axe finds nothing", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await page.goto("/waitlist");
    await waitForReady(page);
    await page.getByLabel("Full Name").fill("Ada Error");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByRole("button", { name: "Join Waitlist" }).click();
    await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
    expect(await findingsAtBothWidths(page)).toEqual({});
  } finally {
    await context.close();
  }
});

test("/admin/import with a refused file's reason shown: axe finds nothing", async ({
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  const context = await browser.newContext();
  try {
    const { url } = await OWNED_PAGES["/admin/import"]!({ server, smtp })(context);
    const page = await context.newPage();
    await page.goto(url);
    await page.getByLabel("CSV file").setInputFiles({
      name: "sums.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("Email,Name\nada@example-cpa.com,=SUM(A1:A2)\n"),
    });
    await page.getByRole("button", { name: "Upload and preview" }).click();
    await expect(page.getByRole("alert")).toContainText("starts like a formula");
    expect(await findingsAtBothWidths(page)).toEqual({});
  } finally {
    await context.close();
  }
});

test("every route of the site is checked by axe, here or with the public pages", () => {
  const covered = new Set([
    ...PUBLIC_PRESS_PAGES.map((path) => new URL(path, "http://site").pathname),
    ...Object.keys(OWNED_PAGES),
    // The account page's "Download my data": a JSON file, not a page.
    "/account/data",
  ]);
  const paths = routes.filter((r) => r.path !== "*").map((r) => (r.index ? "/" : `/${r.path}`));
  expect(paths.filter((p) => !covered.has(p))).toEqual([]);
});
