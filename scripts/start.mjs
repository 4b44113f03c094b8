// `npm start`: builds when the sources are newer than the last build, then runs the production
// server. Reads .env when there is one.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { startAuthEmulator } from "./auth-emulator.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
if (existsSync(".env")) process.loadEnvFile(".env");

const INPUTS = [
  "src",
  "server",
  "db",
  "public",
  "package.json",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
  "scripts/build.mjs",
  "scripts/hydration-loader.mjs",
];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(p).reduce(
    (max, name) => Math.max(max, newestMtime(path.join(p, name))),
    s.mtimeMs,
  );
}

const stamp = path.join(root, "build/.stamp");
const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
if (builtAt === 0 || INPUTS.some((p) => newestMtime(path.join(root, p)) > builtAt)) {
  console.log(
    builtAt === 0
      ? "No build yet: building first."
      : "Sources changed since the last build: rebuilding.",
  );
  execFileSync(process.execPath, [path.join(root, "scripts/build.mjs")], { stdio: "inherit" });
}

// Emulator mode (no real Firebase project configured): run the Auth emulator beside the site.
const blank = (v) => v === undefined || v.trim() === "";
if (blank(process.env.FIREBASE_API_KEY)) {
  const host = blank(process.env.FIREBASE_AUTH_EMULATOR_HOST)
    ? "127.0.0.1:9099"
    : process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const projectId = blank(process.env.FIREBASE_PROJECT_ID)
    ? "demo-tieout"
    : process.env.FIREBASE_PROJECT_ID;
  if (/^demo-[a-z0-9-]+$/.test(projectId) && /^[A-Za-z0-9.-]+:\d{1,5}$/.test(host)) {
    const emulator = await startAuthEmulator({ projectId, host });
    if (emulator.started)
      console.log(`Firebase Auth emulator (project ${projectId}) at http://${host}`);
  }
  // Otherwise the server's own configuration check explains what is wrong and stops.
}

await import(path.join(root, "build/server/app.js"));
