import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";

/**
 * The built public files, read into memory at start-up. Only what is in this map is ever served
 * as a file: a path that is not a key (source, package.json, dotfiles, "..") simply is not here.
 */
export type StaticAsset = {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
};

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".woff2": "font/woff2",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".webm": "video/webm",
  ".mp4": "video/mp4",
  ".vtt": "text/vtt; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
};

export const IMMUTABLE = "public, max-age=31536000, immutable";

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((e) => {
      const full = path.join(dir, e.name);
      return e.isDirectory() ? walk(full) : Promise.resolve([full]);
    }),
  );
  return files.flat();
}

export async function loadStaticAssets(clientDir: string): Promise<Map<string, StaticAsset>> {
  const assets = new Map<string, StaticAsset>();
  const files = await walk(clientDir);
  const present = new Set(files);
  for (const file of files) {
    const ext = path.extname(file);
    if (ext === ".br" || ext === ".gz") continue;
    const rel = "/" + path.relative(clientDir, file).split(path.sep).join("/");
    // Dotfiles never ship, even if one lands in public/ by mistake.
    if (rel.split("/").some((part) => part.startsWith("."))) continue;
    const type = TYPES[ext];
    if (!type) continue;
    const body = await readFile(file);
    const asset: StaticAsset = {
      body,
      type,
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
      cacheControl: rel.startsWith("/assets/")
        ? IMMUTABLE
        : "public, max-age=3600, must-revalidate",
    };
    if (present.has(`${file}.br`)) asset.br = await readFile(`${file}.br`);
    if (present.has(`${file}.gz`)) asset.gzip = await readFile(`${file}.gz`);
    assets.set(rel, asset);
  }
  return assets;
}

export async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
