/**
 * The database: embedded PGlite in DATA_DIR by default, a PostgreSQL server with DATABASE_URL.
 * Same migrations, same queries (Drizzle) on both. See docs/decisions/005.
 */
import { cp } from "node:fs/promises";
import path from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Snapshotter } from "#db/backup-socket.ts";
import { lockDataDir } from "#db/data-dir-lock.ts";
import { DatabaseStartError } from "#db/start-error.ts";
import { runMigrations } from "#db/migrate.ts";
import * as schema from "#db/schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  /**
   * The same database, for work no visitor waits on (the outbox, a broadcast's turns). The
   * embedded database runs each statement on the visitors' thread, so there each statement first
   * lets the requests waiting on that thread be answered (takingTurns): a long stretch of
   * background statements holds a visitor up by one statement, not all of them. A PostgreSQL
   * server runs statements in its own processes: there it is `db` itself.
   */
  background: Db;
  kind: "pglite" | "postgres";
  ping: () => Promise<void>;
  close: () => Promise<void>;
  /**
   * The embedded database only: copies its folder while no query runs, for `npm run backup` while
   * the site runs (db/backup-socket.ts). A PostgreSQL server is dumped by the command itself.
   */
  snapshot: Snapshotter | undefined;
};

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
  /** Told when DATA_DIR's lock is held elsewhere and start-up waits to see if its holder runs. */
  onLockWait?: (message: string) => void;
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
    const db = drizzlePg(pool, { schema });
    database = {
      db,
      background: db,
      kind: "postgres",
      ping: async () => {
        await pool.query("SELECT 1");
      },
      close: () => pool.end(),
      snapshot: undefined,
    };
  } else {
    const dir = path.resolve(options.dataDir, "pglite");
    const unlock = lockDataDir(path.resolve(options.dataDir), { onWait: options.onLockWait });
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
    await dropRowArrayParsers(client);
    database = {
      db: drizzlePglite(client, { schema }),
      background: drizzlePglite({ client: takingTurns(client), schema }),
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

/**
 * PGlite copies its table of value parsers, one per type it knows, into a new object for every
 * result it reads (parseResults). Two thirds of that table are arrays of rows (one for each system
 * view and table), whose elements it has no parser for: it would hand such an array back as text
 * pieces, and no query here asks for one. Left out, every statement costs about a third less of
 * the visitors' thread (decision 054). Arrays of values (numbers, text, dates, JSON) keep theirs.
 */
async function dropRowArrayParsers(client: PGlite): Promise<void> {
  const { rows } = await client.query<{ typarray: number }>(
    "SELECT typarray FROM pg_type WHERE typtype = 'c' AND typarray <> 0",
  );
  const rowArrays = new Set(rows.map((r) => String(r.typarray)));
  client.parsers = Object.fromEntries(
    Object.entries(client.parsers).filter(([oid]) => !rowArrays.has(oid)),
  );
}

/** Resolves after the event loop has handled what was waiting (I/O, timers), not before. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `client` as Drizzle uses it (a query, a transaction and the queries in it), each statement
 * run only after the event loop's next turn. Typed as the client it stands for: Drizzle calls
 * nothing else on it (drizzle-orm/pglite/session.js), and db/client.test.ts runs statements and
 * transactions through it.
 */
function takingTurns(client: PGlite): PGlite {
  const polite = (c: Pick<PGlite, "query">): Pick<PGlite, "query"> => ({
    query: async (...args: Parameters<PGlite["query"]>) => {
      await nextTurn();
      return c.query(...args);
    },
  });
  const turnTaking: Pick<PGlite, "query" | "transaction"> = {
    ...polite(client),
    transaction: (work) => client.transaction((tx) => work(polite(tx) as Transaction)),
  };
  return turnTaking as PGlite;
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
