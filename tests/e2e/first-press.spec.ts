/**
 * No first press is lost, whatever the control (decision 009). For every page and every control a
 * visitor can press on it (found by role, not from a list, so a control added tomorrow is tested
 * by construction), the control is pressed as the very first action after the page loads, with
 * the CPU slowed 4x so the app is still far from ready, by mouse on a desktop and by touch on a
 * phone. What the visitor then sees once the app is ready must be what the same press gives on a
 * page whose app was already running.
 */
import type { Browser, BrowserContextOptions, Locator, Page } from "@playwright/test";
import { HYDRATED_ATTRIBUTE } from "#src/lib/hydration-protocol.ts";
import { ALL_PAGES } from "#tests/support/pages.ts";
import { expect, HYDRATED_PAGE, test, waitForHydration } from "#tests/support/fixtures.ts";

const PAGES = [
  ...ALL_PAGES.map((p) => p.path),
  "/no-such-page",
  "/auth/action?mode=resetPassword&oobCode=none",
];

const INPUTS = {
  mouse: { viewport: { width: 1280, height: 800 } },
  touch: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
} satisfies Record<string, BrowserContextOptions>;
type Input = keyof typeof INPUTS;

/** Everything a visitor presses that is not a plain link: buttons and toggles of every kind. */
const CONTROL_ROLES = [
  "button",
  "checkbox",
  "switch",
  "radio",
  "tab",
  "menuitem",
  "combobox",
] as const;
/*
 * Links are controls too (one may carry behaviour: the demo poster is a link that plays the clip in
 * place). Those in the page's main content are pressed on every page; the header's and footer's,
 * the same everywhere, on the home page. Links to a place on the same page, to mail or to another
 * site do nothing the app could lose.
 */
const PRESSABLE_LINK = 'a[href^="/"]:not([href^="//"])';

/** React Router's entry script: until it runs, the page is server HTML and the loader alone. */
const APP_ENTRY = /\/assets\/entry\.client-[\w-]+\.js$/;

type Control = { describe: string; find: (page: Page) => Locator };

async function discoverControls(page: Page, path: string): Promise<Control[]> {
  const controls: Control[] = [];
  for (const role of CONTROL_ROLES) {
    const all = page.getByRole(role);
    for (let i = 0; i < (await all.count()); i++) {
      if (!(await all.nth(i).isVisible())) continue;
      controls.push({
        describe: (await all.nth(i).ariaSnapshot()).trim(),
        find: (p) => p.getByRole(role).nth(i),
      });
    }
  }
  const scope = path === "/" ? "body" : "main";
  const links = page.locator(`${scope} ${PRESSABLE_LINK}`);
  for (let i = 0; i < (await links.count()); i++) {
    if (!(await links.nth(i).isVisible())) continue;
    controls.push({
      describe: (await links.nth(i).ariaSnapshot()).trim(),
      find: (p) => p.locator(`${scope} ${PRESSABLE_LINK}`).nth(i),
    });
  }
  return controls;
}

/**
 * What the visitor sees once the app runs and the press has had its whole effect: the address,
 * downloads, header and main content, the same in two looks 300 ms apart, with the router idle.
 * A press that leaves the page (Back) lands on one whose app waits for an interaction: the mouse
 * gives it one, as a visitor's would.
 */
async function outcome(page: Page, downloads: string[]): Promise<string> {
  let last = "";
  for (let look = 0; look < 100; look++) {
    await page.mouse.move(2 + (look % 5), 2);
    const now = await lookAt(page, downloads).catch(() => "navigating");
    if (now !== "busy" && now !== "navigating" && now === last) return now;
    last = now;
    await page.waitForTimeout(300);
  }
  throw new Error(`${page.url()} never settled`);
}

async function lookAt(page: Page, downloads: string[]): Promise<string> {
  const busy = await page.evaluate((hydrated) => {
    const router = (
      window as { __reactRouterDataRouter?: { state: { navigation: { state: string } } } }
    ).__reactRouterDataRouter;
    return (
      !document.documentElement.hasAttribute(hydrated) ||
      document.readyState !== "complete" ||
      router?.state.navigation.state !== "idle"
    );
  }, HYDRATED_ATTRIBUTE);
  if (busy) return "busy";
  const url = new URL(page.url());
  return [
    `url: ${url.pathname}${url.search}`,
    `downloads: ${downloads.join(", ")}`,
    `header: ${await page.getByRole("banner").ariaSnapshot({ timeout: 2_000 })}`,
    `main: ${await page.locator("main").ariaSnapshot({ timeout: 2_000 })}`,
  ].join("\n");
}

async function press(control: Locator, input: Input) {
  // On screen first, and a moment for the page to lay out what scrolled into view: sections far
  // down are laid out only when near (content-visibility), so a press aimed in the same instant
  // as the jump could land where the control was a frame before. Scrolling is not an interaction:
  // the app still waits for the press itself.
  await control.scrollIntoViewIfNeeded();
  await control.evaluate(
    () =>
      new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
  if (input === "touch") await control.tap();
  else await control.click();
}

/**
 * Opens `path` with a page visited before it (so Back has somewhere to go), presses the control,
 * and returns the outcome. `early`: the CPU is slowed 4x and the press comes before the app runs.
 */
async function pressAndSee(
  browser: Browser,
  input: Input,
  path: string,
  control: Control,
  early: boolean,
): Promise<string> {
  const context = await browser.newContext({ ...INPUTS[input], acceptDownloads: true });
  const page = await context.newPage();
  try {
    const downloads: string[] = [];
    const errors: string[] = [];
    page.on("download", (d) => downloads.push(d.suggestedFilename()));
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto("/contact");
    let release = () => {};
    if (early) {
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      // Pages that start their app at once (the reset-link page) could beat the press: the app's
      // entry script is held until the press has been made.
      const pressed = new Promise<void>((resolve) => (release = resolve));
      await page.route(APP_ENTRY, async (route) => {
        await pressed;
        await route.continue();
      });
    }
    await page.goto(path);
    if (early) {
      await expect(page.locator(HYDRATED_PAGE)).toHaveCount(0);
    } else {
      await waitForHydration(page);
    }
    await press(control.find(page), input);
    release();
    const seen = await outcome(page, downloads);
    return errors.length > 0 ? `${seen}\npage errors: ${errors.join("; ")}` : seen;
  } finally {
    await context.close();
  }
}

for (const path of PAGES) {
  for (const input of Object.keys(INPUTS) as Input[]) {
    test(`${path}, ${input}: the first press on every control works as on a ready page`, async ({
      browser,
    }) => {
      // Two page loads per control, one of them at a quarter of the CPU: the home page has many.
      test.setTimeout(240_000);
      // What the visitor can press is what the server's HTML shows before the app runs.
      const context = await browser.newContext(INPUTS[input]);
      const page = await context.newPage();
      await page.route(APP_ENTRY, () => {});
      await page.goto(path);
      // Some pages have nothing to press but links elsewhere on the page or to mail.
      const controls = await discoverControls(page, path);
      await context.close();
      test.info().annotations.push({ type: "controls", description: String(controls.length) });

      const mismatches: string[] = [];
      for (const control of controls) {
        const ready = await pressAndSee(browser, input, path, control, false);
        const first = await pressAndSee(browser, input, path, control, true);
        if (first !== ready)
          mismatches.push(
            `${control.describe}\n--- on a ready page:\n${ready}\n--- first press:\n${first}`,
          );
      }
      expect(mismatches, "controls whose first press did not work").toEqual([]);
    });
  }
}

test.describe("on a phone", () => {
  test.use(INPUTS.touch);

  test("a signed-in visitor's first press on Sign Out signs them out", async ({
    signedInUser: _signedIn,
    context,
    page,
  }) => {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    // A signed-in visitor's page starts its app at once: hold its entry script until the press.
    let release = () => {};
    const pressed = new Promise<void>((resolve) => (release = resolve));
    await page.route(APP_ENTRY, async (route) => {
      await pressed;
      await route.continue();
    });
    await page.goto("/contact");
    const signOut = page.getByRole("banner").getByRole("button", { name: "Sign Out" });
    await expect(page.locator(HYDRATED_PAGE)).toHaveCount(0);
    await signOut.tap();
    release();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
  });
});
