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
 * The exchange, one line each way: `snapshot\n`, then
 * `{"path": "<the copy>", "ms": <how long the database was held>}` or `{"error": "<why>"}`. The
 * command keeps the connection open while it reads the copy: when it closes, however the command
 * ended (done, failed, killed, in whatever container), the server deletes the copy. No process id
 * is trusted, since the command may run in another PID namespace than the server.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { chmod, readdir, rm, stat } from "node:fs/promises";
import { connect, createServer, type Socket } from "node:net";
import path from "node:path";

/** sun_path holds 108 bytes on Linux, 104 on macOS, terminator included. */
const SOCKET_PATH_LIMIT = 103;
const SNAPSHOT_PREFIX = "backup-snapshot-";
/**
 * A copy this old when a server starts was left by a command that outlived the server before it
 * (whose connection went with it) and then died too: no dump takes a day.
 */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

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

/**
 * Copies left behind: a command's copy is deleted when its connection closes, so what is left at
 * start-up belongs to a server that stopped (a command may still be reading it: only a day-old
 * copy is deleted).
 */
async function removeAbandonedSnapshots(dir: string) {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(SNAPSHOT_PREFIX)) continue;
    const at = path.join(dir, name);
    const age = await stat(at).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (age > ABANDONED_AFTER_MS) await rm(at, { recursive: true, force: true });
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

  let closing = false;

  async function answer(request: string, to: string): Promise<object> {
    // An older command also sends its pid, which means nothing here.
    if (!/^snapshot( \d{1,10})?\n$/.test(request))
      return { error: "unknown request: this site answers `snapshot`" };
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

  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.on("close", () => connections.delete(socket));
    socket.on("error", () => {});
    // The request line, within 10 seconds of connecting.
    socket.setTimeout(10_000, () => socket.destroy());
    let request = "";
    const onData = (chunk: Buffer) => {
      request += chunk.toString("latin1");
      if (!request.includes("\n") && request.length < 32) return;
      socket.off("data", onData);
      socket.setTimeout(0);
      // The copy lives as long as the command's connection: it is deleted when that closes, unless
      // this server is stopping (the command may still be reading it; it deletes it itself).
      const to = path.join(dir, `${SNAPSHOT_PREFIX}${randomUUID()}`);
      socket.on("close", () => {
        if (!closing) void rm(to, { recursive: true, force: true });
      });
      const done = answer(request, to)
        .then(async (reply) => {
          // A command gone while its copy was made: nobody will close anything for it again.
          if (socket.destroyed && !closing) await rm(to, { recursive: true, force: true });
          else if ("error" in reply) socket.end(`${JSON.stringify(reply)}\n`);
          else socket.write(`${JSON.stringify(reply)}\n`);
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
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A copy under way finishes before the database closes under it; a command still reading
      // its copy goes on reading it, and deletes it itself.
      await Promise.allSettled([...working]);
      for (const socket of connections) socket.destroy();
      await closed;
      await rm(socketPath, { force: true });
    },
  };
}

/** The site does not answer on DATA_DIR/backup.sock (an older version, or still starting). */
export class NoBackupSocket extends Error {
  override name = "NoBackupSocket";
}

/**
 * Asks the running server for a snapshot. The copy is the caller's to read; `done` closes the
 * connection, and the server then deletes the copy (the caller may delete it first). A caller
 * that dies closes it all the same.
 */
export async function requestSnapshot(
  socketPath: string,
): Promise<{ path: string; ms: number; done: () => void }> {
  const socket = connect(socketPath);
  socket.on("error", () => {});
  try {
    await once(socket, "connect");
  } catch (error) {
    socket.destroy();
    throw new NoBackupSocket((error as Error).message);
  }
  socket.write("snapshot\n");
  // The answer's line; the connection stays open (leaving a stream's iterator would close it).
  const text = await new Promise<string>((resolve) => {
    let received = "";
    const onData = (chunk: Buffer) => {
      received += chunk.toString("utf8");
      if (received.includes("\n")) finish();
    };
    const finish = () => {
      socket.off("data", onData).off("close", finish);
      resolve(received);
    };
    socket.on("data", onData).on("close", finish);
  });
  let reply: { path?: unknown; ms?: unknown; error?: unknown };
  try {
    reply = JSON.parse(text) as typeof reply;
  } catch {
    socket.destroy();
    throw new Error("the site closed the backup socket without an answer (its log says why)");
  }
  if (
    typeof reply.error === "string" ||
    typeof reply.path !== "string" ||
    typeof reply.ms !== "number"
  ) {
    socket.destroy();
    if (typeof reply.error === "string") throw new Error(reply.error);
    throw new Error("the site answered something other than a snapshot");
  }
  return { path: reply.path, ms: reply.ms, done: () => socket.destroy() };
}
