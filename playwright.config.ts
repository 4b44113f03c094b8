import { defineConfig } from "@playwright/test";
import {
  BASE_URL,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  E2E_ADMIN_EMAIL,
  E2E_INBOX_PORT,
  E2E_INBOX_SMTP_PORT,
  E2E_PASSKEY_ADMINS,
  E2E_DATA_DIR,
  E2E_EMULATOR_HOST,
  E2E_PORT,
  E2E_PROJECT_ID,
  E2E_UNVERIFIED_ADMIN_EMAIL,
} from "./tests/support/e2e-env.ts";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: [["list"]],
  timeout: 30_000,
  use: {
    baseURL: BASE_URL,
    trace: "on-first-retry",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    // The production build, as `npm start` serves it (building first when needed), on a fresh data
    // folder. The folder is emptied here, when this run starts its own server, and not when the
    // config is read: `playwright test --list` beside a running suite must not pull its database
    // away (and when the port is taken, Playwright stops before this command runs).
    command: 'rm -rf "$DATA_DIR" && exec node scripts/start.mjs',
    url: `${BASE_URL}/robots.txt`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      LOG_LEVEL: "warn",
      PORT: String(E2E_PORT),
      HOST: "127.0.0.1",
      SITE_URL: BASE_URL,
      DATA_DIR: E2E_DATA_DIR,
      FIREBASE_PROJECT_ID: E2E_PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR_HOST,
      FIREBASE_API_KEY: "",
      ADMIN_EMAILS: [E2E_ADMIN_EMAIL, E2E_UNVERIFIED_ADMIN_EMAIL, ...E2E_PASSKEY_ADMINS].join(","),
      MAIL_CATCHER_WEB_PORT: String(E2E_INBOX_PORT),
      MAIL_CATCHER_SMTP_PORT: String(E2E_INBOX_SMTP_PORT),
      // The main test server does not limit; the rate-limit tests start servers of their own.
      WAITLIST_RATE_LIMIT: "0",
      SESSION_RATE_LIMIT: "0",
    },
  },
});
