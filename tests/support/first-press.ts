/**
 * Pressing every control of a page as the very first action after it loads (decision 009): found
 * by role, not from a list, so a control added tomorrow is pressed by construction; pressed by
 * mouse on a desktop and by touch on a phone, with the CPU slowed 4x while the page loads and the
 * press is made, so the app is still far from ready. What the visitor then sees once the app is
 * ready must be what the same press gives on a page whose app was already running.
 */
import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Locator,
  Page,
  Request,
} from "@playwright/test";
import {
  DEFER_ATTRIBUTE,
  DOCUMENT_VALUE,
  HYDRATED_ATTRIBUTE,
  NEEDS_APP_ATTRIBUTE,
} from "#src/lib/hydration-protocol.ts";
import { quietPointer } from "#tests/support/e2e-env.ts";
import { expect, HYDRATED_PAGE, test, waitForReady } from "#tests/support/fixtures.ts";
import { ALL_PAGES } from "#tests/support/pages.ts";

/** The time a first-press test may take for each control it presses (firstPressMismatches). */
const ALLOWED_PER_CONTROL_MS = 30_000;

/** The pages anyone can open, each pressed on the suite's server (first-press.spec.ts). */
export const PUBLIC_PRESS_PAGES = [
  ...ALL_PAGES.map((p) => p.path),
  "/account/deleted",
  "/no-such-page",
  "/auth/action?mode=resetPassword&oobCode=none",
  // A broadcast's unsubscribe link that names no entry: the page anyone may open. A live link's
  // one button is a form the browser sends, before the app or after (tests/e2e/broadcasts.spec.ts).
  "/unsubscribe?token=none",
];

/**
 * A page to open for one press, made anew for each press so that every press starts from the same
 * state: a new lead's link, a new member's account.
 */
type Visit = {
  /** The page's address: a path on the suite's server, or a whole URL on another. */
  url: string;
  /** What differs between two visits made the same way (an address, a token, a count), masked
   * before two outcomes are compared. */
  masks?: readonly (string | RegExp)[];
};

/** Makes a visit; `context` is the browser context that will open it (to sign it in). */
export type OpenVisit = (context: BrowserContext) => Promise<Visit>;

/**
 * Where links are pressed: the whole page, or its main content, leaving out those inside
 * `sharedNav` when given (a navigation the same on a set of pages, pressed on one of them).
 */
export type Scope = "body" | "main" | { within: "body" | "main"; sharedNav: string };

function linksIn(scope: Scope): string {
  if (typeof scope === "string") return `${scope} ${PRESSABLE_LINK}`;
  return `${scope.within} ${PRESSABLE_LINK}:not(${scope.sharedNav} a)`;
}

export const INPUTS = {
  mouse: { viewport: { width: 1280, height: 800 } },
  touch: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
} satisfies Record<string, BrowserContextOptions>;
export type Input = keyof typeof INPUTS;

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
export const APP_ENTRY = /\/assets\/entry\.client-[\w-]+\.js$/;

type Control = {
  describe: string;
  find: (page: Page) => Locator;
  /** A link the browser follows by itself: the address it goes to. */
  leavesFor?: string;
};

/*
 * Boxes and radio buttons that share a name in one form are one control many times over: the same
 * field, a value each (a row's "Select", an answer among several). The first of each is pressed.
 */
const GROUPED_ROLES: ReadonlySet<string> = new Set(["checkbox", "radio"]);

async function discoverControls(page: Page, scope: Scope): Promise<Control[]> {
  const controls: Control[] = [];
  for (const role of CONTROL_ROLES) {
    const all = page.getByRole(role);
    const groups = new Set<string>();
    for (let i = 0; i < (await all.count()); i++) {
      if (!(await all.nth(i).isVisible())) continue;
      if (GROUPED_ROLES.has(role)) {
        const group = await all
          .nth(i)
          .evaluate((box) =>
            box instanceof HTMLInputElement && box.name && box.form
              ? `${box.form.action} ${box.form.method} ${box.name}`
              : null,
          );
        if (group !== null && groups.has(group)) continue;
        if (group !== null) groups.add(group);
      }
      controls.push({
        describe: (await all.nth(i).ariaSnapshot()).trim(),
        find: (p) => p.getByRole(role).nth(i),
      });
    }
  }
  const links = page.locator(linksIn(scope));
  for (let i = 0; i < (await links.count()); i++) {
    if (!(await links.nth(i).isVisible())) continue;
    const href = await links.nth(i).getAttribute("href");
    const needsApp = (await links.nth(i).getAttribute(NEEDS_APP_ATTRIBUTE)) !== null;
    controls.push({
      describe: (await links.nth(i).ariaSnapshot()).trim(),
      find: (p) => p.locator(linksIn(scope)).nth(i),
      ...(href && !needsApp ? { leavesFor: href } : {}),
    });
  }
  return controls;
}

/**
 * The page's requests under way, and a count of every start and end so far. A clip's stream is
 * left out: it lasts for as long as the clip plays.
 */
type Network = { readonly pending: Set<Request>; events: number };

function watchNetwork(page: Page): Network {
  const network: Network = { pending: new Set(), events: 0 };
  const counted = (request: Request) => request.resourceType() !== "media";
  page.on("request", (request) => {
    if (!counted(request)) return;
    network.pending.add(request);
    network.events++;
  });
  const ended = (request: Request) => {
    if (network.pending.delete(request)) network.events++;
  };
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  return network;
}

/**
 * What the visitor sees once the app runs and the press has had its whole effect: the address,
 * downloads, header and main content, the same in two looks 300 ms apart, with the router idle
 * and no request under way or begun in between (signing out, say, is a request and then a
 * navigation, with a button that says it is busy meanwhile). A press that leaves the page (Back)
 * lands on one whose app waits for an interaction: the mouse gives it one, as a visitor's would.
 */
async function outcome(page: Page, downloads: string[], network: Network): Promise<string> {
  let last = "";
  let eventsThen = -1;
  for (let look = 0; look < 100; look++) {
    await page.mouse.move(2 + (look % 5), 2);
    const now = await lookAt(page, downloads).catch(() => "navigating");
    const quiet = network.pending.size === 0 && network.events === eventsThen;
    if (now !== "busy" && now !== "navigating" && now === last && quiet) return now;
    last = now;
    eventsThen = network.events;
    await page.waitForTimeout(300);
  }
  throw new Error(`${page.url()} never settled`);
}

async function lookAt(page: Page, downloads: string[]): Promise<string> {
  const busy = await page.evaluate(
    ({ hydrated, defer, documentValue }) => {
      const router = (
        window as { __reactRouterDataRouter?: { state: { navigation: { state: string } } } }
      ).__reactRouterDataRouter;
      // A link followed before the app was ready may land on a document, which has no app.
      if (document.documentElement.getAttribute(defer) === documentValue)
        return document.readyState !== "complete";
      return (
        !document.documentElement.hasAttribute(hydrated) ||
        document.readyState !== "complete" ||
        router?.state.navigation.state !== "idle"
      );
    },
    { hydrated: HYDRATED_ATTRIBUTE, defer: DEFER_ATTRIBUTE, documentValue: DOCUMENT_VALUE },
  );
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
 * Opens the visit's page with a page of the same site visited before it (so Back has somewhere to
 * go), presses the control, and returns the outcome, masked. `early`: the CPU is slowed 4x until
 * the press, which comes before the app runs.
 */
async function pressAndSee(
  browser: Browser,
  input: Input,
  open: OpenVisit,
  control: Control,
  early: boolean,
): Promise<string> {
  const context = await browser.newContext({ ...INPUTS[input], acceptDownloads: true });
  const page = await context.newPage();
  try {
    const visit = await open(context);
    const downloads: string[] = [];
    const errors: string[] = [];
    page.on("download", (d) => downloads.push(d.suggestedFilename()));
    page.on("pageerror", (error) => errors.push(error.message));
    // A blank document takes the pointer's event that a new page's first document gets
    // (quietPointer): the page of the site opened next, there for Back to go to, then waits for a
    // person and never starts its app, and the pressed page meets the app's files as a visitor's
    // first page does, not from the cache (decision 062).
    await quietPointer(page);
    await page.goto(visit.url.startsWith("/") ? "/contact" : new URL("/contact", visit.url).href);
    let release = () => Promise.resolve();
    if (early) {
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      let pressed = () => {};
      const held = new Promise<void>((resolve) => (pressed = resolve));
      // Chromium slows a page by keeping its thread busy: a slowed page costs the machine a whole
      // core for as long as it is open, idle or not, and the tests share two cores. So the CPU is
      // slowed for what the test is about, the page's load and the press before its app, and the
      // app that then takes the press up runs at full speed (decision 062).
      release = async () => {
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
        pressed();
      };
      // Pages that start their app at once (a signed-in visitor's, the reset-link page) could beat
      // the press: the app's entry script is held until the press has been made.
      await page.route(APP_ENTRY, async (route) => {
        await held;
        await route.continue();
      });
    }
    const network = watchNetwork(page);
    await page.goto(visit.url);
    if (early) {
      await expect(page.locator(HYDRATED_PAGE)).toHaveCount(0);
    } else {
      await waitForReady(page);
    }
    const from = new URL(page.url());
    await press(control.find(page), input);
    await release();
    // A link the browser follows leaves the page, though a busy machine may take a while to begin
    // (a long document laid out while another test runs): the outcome is looked at once it has.
    const to = control.leavesFor ? new URL(control.leavesFor, from) : null;
    if (to && to.pathname + to.search !== from.pathname + from.search)
      await page
        .waitForURL((url) => url.pathname + url.search !== from.pathname + from.search, {
          timeout: 10_000,
          waitUntil: "commit",
        })
        .catch(() => {});
    const seen = await outcome(page, downloads, network);
    const all = errors.length > 0 ? `${seen}\npage errors: ${errors.join("; ")}` : seen;
    return (visit.masks ?? []).reduce<string>((text, mask) => text.replaceAll(mask, "…"), all);
  } finally {
    await context.close();
  }
}

/**
 * Every control of the visit's page, found by role in the HTML the server sent, pressed twice: on
 * a page whose app is ready, and as the very first action on a page whose app is still far from
 * ready. Each press gets a visit of its own. Returns how many controls were pressed, how many
 * links of a shared navigation were left to the page that presses them (`shared`), and the
 * controls whose two outcomes differ, each with both outcomes.
 */
export async function firstPressMismatches(
  browser: Browser,
  input: Input,
  open: OpenVisit,
  scope: Scope,
): Promise<{ pressed: number; shared: number; mismatches: string[] }> {
  // What the visitor can press is what the server's HTML shows before the app runs.
  const context = await browser.newContext(INPUTS[input]);
  const page = await context.newPage();
  const visit = await open(context);
  await page.route(APP_ENTRY, () => {});
  await page.goto(visit.url);
  const controls = await discoverControls(page, scope);
  const shared =
    typeof scope === "string"
      ? 0
      : await page.locator(`${scope.within} ${scope.sharedNav} ${PRESSABLE_LINK}`).count();
  await context.close();
  // Each control costs two or three page loads, one of them at a quarter of the CPU, so the time
  // a test may take grows with its page's controls: a page with many (the home page) once outgrew
  // a fixed allowance when a browser update made each throttled load slower.
  const info = test.info();
  info.setTimeout(Math.max(info.timeout, (controls.length + 2) * ALLOWED_PER_CONTROL_MS));

  const mismatches: string[] = [];
  for (const control of controls) {
    let ready = await pressAndSee(browser, input, open, control, false);
    const first = await pressAndSee(browser, input, open, control, true);
    // The reference is looked at again before a difference counts: on a long page under the
    // slowed CPU, a press on a ready page has been seen to land a frame before its link did.
    if (first !== ready) ready = await pressAndSee(browser, input, open, control, false);
    if (first !== ready)
      mismatches.push(
        `${control.describe}\n--- on a ready page:\n${ready}\n--- first press:\n${first}`,
      );
  }
  return { pressed: controls.length, shared, mismatches };
}
