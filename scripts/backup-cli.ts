/**
 * What `npm run backup` and `npm run restore` share: the configuration as the server reads it,
 * one-line failures, a progress line, and the backup file written whole or not at all.
 */
import { once } from "node:events";
import { existsSync } from "node:fs";
import { link, lstat, open, rm, stat } from "node:fs/promises";
import path from "node:path";
import { createGzip } from "node:zlib";
import { EnvError, parseEnv, type Env } from "#server/env.ts";

/** A failure the operator can act on: one line on stderr, exit code 1, never a stack trace. */
export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** The configuration `npm start` would use: .env when there is one, then server/env.ts. */
export function loadConfiguration(): Env {
  if (existsSync(".env")) process.loadEnvFile(".env");
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) fail(error.message);
    throw error;
  }
}

/** The one argument, FILE; `--help` prints the usage. */
export function fileArgument(usage: string): string {
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
    console.log(usage);
    process.exit(0);
  }
  if (args.length !== 1 || !args[0]) fail(usage);
  return args[0];
}

export const formatCount = (n: number) => n.toLocaleString("en-US");

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** "waitlist_entries 3, outbox 3, sessions 1" */
export function rowsPerTable(tables: Record<string, number>): string {
  const entries = Object.entries(tables).filter(([name]) => name !== "schema_migrations");
  return entries.length === 0
    ? "no tables"
    : entries.map(([name, n]) => `${name} ${formatCount(n)}`).join(", ");
}

/**
 * A progress line on stderr once the work has gone on for more than a second since its first
 * step: rewritten in place on a terminal, a new line every five seconds otherwise (a log, a cron
 * mail). A small backup prints none.
 */
export class ProgressLine {
  #started: number | undefined;
  #shown = 0;
  #printed = false;
  readonly #tty = process.stderr.isTTY;

  update(text: string) {
    const now = performance.now();
    this.#started ??= now;
    if (now - this.#started < 1_000 || now - this.#shown < (this.#tty ? 200 : 5_000)) return;
    this.#shown = now;
    this.#printed = true;
    process.stderr.write(this.#tty ? `\r${text}\x1b[K` : `${text}\n`);
  }

  done() {
    if (this.#printed && this.#tty) process.stderr.write("\r\x1b[K");
  }
}

export type OutputFile = {
  write: (text: string) => Promise<void>;
  /** Makes the file appear under its name, complete and synced; returns its size in bytes. */
  finish: () => Promise<number>;
  /** Removes what was written: the name never appears. */
  abort: () => Promise<void>;
};

/**
 * The backup file, written to a hidden temporary file beside it (mode 0600: it holds personal
 * data) and linked to its name only once complete, so FILE is whole or absent. An existing FILE
 * is never overwritten. A name ending in .gz is gzip-compressed.
 */
export async function createOutputFile(file: string): Promise<OutputFile> {
  const target = path.resolve(file);
  if (
    await lstat(target).then(
      () => true,
      () => false,
    )
  )
    fail(
      `${file} already exists: a backup never overwrites a file. Choose a new name, for example backups/tieout-$(date +%F-%H%M).sql.gz`,
    );
  const dir = path.dirname(target);
  const folder = await stat(dir).catch(() => undefined);
  if (!folder?.isDirectory()) fail(`Cannot write ${file}: there is no folder ${dir}`);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.partial`);
  let handle;
  try {
    handle = await open(temp, "wx", 0o600);
  } catch (error) {
    fail(`Cannot write ${file}: ${(error as Error).message}`);
  }
  const fileStream = handle.createWriteStream({ flush: true });
  const gzip = target.endsWith(".gz") ? createGzip({ level: 6 }) : undefined;
  gzip?.pipe(fileStream);
  const sink = gzip ?? fileStream;
  let failure: Error | undefined;
  for (const stream of [fileStream, gzip])
    stream?.on("error", (error: Error) => {
      failure ??= error;
    });

  return {
    async write(text) {
      if (failure) throw failure;
      if (!sink.write(text)) await once(sink, "drain");
    },
    async finish() {
      sink.end();
      await once(fileStream, "close");
      if (failure) throw failure;
      try {
        await link(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        if ((error as NodeJS.ErrnoException).code === "EEXIST")
          fail(`${file} appeared while the backup was written: it was left as it was`);
        throw error;
      }
      await rm(temp, { force: true });
      // The new name is durable once the folder is synced too.
      const folderHandle = await open(dir, "r").catch(() => undefined);
      await folderHandle?.sync().catch(() => {});
      await folderHandle?.close();
      return fileStream.bytesWritten;
    },
    async abort() {
      sink.destroy();
      fileStream.destroy();
      await rm(temp, { force: true });
    },
  };
}
