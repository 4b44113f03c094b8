/**
 * The page loader on its own (decision 018): the compiled script that every page carries, in a bare
 * page built from the protocol's names, with a few lines standing in for the app. Pages are served
 * by the browser context itself, so nothing but the last test needs the server. The page's clock is
 * Playwright's and stands still, so the native fallback is reached without waiting for it.
 */
import type { Page } from "@playwright/test";
import { HYDRATION_LOADER, HYDRATION_LOADER_NO_TOGGLES } from "#server/pages/hydration-loader.ts";
import { LANDING_NOTE_SCRIPT } from "#src/lib/landing-note.ts";
import {
  DEFER_ATTRIBUTE,
  DEFER_VALUE,
  DEFERRED_APP_ID,
  HYDRATED_ATTRIBUTE,
  HYDRATED_EVENT,
  NATIVE_FALLBACK_MS,
} from "#src/lib/hydration-protocol.ts";
import { expect, test } from "#tests/support/fixtures.ts";

const ORIGIN = "http://loader.test";

/*
 * Stands in for the app: it records every press that reaches the page's own listeners, and takes
 * over form submissions as React Router would. On a page "without app", nothing takes them over, so
 * a form posts as a browser posts it.
 */
const APP = `
window.seen = [];
document.addEventListener("click", (e) => {
  const pressed = e.target.closest("[id]");
  seen.push("click " + (pressed ? pressed.id : e.target.tagName));
});
document.addEventListener("change", (e) => {
  if (e.target.type === "checkbox" || e.target.type === "radio")
    seen.push("change " + e.target.id + " " + e.target.checked);
});
document.addEventListener("submit", (e) => {
  seen.push("submit " + (e.submitter ? e.submitter.value : e.target.id));
  if (!document.documentElement.hasAttribute("data-without-app")) e.preventDefault();
});`;

function pageHtml({ deferred = false, withoutApp = false } = {}): string {
  const attributes = [
    deferred ? `${DEFER_ATTRIBUTE}="${DEFER_VALUE}"` : "",
    withoutApp ? "data-without-app" : "",
  ].join(" ");
  return `<!DOCTYPE html><html lang="en" ${attributes}><head><script>${HYDRATION_LOADER}</script>
<title>Loader</title></head><body>
<button id="plain">Plain</button>
<button id="icon"><svg width="24" height="24" aria-hidden="true"><rect width="24" height="24"/></svg>Icon</button>
<a id="link" href="/elsewhere">Elsewhere</a>
<label>Name <input id="name"></label>
<label>Notes <textarea id="notes"></textarea></label>
<div id="editor" contenteditable="true" role="textbox" aria-label="Editor">Draft</div>
<form id="form" method="post" action="/posted">
  <label>Query <input name="q" value="ledger"></label>
  <button id="first" name="choice" value="first">First</button>
  <button id="second" name="choice" value="second">Second</button>
</form>
<label><input type="checkbox" id="agree"> Agree</label>
<input type="radio" name="kind" id="copy" value="copy" checked><label for="copy">Copy</label>
<input type="radio" name="kind" id="erase" value="erase"><label for="erase">Erase</label>
<form id="search" method="post" action="/posted"><label>Term <input name="term" value="tie"></label></form>
<script>${APP}</script>
<script type="text/plain" id="${DEFERRED_APP_ID}">window.appStarts = (window.appStarts ?? 0) + 1;</script>
</body></html>`;
}

/** Serves `html` at ORIGIN, and records the form posts that reach ORIGIN/posted. */
async function open(page: Page, html: string): Promise<string[]> {
  const posts: string[] = [];
  await page.route(`${ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === "/posted") posts.push(route.request().postData() ?? "");
    const body = url.pathname === "/" ? html : `<!DOCTYPE html><title>${url.pathname}</title>`;
    await route.fulfill({ contentType: "text/html", body });
  });
  // The clock stands still from here on: timers fire only when a test moves it.
  await page.clock.install();
  await page.goto(`${ORIGIN}/`);
  await page.clock.pauseAt(Date.now() + 60_000);
  return posts;
}

/** What the root route does once React has hydrated the page. */
async function hydrate(page: Page) {
  await page.evaluate(
    ({ attribute, event }) => {
      document.documentElement.setAttribute(attribute, "");
      window.dispatchEvent(new Event(event));
    },
    { attribute: HYDRATED_ATTRIBUTE, event: HYDRATED_EVENT },
  );
}

const seen = (page: Page) => page.evaluate(() => (window as { seen?: string[] }).seen);

test("a press before the app is ready is held, then replayed once when it is", async ({ page }) => {
  await open(page, pageHtml());
  await page.getByRole("button", { name: "Plain" }).click();
  // On the icon inside a button: replayed on the button.
  await page.locator("#icon svg").click();
  expect(await seen(page)).toEqual([]);

  await hydrate(page);
  expect(await seen(page)).toEqual(["click plain", "click icon"]);
  // Neither comes back when the fallback time passes, and from now on nothing is held.
  await page.clock.runFor(NATIVE_FALLBACK_MS);
  await page.getByRole("button", { name: "Plain" }).click();
  expect(await seen(page)).toEqual(["click plain", "click icon", "click plain"]);
});

test("a form sent before the app is ready is sent once it is, by the same button", async ({
  page,
}) => {
  const posts = await open(page, pageHtml());
  await page.getByRole("button", { name: "Second" }).click();
  // Enter in a field sends the form as its first button would (the browser clicks that button).
  await page.getByLabel("Query").press("Enter");
  // A form without a button: Enter sends it with no click at all.
  await page.getByLabel("Term").press("Enter");
  expect(await seen(page)).toEqual([]);

  await hydrate(page);
  expect(await seen(page)).toEqual([
    "click second",
    "submit second",
    "click first",
    "submit first",
    "submit search",
  ]);
  await page.clock.runFor(NATIVE_FALLBACK_MS);
  expect(await seen(page)).toHaveLength(5);
  expect(posts).toEqual([]);
});

test("a checkbox or a radio shows its choice at once; the app hears of it when ready, even after putting the old state back", async ({
  page,
}) => {
  await open(page, pageHtml());
  // On the label's text, and on the radio itself.
  await page.getByText("Agree").click();
  await page.getByLabel("Copy").click();
  await page.getByText("Erase").click();
  await expect(page.getByLabel("Agree")).toBeChecked();
  await expect(page.getByLabel("Erase")).toBeChecked();
  // Hydrating, the app may render the server's state over the page.
  await page.evaluate(() => {
    (document.getElementById("agree") as HTMLInputElement).checked = false;
    (document.getElementById("copy") as HTMLInputElement).checked = true;
    (window as { seen?: string[] }).seen = [];
  });
  await hydrate(page);
  // Each press again, in the order made, so the last radio chosen is the one that stays.
  expect(await seen(page)).toEqual([
    "click agree",
    "change agree true",
    "click copy",
    "change copy true",
    "click erase",
    "change erase true",
  ]);
  await expect(page.getByLabel("Agree")).toBeChecked();
  await expect(page.getByLabel("Erase")).toBeChecked();
  await expect(page.getByLabel("Copy")).not.toBeChecked();
});

test("what the browser alone does right is never held", async ({ page }) => {
  await open(page, pageHtml());
  // A modified click (a new tab, a selection) and a click in a place for typing.
  await page.getByRole("button", { name: "Plain" }).click({ modifiers: ["Shift"] });
  await page.getByLabel("Name").click();
  await page.getByLabel("Notes").click();
  await page.getByRole("textbox", { name: "Editor" }).click();
  expect(await seen(page)).toEqual(["click plain", "click name", "click notes", "click editor"]);
  await expect(page.getByRole("textbox", { name: "Editor" })).toBeFocused();
});

test("when the app never comes, a held link is followed after the fallback time", async ({
  page,
}) => {
  await open(page, pageHtml({ withoutApp: true }));
  await page.getByRole("link", { name: "Elsewhere" }).click();
  await page.clock.runFor(NATIVE_FALLBACK_MS - 1);
  expect(new URL(page.url()).pathname).toBe("/");
  await page.clock.runFor(1);
  await expect(page).toHaveURL(`${ORIGIN}/elsewhere`);
});

for (const [how, press] of [
  ["its button", (page: Page) => page.getByRole("button", { name: "Second" }).click()],
  ["Enter, in a form without a button", (page: Page) => page.getByLabel("Term").press("Enter")],
] as const) {
  test(`when the app never comes, a form sent by ${how} is posted by the browser after the fallback time`, async ({
    page,
  }) => {
    const posts = await open(page, pageHtml({ withoutApp: true }));
    await press(page);
    await page.clock.runFor(NATIVE_FALLBACK_MS - 1);
    expect(posts).toEqual([]);
    await page.clock.runFor(1);
    await expect(page).toHaveURL(`${ORIGIN}/posted`);
    expect(posts).toEqual([how === "its button" ? "q=ledger&choice=second" : "term=tie"]);
  });
}

test("a deferred page starts its app on the first sign of a person, and only once", async ({
  page,
}) => {
  await open(page, pageHtml({ deferred: true }));
  const starts = () => page.evaluate(() => (window as { appStarts?: number }).appStarts ?? 0);
  expect(await starts()).toBe(0);
  await page.mouse.move(5, 5);
  await expect.poll(starts).toBe(1);
  await page.keyboard.press("Tab");
  await page.mouse.wheel(0, 40);
  await page.getByRole("button", { name: "Plain" }).click();
  await expect.poll(starts).toBe(1);
  // The press that came meanwhile waits for the app like any other.
  expect(await seen(page)).toEqual([]);
});

test("a page that is not deferred leaves its scripts alone", async ({ page }) => {
  await open(page, pageHtml());
  await page.mouse.move(5, 5);
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => (window as { appStarts?: number }).appStarts ?? 0)).toBe(0);
  expect(await page.locator("script").count()).toBe(3);
});

test("the server inlines this same compiled loader in <head>, after the landing note alone; the smaller copy where nothing toggles", async ({
  request,
}) => {
  const note = `<script>${LANDING_NOTE_SCRIPT}</script>`;
  const withRadios = await (await request.get("/privacy-request")).text();
  expect(withRadios).toContain(`<head>${note}<script>${HYDRATION_LOADER}</script>`);
  const without = await (await request.get("/")).text();
  expect(without).toContain(`<head>${note}<script>${HYDRATION_LOADER_NO_TOGGLES}</script>`);
});
