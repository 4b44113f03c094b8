// Full-page screenshots of every public page at 1440 px and 375 px, for a person to look at.
// Usage: npx tsx scripts/screenshots.ts [baseUrl] [outDir] [paths...]
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH, quietPointer } from "#tests/support/e2e-env.ts";

const [baseUrl = "http://localhost:3000", outDir = "/tmp/shots", ...only] = process.argv.slice(2);
const PATHS =
  only.length > 0
    ? only
    : [
        "/",
        "/login",
        "/signup",
        "/waitlist",
        "/contact",
        "/terms-of-service",
        "/privacy-policy",
        "/dpa",
        "/security",
        "/subprocessors",
        "/privacy-request",
        "/no-such-page",
      ];

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
for (const width of [1440, 375]) {
  const page = await browser.newPage({
    viewport: { width, height: width > 800 ? 900 : 812 },
    // Only so the style below applies; the pages themselves are as served.
    bypassCSP: true,
  });
  await quietPointer(page);
  for (const p of PATHS) {
    await page.goto(baseUrl + p, { waitUntil: "networkidle" });
    // Sections off screen are not painted until near (content-visibility: auto), and a full-page
    // capture does not bring them near: paint everything, as a visitor scrolling would see it.
    await page.addStyleTag({ content: "* { content-visibility: visible !important; }" });
    await page.evaluate(() => document.fonts.ready);
    const name = (p === "/" ? "home" : p.slice(1).replace(/\//g, "_")) + `-${width}.png`;
    await page.screenshot({ path: path.join(outDir, name), fullPage: true });
    console.log(path.join(outDir, name));
  }
  await page.close();
}
await browser.close();
