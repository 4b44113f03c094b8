import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type Database } from "#db/client.ts";

/** A real PGlite database, migrated, in a folder of its own: for tests of one server part. */
function openTestDatabase(): Promise<Database> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tieout-unit-db-"));
  return openDatabase({ dataDir, databaseUrl: undefined });
}

/**
 * One migrated database for a test file: opened before its tests (a few seconds, more on a busy
 * machine) and closed after them. Call the returned function inside a test for the database.
 */
export function databaseForThisFile(): () => Database {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await openTestDatabase();
  }, 60_000);
  afterAll(() => database?.close());
  return () => {
    if (!database) throw new Error("The test database is opened before the tests run.");
    return database;
  };
}
