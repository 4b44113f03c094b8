/**
 * Last touches on every server-rendered page, and the Content-Security-Policy hashes that go with
 * them (decision 006):
 * - the stylesheet is inlined, so the first paint waits for no request;
 * - on pages marked `data-hydrate="interaction"`, React Router's module script becomes inert data
 *   and a tiny loader starts it on the visitor's first interaction: the page is complete HTML
 *   and costs no JavaScript until someone reaches for it;
 * - every inline script and style is hashed, so the policy allows exactly those and nothing else.
 */
import { createHash } from "node:crypto";

export type FinishedPage = { html: string; scriptHashes: string[]; styleHashes: string[] };
/** Stylesheets to inline, by their href. */
export type Stylesheets = ReadonlyMap<string, string>;

export const DEFERRED_APP_ID = "tieout-app";

/**
 * Runs the deferred module script on the first sign of a person (pointer, mouse, key, touch, focus,
 * wheel). Until React is ready ('tieout:hydrated', dispatched by the root route), a click on a
 * `data-replay` control and the submission of a `data-replay` form are held (no default action)
 * and replayed once it is. Should React not arrive within 10 s, a held form is sent natively, so
 * nothing typed is lost.
 */
export const HYDRATION_LOADER = `(()=>{const d=document,w=window,h=()=>d.documentElement.hasAttribute("data-hydrated"),E=["pointerdown","mousemove","keydown","touchstart","focusin","wheel"],q=[];let s=0;const go=()=>{if(s)return;s=1;E.forEach(e=>w.removeEventListener(e,go,!0));const x=d.createElement("script");x.type="module";x.textContent=d.getElementById("${DEFERRED_APP_ID}").textContent;d.head.append(x)};E.forEach(e=>w.addEventListener(e,go,{capture:!0,passive:!0}));w.addEventListener("click",e=>{const t=e.target instanceof Element&&e.target.closest("[data-replay]");if(t&&t.tagName!=="FORM"&&!h()){e.preventDefault();q.push(()=>t.click())}},!0);w.addEventListener("submit",e=>{const f=e.target;if(f instanceof HTMLFormElement&&f.hasAttribute("data-replay")&&!h()){e.preventDefault();go();let sent=0;q.push(()=>{sent=1;f.requestSubmit()});setTimeout(()=>{if(!sent&&!h())f.submit()},1e4)}},!0);w.addEventListener("tieout:hydrated",()=>{q.splice(0).forEach(r=>r())})})();`;

export function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

const STYLESHEET_LINK = /<link\b[^>]*\brel="stylesheet"[^>]*>/g;
const MODULEPRELOAD_LINK = /<link\b[^>]*\brel="modulepreload"[^>]*\/?>/g;
const MODULE_SCRIPT = /<script\b[^>]*\btype="module"[^>]*>([\s\S]*?)<\/script>/;
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/g;

/*
 * React hydrates the whole document and expects each element it rendered to be where it put it.
 * So elements it hydrates in place are never removed: the ones to neutralise get an attribute React
 * does not compare when hydrating (`disabled` on the stylesheet link, `type` on an inline script),
 * and new ones are added as extra children of <head> and <body>, which React 19 skips over.
 */
export function finishPage(source: string, stylesheets: Stylesheets): FinishedPage {
  let html = source.replace(STYLESHEET_LINK, (tag) => {
    const text = stylesheets.get(/\bhref="([^"]+)"/.exec(tag)?.[1] ?? "");
    // React finds its <link> by rel and href; `disabled` keeps the browser from fetching it.
    return text === undefined
      ? tag
      : `<style>${cssForPage(text, source)}</style>${tag.replace(/\/?>$/, " disabled/>")}`;
  });

  const extraScriptHashes: string[] = [];
  const head = html.slice(0, html.indexOf(">", html.indexOf("<html")) + 1);
  if (head.includes('data-hydrate="interaction"')) {
    const module = MODULE_SCRIPT.exec(html);
    if (module) {
      const body = module[1] ?? "";
      // The loader re-inserts this exact text as a module script: its hash must stay allowed.
      extraScriptHashes.push(cspHash(body));
      html = html
        // Module preloads are hoisted resources to React, not hydrated in place: they can go.
        .replace(MODULEPRELOAD_LINK, "")
        .replace(
          module[0],
          () =>
            `${module[0].replace(/\btype="module"/, `type="text/plain" id="${DEFERRED_APP_ID}"`)}<script>${HYDRATION_LOADER}</script>`,
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
