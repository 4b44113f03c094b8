/**
 * The operator's admin commands (decision 039), for whoever runs the server and so holds the
 * database anyway: `reset-passkeys EMAIL`, the way back in for a sole administrator who lost every
 * passkey and code, and `export-token EMAIL [--days N]`, a new export token printed once. Each is
 * an Activity row and a mail to the administrator concerned.
 *
 * `npm run admin` runs them against the database directly when it can; with the embedded database
 * and the site running (one process per folder), it asks the site on DATA_DIR/admin.sock instead,
 * as `npm run backup` does (decision 027): a Unix socket of mode 0600, nothing on the network. One
 * JSON line each way: the command, then `{"output": "..."}` or `{"error": "..."}`.
 */
import { once } from "node:events";
import { chmod, rm } from "node:fs/promises";
import { connect, createServer, type Socket } from "node:net";
import path from "node:path";
import {
  VerificationRefused,
  type AdminVerification,
} from "#server/identity/admin-verification.ts";
import { EXPORT_TOKEN_MAX_DAYS } from "#server/identity/admin-credentials.ts";

const ADMIN_USAGE = [
  "Usage:",
  "  npm run admin -- reset-passkeys EMAIL           removes an administrator's passkeys and",
  "                                                  recovery codes and ends their sessions",
  `  npm run admin -- export-token EMAIL [--days N]  prints a new export token (N: 1 to ${EXPORT_TOKEN_MAX_DAYS}, 30 by default)`,
].join("\n");

export type AdminCommand =
  | { command: "reset-passkeys"; email: string }
  | { command: "export-token"; email: string; days: number };

/** The command its arguments name, or the sentence that says what is wrong with them. */
export function parseAdminCommand(args: readonly string[]): AdminCommand | string {
  const [command, email, ...rest] = args;
  if (command === "reset-passkeys") {
    if (!email || rest.length > 0) return ADMIN_USAGE;
    return { command, email };
  }
  if (command === "export-token") {
    if (!email) return ADMIN_USAGE;
    let days = 30;
    if (rest.length > 0) {
      const [flag, value, ...more] = rest;
      if (flag !== "--days" || !value || more.length > 0) return ADMIN_USAGE;
      if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > EXPORT_TOKEN_MAX_DAYS)
        return `--days must be a whole number from 1 to ${EXPORT_TOKEN_MAX_DAYS}.`;
      days = Number(value);
    }
    return { command, email, days };
  }
  return ADMIN_USAGE;
}

/** A command from the socket's JSON line, checked as the arguments are. */
function commandOf(value: unknown): AdminCommand | string {
  const v = value as Partial<Record<string, unknown>> | null;
  if (!v || typeof v.email !== "string") return "unknown request";
  if (v.command === "reset-passkeys") return { command: "reset-passkeys", email: v.email };
  if (v.command === "export-token" && typeof v.days === "number")
    return parseAdminCommand(["export-token", v.email, "--days", String(v.days)]);
  return "unknown request";
}

const OPERATOR = { adminEmail: null, label: "The site's operator", clientAddress: "operator" };

/** Runs a command; its output (for export-token, the token alone) or a refusal's sentence. */
export async function runAdminCommand(
  verification: AdminVerification,
  command: AdminCommand,
): Promise<{ output: string } | { error: string }> {
  try {
    if (command.command === "reset-passkeys") {
      const removed = await verification.resetPasskeys(command.email, OPERATOR);
      return {
        output: `Removed ${removed} ${removed === 1 ? "passkey" : "passkeys"} and every recovery code of ${command.email.trim().toLowerCase()}, ended their sessions, and mailed them. They set up a new passkey with a mailed code at their next sign-in.`,
      };
    }
    const made = await verification.createExportToken(
      command.email,
      "Made by npm run admin",
      command.days,
      OPERATOR,
    );
    return { output: made.token };
  } catch (error) {
    if (error instanceof VerificationRefused) return { error: error.message };
    throw error;
  }
}

function adminSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), "admin.sock");
}

type Log = { warn: (details: object, message: string) => void };

/** Listens on DATA_DIR/admin.sock while the site runs (the embedded database only). */
export async function serveAdminCommands(options: {
  dataDir: string;
  verification: AdminVerification;
  log: Log;
}): Promise<{ close: () => Promise<void> }> {
  const socketPath = adminSocketPath(options.dataDir);
  if (Buffer.byteLength(socketPath) > 103) {
    options.log.warn(
      { event: "admin.socket_unavailable", socketPath },
      "DATA_DIR's path is too long for the admin socket: stop the site to run npm run admin",
    );
    return { close: async () => {} };
  }
  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.on("close", () => connections.delete(socket));
    socket.on("error", () => {});
    socket.setTimeout(10_000, () => socket.destroy());
    let request = "";
    const onData = (chunk: Buffer) => {
      request += chunk.toString("utf8");
      if (!request.includes("\n") && request.length < 1024) return;
      socket.off("data", onData);
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(request.split("\n")[0] ?? "");
      } catch {
        // Answered as an unknown request below.
      }
      const command = commandOf(parsed);
      void (
        typeof command === "string"
          ? Promise.resolve({ error: command })
          : runAdminCommand(options.verification, command).catch((error: unknown) => ({
              error: `the site could not do it: ${(error as Error).message}`,
            }))
      ).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    };
    socket.on("data", onData);
  });
  await rm(socketPath, { force: true });
  server.listen(socketPath);
  await once(server, "listening");
  await chmod(socketPath, 0o600);
  return {
    close: async () => {
      for (const socket of connections) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}

/** No site answers on the socket: the command may open the database itself. */
export class NoAdminSocket extends Error {
  override name = "NoAdminSocket";
}

/** Asks the running site to run a command. */
export async function askTheSite(
  dataDir: string,
  command: AdminCommand,
): Promise<{ output: string } | { error: string }> {
  const socket = connect(adminSocketPath(dataDir));
  try {
    await once(socket, "connect");
  } catch {
    socket.destroy();
    throw new NoAdminSocket();
  }
  socket.write(`${JSON.stringify(command)}\n`);
  let answer = "";
  for await (const chunk of socket) answer += (chunk as Buffer).toString("utf8");
  try {
    return JSON.parse(answer) as { output: string } | { error: string };
  } catch {
    return { error: "the site gave no answer" };
  }
}
