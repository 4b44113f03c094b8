// The browser tests use Debian's Chromium (Playwright's own download cannot reach its host here).
// Installs it when missing, so `npm test` works on a fresh machine.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const asRoot = process.getuid?.() === 0 ? [] : ["sudo"];

function run(args) {
  const [bin, ...rest] = [...asRoot, ...args];
  execFileSync(bin, rest, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

if (!existsSync(CHROMIUM)) {
  console.log("Chromium not found: installing Debian's chromium package.");
  run(["apt-get", "update", "-qq"]);
  run(["apt-get", "install", "-y", "-qq", "chromium"]);
}
