/**
 * Renders Tieout's icons and share image with headless Chromium.
 *
 *   npx tsx scripts/make-brand-assets.ts
 *
 * Writes:
 *   public/favicon.svg            the logo mark, hand-written SVG
 *   public/favicon.ico            32x32
 *   public/apple-touch-icon.png   180x180, full-bleed (iOS rounds the corners itself)
 *   public/icon-192.png           192x192, rounded mark on transparent
 *   public/icon-512.png           512x512, rounded mark on transparent
 *   public/site.webmanifest
 *   public/media/og-image.png     1200x630 share image, from scripts/media/og.html
 *
 * The mark: a rounded square in ledger green with a white tickmark above a white double rule
 * (the accountant's double underline under a total that ties out). It is drawn on a 64-unit grid
 * whose rules land on whole pixels at 32 px. Keep MARK_* in sync with scripts/media/demo.js.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "#tests/support/e2e-env.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PUBLIC = path.join(ROOT, "public");
const OG_PAGE = path.join(ROOT, "scripts/media/og.html");

const GREEN = "#1f7a5a";
const INK = "#0f2a24";
const PAPER = "#f7f5ef";

/** The white glyph (tickmark over a double rule), 64-unit grid. */
const MARK_GLYPH =
  `<path d="M18 24l9 9 19-19" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>` +
  `<path d="M16 42h32M16 50h32" stroke="#fff" stroke-width="4" stroke-linecap="round"/>`;
const MARK_INNER = `<rect width="64" height="64" rx="14" fill="${GREEN}"/>${MARK_GLYPH}`;
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${MARK_INNER}</svg>\n`;
/** Square, no transparency: iOS applies its own mask; the glyph sits inside the safe area. */
const TOUCH_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${GREEN}"/>` +
  `<g transform="translate(32 32) scale(0.95) translate(-32 -32)">${MARK_GLYPH}</g></svg>`;

const OG_MAX_BYTES = 200 * 1024;

function run(cmd: string, args: string[]): string {
  const res = spawnSync(cmd, args, { encoding: "utf8" });
  if (res.status !== 0)
    throw new Error(`${cmd} ${args.join(" ")} failed (${res.status}):\n${res.stderr}`);
  return res.stdout;
}

async function renderSvg(page: Page, svg: string, size: number, file: string) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<!doctype html><html><head><style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style></head><body>${svg}</body></html>`,
  );
  await page.screenshot({
    path: file,
    type: "png",
    omitBackground: true,
    clip: { x: 0, y: 0, width: size, height: size },
  });
}

async function main() {
  const started = Date.now();
  await mkdir(path.join(PUBLIC, "media"), { recursive: true });
  const tmp = await mkdtemp(path.join(os.tmpdir(), "tieout-brand-"));
  const written: string[] = [];
  try {
    const faviconSvg = path.join(PUBLIC, "favicon.svg");
    await writeFile(faviconSvg, FAVICON_SVG, "utf8");
    written.push(faviconSvg);

    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage({ deviceScaleFactor: 1 });
      await page.route("**/*", (route) =>
        route.request().url().startsWith("file:") || route.request().url().startsWith("data:")
          ? route.continue()
          : route.abort(),
      );

      // Icons.
      const ico32 = path.join(tmp, "icon-32.png");
      await renderSvg(page, FAVICON_SVG, 32, ico32);
      for (const [name, size, svg] of [
        ["apple-touch-icon.png", 180, TOUCH_SVG],
        ["icon-192.png", 192, FAVICON_SVG],
        ["icon-512.png", 512, FAVICON_SVG],
      ] as const) {
        const file = path.join(PUBLIC, name);
        await renderSvg(page, svg, size, file);
        written.push(file);
      }
      const ico = path.join(PUBLIC, "favicon.ico");
      run("ffmpeg", [
        "-y",
        "-hide_banner",
        "-loglevel",
        "error",
        "-i",
        ico32,
        "-c:v",
        "png",
        "-fflags",
        "+bitexact",
        ico,
      ]);
      written.push(ico);

      // Share image.
      await page.setViewportSize({ width: 1200, height: 630 });
      await page.goto(pathToFileURL(OG_PAGE).href);
      await page.evaluate(
        ({ mark, tick }) => {
          document.querySelectorAll("svg[data-mark]").forEach((s) => (s.innerHTML = mark));
          document
            .querySelectorAll("[data-tick]")
            .forEach(
              (s) =>
                (s.innerHTML = `<svg width="20" height="20" viewBox="0 0 18 18">${tick}</svg>`),
            );
        },
        {
          mark: MARK_INNER,
          tick: `<path d="M3.5 9.5l3.5 3.5 7.5-8.5" fill="none" stroke="${GREEN}" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>`,
        },
      );
      await page.evaluate(() => document.fonts.ready);
      const fontsOk = await page.evaluate(
        () =>
          document.fonts.check('600 16px "Source Serif 4"') && document.fonts.check('16px "Inter"'),
      );
      if (!fontsOk) throw new Error("Brand fonts did not load for og.html");
      const ogRaw = path.join(tmp, "og-raw.png");
      await page.screenshot({ path: ogRaw, type: "png" });
      const og = path.join(PUBLIC, "media/og-image.png");
      // Flat colours and text: a 256-colour palette is visually lossless here and keeps the file small.
      run("ffmpeg", [
        "-y",
        "-hide_banner",
        "-loglevel",
        "error",
        "-i",
        ogRaw,
        "-vf",
        "split[a][b];[a]palettegen=max_colors=256:stats_mode=full[p];[b][p]paletteuse=dither=none",
        "-fflags",
        "+bitexact",
        og,
      ]);
      if ((await stat(og)).size > OG_MAX_BYTES) {
        throw new Error(`og-image.png is ${(await stat(og)).size} bytes, over 200 KB`);
      }
      written.push(og);
    } finally {
      await browser.close();
    }

    const manifest = {
      name: "Tieout",
      short_name: "Tieout",
      icons: [
        { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
        { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
      ],
      theme_color: INK,
      background_color: PAPER,
      display: "browser",
      start_url: "/",
    };
    const manifestFile = path.join(PUBLIC, "site.webmanifest");
    await writeFile(manifestFile, JSON.stringify(manifest, null, 2) + "\n", "utf8");
    written.push(manifestFile);

    for (const file of written) {
      const size = (await stat(file)).size;
      console.log(
        `${path.relative(ROOT, file).padEnd(30)} ${(size / 1024).toFixed(1).padStart(7)} KB`,
      );
    }
    console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
