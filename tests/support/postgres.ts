/**
 * A throwaway PostgreSQL server (Debian's packages) for the tests that need a real one: its own
 * data folder and port, started and removed by the test.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

function binDir(): string | null {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(path.join(base, v, "bin/pg_ctl")));
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest ? path.join(base, newest, "bin") : null;
}

/** PostgreSQL refuses to run as root: run its tools as the postgres user the package created. */
function asPostgres(bin: string, args: string[]) {
  const isRoot = process.getuid?.() === 0;
  const [cmd, argv] = isRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const result = spawnSync(cmd, argv, { encoding: "utf8" });
  if (result.status !== 0)
    throw new Error(`${path.basename(bin)} failed: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

export type Postgres = { url: string; stop: () => void; start: () => void; remove: () => void };

export function startPostgres(port: number): Postgres {
  const bin = binDir();
  if (!bin)
    throw new Error("PostgreSQL is not installed (npm test installs Debian's postgresql package)");
  const dir = mkdtempSync(path.join(tmpdir(), "tieout-pg-"));
  chmodSync(dir, 0o777);
  const data = path.join(dir, "data");
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", dir]);
  asPostgres(path.join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "tieout",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  const start = () =>
    asPostgres(path.join(bin, "pg_ctl"), [
      "-D",
      data,
      "-l",
      path.join(dir, "log"),
      "-w",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      "start",
    ]);
  const stop = () =>
    asPostgres(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
  start();
  return {
    url: `postgresql://tieout@127.0.0.1:${port}/postgres`,
    start,
    stop,
    remove() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new, empty database on the test server; its URL. */
export async function createDatabase(server: Postgres, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return server.url.replace(/\/postgres$/, `/${name}`);
}
