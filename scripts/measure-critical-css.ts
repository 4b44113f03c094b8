// Compares the critical CSS the server inlines (server/pages/html.ts, cssForPage) with beasties' choice,
// on the pages of a running production server: page weight, and what the first paint looks like
// without JavaScript against the page with the whole stylesheet. The figures are in decision 018.
// Usage: npm start (or a server of your own), then
//   npx tsx scripts/measure-critical-css.ts [baseUrl] [paths...]
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import Beasties from "beasties";
import { compileSheet } from "beasties/compiler";
import { createProcessor } from "beasties/runtime";
import { CHROMIUM_ARGS, CHROMIUM_PATH, quietPointer } from "#tests/support/e2e-env.ts";

const [baseUrl = "http://localhost:3000", ...only] = process.argv.slice(2);
const PATHS = only.length > 0 ? only : ["/", "/privacy-policy", "/terms-of-service", "/login"];
const ROOT = path.resolve(import.meta.dirname, "..");
const CLIENT = path.join(ROOT, "build/client");

const sheetName = readdirSync(path.join(CLIENT, "assets")).find((f) => /^app-.*\.css$/.test(f));
if (!sheetName) throw new Error("No stylesheet in build/client/assets: run npm run build first.");
const HREF = `/assets/${sheetName}`;
const SHEET = readFileSync(path.join(CLIENT, HREF), "utf8");

const brotli = (text: string) =>
  brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

// Beasties as its README suggests for a server: the sheet compiled once, a processor per request.
const runtime = createProcessor([compileSheet(SHEET, { href: HREF })], { cache: false });
// And its classic API, which reads the sheet named by a <link> and rewrites that link.
// Its default strategy moves the link to the end of <body> behind a preload; "media", "swap" and
// "js" add inline event handlers or scripts instead (see its README).
const classic = new Beasties({ path: CLIENT, logLevel: "silent" });

const STYLE = /<style>([\s\S]*?)<\/style>/;
type Candidate = { css: string; leftovers: string[] };

async function candidates(served: string): Promise<Record<string, Candidate>> {
  const ours = STYLE.exec(served)?.[1] ?? "";
  const bare = served.replace(STYLE, "");
  const linked = served.replace(STYLE, () => `<link rel="stylesheet" href="${HREF}">`);
  const processed = await classic.process(linked);
  return {
    "whole sheet": { css: SHEET, leftovers: [] },
    ours: { css: ours, leftovers: [] },
    "beasties runtime": { css: runtime.extract(bare).css, leftovers: [] },
    beasties: {
      css: [...processed.matchAll(new RegExp(STYLE, "g"))].map((m) => m[1]).join(""),
      // What it leaves in the page for the rest of the sheet: under a hash-based CSP without
      // 'unsafe-hashes', an inline event handler does not run.
      leftovers:
        processed
          .replace(new RegExp(STYLE, "g"), "")
          .match(/<link\b[^>]*stylesheet[^>]*>|<noscript><link[^>]*><\/noscript>/g) ?? [],
    },
  };
}

/** Every element's computed style and its pseudo-elements', as the page paints with no script. */
async function paint(page: Page, html: string): Promise<string[]> {
  await page.unroute("**/*");
  await page.route("**/*", (route) =>
    route.request().resourceType() === "document"
      ? route.fulfill({ contentType: "text/html", body: html })
      : route.abort(),
  );
  await page.goto(`${baseUrl}/critical-css-measure`);
  return page.evaluate(() => {
    // Content laid out only when near the viewport reports margins by whether it was: show it all.
    document.head.insertAdjacentHTML(
      "beforeend",
      "<style>*{content-visibility:visible!important}</style>",
    );
    const out: string[] = [];
    for (const element of document.querySelectorAll("body *")) {
      for (const pseudo of [null, "::before", "::after", "::marker", "::placeholder"]) {
        const style = getComputedStyle(element, pseudo);
        const values: string[] = [];
        for (const name of style) {
          if (!name.startsWith("--")) values.push(`${name}: ${style.getPropertyValue(name)}`);
        }
        out.push(`${element.tagName.toLowerCase()}${pseudo ?? ""}\n${values.join("\n")}`);
      }
    }
    return out;
  });
}

const GEOMETRY = /(height|width|size|origin|rows|columns|inset|top|bottom|left|right)$/;
const declarations = (painted: string) =>
  new Map(
    painted
      .split("\n")
      .slice(1)
      .map((line) => line.split(": ", 2) as [string, string]),
  );

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const pages = Object.fromEntries(
  await Promise.all(
    Object.entries(viewports).map(async ([name, viewport]) => {
      const context = await browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      await quietPointer(page);
      return [name, page] as const;
    }),
  ),
);

console.log(
  "| page | candidate | CSS bytes | HTML bytes | HTML brotli | elements painted differently |",
);
console.log("| --- | --- | --- | --- | --- | --- |");
const notes: string[] = [];
for (const pagePath of PATHS) {
  const served = await (await fetch(baseUrl + pagePath)).text();
  const all = await candidates(served);
  const reference: Record<string, string[]> = {};
  for (const [name, candidate] of Object.entries(all)) {
    const html = served.replace(STYLE, () => `<style>${candidate.css}</style>`);
    const differing: string[] = [];
    const properties = new Map<string, number>();
    for (const [viewport, page] of Object.entries(pages)) {
      const painted = await paint(page, html);
      reference[viewport] ??= painted;
      painted.forEach((element, i) => {
        const expected = reference[viewport]?.[i] ?? "";
        if (element === expected) return;
        differing.push(viewport);
        const want = declarations(expected);
        for (const [property, value] of declarations(element)) {
          // Sizes and positions follow from the rest: list only what causes them.
          if (want.get(property) === value || GEOMETRY.test(property)) continue;
          const change = `${property}: ${want.get(property)} -> ${value}`;
          properties.set(change, (properties.get(change) ?? 0) + 1);
        }
      });
    }
    const counts = Object.keys(viewports)
      .map((v) => `${differing.filter((d) => d === v).length} (${v})`)
      .join(", ");
    console.log(
      `| ${pagePath} | ${name} | ${Buffer.byteLength(candidate.css)} | ${Buffer.byteLength(html)} | ${brotli(html)} | ${counts} |`,
    );
    const top = [...properties].sort((a, b) => b[1] - a[1]).slice(0, 6);
    if (top.length > 0)
      notes.push(`${pagePath}, ${name}: ${top.map(([p, n]) => `${p} (${n}x)`).join("; ")}`);
    for (const leftover of candidate.leftovers)
      notes.push(`${pagePath}, ${name} leaves: ${leftover}`);
  }
}
await browser.close();
console.log(`\nWhat differs (declarations as painted, most frequent first):\n${notes.join("\n")}`);
