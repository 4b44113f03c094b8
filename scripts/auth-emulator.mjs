// Starts the Firebase Auth emulator (firebase-tools, offline, no account needed) unless one already
// answers at the address. Used by `npm start` and the tests in emulator mode.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

async function answers(host) {
  try {
    const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** @returns {Promise<{ stop: () => void, started: boolean }>} */
export async function startAuthEmulator({ projectId, host }) {
  if (await answers(host)) return { stop() {}, started: false };
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
  const child = spawn(
    process.execPath,
    [
      path.join(root, "node_modules/firebase-tools/lib/bin/firebase.js"),
      "emulators:start",
      "--only",
      "auth",
      "--project",
      projectId,
      "--config",
      config,
    ],
    {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_UPDATE_NOTIFIER: "1", FIREBASE_CLI_EXPERIMENTS: "" },
    },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGTERM");
  };
  process.on("exit", stop);

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await answers(host)) return { stop, started: true };
    await new Promise((r) => setTimeout(r, 250));
  }
  stop();
  throw new Error(`The Firebase Auth emulator did not start at ${host}:\n${output.slice(-2000)}`);
}
