import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { test as base, expect, type ConsoleMessage, type Page } from "@playwright/test";
import {
  DEFER_ATTRIBUTE,
  DOCUMENT_VALUE,
  HYDRATED_ATTRIBUTE,
} from "#src/lib/hydration-protocol.ts";
import {
  createVerifiedAccount,
  deleteAccount,
  ensureAdmin,
  signInBrowser,
  signOut,
  type Account,
} from "#tests/support/accounts.ts";
import type { ExpectedConsoleError } from "#tests/support/console-messages.ts";
import { quietPointer } from "#tests/support/e2e-env.ts";
import { startRestartableServer, type RestartableServer } from "#tests/support/server.ts";
import { codesFromSink, useCookie, verifyMainAdmin } from "#tests/support/admin-passkey.ts";
import { startTestSmtp, type TestSmtp } from "#tests/support/test-smtp.ts";

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** An account signed in on the test server; `cookie` is its session cookie's `name=value`. */
type SignedIn = Account & { cookie: string };

type Fixtures = {
  /**
   * Console errors the test expects, from console-messages.ts; any other one fails the test. One
   * that never comes is fine.
   */
  expectedConsoleErrors: ExpectedConsoleError[];
  /** A new account with a verified email, signed in nowhere yet; deleted after the test. */
  newUser: Account;
  /** The administrator (E2E_ADMIN_EMAIL), signed in nowhere by this fixture; shared by all tests. */
  admin: Account;
  /**
   * `newUser`, signed in on the test server as after the sign-in form: `page`, and `page.request`,
   * carry the session. Signed out and deleted after the test.
   */
  signedInUser: SignedIn;
  /**
   * `admin`, signed in on the test server the same way; signed out after the test. A browser holds
   * one session, so a test takes this or `signedInUser`, not both.
   */
  signedInAdmin: SignedIn;
  /** Makes a new empty folder for the test; each is removed after it. */
  newFolder: () => string;
};

type WorkerFixtures = {
  /**
   * The settings of this spec's own server, over those of server.ts (SMTP_URL is `mailSink`'s). A
   * spec that asks for `ownServer` or `mailSink` sets it once, at its top, even to `{}`: a worker
   * option set in a spec gives the spec workers of its own, so that its server and its mail are
   * nobody else's, and end with those workers.
   */
  ownServerEnv: Record<string, string> | undefined;
  /**
   * A real SMTP server on loopback that keeps every mail it accepts (test-smtp.ts; read it with
   * mailbox.ts): this spec's, for all its tests in the worker.
   */
  mailSink: TestSmtp;
  /**
   * The production build with `ownServerEnv`, on a port and a data folder of its own, sending its
   * mail to `mailSink`: this spec's, for all its tests in the worker. A test may stop it (to read
   * its database) and restart it.
   */
  ownServer: RestartableServer;
};

/** `ownServerEnv`, which a spec that asks for its own server or mail must have set. */
function requireOwnServerEnv(env: Record<string, string> | undefined, fixture: string) {
  if (env === undefined)
    throw new Error(
      `${fixture} is a spec's own: set test.use({ ownServerEnv: { ... } }) at the top of the spec`,
    );
  return env;
}

/** Why a console error is not one the test expects, or null when it is. */
async function unexpected(
  message: ConsoleMessage,
  expected: readonly ExpectedConsoleError[],
): Promise<string | null> {
  const text = message.text();
  if (expected.some((e) => e === text)) return null;
  // The app's own console.error(message, error): the message, without the error's own words.
  const first: unknown = await message.args()[0]?.jsonValue();
  if (expected.some((e) => e === first)) return null;
  return `console.error: ${text}`;
}

/**
 * Every browser test fails on an uncaught page error or an unexpected console error: that is how a
 * hydration mismatch or a CSP violation shows up.
 */
export const test = base.extend<Fixtures, WorkerFixtures>({
  expectedConsoleErrors: [[], { option: true }],
  page: async ({ page, expectedConsoleErrors }, use) => {
    await quietPointer(page);
    const problems: Promise<string | null>[] = [];
    page.on("pageerror", (error) => problems.push(Promise.resolve(`pageerror: ${error.message}`)));
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      // The first argument is read now, while the page that logged it is still there.
      problems.push(
        unexpected(message, expectedConsoleErrors).catch(
          (error: unknown) => `console.error: ${message.text()} (unread: ${String(error)})`,
        ),
      );
    });
    await use(page);
    const found = (await Promise.all(problems)).filter((p) => p !== null);
    expect(found, "the page logged errors").toEqual([]);
  },
  newUser: async ({}, use) => {
    const account = await createVerifiedAccount();
    await use(account);
    await deleteAccount(account);
  },
  admin: async ({}, use) => {
    await use(await ensureAdmin());
  },
  signedInUser: async ({ context, baseURL, newUser }, use) => {
    const { cookie } = await signInBrowser(context, baseURL!, newUser);
    await use({ ...newUser, cookie });
    await signOut(baseURL!, cookie);
  },
  signedInAdmin: async ({ context, baseURL, admin }, use) => {
    const { cookie } = await signInBrowser(context, baseURL!, admin);
    // The admin opens to a session verified with a passkey (decision 039).
    const verified = await verifyMainAdmin(admin.email, cookie);
    await useCookie(context, baseURL!, verified);
    await use({ ...admin, cookie: verified });
    // The administrator's live sessions are capped (server/identity/session-store.ts): leave none behind.
    await signOut(baseURL!, verified);
  },
  newFolder: async ({}, use, testInfo) => {
    const made: string[] = [];
    const prefix = `tieout-${path.basename(testInfo.file, ".spec.ts")}-`;
    await use(() => {
      const folder = mkdtempSync(path.join(tmpdir(), prefix));
      made.push(folder);
      return folder;
    });
    for (const folder of made) rmSync(folder, { recursive: true, force: true });
  },
  ownServerEnv: [undefined, { scope: "worker", option: true }],
  mailSink: [
    async ({ ownServerEnv }, use) => {
      requireOwnServerEnv(ownServerEnv, "mailSink");
      const sink = await startTestSmtp();
      await use(sink);
      await sink.close();
    },
    { scope: "worker" },
  ],
  ownServer: [
    async ({ ownServerEnv, mailSink }, use) => {
      const env = requireOwnServerEnv(ownServerEnv, "ownServer");
      const server = await startRestartableServer({ ...env, SMTP_URL: mailSink.url });
      // Its mailed admin codes are in the sink (decision 039).
      await use(Object.defineProperty(server, "adminCodes", { value: codesFromSink(mailSink) }));
      await server.stop();
    },
    // Its own time to start, apart from the first test's (server.ts waits up to 30 s).
    { scope: "worker", timeout: 60_000 },
  ],
});

export { expect };

/** `<html>` once React has hydrated the page (the root route marks it). */
export const HYDRATED_PAGE = `html[${HYDRATED_ATTRIBUTE}]`;

export type AxeViolation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
};

/**
 * Runs axe-core with the WCAG 2.0 to 2.2 A and AA rules and axe's best practices (issue 38);
 * evaluate() is not subject to the page's CSP. No rule is left off.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: {
        type: "tag",
        values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
      },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
}

/** `<html>` of a page sent as a document, without the app (decision 034). */
const DOCUMENT_PAGE = `html[${DEFER_ATTRIBUTE}="${DOCUMENT_VALUE}"]`;

/**
 * Waits until React has hydrated the page. Marketing and legal pages load their JavaScript on the
 * first interaction (decision 006), so move the mouse as a visitor would.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.mouse.move(1, 1);
  await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
}

/**
 * Waits until the page is as ready as it will be for a person: hydrated, or, for a page sent as a
 * document, loaded (it has no app to wait for).
 */
export async function waitForReady(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  if ((await page.locator(DOCUMENT_PAGE).count()) > 0) return;
  await waitForHydration(page);
}
