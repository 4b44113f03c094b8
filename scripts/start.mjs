// `npm start`: builds when the sources are newer than the last build, then runs the production
// server. Reads .env when there is one.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
if (existsSync(".env")) process.loadEnvFile(".env");

const INPUTS = ["src", "server", "public", "package.json", "package-lock.json", "vite.config.ts", "react-router.config.ts", "scripts/build.mjs"];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(p).reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), s.mtimeMs);
}

const stamp = path.join(root, "build/.stamp");
const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
if (builtAt === 0 || INPUTS.some((p) => newestMtime(path.join(root, p)) > builtAt)) {
  console.log(builtAt === 0 ? "No build yet: building first." : "Sources changed since the last build: rebuilding.");
  execFileSync(process.execPath, [path.join(root, "scripts/build.mjs")], { stdio: "inherit" });
}

await import(path.join(root, "build/server/app.js"));
