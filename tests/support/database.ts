import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type Database } from "#db/client.ts";

/** A real PGlite database, migrated, in a folder of its own: for tests of one server part. */
async function openTestDatabase(): Promise<{ database: Database; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tieout-unit-db-"));
  return { database: await openDatabase({ dataDir, databaseUrl: undefined }), dataDir };
}

/**
 * One migrated database for a test file: opened before its tests (a few seconds, more on a busy
 * machine) and closed after them. Call the returned function inside a test for the database.
 */
export function databaseForThisFile(): () => Database {
  let database: Database | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    ({ database, dataDir } = await openTestDatabase());
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    // Each file's database is a folder of tens of MB: a full run would leave hundreds behind.
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!database) throw new Error("The test database is opened before the tests run.");
    return database;
  };
}
