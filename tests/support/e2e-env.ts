/**
 * Where the end-to-end suite's own server, emulator and data live (apart from a developer's
 * `npm start`), and how Chromium is started. Free of side effects: scripts import it too.
 */
import { tmpdir } from "node:os";
import path from "node:path";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${E2E_PORT}`;
export const E2E_EMULATOR_HOST = process.env.E2E_EMULATOR_HOST ?? "127.0.0.1:9199";
export const E2E_PROJECT_ID = "demo-tieout-e2e";
export const E2E_DATA_DIR = path.join(tmpdir(), `tieout-e2e-${E2E_PORT}`);
export const E2E_ADMIN_EMAIL = "admin@tieout.test";
export const E2E_UNVERIFIED_ADMIN_EMAIL = "unverified-admin@tieout.test";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Debian's Chromium on a closed network: no sandbox (root), no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
