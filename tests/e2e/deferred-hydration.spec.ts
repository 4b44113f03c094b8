import { expect, HYDRATED_PAGE, test } from "#tests/support/fixtures.ts";
import { BAD_REQUEST_RESPONSE } from "#tests/support/console-messages.ts";
import { ALL_PAGES } from "#tests/support/pages.ts";
import { STYLESHEET_ATTRIBUTE } from "#src/lib/hydration-protocol.ts";

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
  expect(
    await page.evaluate(() => getComputedStyle(document.querySelector("h1")!).fontFamily),
  ).toContain("Source Serif 4");
  await expect(page.locator(HYDRATED_PAGE)).toHaveCount(0);

  await page.mouse.move(200, 200);
  await expect(page.locator(HYDRATED_PAGE)).toHaveCount(1);
  expect(requests.filter((r) => r.type === "script").length).toBeGreaterThan(0);
});

test("a sign-in sent before React is ready is held and sent once it is", async ({
  page,
  newUser,
}) => {
  // Hold the app's scripts back so the form is submitted while the page is still plain HTML.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/entry.client-*.js", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/login");
  await page.getByLabel("Email").fill(newUser.email);
  await page.getByLabel("Password", { exact: true }).fill(newUser.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.locator(HYDRATED_PAGE)).toHaveCount(0);
  expect(page.url()).not.toContain(newUser.password);
  release();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("banner").getByRole("button", { name: "Sign Out" })).toBeVisible();
});

test("with JavaScript off, the sign-in form says it needs JavaScript and sends the password nowhere", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill("someone@example.com");
  await page.getByLabel("Password", { exact: true }).fill("secret-password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("alert")).toContainText("Signing in needs JavaScript");
  expect(page.url()).toMatch(/\/login$/);
  await context.close();
});

test.describe(() => {
  // The made-up code is refused by the identity service (a 400 the browser reports).
  test.use({ expectedConsoleErrors: [BAD_REQUEST_RESPONSE] });
  test("the password-reset link page, which has work to do at once, hydrates without waiting", async ({
    page,
  }) => {
    await page.goto("/auth/action?mode=resetPassword&oobCode=unknown");
    await expect(page.locator(HYDRATED_PAGE)).toHaveCount(1);
    await expect(
      page.getByRole("heading", { name: /This Link (Has Expired|Is Not Valid)/ }),
    ).toBeVisible();
  });
});

test("a click on Download DPA that arrives before React is ready still downloads the file", async ({
  page,
}) => {
  await page.goto("/dpa");
  await page.waitForLoadState("networkidle");
  await expect(page.locator(HYDRATED_PAGE)).toHaveCount(0);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download DPA" }).click();
  expect((await download).suggestedFilename()).toBe("Tieout_DPA.docx");
});

test("before any JavaScript, the page's own CSS styles every control it shows", async ({
  page,
}) => {
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  await expect(page.locator(HYDRATED_PAGE)).toHaveCount(0);
  // The Back link's chevron is sized by a variant utility ([&_svg]:size-4) in the inlined CSS.
  const chevron = await page.getByRole("link", { name: "Back" }).locator("svg").boundingBox();
  expect(chevron?.width).toBe(16);
  const submit = await page
    .getByRole("button", { name: "Sign In" })
    .evaluate((b) => getComputedStyle(b).backgroundColor);
  expect(submit).toBe("rgb(31, 122, 90)");
});

test("before any JavaScript, every page looks exactly as it does with the whole stylesheet", async ({
  browser,
  request,
}) => {
  // Two full-page shots of every page: more than the default time on a busy machine.
  test.setTimeout(180_000);
  // The server inlines only the rules a page needs (server/pages/page-css.ts). Each page is shot twice
  // with JavaScript off, as served and with the whole stylesheet added: any rule the cut dropped
  // but the page needed shows as a difference.
  const home = await (await request.get("/")).text();
  const href = new RegExp(`${STYLESHEET_ATTRIBUTE}="([^"]+)"`).exec(home)?.[1];
  expect(href).toBeDefined();
  const whole = await (await request.get(href ?? "")).text();
  const context = await browser.newContext({
    javaScriptEnabled: false,
    bypassCSP: true,
    viewport: { width: 375, height: 812 },
  });
  const page = await context.newPage();
  const shot = async (path: string, extra: string) => {
    await page.unrouteAll();
    // Sections below the fold are drawn too, so the shot covers the whole page.
    await page.route(
      (url) => url.pathname === path,
      async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace(
          "</head>",
          `<style>*{content-visibility:visible!important}${extra}</style></head>`,
        );
        await route.fulfill({ response, body });
      },
    );
    await page.goto(path);
    return page.screenshot({ fullPage: true });
  };
  for (const { path } of [...ALL_PAGES, { path: "/no-such-page" }]) {
    const asServed = await shot(path, "");
    const withWhole = await shot(path, whole);
    expect(
      asServed.equals(withWhole),
      `${path} differs from the page with the whole stylesheet`,
    ).toBe(true);
  }
  await context.close();
});
