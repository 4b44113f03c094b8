// Starts the Firebase Auth emulator (firebase-tools, offline, no account needed) unless one already
// answers at the address. Used through server/identity/auth-emulator.ts by the server in emulator mode
// (`npm start`, `npm run dev`, the tests).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

async function answers(host) {
  try {
    const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** @returns {Promise<{ stop: () => Promise<void>, started: boolean }>} */
export async function startAuthEmulator({ projectId, host }) {
  if (await answers(host)) return { stop: () => Promise.resolve(), started: false };
  const [hostname, port] = host.split(":");
  const dir = mkdtempSync(path.join(tmpdir(), "tieout-auth-emulator-"));
  const config = path.join(dir, "firebase.json");
  writeFileSync(
    config,
    JSON.stringify({
      emulators: {
        auth: { host: hostname, port: Number(port) },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  // Found by Node's resolution, not by a path relative to this file: this file is bundled into
  // build/server/main.js. Resolved only here, as firebase-tools is a dev dependency that a
  // deployment with a real Firebase project may not install.
  const cli = createRequire(import.meta.url).resolve("firebase-tools/lib/bin/firebase.js");
  const child = spawn(
    process.execPath,
    [cli, "emulators:start", "--only", "auth", "--project", projectId, "--config", config],
    {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_UPDATE_NOTIFIER: "1", FIREBASE_CLI_EXPERIMENTS: "" },
    },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  // Its folder holds only the config written above: gone once the emulator is.
  const exited = new Promise((resolve) => child.once("exit", resolve)).then((code) => {
    rmSync(dir, { recursive: true, force: true });
    return code;
  });
  /** Asks the emulator to stop and resolves once it has (it may be reused at once by a new start). */
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  // The safety net for an exit that skips the caller's shutdown (process.exit after a failed step).
  process.on("exit", () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  });

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await answers(host)) return { stop, started: true };
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`The Firebase Auth emulator did not start at ${host}:\n${output.slice(-2000)}`);
}
