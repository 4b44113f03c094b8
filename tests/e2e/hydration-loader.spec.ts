/**
 * The page loader on its own (decisions 018 and 040): the compiled script that every page carries, in a bare
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
  LANDING_FIELD,
  NATIVE_FALLBACK_MS,
  NEEDS_APP_ATTRIBUTE,
} from "#src/lib/hydration-protocol.ts";
import { expect, test } from "#tests/support/fixtures.ts";

const ORIGIN = "http://loader.test";

/*
 * Stands in for the app: it records every press that reaches the page's own listeners (with the
 * pressed state a toggle had when it got there), and once the page is hydrated takes over form
 * submissions as React Router would. Before that, or on a page "without app", nothing takes them
 * over, so a form posts as a browser posts it.
 */
const APP = `
window.seen = [];
document.addEventListener("click", (e) => {
  const pressed = e.target.closest("[id]");
  const state = pressed && pressed.hasAttribute("aria-pressed") ? " " + pressed.getAttribute("aria-pressed") : "";
  seen.push("click " + (pressed ? pressed.id : e.target.tagName) + state);
});
document.addEventListener("change", (e) => {
  if (e.target.type === "checkbox" || e.target.type === "radio")
    seen.push("change " + e.target.id + " " + e.target.checked);
});
document.addEventListener("submit", (e) => {
  seen.push("submit " + (e.submitter ? e.submitter.value : e.target.id));
  const root = document.documentElement;
  if (root.hasAttribute("${HYDRATED_ATTRIBUTE}") && !root.hasAttribute("data-without-app"))
    e.preventDefault();
});`;

function pageHtml({ deferred = false, withoutApp = false } = {}): string {
  const attributes = [
    deferred ? `${DEFER_ATTRIBUTE}="${DEFER_VALUE}"` : "",
    withoutApp ? "data-without-app" : "",
  ].join(" ");
  return `<!DOCTYPE html><html lang="en" ${attributes}><head><script>${LANDING_NOTE_SCRIPT}</script><script>${HYDRATION_LOADER}</script>
<title>Loader</title></head><body>
<button id="plain" type="button">Plain</button>
<button id="icon" type="button"><svg width="24" height="24" aria-hidden="true"><rect width="24" height="24"/></svg>Icon</button>
<label>Secret <input id="secret" type="password" value="hunter2"></label>
<button id="reveal" type="button" aria-pressed="false" aria-controls="secret">Show secret</button>
<button id="more" type="button" aria-expanded="false" aria-controls="panel">More</button>
<div id="panel" hidden>The panel</div>
<details><summary>Details</summary><p>Inside the details</p></details>
<a id="link" href="/elsewhere">Elsewhere</a>
<a id="app-link" href="/played" ${NEEDS_APP_ATTRIBUTE}>Play here</a>
<label>Name <input id="name"></label>
<label>Notes <textarea id="notes"></textarea></label>
<div id="editor" contenteditable="true" role="textbox" aria-label="Editor">Draft</div>
<form id="form" method="post" action="/posted">
  <label>Query <input name="q" value="ledger"></label>
  <input type="hidden" name="${LANDING_FIELD}" value="">
  <button id="first" name="choice" value="first">First</button>
</form>
<form id="script" method="post">
  <label>Password <input name="password" value="secret"></label>
  <button id="sign-in" name="choice" value="sign-in">Sign in</button>
  <button id="other" name="choice" value="other">Other</button>
</form>
<form id="step-up" method="post" action="/posted" ${NEEDS_APP_ATTRIBUTE}>
  <label>Term <input name="term" value="tie"></label>
  <button id="invite" name="choice" value="invite">Invite</button>
</form>
<label><input type="checkbox" id="agree"> Agree</label>
<input type="radio" name="kind" id="copy" value="copy" checked><label for="copy">Copy</label>
<input type="radio" name="kind" id="erase" value="erase"><label for="erase">Erase</label>
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
  await page.goto(`${ORIGIN}/?utm_source=loader-test`);
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

test("a control that works by script answers at once from its ARIA state, and is pressed again once the app is ready", async ({
  page,
}) => {
  await open(page, pageHtml());
  const plain = page.getByRole("button", { name: "Plain" });
  const reveal = page.getByRole("button", { name: "Show secret" });
  const more = page.getByRole("button", { name: "More" });
  await plain.click();
  // On the icon inside a button: held for the button.
  await page.locator("#icon svg").click();
  await reveal.click();
  await more.click();
  // Nothing has reached the app, yet each press shows: busy, the password shown, the panel open.
  expect(await seen(page)).toEqual([]);
  await expect(plain).toHaveAttribute("aria-busy", "true");
  await expect(page.getByRole("button", { name: "Icon" })).toHaveAttribute("aria-busy", "true");
  await expect(reveal).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByLabel("Secret")).toHaveAttribute("type", "text");
  await expect(more).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByText("The panel")).toBeVisible();

  await hydrate(page);
  // Each press reaches the app once, on the page as the server sent it (the toggle unpressed).
  expect(await seen(page)).toEqual([
    "click plain",
    "click icon",
    "click reveal false",
    "click more",
  ]);
  await expect(plain).not.toHaveAttribute("aria-busy");
  await expect(reveal).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByLabel("Secret")).toHaveAttribute("type", "password");
  await expect(page.getByText("The panel")).toBeHidden();
  // None comes back when the fallback time passes, and from now on nothing is held.
  await page.clock.runFor(NATIVE_FALLBACK_MS);
  await plain.click();
  expect(await seen(page)).toHaveLength(5);
});

test("a toggle pressed twice before the app is ready ends as it began, and the app hears both presses", async ({
  page,
}) => {
  await open(page, pageHtml());
  const reveal = page.getByRole("button", { name: "Show secret" });
  await reveal.click();
  await reveal.click();
  await expect(page.getByLabel("Secret")).toHaveAttribute("type", "password");
  await hydrate(page);
  expect(await seen(page)).toEqual(["click reveal false", "click reveal false"]);
});

test("a link is followed at once, as without JavaScript; one that needs the app waits for it", async ({
  page,
}) => {
  await open(page, pageHtml());
  await page.getByRole("link", { name: "Play here" }).click();
  await expect(page.getByRole("link", { name: "Play here" })).toHaveAttribute("aria-busy", "true");
  await page.getByRole("link", { name: "Elsewhere" }).click();
  await expect(page).toHaveURL(`${ORIGIN}/elsewhere`);
});

test("a disclosure opens at once", async ({ page }) => {
  await open(page, pageHtml());
  await page.getByText("Details", { exact: true }).click();
  await expect(page.getByText("Inside the details")).toBeVisible();
  expect(await seen(page)).toEqual([]);
});

test("a form that names where it goes is sent by the browser at once, with where the visit began", async ({
  page,
}) => {
  const posts = await open(page, pageHtml());
  await page.getByRole("button", { name: "First" }).click();
  await expect(page).toHaveURL(`${ORIGIN}/posted`);
  expect(posts).toHaveLength(1);
  const sent = new URLSearchParams(posts[0]);
  expect(sent.get("q")).toBe("ledger");
  expect(sent.get("choice")).toBe("first");
  // The landing note: this visit's first address and its referrer.
  expect(JSON.parse(sent.get(LANDING_FIELD) ?? "null")).toEqual([
    `${ORIGIN}/?utm_source=loader-test`,
    "",
  ]);
});

test("a form without an action, or one that needs the app, is held and sent by the same button once the app is ready", async ({
  page,
}) => {
  const posts = await open(page, pageHtml());
  const other = page.getByRole("button", { name: "Other" });
  await other.click();
  await expect(other).toHaveAttribute("aria-busy", "true");
  // Enter in a field sends the form as its first button would (the browser clicks that button).
  await page.getByLabel("Password").press("Enter");
  await page.getByLabel("Term").press("Enter");
  await expect(page.getByRole("button", { name: "Invite" })).toHaveAttribute("aria-busy", "true");

  // The app has heard nothing yet: the clicks that sent the forms went no further than the window.
  expect(await seen(page)).toEqual([]);

  await hydrate(page);
  // Each given back as the press it was: a click on the button that sent it, and its submission.
  expect(await seen(page)).toEqual([
    "click other",
    "submit other",
    "click sign-in",
    "submit sign-in",
    "click invite",
    "submit invite",
  ]);
  await expect(other).not.toHaveAttribute("aria-busy");
  await page.clock.runFor(NATIVE_FALLBACK_MS);
  expect(await seen(page)).toHaveLength(6);
  expect(posts).toEqual([]);
  expect(new URL(page.url()).pathname).toBe("/");
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
  // A click in a place for typing, and typing there.
  await page.getByLabel("Name").click();
  await page.keyboard.type("Ada");
  await page.getByLabel("Notes").click();
  await page.getByRole("textbox", { name: "Editor" }).click();
  await expect(page.getByLabel("Name")).toHaveValue("Ada");
  await expect(page.getByRole("textbox", { name: "Editor" })).toBeFocused();
  // A modified click (a new tab, a selection) is the browser's and the app's, as they would have it.
  await page.getByRole("button", { name: "Plain" }).click({ modifiers: ["Shift"] });
  expect(await seen(page)).toEqual(["click plain"]);
});

test("until the app is ready, a press or typing goes no further than the window; then all of it does", async ({
  page,
}) => {
  await open(page, pageHtml());
  // What React would take, on a page it is still hydrating, as a reason to finish at once.
  const KINDS = ["pointerdown", "mousedown", "mouseup", "click", "keydown", "input", "change"];
  await page.evaluate((kinds) => {
    const w = window as { heard?: string[] };
    w.heard = [];
    for (const kind of kinds) document.addEventListener(kind, () => w.heard!.push(kind), true);
  }, KINDS);
  const heard = () => page.evaluate(() => (window as { heard?: string[] }).heard);
  await page.getByLabel("Name").click();
  await page.keyboard.type("Ada");
  // Leaving the field sends its change; the press that leaves it is held.
  await page.getByRole("button", { name: "Plain" }).click();
  await expect(page.getByLabel("Name")).toHaveValue("Ada");
  await expect(page.getByRole("button", { name: "Plain" })).toHaveAttribute("aria-busy", "true");
  expect(await heard()).toEqual([]);

  await hydrate(page);
  // The held press comes back; from now on every event goes its way.
  expect(await heard()).toEqual(["click"]);
  await page.getByLabel("Name").click();
  await page.keyboard.type("!");
  const after = await heard();
  for (const kind of ["pointerdown", "mousedown", "mouseup", "click", "keydown", "input"])
    expect(after, kind).toContain(kind);
  await expect(page.getByLabel("Name")).toHaveValue("Ada!");
});

test("when the app never comes, a held link is followed after the fallback time", async ({
  page,
}) => {
  await open(page, pageHtml({ withoutApp: true }));
  await page.getByRole("link", { name: "Play here" }).click();
  await page.clock.runFor(NATIVE_FALLBACK_MS - 1);
  expect(new URL(page.url()).pathname).toBe("/");
  await page.clock.runFor(1);
  await expect(page).toHaveURL(`${ORIGIN}/played`);
});

for (const [how, press] of [
  ["its button", (page: Page) => page.getByRole("button", { name: "Invite" }).click()],
  ["Enter in its field", (page: Page) => page.getByLabel("Term").press("Enter")],
] as const) {
  test(`when the app never comes, a held form sent by ${how} is posted by the browser after the fallback time`, async ({
    page,
  }) => {
    const posts = await open(page, pageHtml({ withoutApp: true }));
    await press(page);
    await page.clock.runFor(NATIVE_FALLBACK_MS - 1);
    expect(posts).toEqual([]);
    await page.clock.runFor(1);
    await expect(page).toHaveURL(`${ORIGIN}/posted`);
    expect(posts).toEqual(["term=tie&choice=invite"]);
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

test("a deferred page's app is not started by a link pressed, or by typing into a form the browser sends", async ({
  page,
}) => {
  await open(page, pageHtml({ deferred: true }));
  await page.getByLabel("Query").focus();
  await page.keyboard.type(" and tax");
  await page.getByRole("link", { name: "Elsewhere" }).dispatchEvent("pointerdown");
  expect(await page.evaluate(() => (window as { appStarts?: number }).appStarts ?? 0)).toBe(0);
  await page.getByRole("button", { name: "First" }).click();
  await expect(page).toHaveURL(`${ORIGIN}/posted`);
});

test("a page that is not deferred leaves its scripts alone", async ({ page }) => {
  await open(page, pageHtml());
  await page.mouse.move(5, 5);
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => (window as { appStarts?: number }).appStarts ?? 0)).toBe(0);
  expect(await page.locator("script").count()).toBe(4);
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
