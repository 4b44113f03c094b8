/**
 * The 404 page logs the path as it loads, forms work on whatever host reached the site, and the
 * server always runs React's production build (decision 009); pages arrive in one round trip
 * (decision 026).
 */
import { request as httpRequest } from "node:http";
import { BEHIND_PROXY, PRODUCTION_FIREBASE } from "#tests/support/deployed.ts";
import { E2E_PORT } from "#tests/support/e2e-env.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { expect, HYDRATED_PAGE, test } from "#tests/support/fixtures.ts";
import { startServer } from "#tests/support/server.ts";
import { ALL_PAGES } from "#tests/support/pages.ts";
import { NOT_FOUND_RESPONSE, notFoundLog } from "#tests/support/console-messages.ts";

test.describe("the not-found page", () => {
  test.use({ expectedConsoleErrors: [notFoundLog("/ledgers/2025/q4"), NOT_FOUND_RESPONSE] });

  test("logs the path that was asked for as it loads, before any interaction", async ({ page }) => {
    const logged: string[] = [];
    page.on("console", (message) => {
      if (message.text().startsWith("404 Error")) logged.push(message.text());
    });
    const response = await page.goto("/ledgers/2025/q4?x=1");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await expect
      .poll(() => logged)
      .toEqual(["404 Error: User attempted to access non-existent route: /ledgers/2025/q4"]);
    // Logged by the page itself: the app's scripts have not even started.
    await expect(page.locator(HYDRATED_PAGE)).toHaveCount(0);

    // Once the app runs, it does not log the same visit twice.
    await page.mouse.move(10, 10);
    await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
    await page.waitForTimeout(300);
    expect(logged).toHaveLength(1);
  });
});

test.describe("forms without JavaScript on whatever host reached the site", () => {
  test.use({ javaScriptEnabled: false });

  test("the waitlist form sent to the site reached by IP address, not by its configured name", async ({
    page,
  }) => {
    // SITE_URL says localhost; the visitor typed the address.
    await page.goto(`http://127.0.0.1:${E2E_PORT}/waitlist`);
    await page.getByLabel("Full Name").fill("Ada Lovelace");
    await page.getByLabel("Email").fill(uniqueEmail("by-ip"));
    await page.getByRole("main").getByRole("button", { name: "Join Waitlist" }).click();
    await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();
    expect(page.url()).toBe(`http://127.0.0.1:${E2E_PORT}/waitlist`);
  });
});

/** A raw form post, so the test controls every header a proxy would add. */
function postForm(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test("behind a trusted TLS proxy the form answers on the proxy's origin; without trust, forwarded headers count for nothing", async () => {
  // Two servers start, each migrating a new database: 30 s is too little on a busy machine.
  test.setTimeout(90_000);
  const trusting = await startServer({
    SITE_URL: "https://localhost",
    TRUST_PROXY: "loopback",
    LOG_LEVEL: "info",
  });
  const untrusting = await startServer({ LOG_LEVEL: "info" });
  try {
    const proxied = {
      "x-forwarded-proto": "https",
      "x-forwarded-host": "localhost",
      origin: "https://localhost",
      "sec-fetch-site": "same-origin",
    };
    const form = (tag: string) =>
      `name=Proxy+Visitor&email=${tag}-${Date.now()}%40example.com&company=&message=`;

    const accepted = await postForm(`${trusting.url}/waitlist`, proxied, form("proxied"));
    expect(accepted.status).toBeLessThan(300);
    expect(accepted.text).toContain("You&#x27;re on the list!");

    // The same headers from a client the server was not told to trust: the page's origin is the
    // one it was reached on, so this post claims another site's origin and is refused.
    const refused = await postForm(`${untrusting.url}/waitlist`, proxied, form("forged"));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("This form came from another site");

    // A client error is one structured line, never a stack trace.
    await expect.poll(() => untrusting.output()).toContain('"event":"request.cross_site_refused"');
    for (const server of [trusting, untrusting])
      expect(server.output()).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  } finally {
    await trusting.stop();
    await untrusting.stop();
  }
});

test("the server runs React's production build whatever NODE_ENV it is given", async () => {
  // Three servers start one after another, each migrating a new database.
  test.setTimeout(120_000);
  for (const nodeEnv of [undefined, "development", "test"]) {
    const server = await startServer(nodeEnv === undefined ? {} : { NODE_ENV: nodeEnv });
    try {
      const health = (await (await fetch(`${server.url}/api/health`)).json()) as {
        react: string;
      };
      expect(health.react, `NODE_ENV=${nodeEnv ?? "(unset)"}`).toBe("production");
    } finally {
      await server.stop();
    }
  }
});

/** A mobile network's first round trip: 10 TCP segments of 1,460 bytes, headers included. */
const FIRST_WINDOW_BYTES = 10 * 1460;
/**
 * The DPA, whose own text and download take it past the window: decision 026 keeps it whole on one
 * page, and PRODUCT.md builds its Word file in the browser.
 */
const PAST_THE_WINDOW: readonly string[] = ["/dpa"];

/**
 * The bytes of one response as they cross the wire from a server behind the TLS proxy: status
 * line, headers and brotli'd body, for a visitor who reached `https://localhost`.
 */
function wireBytes(port: number, path: string): Promise<{ bytes: number; hsts: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        headers: {
          "accept-encoding": "br",
          host: "localhost",
          "x-forwarded-proto": "https",
          "x-forwarded-for": "203.0.113.7",
        },
      },
      (res) => {
        expect(res.statusCode, path).toBe(200);
        expect(res.headers["content-encoding"], path).toBe("br");
        let bytes = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n\r\n`.length;
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          bytes += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`.length;
        res.on("data", (chunk: Buffer) => (bytes += chunk.length));
        res.on("end", () => resolve({ bytes, hsts: "strict-transport-security" in res.headers }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

// Judged as deployed: HTTPS adds HSTS and `upgrade-insecure-requests`, and a real Firebase
// project adds its sign-in hosts to the CSP and its configuration to the sign-in pages.
test("every page but the DPA arrives within the first round trip, as deployed", async () => {
  const site = await startServer({ ...BEHIND_PROXY, ...PRODUCTION_FIREBASE });
  try {
    for (const { path } of ALL_PAGES) {
      if (PAST_THE_WINDOW.includes(path)) continue;
      const { bytes, hsts } = await wireBytes(site.port, path);
      expect(hsts, `${path} answered as the deployed site`).toBe(true);
      expect(bytes, path).toBeLessThanOrEqual(FIRST_WINDOW_BYTES);
    }
  } finally {
    await site.stop();
  }
});

test("a reader who leaves a long page and comes back, or reloads it, is where they left off", async ({
  page,
}) => {
  await page.goto("/dpa");
  // A new entry has no key until the app starts; the page's scroll script then reads nothing.
  expect(await page.evaluate(() => (history.state as { key?: string } | null)?.key)).toBeFalsy();
  await page.mouse.wheel(0, 2400);
  await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
  expect(await page.evaluate(() => (history.state as { key?: string } | null)?.key)).toBeTruthy();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(2000);
  const left = await page.evaluate(() => window.scrollY);

  await page.getByRole("banner").getByRole("link", { name: "Sign In" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign In");
  await page.goBack();
  await expect(page).toHaveURL("/dpa");
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(Math.round(left));

  await page.reload();
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(Math.round(left));
  // Reloaded, the page has not started its app: the position came from the page's own script or
  // the browser, with the key the entry kept.
  expect(await page.locator(HYDRATED_PAGE).count()).toBe(0);
});
