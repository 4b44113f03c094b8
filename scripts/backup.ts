/**
 * `npm run backup -- FILE`: a consistent dump of the database the site uses, configured as the
 * server is (DATA_DIR or DATABASE_URL). The embedded database is read directly when the site is
 * stopped and through the running site otherwise; a PostgreSQL server through pg_dump when it is
 * installed and can read that server, else through our own logical dump. See
 * docs/decisions/027-backups.md.
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { backupSocketPath, NoBackupSocket, requestSnapshot } from "#db/backup-socket.ts";
import { describeDatabaseUrl } from "#db/client.ts";
import { DataDirInUse, lockDataDir } from "#db/data-dir-lock.ts";
import { DUMP_END, formatHeader } from "#db/dump-format.ts";
import {
  DumpError,
  dumpEmbedded,
  dumpServer,
  LOGICAL_METHOD,
  readDatabaseFacts,
  type DumpProgress,
} from "#db/logical-dump.ts";
import { findPgDump, runPgDump } from "#db/pg-dump.ts";
import {
  createOutputFile,
  fail,
  fileArgument,
  formatBytes,
  formatCount,
  loadConfiguration,
  ProgressLine,
  rowsPerTable,
  seconds,
  type OutputFile,
} from "./backup-cli.ts";

const USAGE =
  "Usage: npm run backup -- FILE   (FILE must not exist yet; a name ending in .gz is compressed)";

type Result = { method: string; source: string; tables: Record<string, number>; leftOut: string[] };

const file = fileArgument(USAGE);
const env = loadConfiguration();
const started = performance.now();
const progress = new ProgressLine();
let written = 0;
const showDumpProgress = ({ table, rows, of }: DumpProgress) =>
  progress.update(
    `${table}: ${formatCount(rows)} of ${formatCount(of)} rows, ${formatBytes(written)} so far`,
  );
/** Released when done, on a failure or on Ctrl-C, last first: the database, its lock. */
const held: (() => Promise<void> | void)[] = [];

async function release() {
  for (const step of held.reverse()) await Promise.resolve(step()).catch(() => {});
  held.length = 0;
}

function counting(output: OutputFile): OutputFile {
  return {
    ...output,
    write: (text) => {
      written += Buffer.byteLength(text);
      return output.write(text);
    },
  };
}

async function backUpEmbedded(output: OutputFile): Promise<Result> {
  const dir = path.resolve(env.dataDir);
  let unlock: () => void;
  try {
    unlock = lockDataDir(dir, { onWait: (message) => console.log(message) });
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw error;
    return backUpThroughTheSite(output, dir, error.holder);
  }
  held.push(unlock);
  const source = `the embedded database in ${dir} (site stopped)`;
  console.log(`Backing up ${source}: reading it directly.`);
  const client = await PGlite.create(path.join(dir, "pglite"));
  held.push(() => client.close());
  const summary = await dumpEmbedded(client, output, { source, onProgress: showDumpProgress });
  await release();
  return { method: LOGICAL_METHOD, source, ...summary };
}

async function backUpThroughTheSite(
  output: OutputFile,
  dir: string,
  holder: string,
): Promise<Result> {
  const socketPath = backupSocketPath(dir);
  let snapshot;
  try {
    snapshot = await requestSnapshot(socketPath);
  } catch (error) {
    if (error instanceof NoBackupSocket)
      throw new DumpError(
        `${holder} holds DATA_DIR (${dir}) but does not answer on ${socketPath} (${error.message}): if the site is still starting, try again; otherwise stop it and run the backup again`,
      );
    throw error;
  }
  const taken = new Date().toISOString();
  const copy = snapshot;
  held.push(async () => {
    await rm(copy.path, { recursive: true, force: true });
    copy.done();
  });
  const source = `the embedded database in ${dir} (site running)`;
  console.log(
    `The site (${holder}) is running: it copied its database in ${formatCount(snapshot.ms)} ms (its database work waited that long). Dumping the copy.`,
  );
  const client = await PGlite.create(snapshot.path);
  held.push(() => client.close());
  const summary = await dumpEmbedded(client, output, {
    source,
    taken,
    onProgress: showDumpProgress,
  });
  await release();
  return { method: LOGICAL_METHOD, source, ...summary };
}

async function backUpServer(output: OutputFile, url: string): Promise<Result> {
  const where = describeDatabaseUrl(url);
  const source = `the PostgreSQL server at ${where}`;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new DumpError(
      `cannot reach the PostgreSQL server in DATABASE_URL (${where}): ${(error as Error).message}`,
    );
  }
  held.push(() => client.end());
  const serverMajor = Math.floor(
    Number((await client.query<{ v: string }>("SHOW server_version_num")).rows[0]?.v) / 10_000,
  );
  const tool = await findPgDump();
  let why: string;
  if (!tool) why = "pg_dump is not installed (none on PATH)";
  else if (tool.major < serverMajor)
    why = `pg_dump ${tool.version} cannot read a PostgreSQL ${serverMajor} server`;
  else {
    const method = `pg_dump ${tool.version}`;
    console.log(`Backing up ${source} with ${method}.`);
    // pg_dump reads the snapshot this transaction exports, so the header's counts are its own.
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    const snapshot = (await client.query<{ s: string }>("SELECT pg_export_snapshot() AS s"))
      .rows[0]!.s;
    const facts = await readDatabaseFacts({
      query: async <T>(sql: string) => (await client.query(sql)).rows as T[],
    });
    await output.write(formatHeader({ taken: new Date().toISOString(), source, method, ...facts }));
    let tablesDone = 0;
    const tableCount = Object.keys(facts.tables).length;
    await runPgDump({
      url,
      snapshot,
      out: output,
      onTable: (table) => {
        tablesDone++;
        progress.update(
          `pg_dump: ${table} (table ${tablesDone} of ${tableCount}), ${formatBytes(written)} so far`,
        );
      },
    });
    await output.write(`\n${DUMP_END}\n`);
    await client.query("COMMIT");
    await release();
    return { method, source, tables: facts.tables, leftOut: [] };
  }
  console.log(`Backing up ${source}: ${why}, so with our own ${LOGICAL_METHOD}.`);
  const summary = await dumpServer(client, output, { source, onProgress: showDumpProgress });
  await release();
  return { method: LOGICAL_METHOD, source, ...summary };
}

if (!env.databaseUrl && !existsSync(path.resolve(env.dataDir, "pglite", "PG_VERSION")))
  fail(
    `There is no embedded database in DATA_DIR (${path.resolve(env.dataDir)}): nothing to back up. Set DATA_DIR to the site's data folder, or DATABASE_URL for a PostgreSQL server.`,
  );

const output = counting(await createOutputFile(file));
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    progress.done();
    void release()
      .then(() => output.abort())
      .then(() => fail(`Interrupted: ${file} was not written.`));
  });
let result: Result;
try {
  result = env.databaseUrl
    ? await backUpServer(output, env.databaseUrl)
    : await backUpEmbedded(output);
} catch (error) {
  progress.done();
  await release();
  await output.abort();
  fail(`Backup failed, ${file} was not written: ${(error as Error).message}`);
}
const size = await output.finish().catch(async (error: unknown) => {
  await output.abort();
  fail(`Backup failed, ${file} was not written: ${(error as Error).message}`);
});
progress.done();
console.log(
  `Wrote ${file} (${formatBytes(size)}) in ${seconds(performance.now() - started)}: ${result.method} of ${result.source}.`,
);
console.log(`Rows: ${rowsPerTable(result.tables)}.`);
if (result.leftOut.length > 0)
  console.log(`Left out, as db/migrations does not create them: ${result.leftOut.join(", ")}.`);
