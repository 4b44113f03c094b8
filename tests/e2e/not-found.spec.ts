import { NOT_FOUND_RESPONSE, notFoundLog } from "#tests/support/console-messages.ts";
import { expect, test, waitForHydration } from "#tests/support/fixtures.ts";

test.describe("unknown paths", () => {
  for (const path of ["/no-such-page", "/.git", "/.git/config", "/.git/HEAD"]) {
    test.describe(() => {
      test.use({ expectedConsoleErrors: [notFoundLog(path), NOT_FOUND_RESPONSE] });

      test(`${path} answers 404 with the Not-found screen, rendered by the server`, async ({
        request,
        page,
      }) => {
        const response = await request.get(path);
        expect(response.status()).toBe(404);
        const html = await response.text();
        expect(html).toContain("Oops! Page not found");
        expect(html).toContain("Return to Home");

        const logged: string[] = [];
        page.on("console", (m) => {
          if (m.type() === "error") logged.push(m.text());
        });
        const visit = await page.goto(path);
        expect(visit?.status()).toBe(404);
        await waitForHydration(page);
        await expect(page.getByText("404", { exact: true })).toBeVisible();
        await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
        await expect.poll(() => logged).toContain(notFoundLog(path));

        await page.getByRole("link", { name: "Return to Home" }).click();
        await expect(page).toHaveURL("/");
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      });
    });
  }
});

test.describe("nothing but the built public assets is served", () => {
  const forbidden = [
    "/package.json",
    "/package-lock.json",
    "/.env",
    "/.env.example",
    "/.gitignore",
    "/src/root.tsx",
    "/src/content/site.ts",
    "/server/env.ts",
    "/build/server/index.js",
    "/server/index.js",
    "/node_modules/react/package.json",
    "/%2e%2e/package.json",
    "/assets/%2e%2e/%2e%2e/package.json",
    "/assets/..%2f..%2fpackage.json",
    "/%2e%2e%2f%2e%2e%2fetc/passwd",
    "/..%5c..%5cpackage.json",
    "/favicon.svg%00.js",
  ];
  for (const path of forbidden) {
    test(`${path} answers 404 and reveals nothing`, async ({ request }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(404);
      const body = await response.text();
      expect(body).not.toContain('"dependencies"');
      expect(body).not.toContain("root:x:0:0");
      expect(body).not.toContain("process.env");
    });
  }

  test("the real assets are served, compressed and cached for a year", async ({ request }) => {
    // The reset-link page loads its scripts at once (reading pages wait for an interaction).
    const html = await (await request.get("/auth/action?mode=resetPassword&oobCode=x")).text();
    const script = /<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const response = await request.get(script!, { headers: { "Accept-Encoding": "br" } });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-encoding"]).toBe("br");
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.headers()["content-type"]).toContain("text/javascript");
  });
});
