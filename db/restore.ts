/**
 * Loading a backup (db/dump-format.ts) into an empty target, in one transaction: an empty
 * DATA_DIR (the database is built beside it and moved into place only once it is whole) or an
 * empty PostgreSQL database. A target with anything in it is refused and left as it was. Before
 * committing, every table's rows are counted against the dump's header. See docs/decisions/027.
 */
import { open, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { describeDatabaseUrl, type Db } from "#db/client.ts";
import { lockDataDir } from "#db/data-dir-lock.ts";
import {
  DUMP_END,
  DumpFormatError,
  isOnlyComments,
  parseHeader,
  StatementSplitter,
  type DumpMeta,
  type Statement,
} from "#db/dump-format.ts";
import { knownMigrations, MIGRATION_LOCK_ID, runMigrations } from "#db/migrate.ts";
import * as schema from "#db/schema.ts";

export class RestoreError extends Error {
  override name = "RestoreError";
}

/** A connection inside the restore's transaction. */
type RestoreConnection = {
  exec: (sql: string) => Promise<void>;
  query: <T>(sql: string) => Promise<T[]>;
};

export type RestoreProgress = { bytes: number; of: number };

export type RestoreOptions = {
  onProgress?: (progress: RestoreProgress) => void;
  /**
   * The embedded database only: told when DATA_DIR's lock is held elsewhere and the restore waits
   * to see whether its holder still runs (db/data-dir-lock.ts).
   */
  onLockWait?: (message: string) => void;
  /**
   * Runs on the restored database, brought to this version's migrations, before the restore is
   * final (the erasures carried out again, decision 032); if it throws, nothing is restored.
   */
  finish?: (db: Db) => Promise<void>;
};

/** A backup file opened for reading: its header, checked, then its text a piece at a time. */
export type OpenDump = {
  meta: DumpMeta;
  /** The file's size on disk (compressed, for a .gz). */
  size: number;
  /** Bytes of the file read so far. */
  bytesRead: () => number;
  text: AsyncIterable<string>;
  close: () => void;
};

const HEAD_LIMIT = 64 * 1024;
/** Statements are sent to the database in batches of about this many characters. */
const BATCH_CHARS = 1 << 20;

/**
 * Opens a backup (plain or gzip, told by its first bytes) and reads its header. A missing or
 * unreadable file, a folder, or a file that is not one of ours is a RestoreError saying which.
 */
export async function openDump(file: string): Promise<OpenDump> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new RestoreError("there is no such file");
    if (code === "EACCES" || code === "EPERM")
      throw new RestoreError("it cannot be read (permission denied)");
    throw new RestoreError(`it cannot be opened (${(error as Error).message})`);
  }
  const info = await handle.stat();
  if (info.isDirectory()) {
    await handle.close();
    throw new RestoreError("it is a folder, not a backup file");
  }
  const magic = Buffer.alloc(2);
  await handle.read(magic, 0, 2, 0);
  const raw = handle.createReadStream({ start: 0 });
  let decoded: Readable = raw;
  if (magic[0] === 0x1f && magic[1] === 0x8b) {
    const gunzip = createGunzip();
    raw.on("error", (error) => gunzip.destroy(error));
    decoded = raw.pipe(gunzip);
  }
  decoded.setEncoding("utf8");
  const chunks = decoded[Symbol.asyncIterator]() as AsyncIterator<string>;
  const close = () => {
    decoded.destroy();
    raw.destroy();
  };

  let head = "";
  try {
    while (head.split("\n").length < 3 && head.length < HEAD_LIMIT) {
      const next = await chunks.next();
      if (next.done) break;
      head += next.value;
    }
  } catch (error) {
    close();
    throw new RestoreError(
      `it is not a Tieout backup (its compressed data is damaged: ${(error as Error).message})`,
    );
  }
  let meta: DumpMeta;
  try {
    meta = parseHeader(head);
  } catch (error) {
    close();
    if (error instanceof DumpFormatError) throw new RestoreError(error.message);
    throw error;
  }
  async function* text() {
    yield head;
    for (;;) {
      let next;
      try {
        next = await chunks.next();
      } catch (error) {
        throw new RestoreError(
          `the file could not be read to its end: ${(error as Error).message}`,
        );
      }
      if (next.done) return;
      yield next.value;
    }
  }
  return { meta, size: info.size, bytesRead: () => raw.bytesRead, text: text(), close };
}

/** Migrations the dump's database had that this version of the site does not know. */
export async function unknownMigrations(meta: DumpMeta): Promise<string[]> {
  const known = new Set(await knownMigrations());
  return meta.migrations.filter((m) => !known.has(m));
}

/** Runs the dump's statements through an open transaction, then counts every table's rows. */
async function applyDump(
  dump: OpenDump,
  conn: RestoreConnection,
  onProgress?: (progress: RestoreProgress) => void,
): Promise<Record<string, number>> {
  const splitter = new StatementSplitter();
  let batch: string[] = [];
  let batchChars = 0;
  let batchLine = 1;
  let lastLine = 1;
  const flush = async () => {
    if (batch.length === 0) return;
    try {
      await conn.exec(batch.join("\n"));
    } catch (error) {
      const where =
        batchLine === lastLine
          ? `at line ${batchLine}`
          : `between lines ${batchLine} and ${lastLine}`;
      throw new RestoreError(`its SQL failed ${where}: ${(error as Error).message}`);
    }
    batch = [];
    batchChars = 0;
  };
  const add = async (statement: Statement) => {
    if (statement.psql) {
      // pg_dump's guard against psql commands hidden in data; there are no psql commands here.
      if (/^\\(un)?restrict\b/.test(statement.sql)) return;
      throw new RestoreError(
        `it holds a psql command at line ${statement.line} (${statement.sql.split(" ")[0]}), which only psql runs`,
      );
    }
    if (batch.length === 0) batchLine = statement.line;
    lastLine = statement.line;
    batch.push(statement.sql);
    batchChars += statement.sql.length;
    if (batchChars >= BATCH_CHARS) await flush();
  };
  for await (const chunk of dump.text) {
    for (const statement of splitter.push(chunk)) await add(statement);
    onProgress?.({ bytes: dump.bytesRead(), of: dump.size });
  }
  const end = splitter.end();
  for (const statement of end.statements) await add(statement);
  if (end.inside || !isOnlyComments(end.rest) || !end.rest.trimEnd().endsWith(DUMP_END))
    throw new RestoreError(
      "it was cut short: it does not end with the closing line `npm run backup` writes",
    );
  await flush();

  const counted: Record<string, number> = {};
  for (const [table, expected] of Object.entries(dump.meta.tables)) {
    const [row] = await conn.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM public."${table.replace(/"/g, '""')}"`,
    );
    counted[table] = Number(row?.n ?? -1);
    if (counted[table] !== expected)
      throw new RestoreError(
        `after loading it, ${table} holds ${counted[table]} rows where the backup counted ${expected}`,
      );
  }
  return counted;
}

/**
 * Restores into DATA_DIR, which must hold no database. The database is built in
 * DATA_DIR/pglite.restoring and renamed to DATA_DIR/pglite once committed and closed; on any
 * failure it is removed, and so is DATA_DIR if the restore created it. Closes the dump.
 * `finish` runs in a second transaction on the database being built, before it moves into place.
 */
export async function restoreEmbedded(
  dataDir: string,
  dump: OpenDump,
  { onProgress, onLockWait, finish }: RestoreOptions = {},
): Promise<Record<string, number>> {
  const dir = path.resolve(dataDir);
  const existed = await stat(dir).then(
    () => true,
    () => false,
  );
  const target = path.join(dir, "pglite");
  const building = path.join(dir, "pglite.restoring");
  const refuseIfTaken = async () => {
    if ((await readdir(target).catch(() => [])).length > 0)
      throw new RestoreError(
        `DATA_DIR (${dir}) already holds a database (${target}): a restore writes only into an empty DATA_DIR and overwrites nothing. Point DATA_DIR at a new folder, or move this one away first`,
      );
  };
  // Before the lock, so a folder a running server uses is refused for what it holds; again after
  // it, for a server that started in between.
  let unlock;
  try {
    await refuseIfTaken();
    unlock = lockDataDir(dir, { onWait: onLockWait });
  } catch (error) {
    dump.close();
    throw error;
  }
  let done = false;
  try {
    await refuseIfTaken();
    // Left by a restore that was killed: this process holds the lock, so nobody else uses it.
    await rm(building, { recursive: true, force: true });
    let counted: Record<string, number>;
    const client = await PGlite.create(building);
    try {
      const searchPath = await currentSearchPath((sql) => client.query(sql));
      counted = await client.transaction((tx) =>
        applyDump(
          dump,
          {
            exec: async (sql) => {
              await tx.exec(sql);
            },
            query: async <T>(sql: string) => (await tx.query<T>(sql)).rows,
          },
          onProgress,
        ),
      );
      if (finish) {
        // A pg_dump file empties the session's search_path; the site's queries need it back.
        await client.query("SELECT pg_catalog.set_config('search_path', $1, false)", [searchPath]);
        // The code that finishes is today's: the database first gets today's migrations.
        await runMigrations({
          exec: async (sql) => {
            await client.exec(sql);
          },
          names: async (query) =>
            (await client.query<{ name: string }>(query)).rows.map((r) => r.name),
        });
        await drizzlePglite(client, { schema }).transaction((tx) => finish(tx));
      }
    } finally {
      await client.close();
    }
    await rm(target, { recursive: true, force: true });
    await rename(building, target);
    done = true;
    return counted;
  } finally {
    dump.close();
    if (!done) await rm(building, { recursive: true, force: true });
    unlock();
    if (!done && !existed) await rmdir(dir).catch(() => {});
  }
}

/**
 * The session's search_path as the site would have it. Taken before a dump is loaded: a pg_dump
 * file empties it, and RESET would not give it back on PGlite (whose configured default is
 * `pg_catalog`; it sets `public` when it starts).
 */
async function currentSearchPath(
  query: (sql: string) => Promise<{ rows: unknown[] }>,
): Promise<string> {
  const { rows } = await query("SELECT pg_catalog.current_setting('search_path') AS path");
  return (rows[0] as { path: string }).path;
}

/** The relations anyone made in the database: none, for a restore to go ahead. */
async function relationsIn(conn: RestoreConnection): Promise<string[]> {
  const rows = await conn.query<{ name: string }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name
     FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema')
       AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
     ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

/**
 * Restores into the database of DATABASE_URL, which must hold no table, view or sequence. The
 * migrations' advisory lock is held for the whole transaction, so a server starting meanwhile
 * waits, then finds the migrations done. Closes the dump. `finish` runs in the same transaction.
 */
export async function restoreServer(
  url: string,
  dump: OpenDump,
  { onProgress, finish }: RestoreOptions = {},
): Promise<Record<string, number>> {
  const where = describeDatabaseUrl(url);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  // A dropped connection is reported by the query under way.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    dump.close();
    throw new RestoreError(
      `cannot reach the PostgreSQL server in DATABASE_URL (${where}): ${(error as Error).message}`,
    );
  }
  const conn: RestoreConnection = {
    exec: async (sql) => {
      await client.query(sql);
    },
    query: async <T>(sql: string) => (await client.query(sql)).rows as T[],
  };
  try {
    await client.query("BEGIN");
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    const present = await relationsIn(conn);
    if (present.length > 0) {
      const named = present.slice(0, 4).join(", ") + (present.length > 4 ? ", …" : "");
      throw new RestoreError(
        `the database in DATABASE_URL (${where}) is not empty (${present.length} tables or sequences: ${named}): a restore writes only into an empty database and overwrites nothing. Create a new one (CREATE DATABASE …) and point DATABASE_URL at it`,
      );
    }
    const searchPath = await currentSearchPath((sql) => client.query(sql));
    const counted = await applyDump(dump, conn, onProgress);
    if (finish) {
      // A pg_dump file empties the session's search_path; the site's queries need it back.
      await client.query("SELECT pg_catalog.set_config('search_path', $1, false)", [searchPath]);
      // The code that finishes is today's: the database first gets today's migrations.
      await runMigrations(
        {
          exec: conn.exec,
          names: async (query) => (await conn.query<{ name: string }>(query)).map((r) => r.name),
        },
        { inTransaction: true },
      );
      await finish(drizzlePg(client, { schema }));
    }
    await client.query("COMMIT");
    return counted;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    dump.close();
    await client.end().catch(() => {});
  }
}
