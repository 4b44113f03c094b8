/**
 * Backups of the embedded database while the site runs (docs/decisions/027). PGlite has one
 * connection and one process per folder, so `npm run backup` cannot open the folder beside the
 * server. It asks the server instead, on a Unix socket in DATA_DIR (mode 0600; nothing on the
 * network), for a snapshot: the server copies its database folder while no query runs (it holds
 * its one connection, as a transaction does), which leaves the copy as consistent as the folder
 * after a kill -9 at that instant, and PGlite recovers it the same way when the command opens it.
 * The command then dumps the copy at its own pace and deletes it. The site's database work waits
 * for the copy only; pages that need no database do not wait at all.
 *
 * The exchange, one line each way: `snapshot <pid of the command>\n`, then
 * `{"path": "<the copy>", "ms": <how long the database was held>}` or `{"error": "<why>"}`.
 */
import { once } from "node:events";
import { chmod, readdir, rm } from "node:fs/promises";
import { connect, createServer } from "node:net";
import path from "node:path";

/** sun_path holds 108 bytes on Linux, 104 on macOS, terminator included. */
const SOCKET_PATH_LIMIT = 103;
const SNAPSHOT_PREFIX = "backup-snapshot-";

/** Copies the database folder to `to` while no query runs. */
export type Snapshotter = (to: string) => Promise<void>;

type Log = {
  info: (details: object, message: string) => void;
  warn: (details: object, message: string) => void;
  error: (details: object, message: string) => void;
};

export function backupSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), "backup.sock");
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Copies left behind by backup commands that were killed before they could delete them. */
async function removeAbandonedSnapshots(dir: string) {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = name.startsWith(SNAPSHOT_PREFIX) ? Number(name.slice(SNAPSHOT_PREFIX.length)) : 0;
    if (pid > 0 && !isAlive(pid)) await rm(path.join(dir, name), { recursive: true, force: true });
  }
}

/**
 * Listens on DATA_DIR/backup.sock for the backup command. The caller holds DATA_DIR's lock, so a
 * socket file already there is a dead server's and is replaced.
 */
export async function serveBackups(options: {
  dataDir: string;
  snapshot: Snapshotter;
  log: Log;
}): Promise<{ close: () => Promise<void> }> {
  const dir = path.resolve(options.dataDir);
  const socketPath = backupSocketPath(dir);
  if (Buffer.byteLength(socketPath) > SOCKET_PATH_LIMIT) {
    options.log.warn(
      { event: "backup.unavailable", socketPath },
      "DATA_DIR's path is too long for the backup socket: stop the site to back it up",
    );
    return { close: async () => {} };
  }
  await removeAbandonedSnapshots(dir);
  const working = new Set<Promise<void>>();

  async function answer(request: string): Promise<object> {
    const pid = /^snapshot (\d{1,10})\n$/.exec(request)?.[1];
    if (!pid) return { error: "unknown request: this site answers `snapshot <pid>`" };
    await removeAbandonedSnapshots(dir);
    const to = path.join(dir, `${SNAPSHOT_PREFIX}${pid}`);
    await rm(to, { recursive: true, force: true });
    const started = performance.now();
    try {
      await options.snapshot(to);
    } catch (error) {
      await rm(to, { recursive: true, force: true });
      options.log.error({ event: "backup.snapshot_failed", err: error }, "backup snapshot failed");
      return { error: `the site could not copy its database: ${(error as Error).message}` };
    }
    const ms = Math.round(performance.now() - started);
    options.log.info(
      { event: "backup.snapshot", ms },
      "database copied for npm run backup (database work waited meanwhile)",
    );
    return { path: to, ms };
  }

  const server = createServer((socket) => {
    socket.on("error", () => {});
    // The request line, within 10 seconds of connecting.
    socket.setTimeout(10_000, () => socket.destroy());
    let request = "";
    const onData = (chunk: Buffer) => {
      request += chunk.toString("latin1");
      if (!request.includes("\n") && request.length < 32) return;
      socket.off("data", onData);
      socket.setTimeout(0);
      const done = answer(request)
        .then((reply) => {
          socket.end(`${JSON.stringify(reply)}\n`);
        })
        .finally(() => working.delete(done));
      working.add(done);
    };
    socket.on("data", onData);
  });
  await rm(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  await chmod(socketPath, 0o600);
  return {
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A copy under way finishes before the database closes under it.
      await Promise.allSettled([...working]);
      await closed;
      await rm(socketPath, { force: true });
    },
  };
}

/** The site does not answer on DATA_DIR/backup.sock (an older version, or still starting). */
export class NoBackupSocket extends Error {
  override name = "NoBackupSocket";
}

/** Asks the running server for a snapshot; the copy is the caller's to read and delete. */
export async function requestSnapshot(socketPath: string): Promise<{ path: string; ms: number }> {
  const socket = connect(socketPath);
  socket.on("error", () => {});
  try {
    await once(socket, "connect");
  } catch (error) {
    socket.destroy();
    throw new NoBackupSocket((error as Error).message);
  }
  socket.write(`snapshot ${process.pid}\n`);
  let text = "";
  for await (const chunk of socket as AsyncIterable<Buffer>) text += chunk.toString("utf8");
  let reply: { path?: unknown; ms?: unknown; error?: unknown };
  try {
    reply = JSON.parse(text) as typeof reply;
  } catch {
    throw new Error("the site closed the backup socket without an answer (its log says why)");
  }
  if (typeof reply.error === "string") throw new Error(reply.error);
  if (typeof reply.path !== "string" || typeof reply.ms !== "number")
    throw new Error("the site answered something other than a snapshot");
  return { path: reply.path, ms: reply.ms };
}
