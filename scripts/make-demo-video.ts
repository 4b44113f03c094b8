/**
 * Renders the Tieout demo clip, frame by frame, from scripts/media/demo.html.
 *
 *   npx tsx scripts/make-demo-video.ts
 *
 * The page exposes window.renderAt(seconds), which sets the whole scene for a time t, and
 * window.DEMO ({ duration, fps, poster, captions }). This script screenshots every frame into a
 * temp dir with headless Chromium, encodes them with ffmpeg and writes:
 *
 *   public/media/tieout-demo.webm        VP9, no audio
 *   public/media/tieout-demo.mp4         H.264 yuv420p, +faststart, no audio
 *   public/media/tieout-demo-poster.jpg  1280x720 still of the reconciliation step
 *   public/media/tieout-demo.en.vtt      captions describing each step (the clip is silent)
 *
 * Deterministic: every frame depends only on t; nothing is fetched from the network.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "#tests/support/e2e-env.ts";
import { makePosterImages } from "./make-poster-images.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PAGE = path.join(ROOT, "scripts/media/demo.html");
const OUT_DIR = path.join(ROOT, "public/media");
const OUT = {
  webm: path.join(OUT_DIR, "tieout-demo.webm"),
  mp4: path.join(OUT_DIR, "tieout-demo.mp4"),
  poster: path.join(OUT_DIR, "tieout-demo-poster.jpg"),
  vtt: path.join(OUT_DIR, "tieout-demo.en.vtt"),
};
const WIDTH = 1280;
const HEIGHT = 720;
const POSTER_MAX_BYTES = 120 * 1024;
const VIDEO_MAX_BYTES = 2 * 1024 * 1024;

interface DemoMeta {
  duration: number;
  fps: number;
  poster: number;
  captions: { start: number; end: number; text: string }[];
}

function run(cmd: string, args: string[]): string {
  const res = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed (${res.status}):\n${res.stderr}`);
  }
  return res.stdout;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function vttTime(s: number): string {
  const ms = Math.round(s * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const sec = Math.floor((ms % 60_000) / 1000);
  const rest = ms % 1000;
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${p(h)}:${p(m)}:${p(sec)}.${p(rest, 3)}`;
}

/** Colour tags so browsers convert the sRGB frames back without a tint. */
const COLOR_ARGS = [
  "-vf",
  "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p",
  "-colorspace",
  "bt709",
  "-color_primaries",
  "bt709",
  "-color_trc",
  "bt709",
  "-color_range",
  "tv",
];
const BITEXACT = ["-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1"];

function probe(file: string) {
  const json = JSON.parse(
    run("ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", file]),
  ) as {
    streams: {
      codec_type: string;
      codec_name: string;
      width?: number;
      height?: number;
      pix_fmt?: string;
    }[];
    format: { duration: string };
  };
  const video = json.streams.filter((s) => s.codec_type === "video");
  const audio = json.streams.filter((s) => s.codec_type === "audio");
  if (video.length !== 1) throw new Error(`${file}: expected one video stream`);
  if (audio.length !== 0) throw new Error(`${file}: has an audio stream`);
  const v = video[0]!;
  if (v.width !== WIDTH || v.height !== HEIGHT) throw new Error(`${file}: ${v.width}x${v.height}`);
  return { codec: v.codec_name, pixFmt: v.pix_fmt, duration: Number(json.format.duration) };
}

async function main() {
  const started = Date.now();
  await mkdir(OUT_DIR, { recursive: true });
  const tmp = await mkdtemp(path.join(os.tmpdir(), "tieout-demo-"));
  try {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    let meta: DemoMeta;
    try {
      const page = await browser.newPage({
        viewport: { width: WIDTH, height: HEIGHT },
        deviceScaleFactor: 1,
      });
      // Local files only: refuse anything that is not file://.
      await page.route("**/*", (route) =>
        route.request().url().startsWith("file:") ? route.continue() : route.abort(),
      );
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(pathToFileURL(PAGE).href);
      await page.evaluate(() => document.fonts.ready);
      const fontsOk = await page.evaluate(
        () =>
          document.fonts.check('600 16px "Source Serif 4"') && document.fonts.check('16px "Inter"'),
      );
      if (!fontsOk)
        throw new Error("Brand fonts did not load (check node_modules/@fontsource-variable)");
      if (errors.length) throw new Error("Page error: " + errors.join("\n"));
      meta = await page.evaluate(() => (window as unknown as { DEMO: DemoMeta }).DEMO);

      const frames = Math.round(meta.duration * meta.fps);
      console.log(`Rendering ${frames} frames (${meta.duration}s at ${meta.fps} fps) into ${tmp}`);
      const renderStart = Date.now();
      for (let f = 0; f < frames; f++) {
        const t = f / meta.fps;
        await page.evaluate(
          (time) => (window as unknown as { renderAt(t: number): number }).renderAt(time),
          t,
        );
        await page.screenshot({
          path: path.join(tmp, `f${String(f).padStart(5, "0")}.png`),
          type: "png",
        });
        if (f % (meta.fps * 2) === 0) process.stdout.write(`  t=${t.toFixed(1)}s\r`);
      }
      process.stdout.write("\n");
      console.log(`Frames rendered in ${((Date.now() - renderStart) / 1000).toFixed(1)}s`);
      if (errors.length) throw new Error("Page error: " + errors.join("\n"));

      // Poster: a representative still (reconciliation done, M1 adjustments flagged).
      await page.evaluate(
        (time) => (window as unknown as { renderAt(t: number): number }).renderAt(time),
        meta.poster,
      );
      let quality = 88;
      for (;;) {
        await page.screenshot({ path: OUT.poster, type: "jpeg", quality });
        if ((await stat(OUT.poster)).size <= POSTER_MAX_BYTES || quality <= 50) break;
        quality -= 6;
      }
    } finally {
      await browser.close();
    }
    makePosterImages();

    const frameCount = (await readdir(tmp)).filter((f) => f.endsWith(".png")).length;
    const input = [
      "-y",
      "-hide_banner",
      "-loglevel",
      "error",
      "-framerate",
      String(meta.fps),
      "-i",
      path.join(tmp, "f%05d.png"),
    ];

    const encStart = Date.now();
    console.log("Encoding VP9 WebM…");
    run("ffmpeg", [
      ...input,
      ...COLOR_ARGS,
      "-c:v",
      "libvpx-vp9",
      "-b:v",
      "0",
      "-crf",
      "36",
      "-deadline",
      "good",
      "-cpu-used",
      "2",
      "-row-mt",
      "1",
      "-tile-columns",
      "2",
      "-g",
      String(meta.fps * 5),
      "-an",
      ...BITEXACT,
      OUT.webm,
    ]);
    console.log("Encoding H.264 MP4…");
    run("ffmpeg", [
      ...input,
      ...COLOR_ARGS,
      "-c:v",
      "libx264",
      "-preset",
      "slower",
      "-tune",
      "animation",
      "-crf",
      "24",
      "-profile:v",
      "high",
      "-level",
      "4.0",
      "-g",
      String(meta.fps * 5),
      "-movflags",
      "+faststart",
      "-an",
      ...BITEXACT,
      OUT.mp4,
    ]);
    console.log(`Encoded in ${((Date.now() - encStart) / 1000).toFixed(1)}s`);

    const vtt =
      "WEBVTT\n\n" +
      meta.captions
        .map((c, i) => `${i + 1}\n${vttTime(c.start)} --> ${vttTime(c.end)}\n${c.text}\n`)
        .join("\n");
    await writeFile(OUT.vtt, vtt, "utf8");

    // Checks and report.
    console.log(`\n${frameCount} frames, ${meta.duration}s at ${meta.fps} fps`);
    for (const file of [OUT.webm, OUT.mp4]) {
      const p = probe(file);
      const size = (await stat(file)).size;
      if (size > VIDEO_MAX_BYTES) throw new Error(`${file} is ${kb(size)}, over 2 MB`);
      console.log(
        `${path.relative(ROOT, file).padEnd(36)} ${kb(size).padStart(10)}  ${p.codec} ${p.pixFmt} ${WIDTH}x${HEIGHT} ${p.duration.toFixed(2)}s, no audio`,
      );
    }
    for (const file of [OUT.poster, OUT.vtt]) {
      const size = (await stat(file)).size;
      console.log(`${path.relative(ROOT, file).padEnd(36)} ${kb(size).padStart(10)}`);
    }
    if ((await stat(OUT.poster)).size > POSTER_MAX_BYTES) throw new Error("Poster is over 120 KB");
    console.log(`\nTotal time ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
