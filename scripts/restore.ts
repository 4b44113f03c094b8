/**
 * `npm run restore -- FILE`: loads a backup from `npm run backup` into an empty DATA_DIR or the
 * empty database of DATABASE_URL (configured as the server is), in one transaction; a target
 * with anything in it is refused and left as it was. See docs/decisions/027-backups.md.
 */
import path from "node:path";
import { describeDatabaseUrl } from "#db/client.ts";
import { DataDirInUse } from "#db/data-dir-lock.ts";
import {
  openDump,
  restoreEmbedded,
  restoreServer,
  RestoreError,
  unknownMigrations,
  type RestoreProgress,
} from "#db/restore.ts";
import {
  fail,
  fileArgument,
  formatBytes,
  loadConfiguration,
  ProgressLine,
  rowsPerTable,
  seconds,
} from "./backup-cli.ts";

const USAGE =
  "Usage: npm run restore -- FILE   (a file from npm run backup; the target DATA_DIR or DATABASE_URL must be empty)";

const file = fileArgument(USAGE);
const env = loadConfiguration();
const started = performance.now();

let dump;
try {
  dump = await openDump(file);
} catch (error) {
  if (error instanceof RestoreError) fail(`Cannot restore ${file}: ${error.message}.`);
  throw error;
}
const newer = await unknownMigrations(dump.meta);
if (newer.length > 0) {
  dump.close();
  fail(
    `Cannot restore ${file}: it comes from a newer version of the site (migration ${newer.join(", ")} is not in db/migrations). Restore it with that version.`,
  );
}

const target = env.databaseUrl
  ? `the database in DATABASE_URL (${describeDatabaseUrl(env.databaseUrl)})`
  : `DATA_DIR (${path.resolve(env.dataDir)})`;
const progress = new ProgressLine();
const onProgress = ({ bytes, of }: RestoreProgress) =>
  progress.update(
    `${formatBytes(bytes)} of ${formatBytes(of)} read (${Math.floor((100 * bytes) / Math.max(of, 1))}%)`,
  );

let counted: Record<string, number>;
try {
  counted = env.databaseUrl
    ? await restoreServer(env.databaseUrl, dump, onProgress)
    : await restoreEmbedded(env.dataDir, dump, onProgress, (message) => console.log(message));
} catch (error) {
  progress.done();
  dump.close();
  if (error instanceof DataDirInUse)
    fail(
      `Cannot restore into ${target}: ${error.holder} is using it. A restore writes only into an empty DATA_DIR that no server uses; nothing was changed.`,
    );
  fail(`Cannot restore ${file}: ${(error as Error).message}. Nothing was changed.`);
}
progress.done();
console.log(
  `Restored ${file} (taken ${dump.meta.taken} from ${dump.meta.source}, ${dump.meta.method}) into ${target} in ${seconds(performance.now() - started)}.`,
);
console.log(`Every row the backup counted is there: ${rowsPerTable(counted)}.`);
console.log("Start the site on it as usual (npm start); it applies any newer migrations.");
