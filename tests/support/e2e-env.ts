/**
 * Where the end-to-end suite's own server, emulator and data live (apart from a developer's
 * `npm start`), and how Chromium is started. Free of side effects: scripts import it too.
 */
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${E2E_PORT}`;
export const E2E_EMULATOR_HOST = process.env.E2E_EMULATOR_HOST ?? "127.0.0.1:9199";
export const E2E_PROJECT_ID = "demo-tieout-e2e";
export const E2E_DATA_DIR = path.join(tmpdir(), `tieout-e2e-${E2E_PORT}`);
/**
 * The main server's local inbox (no SMTP_URL): its mail catcher on fixed ports beside the server,
 * so a test can read what it sent, such as an administrator's code (decision 039).
 */
export const E2E_INBOX_PORT = E2E_PORT + 90;
export const E2E_INBOX_SMTP_PORT = E2E_PORT + 91;
export const E2E_INBOX_URL = `http://127.0.0.1:${E2E_INBOX_PORT}`;
export const E2E_ADMIN_EMAIL = "admin@tieout.test";
export const E2E_UNVERIFIED_ADMIN_EMAIL = "unverified-admin@tieout.test";
/**
 * Administrators of the main server who enrol a passkey, one per test that does (the mailed code
 * is limited per administrator): the first four for the passkey spec, the rest for the broadcasts
 * spec (tests/e2e/broadcasts.spec.ts).
 */
export const E2E_PASSKEY_ADMINS = [1, 2, 3, 4, 5, 6, 7, 8].map(
  (n) => `passkey-admin-${n}@tieout.test`,
);

/**
 * Debian's Chromium headless shell (package `chromium-headless-shell`): the same engine and version
 * as its `chromium`, without the browser's own window. Since Chromium 156 that window loads a web
 * page of its own (the address bar's suggestions) for every new context, a third of a second of CPU
 * each time, beside the page being tested or measured (decision 050).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
/**
 * The whole browser, for Lighthouse: it loads one page and cannot be asked to `quietPointer` it
 * first, and the shell's pointer would start that page's app (decision 050).
 */
export const FULL_CHROMIUM_PATH = process.env.FULL_CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The headless shell keeps its pointer at (0, 0), over the page, and sends the first document a
 * page loads a mousemove there, as if a person's mouse rested on it: that page's app would start
 * before the test or bench did anything (decision 050). A blank document loaded first takes it.
 * The tests' `page` fixture has had it; whatever opens pages of its own calls this on each.
 */
export async function quietPointer(page: Page): Promise<void> {
  await page.setContent("");
}
/** Chromium on a closed network: no sandbox (root), no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
