import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "migrations");
/**
 * Serialises migrations when several instances start at once on one PostgreSQL server; a restore
 * holds it too, so an instance starting meanwhile migrates only once the restore has committed.
 */
export const MIGRATION_LOCK_ID = 7_284_001;

/** The table that records the migrations applied; a logical dump recreates it first. */
export const SCHEMA_MIGRATIONS_TABLE =
  "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())";

/** One connection (PGlite has only one; for PostgreSQL a client held for the whole run). */
export type MigrationConnection = {
  exec: (script: string) => Promise<void>;
  names: (query: string) => Promise<string[]>;
};

type MigrationOptions = {
  /** Where the migrations are; db/migrations unless a test says otherwise. */
  dir?: string;
  /**
   * The last migration to apply, by its number (`"0004"`) or file name; the later ones are left
   * for another run. For tests of a migration over the data an older schema held.
   */
  through?: string;
  /**
   * The caller's transaction is open and holds the migrations' lock (a restore into PostgreSQL):
   * the migrations join that transaction instead of committing one by one.
   */
  inTransaction?: boolean;
};

/** The migration files there are, in name order (db/migrations, or beside the bundled server). */
export async function knownMigrations(dir = MIGRATIONS_DIR): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
}

/** One migration's SQL, as a logical dump replays it. */
export function readMigration(name: string, dir = MIGRATIONS_DIR): Promise<string> {
  return readFile(path.join(dir, name), "utf8");
}

/** The migration files to apply, in name order, up to and including `through`. */
async function migrationFiles(dir: string, through: string | undefined) {
  const files = await knownMigrations(dir);
  if (through === undefined) return files;
  const last = files.findIndex((f) => f === through || f.startsWith(`${through}_`));
  if (last === -1) throw new Error(`No migration ${through} in ${dir}`);
  return files.slice(0, last + 1);
}

/**
 * Applies db/migrations/*.sql in name order, each in a transaction together with its record in
 * schema_migrations, so a crash never leaves one half applied. The same SQL runs on PGlite and
 * PostgreSQL (kept valid on PostgreSQL 15).
 */
export async function runMigrations(
  conn: MigrationConnection,
  { dir = MIGRATIONS_DIR, through, inTransaction = false }: MigrationOptions = {},
): Promise<string[]> {
  const files = await migrationFiles(dir, through);
  const [begin, commit] = inTransaction ? ["", ""] : ["BEGIN;\n", "\nCOMMIT;"];
  if (inTransaction) {
    await conn.exec(SCHEMA_MIGRATIONS_TABLE);
    return applyMissing(conn, dir, files, begin, commit);
  }
  await conn.exec(`SELECT pg_advisory_lock(${MIGRATION_LOCK_ID})`);
  try {
    await conn.exec(SCHEMA_MIGRATIONS_TABLE);
    return await applyMissing(conn, dir, files, begin, commit);
  } catch (error) {
    await conn.exec("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await conn.exec(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_ID})`).catch(() => {});
  }
}

/** Applies the files not yet recorded in schema_migrations, each with its record. */
async function applyMissing(
  conn: MigrationConnection,
  dir: string,
  files: string[],
  begin: string,
  commit: string,
): Promise<string[]> {
  const done = new Set(await conn.names("SELECT name FROM schema_migrations"));
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const body = await readFile(path.join(dir, file), "utf8");
    await conn.exec(
      `${begin}${body}\nINSERT INTO schema_migrations (name) VALUES ('${file.replace(/'/g, "''")}');${commit}`,
    );
    applied.push(file);
  }
  return applied;
}
