import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub, ScrollRestoration } from "react-router";
import { describe, expect, test } from "vitest";
import {
  compactManifest,
  cspHash,
  finishPage,
  lightenScrollRestoration,
  restoreScrollScript,
} from "#server/pages/html.ts";
import { HYDRATION_LOADER, HYDRATION_LOADER_NO_TOGGLES } from "#server/pages/hydration-loader.ts";
import { LANDING_NOTE_SCRIPT } from "#src/lib/landing-note.ts";
import {
  DEFER_ATTRIBUTE,
  DEFER_VALUE,
  DEFERRED_APP_ID,
  DOCUMENT_VALUE,
  HYDRATED_ATTRIBUTE,
  HYDRATED_EVENT,
  STYLESHEET_ATTRIBUTE,
} from "#src/lib/hydration-protocol.ts";

const MODULE = 'import "/assets/manifest.js";import("/assets/entry.client.js");';
const page = (htmlAttributes: string) =>
  `<!DOCTYPE html><html lang="en"${htmlAttributes}><head><meta charSet="utf-8"/>` +
  `<link rel="modulepreload" href="/assets/entry.client.js"/></head><body><main class="flex">Hello</main>` +
  `<script>window.__ctx = 1;</script><script type="module" async="">${MODULE}</script>` +
  `<script type="application/ld+json">{"@type":"Organization"}</script></body></html>`;

describe("finishPage", () => {
  test("puts the landing note first in <head>, then the loader, then the rules of the named stylesheet that the page uses", () => {
    const { html, styleHashes, scriptHashes } = finishPage(
      page(` ${STYLESHEET_ATTRIBUTE}="/assets/app.css"`),
      new Map([["/assets/app.css", "@layer utilities{.flex{display:flex}.grid{display:grid}}"]]),
    );
    const css = "@layer utilities{.flex{display:flex}}";
    expect(html).toContain(
      `<head><script>${LANDING_NOTE_SCRIPT}</script><script>${HYDRATION_LOADER_NO_TOGGLES}</script><style>${css}</style><meta`,
    );
    // Nothing for the browser to fetch before the first paint.
    expect(html).not.toMatch(/<link[^>]*rel="stylesheet"/);
    expect(styleHashes).toEqual([cspHash(css)]);
    expect(scriptHashes).toContain(cspHash(HYDRATION_LOADER_NO_TOGGLES));
  });

  test("a page with a checkbox or radio gets the loader that lets them toggle at once", () => {
    for (const input of [
      '<input type="checkbox" name="id"/>',
      '<input name="kind" type="radio"/>',
    ]) {
      const { html, scriptHashes } = finishPage(page("").replace("Hello", input), new Map());
      expect(html).toContain(
        `<head><script>${LANDING_NOTE_SCRIPT}</script><script>${HYDRATION_LOADER}</script>`,
      );
      expect(scriptHashes).toContain(cspHash(HYDRATION_LOADER));
    }
    expect(HYDRATION_LOADER_NO_TOGGLES.length).toBeLessThan(HYDRATION_LOADER.length);
  });

  test("hashes every inline script it keeps, but not data blocks", () => {
    const { scriptHashes, html } = finishPage(page(""), new Map());
    expect(html).toContain('rel="modulepreload"');
    expect(scriptHashes.sort()).toEqual(
      [
        cspHash(LANDING_NOTE_SCRIPT),
        cspHash(HYDRATION_LOADER_NO_TOGGLES),
        cspHash("window.__ctx = 1;"),
        cspHash(MODULE),
      ].sort(),
    );
  });

  test("every page notes where a visit began with the one same script, before anything else runs", () => {
    const pages = [
      page(""),
      page(` ${DEFER_ATTRIBUTE}="${DEFER_VALUE}"`),
      page(` ${DEFER_ATTRIBUTE}="${DOCUMENT_VALUE}"`),
      page(` ${DEFER_ATTRIBUTE}="${DOCUMENT_VALUE}"`).replace(
        "Hello",
        '<button type="button">Download</button>',
      ),
      page("").replace("Hello", '<input type="radio" name="kind"/>'),
    ];
    for (const source of pages) {
      const { html, scriptHashes } = finishPage(source, new Map());
      expect(html).toContain(`<head><script>${LANDING_NOTE_SCRIPT}</script>`);
      expect(html.split(LANDING_NOTE_SCRIPT)).toHaveLength(2);
      expect(scriptHashes).toContain(cspHash(LANDING_NOTE_SCRIPT));
    }
  });

  test("defers hydration on pages that ask for it, keeping the module's hash for the loader", () => {
    const { html, scriptHashes } = finishPage(
      page(` ${DEFER_ATTRIBUTE}="${DEFER_VALUE}"`),
      new Map(),
    );
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).toContain(
      `<script type="text/plain" id="${DEFERRED_APP_ID}" async="">${MODULE}</script>`,
    );
    expect(scriptHashes).toContain(cspHash(MODULE));
    expect(scriptHashes).toContain(cspHash(HYDRATION_LOADER_NO_TOGGLES));
  });

  test("sends a document page without the app: its markup, its CSS and the landing note alone", () => {
    const css = "@layer utilities{.flex{display:flex}.grid{display:grid}}";
    const { html, scriptHashes, styleHashes, app } = finishPage(
      page(` ${DEFER_ATTRIBUTE}="${DOCUMENT_VALUE}" ${STYLESHEET_ATTRIBUTE}="/assets/app.css"`),
      new Map([["/assets/app.css", css]]),
    );
    expect(app).toBe(false);
    expect(html).toContain(
      `<html lang="en" ${DEFER_ATTRIBUTE}="${DOCUMENT_VALUE}"><head><script>${LANDING_NOTE_SCRIPT}</script><style>@layer utilities{.flex{display:flex}}</style>`,
    );
    expect(html).not.toContain(STYLESHEET_ATTRIBUTE);
    expect(html).not.toContain("modulepreload");
    expect(html).not.toContain("window.__ctx");
    expect(html).not.toContain(MODULE);
    // Data for search engines is not code: it stays.
    expect(html).toContain('<script type="application/ld+json">{"@type":"Organization"}</script>');
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(scriptHashes).toEqual([cspHash(LANDING_NOTE_SCRIPT)]);
    expect(styleHashes).toEqual([cspHash("@layer utilities{.flex{display:flex}}")]);
  });

  test("a document page with a control only a script can work keeps its app, deferred", () => {
    const source = page(` ${DEFER_ATTRIBUTE}="${DOCUMENT_VALUE}"`).replace(
      "Hello",
      '<button class="x" type="button">Download</button>',
    );
    const { html, scriptHashes, app } = finishPage(source, new Map());
    expect(app).toBe(true);
    expect(html).toContain(`<html lang="en" ${DEFER_ATTRIBUTE}="${DEFER_VALUE}">`);
    expect(html).toContain(`<script type="text/plain" id="${DEFERRED_APP_ID}"`);
    expect(scriptHashes).toContain(cspHash(HYDRATION_LOADER_NO_TOGGLES));
    expect(scriptHashes).toContain(cspHash(MODULE));
    // A form's own submit button needs no script: such a page stays a document.
    const withForm = page(` ${DEFER_ATTRIBUTE}="${DOCUMENT_VALUE}"`).replace(
      "Hello",
      '<form method="post"><button type="submit">Send</button></form>',
    );
    expect(finishPage(withForm, new Map()).app).toBe(false);
  });

  test("prints React Router's manifest without indents or false flags, hashing the script as sent", () => {
    const route = { id: "root", hasLoader: true, hasAction: false, css: [], module: "/r.js" };
    const manifest = {
      entry: { module: "/assets/entry.client.js", imports: [] },
      routes: { root: route },
      version: "1",
    };
    const script = (json: string) =>
      `import * as route0 from "/assets/root.js";\n  window.__reactRouterManifest = ${json};\n  import("/assets/entry.client.js");`;
    const pretty = script(JSON.stringify(manifest, null, 2));
    const source = page(` ${DEFER_ATTRIBUTE}="${DEFER_VALUE}"`).replace(MODULE, pretty);
    const { html, scriptHashes } = finishPage(source, new Map());
    const compact = script(
      JSON.stringify({ ...manifest, routes: { root: { ...route, hasAction: undefined } } }),
    );
    expect(compact).toContain('"hasLoader":true');
    expect(compact).not.toContain("hasAction");
    expect(html).toContain(`id="${DEFERRED_APP_ID}" async="">${compact}</script>`);
    expect(scriptHashes).toContain(cspHash(compact));
    expect(scriptHashes).not.toContain(cspHash(pretty));
  });

  test("a manifest that does not parse is left as it was", () => {
    const odd = 'window.__reactRouterManifest = {\n  "entry": oops\n};';
    expect(compactManifest(odd)).toBe(odd);
    expect(compactManifest(MODULE)).toBe(MODULE);
  });

  test("the hash is the one browsers compute", () => {
    // sha256 of the empty string, base64: a well-known value.
    expect(cspHash("")).toBe("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
  });
});

describe("the inlined loader", () => {
  test("is the compiled module: one statement that can sit in a <script> element", () => {
    for (const loader of [HYDRATION_LOADER, HYDRATION_LOADER_NO_TOGGLES]) {
      expect(loader).toMatch(/^\(\(\)=>\{[\s\S]*\}\)\(\);$/);
      // Text that would end the element early, or change how the browser parses it.
      expect(loader).not.toMatch(/<\/script|<!--|<script/i);
    }
  });

  test("speaks the protocol's names, written nowhere but in the protocol module", () => {
    for (const name of [
      DEFER_ATTRIBUTE,
      DEFER_VALUE,
      DEFERRED_APP_ID,
      HYDRATED_ATTRIBUTE,
      HYDRATED_EVENT,
    ])
      for (const loader of [HYDRATION_LOADER, HYDRATION_LOADER_NO_TOGGLES])
        expect(loader).toContain(JSON.stringify(name));
  });
});

describe("lightenScrollRestoration", () => {
  // The script as the installed React Router prints it, so an upgrade that changes it fails here
  // rather than leaving every page with the heavier script.
  const RouterPage = createRoutesStub([
    { path: "/", Component: () => createElement(ScrollRestoration) },
  ]);
  const routerScript =
    /^<script>([\s\S]*)<\/script>$/.exec(renderToString(createElement(RouterPage)))?.[1] ?? "";

  test("replaces React Router's scroll script with one that reads storage only for a known entry", () => {
    const html = `<body><p>x</p><script>${routerScript}</script><script>window.__ctx = 1;</script></body>`;
    const light = finishPage(html, new Map());
    expect(light.html).toContain(
      `<script>${restoreScrollScript("react-router-scroll-positions")}</script><script>window.__ctx = 1;</script>`,
    );
    expect(routerScript).toContain('("react-router-scroll-positions", null)');
    expect(light.html).not.toContain(routerScript);
    expect(light.scriptHashes).toContain(
      cspHash(restoreScrollScript("react-router-scroll-positions")),
    );
    expect(light.scriptHashes).not.toContain(cspHash(routerScript));
  });

  test("leaves a script it does not recognise, or one with a restore key, exactly as it was", () => {
    const keyed = routerScript.replace(", null)", ', "k1")');
    const unread = routerScript.replace(/sessionStorage\.getItem\(\w+\)/, "x");
    for (const body of [keyed, unread]) {
      const html = `<body><script>${body}</script></body>`;
      expect(lightenScrollRestoration(html)).toBe(html);
    }
  });
});
