/**
 * Last touches on every server-rendered page, and the Content-Security-Policy hashes that go with
 * them (decisions 006, 009 and 018; the names shared with the app and the loader are in
 * src/lib/hydration-protocol.ts):
 * - the rules of the stylesheet that the page uses are inlined (server/pages/page-css.ts), so the first
 *   paint waits for no request;
 * - the landing note (src/lib/landing-note.ts) goes first in <head> on every page, so where a visit
 *   began is noted before anything else runs (decision 034);
 * - the loader (src/lib/hydration-loader.ts, compiled at build time) follows it: it holds every
 *   press made before React is ready and replays it;
 * - on deferred pages (all of them unless a route asks otherwise), React Router's module script
 *   becomes inert data that the loader starts on the visitor's first interaction: the page is
 *   complete HTML and costs no JavaScript until someone reaches for it;
 * - every inline script and style is hashed, so the policy allows exactly those and nothing else.
 */
import { createHash } from "node:crypto";
import { HYDRATION_LOADER, HYDRATION_LOADER_NO_TOGGLES } from "#server/pages/hydration-loader.ts";
import { cssForPage } from "#server/pages/page-css.ts";
import { LANDING_NOTE_SCRIPT } from "#src/lib/landing-note.ts";
import {
  DEFER_ATTRIBUTE,
  DEFER_VALUE,
  DEFERRED_APP_ID,
  DOCUMENT_VALUE,
  STYLESHEET_ATTRIBUTE,
} from "#src/lib/hydration-protocol.ts";

export type FinishedPage = {
  html: string;
  scriptHashes: string[];
  styleHashes: string[];
  /** Whether the page carries the app; a document does not (decision 034). */
  app: boolean;
};
/** Stylesheets to inline, by their href. */
export type Stylesheets = ReadonlyMap<string, string>;

export function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

const MODULEPRELOAD_LINK = /<link\b[^>]*\brel="modulepreload"[^>]*\/?>/g;
const MODULE_SCRIPT = /<script\b[^>]*\btype="module"[^>]*>([\s\S]*?)<\/script>/;
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/g;

const HEAD_OPEN = /<head\b[^>]*>/;
const NAMED_STYLESHEET = new RegExp(`<html\\b[^>]*\\b${STYLESHEET_ATTRIBUTE}="([^"]+)"`);
/** The type that keeps a deferred page's module script from running: the loader reads it as text. */
const INERT_TYPE = "text/plain";
/** Scripts that are data, not code: the browser never runs them, so the policy need not allow them. */
const DATA_BLOCK_TYPES = ["application/ld+json", INERT_TYPE];
const isDataBlock = (attributes: string) =>
  DATA_BLOCK_TYPES.some((t) => attributes.includes(`type="${t}"`));

/**
 * React Router prints its route manifest inside the module script with two-space indents. The
 * same JSON without them is about 80 bytes less per page after compression, every page. A route's
 * `has…: false` flags go too (about 40 bytes more): the router compares them only with `true`, so
 * an absent flag reads as false. A script that does not read as expected is left exactly as it is.
 */
const MANIFEST_ASSIGNMENT = /(window\.__reactRouterManifest = )(\{[\s\S]*?\n\});/;
const FLAG = /^has[A-Z]/;
export function compactManifest(script: string): string {
  const found = MANIFEST_ASSIGNMENT.exec(script);
  if (!found) return script;
  try {
    const compact = JSON.stringify(JSON.parse(found[2] ?? ""), (key, value: unknown) =>
      value === false && FLAG.test(key) ? undefined : value,
    );
    return script.replace(found[0], () => `${found[1]}${compact};`);
  } catch {
    return script;
  }
}

/**
 * React Router's <ScrollRestoration> prints a script that runs while the page is parsed: it gives a
 * new history entry a key and then reads sessionStorage for a scroll position saved under that key.
 * On a first visit there is nothing saved, yet that first read of sessionStorage cost about 4 ms of
 * the parse on a cold profile, a fifth of a long task under a phone's CPU. The page gets a script
 * that reads only for an entry that already has a key (React Router was here before: a reload or a
 * return); a new entry gets its key when the app starts (src/entry.client.tsx), before the router
 * reads it. A script that does not read exactly as expected is left as it is.
 */
const SCROLL_RESTORATION =
  /<script>(\(\((\w+), restoreKey\) => \{[\s\S]*?\}\)\("([\w-]+)", null\))<\/script>/;
export const restoreScrollScript = (storageKey: string) =>
  `(k=>{let s=history.state;if(s&&s.key)try{let y=JSON.parse(sessionStorage.getItem(k)||"{}")[s.key];typeof y=="number"&&scrollTo(0,y)}catch{sessionStorage.removeItem(k)}})(${JSON.stringify(storageKey)})`;
export function lightenScrollRestoration(html: string): string {
  const found = SCROLL_RESTORATION.exec(html);
  // The parameter's name depends on how React Router was bundled (7 printed `storageKey2`).
  const [, body = "", storageParameter = "", storageKey = ""] = found ?? [];
  if (!found || !body.includes(`sessionStorage.getItem(${storageParameter})`)) return html;
  return html.replace(found[0], () => `<script>${restoreScrollScript(storageKey)}</script>`);
}

/*
 * React hydrates the whole document and expects each element it rendered to be where it put it.
 * So elements it hydrates in place are never removed: the ones to neutralise get an attribute React
 * does not compare when hydrating (`type` on an inline script), and new ones are added as extra
 * children of <head> and <body>, which React 19 skips over.
 */
/**
 * A checkbox or radio in the page, which then gets the loader that lets them toggle before React
 * is ready. Missed, such an input is held and replayed like any press: slower, never lost.
 */
const TOGGLE_INPUT = /<input\b[^>]*\btype="(?:checkbox|radio)"/i;

/**
 * A control that only a script can work: a button that submits nothing. A page meant as a document
 * that has one keeps its app (and defers it like any page), so the control is never left dead.
 */
const SCRIPTED_CONTROL = /<button\b[^>]*\btype="button"/i;
/** The stylesheet's name on <html>, which only the app reads. */
const STYLESHEET_NAME = new RegExp(`\\s${STYLESHEET_ATTRIBUTE}="[^"]+"`);

/** The same note of where a visit began, first in every page's <head>: one script, one hash. */
const NOTE = `<script>${LANDING_NOTE_SCRIPT}</script>`;

export function finishPage(source: string, stylesheets: Stylesheets): FinishedPage {
  // The root names its stylesheet on <html> instead of linking it, so the browser fetches nothing
  // before the first paint; the page gets the rules its markup uses, and the root links the whole
  // sheet once React runs (decision 009).
  const href = NAMED_STYLESHEET.exec(source)?.[1];
  const css = href === undefined ? undefined : stylesheets.get(href);
  const style = css === undefined ? "" : `<style>${cssForPage(css, source)}</style>`;
  const documentMark = `${DEFER_ATTRIBUTE}="${DOCUMENT_VALUE}"`;
  const asDocument = htmlTagOf(source).includes(documentMark);
  if (asDocument && !SCRIPTED_CONTROL.test(source)) return finishDocument(source, style);
  const loader = TOGGLE_INPUT.test(source) ? HYDRATION_LOADER : HYDRATION_LOADER_NO_TOGGLES;
  const headStart = `${NOTE}<script>${loader}</script>${style}`;
  let html = (
    asDocument ? source.replace(documentMark, `${DEFER_ATTRIBUTE}="${DEFER_VALUE}"`) : source
  )
    .replace(HEAD_OPEN, (tag) => `${tag}${headStart}`)
    // React does not compare a script's text when hydrating, and the hashes below are of the result.
    .replace(MODULE_SCRIPT, (script, body: string) =>
      script.replace(body, () => compactManifest(body)),
    );
  html = lightenScrollRestoration(html);

  const extraScriptHashes: string[] = [];
  if (htmlTagOf(html).includes(`${DEFER_ATTRIBUTE}="${DEFER_VALUE}"`)) {
    const module = MODULE_SCRIPT.exec(html);
    if (module) {
      const body = module[1] ?? "";
      // The loader re-inserts this exact text as a module script: its hash must stay allowed.
      extraScriptHashes.push(cspHash(body));
      html = html
        // Module preloads are hoisted resources to React, not hydrated in place: they can go.
        .replace(MODULEPRELOAD_LINK, "")
        .replace(module[0], () =>
          module[0].replace(/\btype="module"/, `type="${INERT_TYPE}" id="${DEFERRED_APP_ID}"`),
        );
    }
  }

  const scriptHashes = new Set(extraScriptHashes);
  for (const [, attributes = "", body = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc=/.test(attributes) || isDataBlock(attributes)) continue;
    scriptHashes.add(cspHash(body));
  }
  return { html, scriptHashes: [...scriptHashes], styleHashes: styleHashesOf(html), app: true };
}

const htmlTagOf = (html: string) => html.slice(0, html.indexOf(">", html.indexOf("<html")) + 1);

function styleHashesOf(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, body = ""] of html.matchAll(INLINE_STYLE)) hashes.add(cspHash(body));
  return [...hashes];
}

/**
 * A page that is a document for this visitor (decision 034): its markup and the CSS it uses, and
 * of scripts only the note of where a visit began, which every page carries. No loader, no app:
 * links load pages, as they would without JavaScript, and the page's first round trip is its text.
 */
function finishDocument(source: string, style: string): FinishedPage {
  const html = source
    // Every script React Router printed goes; data blocks (search engines' JSON-LD) stay.
    .replace(INLINE_SCRIPT, (script, attributes: string) => (isDataBlock(attributes) ? script : ""))
    .replace(MODULEPRELOAD_LINK, "")
    // The stylesheet's name was for the app, which links the whole sheet when it runs.
    .replace(STYLESHEET_NAME, "")
    .replace(HEAD_OPEN, (tag) => `${tag}${NOTE}${style}`);
  return {
    html,
    scriptHashes: [cspHash(LANDING_NOTE_SCRIPT)],
    styleHashes: styleHashesOf(html),
    app: false,
  };
}
