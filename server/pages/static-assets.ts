import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";

/** Hashed build output (file names change with their content): kept for a year by anyone. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** Everything else in build/client (icons, the demo video, the manifest): checked hourly. */
export const REVALIDATE_HOURLY = "public, max-age=3600, must-revalidate";

/** The build's stylesheets by URL path, which production pages inline (server/pages/html.ts). */
export async function readStylesheets(clientDir: string): Promise<Map<string, string>> {
  const dir = path.join(clientDir, "assets");
  const names = (await readdir(dir)).filter((name) => name.endsWith(".css"));
  const sheets = await Promise.all(
    names.map(async (name) => [`/assets/${name}`, await readFile(path.join(dir, name), "utf8")]),
  );
  return new Map(sheets as [string, string][]);
}

export async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
