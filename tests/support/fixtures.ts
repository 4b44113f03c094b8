import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test as base, expect, type Page } from "@playwright/test";
import { HYDRATED_ATTRIBUTE } from "#src/lib/hydration-protocol.ts";

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

type Fixtures = {
  /** Console errors the test expects (matched by substring); any other one fails the test. */
  expectedConsoleErrors: string[];
};

/**
 * Every browser test fails on an uncaught page error or an unexpected console error: that is how a
 * hydration mismatch or a CSP violation shows up.
 */
export const test = base.extend<Fixtures>({
  expectedConsoleErrors: [[], { option: true }],
  page: async ({ page, expectedConsoleErrors }, use) => {
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const text = message.text();
      if (expectedConsoleErrors.some((expected) => text.includes(expected))) return;
      problems.push(`console.error: ${text}`);
    });
    await use(page);
    expect(problems, "the page logged errors").toEqual([]);
  },
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

/** Runs axe-core with the WCAG 2.2 AA rule set; evaluate() is not subject to the page's CSP. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
}

/**
 * Waits until React has hydrated the page. Marketing and legal pages load their JavaScript on the
 * first interaction (decision 006), so move the mouse as a visitor would.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.mouse.move(1, 1);
  await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
}
