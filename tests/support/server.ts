/**
 * Extra server instances for tests that need their own configuration (a low rate limit, a
 * PostgreSQL URL, a collector) or that kill the process. They run the same production build.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { codesFromInbox, type CodeSource } from "#tests/support/admin-passkey.ts";
import { E2E_EMULATOR_HOST, E2E_PROJECT_ID } from "#tests/support/e2e-env.ts";

export type RunningServer = {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
  /**
   * Where its mailed admin codes are read (decision 039): its local inbox when no SMTP_URL is set;
   * the ownServer fixture reads its mail sink instead.
   */
  adminCodes: CodeSource;
};

// TEST_SERVER_PORT_BASE moves the range when another suite already uses 3300 and up on this machine.
// The range is the worker's slot's (TEST_PARALLEL_INDEX, below --workers), not its number: a spec
// with worker fixtures of its own starts workers of its own, and their numbers keep growing.
let nextPort =
  Number(process.env.TEST_SERVER_PORT_BASE ?? 3300) +
  Number(process.env.TEST_PARALLEL_INDEX ?? 0) * 20;

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
      .once("error", () => resolve(false))
      .listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/**
 * The next port nobody listens on. Another worker's range may reach this far, or a server of a
 * test that timed out may still hold a port: a test must never take such a server for its own.
 */
async function freePort(): Promise<number> {
  while (!(await portIsFree(nextPort))) nextPort++;
  return nextPort++;
}

// A test that times out never reaches its `finally`: its servers end with the worker at the latest.
const running = new Set<ChildProcess>();
// The data folders this worker made: kept while it runs (a test may restart a server on its
// folder), removed when it ends, so a full run does not leave a database per server behind.
const madeDataDirs = new Set<string>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
  // A server killed just now may still be closing its files: retried, and never an error here.
  for (const dir of madeDataDirs) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // left for the system's temporary-file cleaning
    }
  }
});

type StartOptions = {
  /** A data folder of the test's own (a restart on the same database); a new one by default. */
  dataDir?: string;
  /** Another checkout's build to run (a build made by the test), this one's by default. */
  root?: string;
  /**
   * Started exactly as `npm start` starts it (npm, then scripts/start.mjs), so that `process` is
   * npm's, as a supervisor that ran `npm start` holds it.
   */
  npmStart?: boolean;
};

/** The server could not listen: a port found free was taken before it started listening. */
class PortTaken extends Error {}

/** How many times a server is started on new ports when the ones it was given were taken. */
const PORT_ATTEMPTS = 3;

/**
 * A server of the production build, on ports found free. Another worker's server, or a client's
 * connection, can take a port between the check and the server's listen; then the server stops
 * with EADDRINUSE before it has served anything, and is started again on other ports.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RunningServer> {
  let dataDir = options.dataDir;
  if (dataDir === undefined) {
    dataDir = mkdtempSync(path.join(tmpdir(), "tieout-test-"));
    madeDataDirs.add(dataDir);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, { ...options, dataDir });
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

async function startOnce(
  env: Record<string, string>,
  options: StartOptions & { dataDir: string },
): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Without SMTP_URL its mail goes to its local inbox, on ports of its own so a test can read it.
  const inbox =
    env.SMTP_URL === undefined ? { web: await freePort(), smtp: await freePort() } : undefined;
  const { dataDir } = options;
  const [command, args] = options.npmStart
    ? ["npm", ["start", "--silent"]]
    : [process.execPath, [path.resolve(options.root ?? ".", "build/server/app.js")]];
  const child = spawn(command, args, {
    cwd: options.root ?? ".",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      LOG_LEVEL: "warn",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: url,
      DATA_DIR: dataDir,
      FIREBASE_PROJECT_ID: E2E_PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR_HOST,
      WAITLIST_RATE_LIMIT: "0",
      SESSION_RATE_LIMIT: "0",
      ...(inbox
        ? { MAIL_CATCHER_WEB_PORT: String(inbox.web), MAIL_CATCHER_SMTP_PORT: String(inbox.smtp) }
        : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const server: RunningServer = {
    url,
    port,
    dataDir,
    process: child,
    output: () => output,
    adminCodes: inbox
      ? codesFromInbox(`http://127.0.0.1:${inbox.web}`)
      : () =>
          Promise.reject(
            new Error("this server sends mail to SMTP_URL: read the codes from its sink"),
          ),
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const message = `server exited with ${child.exitCode}:\n${output}`;
      throw /\bEADDRINUSE\b/.test(output) ? new PortTaken(message) : new Error(message);
    }
    try {
      if ((await fetch(`${url}/api/health`)).status < 500) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.stop("SIGKILL");
  throw new Error(`server did not start:\n${output}`);
}

/** Runs a server that is expected to refuse to start; resolves with its exit code and output. */
export async function runServerExpectingExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["build/server/app.js"], {
    env: {
      PATH: process.env.PATH ?? "",
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      PORT: String(nextPort++),
      // The suite's emulator, so that a set-up refused after the emulator step starts none.
      FIREBASE_PROJECT_ID: E2E_PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR_HOST,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearTimeout(timer);
  return { code, output };
}

/** A server that starts again on its own data folder and settings, as a site does after a deploy. */
export type RestartableServer = RunningServer & {
  /**
   * Stops it if it runs, then starts it again on the same data folder and settings; `root`, another
   * checkout's build to run (a deploy). Its `url`, `port`, `process` and `output` are then the new
   * process's: read them after.
   */
  restart: (options?: { root?: string }) => Promise<void>;
};

export async function startRestartableServer(
  env: Record<string, string>,
): Promise<RestartableServer> {
  let current = await startServer(env);
  return {
    get url() {
      return current.url;
    },
    get port() {
      return current.port;
    },
    get dataDir() {
      return current.dataDir;
    },
    get process() {
      return current.process;
    },
    output: () => current.output(),
    get adminCodes() {
      return current.adminCodes;
    },
    stop: (signal) => current.stop(signal),
    async restart(options = {}) {
      await current.stop();
      current = await startServer(env, { dataDir: current.dataDir, root: options.root });
    },
  };
}
