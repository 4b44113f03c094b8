/**
 * The first press, for `npm run bench` (issue 35, decision 040): each public page's main controls
 * pressed by touch the moment they show, on a phone with the CPU slowed 4x, on slow 4G and
 * unthrottled, each run from a cold browser (runs: FIRST_PRESS_RUNS).
 * - A link or a form's submission is timed from the touch to what it leads to being on screen,
 *   beside the same press with JavaScript off in the same run (the runs alternate, the order
 *   turning each run): the goal is at most 1.1 times that, read from every pair of runs.
 * - A control that needs the app (Show password, the DPA download, the sign-in button) is timed
 *   from the press to its first visible change (the control or what it controls changes), beside
 *   the time the app took to be ready after the press: the goal is 200 ms unthrottled, and on
 *   slow 4G at most the app's arrival plus 100 ms.
 * Runs alone against a running site too: `tsx scripts/bench/first-press.ts URL [filter]`.
 */
import { chromium, type Browser, type Locator, type Page } from "@playwright/test";
import { HYDRATED_ATTRIBUTE } from "#src/lib/hydration-protocol.ts";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "#tests/support/e2e-env.ts";
import { ALL_PAGES } from "#tests/support/pages.ts";
import { median, pairwiseRatio } from "./ratio.ts";

export const FIRST_PRESS_TARGETS = {
  /** A link's or a form's press over the same press with JavaScript off. */
  nativeRatio: 1.1,
  /** A control that needs the app: its first visible response, unthrottled. */
  responseMs: 200,
  /** On slow 4G: over the time the app takes to be ready after the press. */
  afterAppMs: 100,
};

/**
 * Runs of each press, each side. Here one press's time spreads from about 170 to 350 ms from run
 * to run (the page is still loading when the finger lands, at a quarter of the CPU), so a ratio
 * read from 11 runs a side moves by about 8% between runs of the bench. A link's or a submission's
 * ratio is read from 31 runs a side and from every pair of them (decision 058): counting only the
 * spread within a run, a press exactly as fast as the browser's own then reads over 1.1 in about
 * one row in 150, and one 1.15 times slower reads over it in more than nine rows in ten; the
 * machine also drifts between runs. A control that needs the app, timed against a fixed goal,
 * takes the median of the 5 runs the issue asks.
 */
export const FIRST_PRESS_RUNS = { ratio: 31, response: 5 };

type Network = { name: string; conditions: null | { latency: number; down: number; up: number } };
/** Lighthouse's slow 4G: 150 ms round trips, 1.6 Mbps down, 750 kbps up. */
const NETWORKS: Network[] = [
  { name: "slow 4G", conditions: { latency: 150, down: 1_600_000 / 8, up: 750_000 / 8 } },
  { name: "unthrottled", conditions: null },
];

type Case = {
  page: string;
  control: string;
  find: (page: Page) => Locator;
  /** What the visitor does first (fills a form), before the press. */
  fill?: (page: Page, run: string) => Promise<void>;
  /** A link or a submission: where it leads, and what shows there when it has arrived. */
  leads?: { path: string; shows: (page: Page) => Locator; inView?: boolean };
};

/** The public pages, as the end-to-end suite lists them. */
const PUBLIC_PAGES = ALL_PAGES.map((p) => p.path);

const header = (page: Page) => page.getByRole("banner");
const waitlistForm = (page: Page) => page.getByRole("button", { name: "Join Waitlist" });
const signInForm = (page: Page) => page.getByLabel("Password", { exact: true });

function cases(): Case[] {
  const list: Case[] = [
    {
      page: "/",
      control: "See it in action (hero)",
      find: (p) => p.getByRole("main").getByRole("link", { name: "See it in action" }),
      leads: { path: "/waitlist", shows: waitlistForm },
    },
    {
      page: "/",
      control: "Watch the demo (hero)",
      find: (p) => p.getByRole("main").getByRole("link", { name: "Watch the demo" }),
      leads: { path: "/", shows: (p) => p.locator("#demo h2"), inView: true },
    },
  ];
  // The header's two calls to action are the same kind of link on every page: one on each.
  for (const page of PUBLIC_PAGES)
    list.push(
      page === "/waitlist"
        ? {
            page,
            control: "Sign In (header)",
            find: (p) => header(p).getByRole("link", { name: "Sign In", exact: true }),
            leads: { path: "/login", shows: signInForm },
          }
        : {
            page,
            control: "Waitlist (header)",
            find: (p) => header(p).getByRole("link", { name: "Waitlist", exact: true }),
            leads: { path: "/waitlist", shows: waitlistForm },
          },
    );
  list.push(
    {
      page: "/waitlist",
      control: "Join Waitlist, the form filled",
      find: waitlistForm,
      fill: async (p, run) => {
        await p.getByLabel("Full Name").fill("Bench Visitor");
        await p.getByLabel("Email").fill(`first-press-${run}@example.com`);
        await p.getByLabel("Company").fill("Bench LLP");
      },
      leads: {
        path: "/waitlist",
        shows: (p) => p.getByRole("heading", { name: "You're on the list!" }),
      },
    },
    {
      page: "/login",
      control: "Show password",
      find: (p) => p.getByRole("button", { name: "Show password" }),
    },
    {
      page: "/signup",
      control: "Show password",
      find: (p) => p.getByRole("button", { name: "Show password" }).first(),
    },
    {
      page: "/login",
      control: "Sign In, the form filled",
      find: (p) => p.getByRole("main").getByRole("button", { name: "Sign In" }),
      fill: async (p, run) => {
        await p.getByLabel("Email").fill(`first-press-${run}@example.com`);
        await p.getByLabel("Password", { exact: true }).fill("not the password 1");
      },
    },
    {
      page: "/dpa",
      control: "Download DPA",
      find: (p) => p.getByRole("button", { name: "Download DPA" }),
    },
  );
  return list;
}

/**
 * In the page, before the press: when the press came, when the control or what it controls first
 * changed, and when the app was ready. No function is declared inside: tsx would wrap it in a
 * helper of its own, which the page does not have.
 */
function watchPress(control: HTMLElement, hydrated: string): void {
  const times = { press: 0, response: 0, ready: 0 };
  (window as unknown as { __firstPress: typeof times }).__firstPress = times;
  const controls = (control.getAttribute("aria-controls") ?? "").split(/\s+/);
  const watched = [control, ...controls.map((id) => (id ? document.getElementById(id) : null))];
  const changed = new MutationObserver(() => {
    if (times.press && !times.response) times.response = performance.now();
  });
  for (const element of watched)
    if (element)
      changed.observe(element, {
        attributes: true,
        childList: true,
        subtree: true,
        characterData: true,
      });
  new MutationObserver(() => {
    if (!times.ready && document.documentElement.hasAttribute(hydrated))
      times.ready = performance.now();
  }).observe(document.documentElement, { attributes: true });
  if (document.documentElement.hasAttribute(hydrated)) times.ready = performance.now();
  window.addEventListener(
    "pointerdown",
    () => {
      if (!times.press) times.press = performance.now();
    },
    { capture: true },
  );
}

async function openPhone(browser: Browser, network: Network, javaScript: boolean, base: string) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    javaScriptEnabled: javaScript,
  });
  const page = await context.newPage();
  // A page of the site first, so that throttling is set on the renderer the visit will use.
  await page.goto(`${base}/robots.txt`);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  if (network.conditions) {
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: network.conditions.latency,
      downloadThroughput: network.conditions.down,
      uploadThroughput: network.conditions.up,
    });
  }
  return { context, page };
}

let runCounter = 0;

/** Opens the case's page and waits for its control to show (its form filled): the moment to press. */
async function readyToPress(page: Page, base: string, item: Case): Promise<Locator> {
  await page.goto(`${base}${item.page}`, { waitUntil: "commit" });
  const control = item.find(page);
  await control.waitFor({ state: "visible" });
  await item.fill?.(page, `${Date.now()}-${runCounter++}`);
  return control;
}

/**
 * When `check` first holds, looking about once a frame. Playwright's own waits look again after
 * 20, 50, 100, 100 and then every 500 ms: a ratio of two times both caught on the same late look
 * would read 1.0 whatever the difference. A look that meets a page between two documents counts
 * as not yet.
 */
async function lookEveryFrame(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return performance.now();
    if (performance.now() > deadline)
      throw new Error("first press: what the press leads to never showed");
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
}

/** One press of a link or a submission: milliseconds from the press to what it leads to. */
async function timeNavigation(
  browser: Browser,
  base: string,
  network: Network,
  javaScript: boolean,
  item: Case,
): Promise<number> {
  const { context, page } = await openPhone(browser, network, javaScript, base);
  try {
    const control = await readyToPress(page, base, item);
    // A finger lands where the control is: no waiting first for it to hold still, as Playwright's
    // tap() does (about 120 ms here before the touch, which would be counted on both sides).
    await control.scrollIntoViewIfNeeded();
    const box = await control.boundingBox();
    if (!box) throw new Error(`first press: ${item.page} ${item.control} has no box to press`);
    const viewport = page.viewportSize()!;
    const shows = item.leads!.shows(page);
    const started = performance.now();
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    return (
      (await lookEveryFrame(async () => {
        if (new URL(page.url()).pathname !== item.leads!.path) return false;
        if (!item.leads!.inView) return shows.isVisible();
        const at = await shows.boundingBox();
        return at !== null && at.y < viewport.height && at.y + at.height > 0;
      })) - started
    );
  } finally {
    await context.close();
  }
}

/** One press of a control that needs the app: its first response, and the app's arrival. */
async function timeResponse(
  browser: Browser,
  base: string,
  network: Network,
  item: Case,
): Promise<{ response: number; app: number }> {
  const { context, page } = await openPhone(browser, network, true, base);
  try {
    const control = await readyToPress(page, base, item);
    await control.evaluate(watchPress, HYDRATED_ATTRIBUTE);
    await control.tap();
    const handle = await page.waitForFunction(
      () => {
        const t = (window as unknown as { __firstPress?: Record<string, number> }).__firstPress;
        return t?.response && t.ready ? t : null;
      },
      undefined,
      { timeout: 60_000 },
    );
    const times = (await handle.jsonValue()) as { press: number; response: number; ready: number };
    return { response: times.response - times.press, app: Math.max(0, times.ready - times.press) };
  } finally {
    await context.close();
  }
}

export type FirstPressResult = { rows: string[]; failures: string[] };

export async function benchFirstPress(base: string, filter?: RegExp): Promise<FirstPressResult> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const rows = [
    "| page | control | network | with the app | JavaScript off | ratio or goal | |",
    "|---|---|---|---|---|---|---|",
  ];
  const failures: string[] = [];
  try {
    for (const item of cases()) {
      const name = `${item.page} ${item.control}`;
      if (filter && !filter.test(name)) continue;
      for (const network of NETWORKS) {
        if (item.leads) {
          const withApp: number[] = [];
          const without: number[] = [];
          for (let run = 0; run < FIRST_PRESS_RUNS.ratio; run++) {
            // The order turns each run, so that what one run leaves behind weighs on both sides.
            if (run % 2 === 0) {
              withApp.push(await timeNavigation(browser, base, network, true, item));
              without.push(await timeNavigation(browser, base, network, false, item));
            } else {
              without.push(await timeNavigation(browser, base, network, false, item));
              withApp.push(await timeNavigation(browser, base, network, true, item));
            }
          }
          console.log(
            `  runs, ${name}, ${network.name}: ${withApp.map(Math.round).join(" ")} / ${without.map(Math.round).join(" ")} ms`,
          );
          const { ratio, low, high } = pairwiseRatio(withApp, without);
          const met = ratio <= FIRST_PRESS_TARGETS.nativeRatio;
          if (!met) failures.push(`first press: ${name}, ${network.name}`);
          const ofMedians = median(withApp) / median(without);
          rows.push(
            `| ${item.page} | ${item.control} | ${network.name} | ${Math.round(median(withApp))} ms | ${Math.round(median(without))} ms | ${ratio.toFixed(2)} (90%: ${low.toFixed(2)} to ${high.toFixed(2)}; of the medians ${ofMedians.toFixed(2)}) ≤ ${FIRST_PRESS_TARGETS.nativeRatio} | ${met ? "met" : "MISSED"} |`,
          );
        } else {
          const responses: number[] = [];
          const apps: number[] = [];
          for (let run = 0; run < FIRST_PRESS_RUNS.response; run++) {
            const { response, app } = await timeResponse(browser, base, network, item);
            responses.push(response);
            apps.push(app);
          }
          const response = median(responses);
          const app = median(apps);
          const goal = network.conditions
            ? app + FIRST_PRESS_TARGETS.afterAppMs
            : FIRST_PRESS_TARGETS.responseMs;
          const met = response <= goal;
          if (!met) failures.push(`first press: ${name}, ${network.name}`);
          rows.push(
            `| ${item.page} | ${item.control} | ${network.name} | first response ${Math.round(response)} ms (app ready ${Math.round(app)} ms after the press) | no response | ≤ ${Math.round(goal)} ms | ${met ? "met" : "MISSED"} |`,
          );
        }
        console.log(rows.at(-1));
      }
    }
  } finally {
    await browser.close();
  }
  return { rows, failures };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base = "http://localhost:3000", filter] = process.argv.slice(2);
  const { failures } = await benchFirstPress(base, filter ? new RegExp(filter) : undefined);
  if (failures.length > 0) {
    console.log(`Missed: ${failures.join("; ")}`);
    process.exitCode = 1;
  }
}
