/**
 * A secret the operator sets (SESSION_SECRET, ERASURE_KEY), or in emulator mode, where setting
 * one is not asked, one generated once and kept in a file of DATA_DIR readable by its owner
 * alone, so restarts keep it.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** `given` (newest first) when set; else the one kept in `dataDir/file`, made when missing. */
export async function keptSecrets(
  given: readonly string[],
  dataDir: string,
  file: string,
): Promise<string[]> {
  if (given.length > 0) return [...given];
  const kept = path.join(dataDir, file);
  try {
    const existing = (await readFile(kept, "utf8")).trim();
    if (existing.length >= 32) return [existing];
  } catch {
    // Not there yet: create it below.
  }
  const secret = randomBytes(48).toString("base64url");
  await mkdir(dataDir, { recursive: true });
  await writeFile(kept, secret, { mode: 0o600 });
  return [secret];
}
