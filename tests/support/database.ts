import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "#db/client.ts";

/** A real PGlite database, migrated, in a folder of its own: for tests of one server part. */
export function openTestDatabase(): Promise<Database> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tieout-unit-db-"));
  return openDatabase({ dataDir, databaseUrl: undefined });
}
