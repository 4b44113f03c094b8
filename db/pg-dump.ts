/**
 * PostgreSQL's own pg_dump, for a server named by DATABASE_URL (docs/decisions/027): plain SQL
 * with multi-row INSERTs (no COPY, so the file loads through any client, PGlite included), no
 * owners or grants (the restoring role owns what it restores), in a snapshot the caller exported
 * so the header's counts are those of the dump.
 */
import { spawn } from "node:child_process";
import type { DumpOutput } from "#db/logical-dump.ts";
import { DumpError } from "#db/logical-dump.ts";

export type PgDumpTool = { version: string; major: number };

/** pg_dump on PATH and its version, or undefined when there is none. */
export async function findPgDump(): Promise<PgDumpTool | undefined> {
  const child = spawn("pg_dump", ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => {
    child.once("error", () => resolve(null));
    child.once("close", resolve);
  });
  const match = /\(PostgreSQL\)\s+((\d+)(?:\.\d+)*)/.exec(text);
  if (code !== 0 || !match) return undefined;
  return { version: match[1]!, major: Number(match[2]) };
}

/** The URL without its password, and the password for PGPASSWORD: never on a command line. */
function splitPassword(url: string): { url: string; password: string | undefined } {
  try {
    const u = new URL(url);
    const password = u.password ? decodeURIComponent(u.password) : undefined;
    u.password = "";
    return { url: u.toString(), password };
  } catch {
    return { url, password: undefined };
  }
}

/**
 * Runs pg_dump into `out`. `onTable` hears each table as pg_dump starts on its rows. A failure is
 * a DumpError carrying pg_dump's own message.
 */
export async function runPgDump(options: {
  url: string;
  snapshot: string;
  out: DumpOutput;
  onTable?: (table: string) => void;
}): Promise<void> {
  const { url, password } = splitPassword(options.url);
  const child = spawn(
    "pg_dump",
    [
      "--format=plain",
      "--no-owner",
      "--no-privileges",
      "--rows-per-insert=500",
      `--snapshot=${options.snapshot}`,
      "--verbose",
      `--dbname=${url}`,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }) },
    },
  );
  const errors: string[] = [];
  let partial = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const table = /dumping contents of table "?(?:public\.)?([^"]+)"?/.exec(line);
      if (table) options.onTable?.(table[1]!);
      else if (/\berror:|FATAL|could not/i.test(line))
        errors.push(line.replace(/^pg_dump:\s*(error:\s*)?/, ""));
    }
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  child.stdout.setEncoding("utf8");
  try {
    for await (const text of child.stdout as AsyncIterable<string>) await options.out.write(text);
  } catch (error) {
    child.kill();
    throw error;
  }
  const code = await exited;
  if (code !== 0)
    throw new DumpError(
      `pg_dump failed (exit code ${code}): ${errors[0] ?? (partial || "no message")}`,
    );
}
