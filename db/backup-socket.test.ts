/**
 * The backup socket's copies live as long as the command's connection (decision 027): no process
 * id is trusted, so a command in another container is treated like one beside the server.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { connect } from "node:net";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { backupSocketPath, requestSnapshot, serveBackups } from "#db/backup-socket.ts";

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

/** A server whose "database" is one file, copied as the real snapshotter copies a folder. */
async function site(dataDir?: string) {
  const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), "backup-socket-")));
  if (!dataDir) cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const served = await serveBackups({
    dataDir: dir,
    log: quiet,
    snapshot: async (to) => {
      await mkdir(to);
      await writeFile(path.join(to, "data"), "rows");
    },
  });
  return { dir, served, socket: backupSocketPath(dir) };
}

/** Until `check` holds (the server deletes on an event it hears a moment later). */
async function eventually(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  return check();
}

test("each command gets a copy of its own, deleted when its connection closes, however it ended", async () => {
  const { served, socket } = await site();
  cleanups.push(() => served.close());
  const [first, second] = await Promise.all([requestSnapshot(socket), requestSnapshot(socket)]);
  expect(first.path).not.toBe(second.path);
  expect(existsSync(path.join(first.path, "data"))).toBe(true);

  // A command that dies without deleting its copy: the closed connection is enough.
  first.done();
  expect(await eventually(() => !existsSync(first.path))).toBe(true);
  expect(existsSync(second.path)).toBe(true);
  second.done();
  expect(await eventually(() => !existsSync(second.path))).toBe(true);
});

test("a server that stops leaves a copy being read; the next one deletes only copies a day old", async () => {
  const { dir, served, socket } = await site();
  const reading = await requestSnapshot(socket);
  await served.close();
  expect(existsSync(reading.path)).toBe(true);

  const old = path.join(dir, "backup-snapshot-left-by-a-crash");
  await mkdir(old);
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
  await utimes(old, twoDaysAgo, twoDaysAgo);
  const next = await site(dir);
  cleanups.push(() => next.served.close());
  expect(existsSync(old)).toBe(false);
  expect(existsSync(reading.path)).toBe(true);
  reading.done();
});

test("an older command's request, with its pid, is still answered", async () => {
  const { served, socket } = await site();
  cleanups.push(() => served.close());
  const client = connect(socket);
  client.write("snapshot 4242\n");
  const line = await new Promise<string>((resolve) =>
    client.once("data", (chunk: Buffer) => resolve(chunk.toString())),
  );
  const reply = JSON.parse(line) as { path?: string };
  expect(reply.path).toContain("backup-snapshot-");
  client.destroy();
});
