import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;
/** The test server's own Auth emulator and data folder, apart from a developer's `npm start`. */
export const E2E_EMULATOR_HOST = process.env.E2E_EMULATOR_HOST ?? "127.0.0.1:9199";
export const E2E_PROJECT_ID = "demo-tieout-e2e";
export const E2E_DATA_DIR = path.join(tmpdir(), `tieout-e2e-${PORT}`);
export const E2E_ADMIN_EMAIL = "admin@tieout.test";
export const E2E_UNVERIFIED_ADMIN_EMAIL = "unverified-admin@tieout.test";

// A fresh data folder for every run (the config is also loaded by each worker: only the runner wipes).
if (!process.env.TEST_WORKER_INDEX) rmSync(E2E_DATA_DIR, { recursive: true, force: true });

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 30_000,
  use: {
    baseURL: BASE_URL,
    trace: "on-first-retry",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    // The production build, as `npm start` serves it (building first when needed).
    command: "node scripts/start.mjs",
    url: `${BASE_URL}/robots.txt`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NODE_ENV: "test",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      SITE_URL: BASE_URL,
      DATA_DIR: E2E_DATA_DIR,
      FIREBASE_PROJECT_ID: E2E_PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR_HOST,
      FIREBASE_API_KEY: "",
      ADMIN_EMAILS: `${E2E_ADMIN_EMAIL},${E2E_UNVERIFIED_ADMIN_EMAIL}`,
      // The main test server does not limit; the rate-limit tests start servers of their own.
      WAITLIST_RATE_LIMIT: "0",
    },
  },
});
