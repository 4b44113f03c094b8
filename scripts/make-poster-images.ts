// Responsive WebP versions of the demo's poster frame, for the click-to-play facade on the home
// page: 480 and 800 px for phones, 1280 px for wide screens (the JPEG stays as the fallback).
// Run by make-demo-video.ts after it writes the poster; can also run alone: npx tsx scripts/make-poster-images.ts
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MEDIA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../public/media");
export const POSTER_WIDTHS = [480, 800, 1280] as const;

export function makePosterImages(): void {
  const source = path.join(MEDIA, "tieout-demo-poster.jpg");
  for (const width of POSTER_WIDTHS) {
    const out = path.join(MEDIA, `tieout-demo-poster-${width}.webp`);
    execFileSync("ffmpeg", [
      "-y",
      "-hide_banner",
      "-loglevel",
      "error",
      "-i",
      source,
      "-vf",
      `scale=${width}:-2:flags=lanczos`,
      "-c:v",
      "libwebp",
      "-quality",
      "78",
      "-compression_level",
      "6",
      out,
    ]);
    console.log(`${path.basename(out)}: ${(statSync(out).size / 1024).toFixed(1)} KB`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]))
  makePosterImages();
