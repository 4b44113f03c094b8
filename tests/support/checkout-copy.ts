/**
 * A copy of this checkout in a scratch folder, for tests of what an operator's edit to the sources
 * does once built: the files the build reads, node_modules linked, not copied. `build` runs
 * scripts/build.mjs there, exactly as `npm run build` does; startServer({ root }) runs the result.
 */
import { spawn } from "node:child_process";
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const BUILD_INPUTS = [
  "src",
  "server",
  "db",
  "public",
  "scripts",
  "package.json",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
];

export type CheckoutCopy = {
  root: string;
  /** Rewrites one file of the copy (path relative to its root) with `change`. */
  edit: (file: string, change: (text: string) => string) => void;
  /** Runs the build; resolves with its exit code and everything it printed. */
  build: () => Promise<{ code: number | null; output: string }>;
  remove: () => void;
};

export function copyCheckout(): CheckoutCopy {
  const root = mkdtempSync(path.join(tmpdir(), "tieout-checkout-"));
  for (const input of BUILD_INPUTS) cpSync(input, path.join(root, input), { recursive: true });
  symlinkSync(realpathSync("node_modules"), path.join(root, "node_modules"), "dir");
  return {
    root,
    edit(file, change) {
      const target = path.join(root, file);
      const before = readFileSync(target, "utf8");
      const after = change(before);
      if (after === before) throw new Error(`The edit changed nothing in ${file}`);
      writeFileSync(target, after);
    },
    build() {
      const child = spawn(process.execPath, ["scripts/build.mjs"], {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr.on("data", (c: Buffer) => (output += c.toString()));
      return new Promise((resolve) => child.on("exit", (code) => resolve({ code, output })));
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
