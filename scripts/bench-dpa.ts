// Time from pressing 'Download DPA' to the saved file, in Chromium, and what the click downloads.
// Usage: npx tsx scripts/bench-dpa.ts [baseUrl] [runs]
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "#tests/support/e2e-env.ts";

const base = process.argv[2] ?? "http://localhost:3000";
const runs = Number(process.argv[3] ?? 5);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const timings: number[] = [];
let chunkBytes = 0;
for (let run = 0; run < runs; run++) {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${base}/dpa`, { waitUntil: "networkidle" });
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const onClick: Promise<number>[] = [];
  page.on("response", (response) => {
    if (response.url().endsWith(".js"))
      onClick.push(response.body().then(() => Number(response.headers()["content-length"] ?? 0)));
  });
  const started = performance.now();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download DPA" }).click();
  await (await download).saveAs(`/tmp/bench-dpa-${run}.docx`);
  timings.push(performance.now() - started);
  if (run === 0) chunkBytes = (await Promise.all(onClick)).reduce((a, b) => a + b, 0);
  await context.close();
}
await browser.close();
timings.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    runs,
    firstClickMs: Math.round(timings[timings.length - 1]!),
    medianMs: Math.round(timings[Math.floor(runs / 2)]!),
    chunkBytesBrotli: chunkBytes,
  }),
);
