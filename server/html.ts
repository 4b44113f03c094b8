/**
 * Last touches on every server-rendered page, and the Content-Security-Policy hashes that go with
 * them (decisions 006 and 009):
 * - the rules of the stylesheet that the page uses are inlined, so the first paint waits for no
 *   request;
 * - a loader at the top of <head> holds every press made before React is ready and replays it;
 * - on pages marked `data-hydrate="interaction"` (all of them unless a route asks otherwise),
 *   React Router's module script becomes inert data that the loader starts on the visitor's first
 *   interaction: the page is complete HTML and costs no JavaScript until someone reaches for it;
 * - every inline script and style is hashed, so the policy allows exactly those and nothing else.
 */
import { createHash } from "node:crypto";
import {
  DEFER_ATTRIBUTE,
  DEFER_VALUE,
  DEFERRED_APP_ID,
  HYDRATED_ATTRIBUTE,
  HYDRATED_EVENT,
  NATIVE_FALLBACK_MS,
} from "#src/lib/hydration-protocol.ts";

export type FinishedPage = { html: string; scriptHashes: string[]; styleHashes: string[] };
/** Stylesheets to inline, by their href. */
export type Stylesheets = ReadonlyMap<string, string>;

/**
 * The loader, inline at the top of every page (decision 009). Until React has hydrated the page,
 * every press is held and replayed once it has: a click (mouse, touch, Enter or Space on a focused
 * control) on anything at all, links included, and a form's submission. Nothing is registered per
 * control, so a control added tomorrow is covered without anyone remembering it. Exempt are what
 * the browser alone does right: a modified or non-primary click (open in a new tab), a click in a
 * text field or on a native media player. A press that React has not taken within
 * NATIVE_FALLBACK_MS gets the browser's own default action instead: the link is followed, the form
 * is posted (every form here also works without JavaScript).
 *
 * On a deferred page (`<html data-hydrate="interaction">`), React Router's module script is kept as
 * inert data and started on the first sign of a person: pointer, mouse, key, touch, focus, wheel.
 */
export const HYDRATION_LOADER = `(()=>{
const d=document,w=window,root=d.documentElement,held=[];
const ready=()=>root.hasAttribute("${HYDRATED_ATTRIBUTE}");
let started=root.getAttribute("${DEFER_ATTRIBUTE}")!=="${DEFER_VALUE}",native=false;
const signs=["pointerdown","mousemove","keydown","touchstart","focusin","wheel"];
const run=()=>{
const x=d.createElement("script");
x.type="module";
x.textContent=d.getElementById("${DEFERRED_APP_ID}").textContent;
d.head.append(x);
};
const start=()=>{
if(started)return;
started=true;
signs.forEach(s=>w.removeEventListener(s,start,true));
if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",run,{once:true});else run();
};
if(!started)signs.forEach(s=>w.addEventListener(s,start,{capture:true,passive:true}));
const nativeOnly=t=>!(t instanceof Element)||!!t.closest("video,audio,textarea,select,[contenteditable]")||(t instanceof HTMLInputElement&&!/^(checkbox|radio|submit|image|button|reset)$/.test(t.type));
const hold=(e,replay,fallback)=>{
e.preventDefault();
e.stopImmediatePropagation();
start();
let done=false;
held.push(()=>{if(!done){done=true;replay()}});
setTimeout(()=>{if(!done&&!ready()){done=true;native=true;try{fallback()}finally{native=false}}},${NATIVE_FALLBACK_MS});
};
w.addEventListener("click",e=>{
if(ready()||native||!e.isTrusted||e.button!==0||e.ctrlKey||e.metaKey||e.shiftKey||e.altKey||nativeOnly(e.target))return;
let t=e.target;
while(t&&!(t instanceof HTMLElement))t=t.parentElement;
if(!t)return;
hold(e,()=>t.click(),()=>t.click());
},true);
w.addEventListener("submit",e=>{
if(ready()||native)return;
const f=e.target,s=e.submitter;
hold(e,()=>f.requestSubmit(s),()=>f.requestSubmit(s));
},true);
w.addEventListener("${HYDRATED_EVENT}",()=>held.splice(0).forEach(r=>r()));
})();`;

export function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

const MODULEPRELOAD_LINK = /<link\b[^>]*\brel="modulepreload"[^>]*\/?>/g;
const MODULE_SCRIPT = /<script\b[^>]*\btype="module"[^>]*>([\s\S]*?)<\/script>/;
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/g;

const HEAD_OPEN = /<head\b[^>]*>/;
const STYLESHEET_ATTRIBUTE = /<html\b[^>]*\bdata-stylesheet="([^"]+)"/;

/*
 * React hydrates the whole document and expects each element it rendered to be where it put it.
 * So elements it hydrates in place are never removed: the ones to neutralise get an attribute React
 * does not compare when hydrating (`type` on an inline script), and new ones are added as extra
 * children of <head> and <body>, which React 19 skips over.
 */
export function finishPage(source: string, stylesheets: Stylesheets): FinishedPage {
  // The root names its stylesheet on <html> instead of linking it, so the browser fetches nothing
  // before the first paint; the page gets the rules its markup uses, and the root links the whole
  // sheet once React runs (decision 009).
  const href = STYLESHEET_ATTRIBUTE.exec(source)?.[1];
  const css = href === undefined ? undefined : stylesheets.get(href);
  const headStart = `<script>${HYDRATION_LOADER}</script>${css === undefined ? "" : `<style>${cssForPage(css, source)}</style>`}`;
  let html = source.replace(HEAD_OPEN, (tag) => `${tag}${headStart}`);

  const extraScriptHashes: string[] = [];
  const htmlTag = html.slice(0, html.indexOf(">", html.indexOf("<html")) + 1);
  if (htmlTag.includes(`${DEFER_ATTRIBUTE}="${DEFER_VALUE}"`)) {
    const module = MODULE_SCRIPT.exec(html);
    if (module) {
      const body = module[1] ?? "";
      // The loader re-inserts this exact text as a module script: its hash must stay allowed.
      extraScriptHashes.push(cspHash(body));
      html = html
        // Module preloads are hoisted resources to React, not hydrated in place: they can go.
        .replace(MODULEPRELOAD_LINK, "")
        .replace(module[0], () =>
          module[0].replace(/\btype="module"/, `type="text/plain" id="${DEFERRED_APP_ID}"`),
        );
    }
  }

  const scriptHashes = new Set(extraScriptHashes);
  for (const [, attributes = "", body = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc=/.test(attributes) || /type="(application\/ld\+json|text\/plain)"/.test(attributes))
      continue;
    scriptHashes.add(cspHash(body));
  }
  const styleHashes = new Set<string>();
  for (const [, body = ""] of html.matchAll(INLINE_STYLE)) styleHashes.add(cspHash(body));
  return { html, scriptHashes: [...scriptHashes], styleHashes: [...styleHashes] };
}

const CLASS_ATTRIBUTE = /\bclass="([^"]*)"/g;
const HTML_ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&quot;": '"',
  "&#x27;": "'",
  "&#39;": "'",
  "&lt;": "<",
  "&gt;": ">",
};
const CLASS_TOKEN = /\.((?:\\.|[A-Za-z0-9_-])+)/g;

/** Each top-level rule or block of a CSS text, with its prelude (the part before "{"). */
function topLevelRules(css: string): { prelude: string; text: string }[] {
  const rules: { prelude: string; text: string }[] = [];
  let depth = 0;
  let start = 0;
  let prelude = "";
  for (let i = 0; i < css.length; i++) {
    const ch = css[i];
    if (ch === "{") {
      if (depth === 0) prelude = css.slice(start, i);
      depth++;
    } else if (ch === "}") {
      depth--;
      if (depth === 0) {
        rules.push({ prelude: prelude.trim(), text: css.slice(start, i + 1) });
        start = i + 1;
      }
    } else if (ch === ";" && depth === 0) {
      rules.push({ prelude: css.slice(start, i).trim(), text: css.slice(start, i + 1) });
      start = i + 1;
    }
  }
  return rules;
}

/**
 * The stylesheet cut down to what one page uses: every rule of Tailwind's utilities layer whose
 * selector names no class found in the page's markup is dropped; everything else is kept whole.
 * The full stylesheet is enabled after hydration, for whatever React renders later.
 */
export function cssForPage(css: string, html: string): string {
  const used = new Set<string>();
  for (const [, attribute = ""] of html.matchAll(CLASS_ATTRIBUTE)) {
    // React escapes the attribute: `[&_svg]:size-4` arrives as `[&amp;_svg]:size-4`.
    const classes = attribute.replace(
      /&(amp|quot|#x27|#39|lt|gt);/g,
      (entity) => HTML_ENTITIES[entity] ?? entity,
    );
    for (const name of classes.split(/\s+/)) if (name) used.add(name);
  }
  return topLevelRules(css)
    .map((rule) => {
      if (rule.prelude !== "@layer utilities") return rule.text;
      const inner = rule.text.slice(rule.text.indexOf("{") + 1, -1);
      const kept = topLevelRules(inner).filter((utility) => {
        const names = [...utility.prelude.matchAll(CLASS_TOKEN)].map(([, token = ""]) =>
          token.replace(/\\(.)/g, "$1"),
        );
        return names.length === 0 || names.some((name) => used.has(name));
      });
      return `@layer utilities{${kept.map((u) => u.text).join("")}}`;
    })
    .join("");
}
