/**
 * The database: embedded PGlite in DATA_DIR by default, a PostgreSQL server with DATABASE_URL.
 * Same migrations, same queries (Drizzle) on both. See docs/decisions/005.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { cp } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Snapshotter } from "#db/backup-socket.ts";
import { runMigrations } from "#db/migrate.ts";
import * as schema from "#db/schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  ping: () => Promise<void>;
  close: () => Promise<void>;
  /**
   * The embedded database only: copies its folder while no query runs, for `npm run backup` while
   * the site runs (db/backup-socket.ts). A PostgreSQL server is dumped by the command itself.
   */
  snapshot: Snapshotter | undefined;
};

export class DatabaseStartError extends Error {
  override name = "DatabaseStartError";
}

/** DATA_DIR is locked by a live process: a server, a backup or a restore. */
export class DataDirInUse extends DatabaseStartError {
  override name = "DataDirInUse";
  constructor(
    message: string,
    /** The process holding the lock. */
    readonly pid: number,
  ) {
    super(message);
  }
}

/**
 * One process per PGlite directory: a lock file with our pid, taken over only from a dead process.
 * Returns the function that releases it. The server, `npm run backup` (site stopped) and
 * `npm run restore` each hold it while they use the folder.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, "pglite.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(lock, "utf8").trim());
      let alive = false;
      try {
        if (pid > 0 && pid !== process.pid) {
          process.kill(pid, 0);
          alive = true;
        }
      } catch {
        alive = false;
      }
      if (alive) {
        throw new DataDirInUse(
          `Another server (process ${pid}) is already using the embedded database in ${dir}. ` +
            "One process per DATA_DIR: stop it, give this one another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server between instances.",
          pid,
        );
      }
      rmSync(lock, { force: true });
    }
  }
  throw new DatabaseStartError(`Could not lock ${dir}`);
}

/** host:port/database of a connection URL, for messages: never the user or password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
  } catch {
    return "DATABASE_URL";
  }
}

export async function openDatabase(options: {
  dataDir: string;
  databaseUrl: string | undefined;
}): Promise<Database> {
  let database: Database;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5_000,
    });
    // A dropped connection must not crash the process; the next query reports it (503).
    pool.on("error", () => {});
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      await pool.end().catch(() => {});
      throw new DatabaseStartError(
        `Cannot reach the PostgreSQL server in DATABASE_URL (${describeDatabaseUrl(options.databaseUrl)}): ${(error as Error).message}`,
      );
    }
    try {
      await runMigrations({
        exec: async (script) => {
          await client.query(script);
        },
        names: async (query) =>
          (await client.query<{ name: string }>(query)).rows.map((r) => r.name),
      });
    } finally {
      client.release();
    }
    database = {
      db: drizzlePg(pool, { schema }),
      kind: "postgres",
      ping: async () => {
        await pool.query("SELECT 1");
      },
      close: () => pool.end(),
      snapshot: undefined,
    };
  } else {
    const dir = path.resolve(options.dataDir, "pglite");
    const unlock = lockDataDir(path.resolve(options.dataDir));
    let client: PGlite;
    try {
      client = await PGlite.create(dir);
    } catch (error) {
      unlock();
      throw new DatabaseStartError(
        `Cannot open the embedded database in ${dir}: ${(error as Error).message}`,
      );
    }
    try {
      await runMigrations({
        exec: async (script) => {
          await client.exec(script);
        },
        names: async (query) =>
          (await client.query<{ name: string }>(query)).rows.map((r) => r.name),
      });
    } catch (error) {
      await client.close().catch(() => {});
      unlock();
      throw error;
    }
    database = {
      db: drizzlePglite(client, { schema }),
      kind: "pglite",
      ping: async () => {
        await client.query("SELECT 1");
      },
      close: async () => {
        await client.close();
        unlock();
      },
      // PGlite runs no query, and so writes nothing, while a transaction holds its connection;
      // every commit is already in the WAL on disk (fsync and synchronous_commit are on).
      snapshot: (to) => client.transaction(() => cp(dir, to, { recursive: true })),
    };
  }
  return database;
}

/** Rows of a raw SQL query; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: { rows: T[] } = await db
    .execute<Record<string, unknown>>(query)
    .then((r) => r as { rows: T[] });
  return result.rows;
}

/**
 * Runs a DELETE and says how many rows it deleted, the same on PGlite and node-postgres (whose
 * results name that count differently).
 */
export async function deletedCount(db: Db, deletion: SQL): Promise<number> {
  const [gone] = await queryRows<{ n: number }>(
    db,
    sql`WITH gone AS (${deletion} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
  );
  return gone?.n ?? 0;
}
