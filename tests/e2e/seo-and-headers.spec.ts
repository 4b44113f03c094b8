import { expect, test } from "#tests/support/fixtures.ts";
import { ALL_PAGES, PUBLIC_PAGES } from "#tests/support/pages.ts";

test("every page has its own title, description, canonical link and sharing tags", async ({
  page,
  baseURL,
}) => {
  const titles = new Set<string>();
  for (const { path } of ALL_PAGES) {
    await page.goto(path);
    const title = await page.title();
    expect(title).toContain("Tieout");
    titles.add(title);
    const head = page.locator("head");
    const description = await head.locator('meta[name="description"]').getAttribute("content");
    expect(description?.length ?? 0).toBeGreaterThan(50);
    const canonical = `${baseURL}${path}`;
    await expect(head.locator('link[rel="canonical"]')).toHaveAttribute("href", canonical);
    await expect(head.locator('meta[property="og:url"]')).toHaveAttribute("content", canonical);
    await expect(head.locator('meta[property="og:title"]')).toHaveAttribute("content", title);
    await expect(head.locator('meta[property="og:image"]')).toHaveAttribute(
      "content",
      `${baseURL}/media/og-image.png`,
    );
    await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute(
      "content",
      "summary_large_image",
    );
  }
  expect(titles.size).toBe(ALL_PAGES.length);
});

test("the share image and icons are real images", async ({ request }) => {
  for (const [path, type] of [
    ["/media/og-image.png", "image/png"],
    ["/favicon.svg", "image/svg+xml"],
    ["/favicon.ico", "image/x-icon"],
    ["/apple-touch-icon.png", "image/png"],
    ["/site.webmanifest", "application/manifest+json"],
  ] as const) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expect(response.headers()["content-type"]).toBe(type);
    expect((await response.body()).length).toBeGreaterThan(100);
  }
});

test("the home page describes the organisation in structured data", async ({
  request,
  baseURL,
}) => {
  const html = await (await request.get("/")).text();
  const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
  const data = JSON.parse(json ?? "{}") as {
    "@type"?: string;
    url?: string;
    address?: { addressLocality?: string };
  };
  expect(data["@type"]).toBe("Organization");
  expect(data.url).toBe(`${baseURL}/`);
  expect(data.address?.addressLocality).toBe("Dover");
});

test("robots.txt and sitemap.xml use the configured origin", async ({ request, baseURL }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  const xml = await sitemap.text();
  for (const { path } of PUBLIC_PAGES) expect(xml).toContain(`<loc>${baseURL}${path}</loc>`);
});

test("HTML responses carry a strict, nonce-based Content-Security-Policy and baseline headers", async ({
  request,
}) => {
  const first = await request.get("/");
  const second = await request.get("/");
  const csp = first.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]{20,}'/);
  expect(csp).not.toContain("unsafe-inline");
  expect(csp).not.toContain("unsafe-eval");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("form-action 'self'");
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).not.toBe(
    /'nonce-([^']+)'/.exec(second.headers()["content-security-policy"] ?? "")?.[1],
  );
  // Every inline script React Router writes carries this response's nonce.
  const html = await first.text();
  const scripts = [...html.matchAll(/<script(?![^>]*type="application\/ld\+json")([^>]*)>/g)].map(
    (m) => m[1],
  );
  expect(scripts.length).toBeGreaterThan(0);
  for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);

  const headers = first.headers();
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-powered-by"]).toBeUndefined();
  expect(headers["server"]).toBeUndefined();
  expect(headers["cache-control"]).toBe("no-cache");
  // Plain HTTP on localhost: no HSTS (it is sent when SITE_URL is https; see the unit tests).
  expect(headers["strict-transport-security"]).toBeUndefined();
});

test("HTML is compressed for browsers that accept it", async ({ request }) => {
  const response = await request.get("/", { headers: { "Accept-Encoding": "br, gzip" } });
  expect(response.headers()["content-encoding"]).toBe("br");
});
