/**
 * The database: embedded PGlite in DATA_DIR by default, a PostgreSQL server with DATABASE_URL.
 * Same migrations, same queries (Drizzle) on both. See docs/decisions/005.
 */
import path from "node:path";
import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Snapshotter } from "#db/backup-socket.ts";
import type {
  AttachRequest,
  ThreadError,
  ThreadReady,
  ThreadReply,
  ThreadRequest,
} from "#db/pglite-thread.ts";
import { lockDataDir } from "#db/data-dir-lock.ts";
import { DatabaseStartError } from "#db/start-error.ts";
import { runMigrations } from "#db/migrate.ts";
import * as schema from "#db/schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  /**
   * Neither database runs a statement on the thread that answers visitors: a PostgreSQL server
   * runs it in its own process, the embedded one on a thread of its own (decision 055).
   */
  db: Db;
  kind: "pglite" | "postgres";
  ping: () => Promise<void>;
  close: () => Promise<void>;
  /**
   * The embedded database only: copies its folder while no query runs, for `npm run backup` while
   * the site runs (db/backup-socket.ts). A PostgreSQL server is dumped by the command itself.
   */
  snapshot: Snapshotter | undefined;
  /**
   * The embedded database only: a port that another thread sends single statements through,
   * straight to the database's thread (db/pglite-thread.ts, `attach`; decision 063). Each call
   * opens a new one, to be handed to that thread. A PostgreSQL server has no such thread.
   */
  statementPort: (() => MessagePort) | undefined;
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
    // A dropped connection must not crash the process; the next query reports it (503). The pool
    // listens on idle connections only: one a transaction holds between two statements needs its
    // own listener, or its error is thrown from the socket's event (db/postgres-connection-lost.test.ts).
    pool.on("error", () => {});
    pool.on("connect", (connection) => connection.on("error", () => {}));
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
      kind: "postgres",
      ping: async () => {
        await pool.query("SELECT 1");
      },
      close: () => pool.end(),
      snapshot: undefined,
      statementPort: undefined,
    };
  } else {
    const dir = path.resolve(options.dataDir, "pglite");
    const unlock = lockDataDir(path.resolve(options.dataDir), { onWait: options.onLockWait });
    let thread: ThreadedPglite;
    try {
      thread = await threadedPglite(dir);
    } catch (error) {
      unlock();
      throw new DatabaseStartError(
        `Cannot open the embedded database in ${dir}: ${(error as Error).message}`,
      );
    }
    const { client } = thread;
    try {
      await runMigrations({
        exec: async (script) => {
          await client.exec(script);
        },
        names: async (query) =>
          (await client.query<{ name: string }>(query)).rows.map((r) => r.name),
      });
    } catch (error) {
      await thread.close().catch(() => {});
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
        try {
          await thread.close();
        } finally {
          unlock();
        }
      },
      snapshot: thread.snapshot,
      statementPort: thread.statementPort,
    };
  }
  return database;
}

/**
 * The thread's module, beside this one: from source when this file runs from source (tests, the
 * benches, scripts), and as the build writes it (scripts/build.mjs) when this runs bundled.
 */
const THREAD_MODULE = new URL(
  import.meta.url.endsWith(".ts") ? "./pglite-thread.ts" : "./pglite-thread.js",
  import.meta.url,
);

/** A PostgreSQL error from the database's thread, with its fields (code, constraint, detail…). */
function rebuilt({ message, fields }: ThreadError): Error {
  return Object.assign(new Error(message), fields);
}

type ThreadedPglite = {
  /** What Drizzle and the migrations call on a PGlite client, each call crossing to the thread. */
  client: PGlite;
  snapshot: Snapshotter;
  statementPort: () => MessagePort;
  close: () => Promise<void>;
};

/**
 * The embedded database in `dir`, opened on a thread of its own (db/pglite-thread.ts, decision
 * 055). PGlite runs a statement on the thread that calls it, about half a millisecond of CPU each
 * before any work; called from there, the visitors' thread pays a tenth of that to post it and
 * read its rows. A transaction stays open on that thread until this side commits or rolls back,
 * and statements outside it wait, as they do in PGlite itself.
 */
async function threadedPglite(dir: string): Promise<ThreadedPglite> {
  const worker = new Worker(THREAD_MODULE, { workerData: { dir } });
  const waiting = new Map<
    number,
    { resolve: (result: unknown) => void; reject: (e: Error) => void }
  >();
  let seq = 0;
  let stopped: Error | null = null;
  const stop = (why: Error) => {
    stopped ??= why;
    for (const { reject } of waiting.values()) reject(stopped);
    waiting.clear();
  };
  await new Promise<void>((resolve, reject) => {
    worker.once("message", (ready: ThreadReady) =>
      ready.error ? reject(rebuilt(ready.error)) : resolve(),
    );
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the database thread stopped (${code})`)));
  });
  worker.on("message", ({ id, result, error }: ThreadReply) => {
    const asked = waiting.get(id);
    if (!asked) return;
    waiting.delete(id);
    if (waiting.size === 0) worker.unref();
    if (error) asked.reject(rebuilt(error));
    else asked.resolve(result);
  });
  worker.on("error", (error: Error) =>
    stop(new Error(`the database thread failed: ${error.message}`)),
  );
  worker.on("exit", () => stop(new Error("PGlite is closed")));
  // An idle thread keeps no process alive; one with a statement under way does.
  worker.unref();

  type Request = ThreadRequest extends infer R
    ? R extends unknown
      ? Omit<R, "id">
      : never
    : never;
  const ask = <T>(request: Request): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    const id = ++seq;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (result: unknown) => void, reject });
      worker.ref();
      worker.postMessage({ ...request, id });
    });
  };

  /**
   * Drizzle's parsers keep some types as PostgreSQL wrote them; only those can cross, as a list of
   * types. Worked out once for each set (Drizzle keeps one per prepared statement).
   */
  type Parsers = Record<number, (value: string) => unknown>;
  const crossing = new WeakMap<Parsers, number[]>();
  const rawTypes = (parsers: Parsers | undefined): number[] => {
    if (!parsers) return [];
    let raw = crossing.get(parsers);
    if (!raw) {
      raw = Object.entries(parsers).map(([oid, parse]) => {
        if (parse("\u0001") !== "\u0001")
          throw new Error(`A parser for type ${oid} cannot cross to the database's thread.`);
        return Number(oid);
      });
      crossing.set(parsers, raw);
    }
    return raw;
  };
  const statements = (tx: number | null) => ({
    query: async (
      sql: string,
      params?: unknown[],
      options?: { rowMode?: "array" | "object"; parsers?: Parsers },
    ) =>
      ask({
        op: "query",
        tx,
        sql,
        params,
        rowMode: options?.rowMode,
        raw: rawTypes(options?.parsers),
      }),
    exec: (sql: string) => ask({ op: "exec", tx, sql }),
  });
  let transactions = 0;
  const client = {
    ...statements(null),
    async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
      const tx = ++transactions;
      await ask({ op: "begin", tx });
      let closed = false;
      let result: T;
      try {
        result = await work({
          ...statements(tx),
          get closed() {
            return closed;
          },
          async rollback() {
            closed = true;
            await ask({ op: "rollback", tx });
          },
        } as unknown as Transaction);
      } catch (error) {
        if (!closed) await ask({ op: "rollback", tx }).catch(() => {});
        throw error;
      }
      if (!closed) await ask({ op: "commit", tx });
      return result;
    },
  };
  return {
    client: client as unknown as PGlite,
    snapshot: async (to) => {
      await ask({ op: "snapshot", to });
    },
    statementPort() {
      const { port1, port2 } = new MessageChannel();
      worker.postMessage({ op: "attach", port: port1 } satisfies AttachRequest, [port1]);
      return port2;
    },
    /** Closes PGlite, then ends the thread; a thread that already stopped is only ended. */
    async close() {
      try {
        if (!stopped) await ask({ op: "close" });
      } finally {
        await worker.terminate();
      }
    },
  };
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
