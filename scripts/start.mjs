// `npm start`: reads .env when there is one, builds when the sources are newer than the last
// build, then runs the production server. Everything else at start-up (the configuration, the
// Auth emulator, the database) is the server's: server/index.ts, step by step.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

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
  "scripts/auth-emulator.mjs",
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

// server/production.ts: NODE_ENV=production before React loads, then the server (decision 009).
await import(path.join(root, "build/server/app.js"));
