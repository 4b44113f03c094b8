import { createHash } from "node:crypto";
import { expect, test } from "#tests/support/fixtures.ts";
import { ALL_PAGES, PUBLIC_PAGES } from "#tests/support/pages.ts";
import { DEFER_ATTRIBUTE, DOCUMENT_VALUE } from "#src/lib/hydration-protocol.ts";

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
    // The IANA-registered type for .ico (what @fastify/static's mime table gives).
    ["/favicon.ico", "image/vnd.microsoft.icon"],
    ["/apple-touch-icon.png", "image/png"],
    ["/site.webmanifest", "application/manifest+json"],
  ] as const) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expect(response.headers()["content-type"]).toBe(type);
    expect((await response.body()).length).toBeGreaterThan(100);
  }
});

test("every page carries its SVG icon inline, the same drawing as /favicon.svg, so loading a page asks for no icon", async ({
  page,
  request,
}) => {
  const svg = (await (await request.get("/favicon.svg")).text()).trim();
  for (const path of ["/", "/privacy-policy"]) {
    await page.goto(path);
    const href = await page
      .locator('head link[rel="icon"][type="image/svg+xml"]')
      .getAttribute("href");
    expect(href?.startsWith("data:image/svg+xml,"), path).toBe(true);
    expect(decodeURIComponent(href!.slice("data:image/svg+xml,".length))).toBe(svg);
    // The browser draws it: an image made from the link's URL loads with a size.
    const width = await page.evaluate(async (url) => {
      const image = new Image();
      image.src = url;
      await image.decode();
      return image.naturalWidth;
    }, href!);
    expect(width).toBeGreaterThan(0);
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
  // Account and admin pages are served, but not offered to search engines.
  expect(xml.match(/<loc>/g)).toHaveLength(PUBLIC_PAGES.length);
  for (const path of [
    "/login",
    "/signup",
    "/forgot-password",
    "/admin",
    "/admin/waitlist",
    "/admin/deliveries",
    "/admin/activity",
    "/auth/action",
  ])
    expect(xml).not.toContain(`<loc>${baseURL}${path}</loc>`);
});

test("HTML responses carry a strict, hash-based Content-Security-Policy and baseline headers", async ({
  request,
}) => {
  const paths = [
    ...ALL_PAGES.map((p) => p.path),
    "/no-such-page",
    "/auth/action?mode=resetPassword&oobCode=abc",
  ];
  for (const path of paths) {
    const response = await request.get(path);
    const headers = response.headers();
    expect(headers["content-type"], path).toContain("text/html");
    expect(headers["cross-origin-opener-policy"], path).toBe("same-origin");
    expect(headers["cross-origin-resource-policy"], path).toBe("same-origin");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["x-request-id"], path).toMatch(/^[0-9a-f-]{36}$/);
    // The reset pages carry a one-time code in their URL or form: no Referer leaves them.
    expect(headers["referrer-policy"], path).toBe(
      /^\/(forgot-password|auth\/action)/.test(path)
        ? "no-referrer"
        : "strict-origin-when-cross-origin",
    );
    const csp = headers["content-security-policy"] ?? "";
    // A page sent as a document runs its inline note alone and connects only home (decision 034).
    const html = await response.text();
    if (html.includes(`${DEFER_ATTRIBUTE}="${DOCUMENT_VALUE}"`)) {
      expect(csp, path).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]{44}';/);
      expect(csp, path).toMatch(/connect-src 'self';/);
    } else {
      expect(csp, path).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]{44}')+;/);
    }
    expect(csp).toMatch(/style-src 'self'( 'sha256-[A-Za-z0-9+/=]{44}')+;/);
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    // Every inline script the page runs is allowed by exactly its hash.
    const inline = [
      ...html.matchAll(
        /<script(?![^>]*type="(?:application\/ld\+json|text\/plain)")[^>]*>([\s\S]*?)<\/script>/g,
      ),
    ];
    expect(inline.length).toBeGreaterThan(0);
    for (const [, body] of inline) {
      expect(csp).toContain(
        `'sha256-${createHash("sha256")
          .update(body ?? "")
          .digest("base64")}'`,
      );
    }
    expect(html).not.toContain("nonce=");
  }

  const headers = (await request.get("/")).headers();
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-powered-by"]).toBeUndefined();
  expect(headers["server"]).toBeUndefined();
  expect(headers["cache-control"]).toBe("public, no-cache");
  // Plain HTTP on localhost: no HSTS (it is sent when SITE_URL is https; see the unit tests).
  expect(headers["strict-transport-security"]).toBeUndefined();
});

test("everything that is not a page loads nothing and may not be framed; private answers are not stored", async ({
  request,
}) => {
  const assetPath = /\/assets\/[^"]+\.js/.exec(await (await request.get("/")).text())?.[0];
  expect(assetPath).toBeTruthy();
  const answers = [
    await request.get("/api/health"),
    await request.get("/robots.txt"),
    await request.get(assetPath ?? ""),
    await request.post("/api/waitlist", { data: { name: "" } }),
    await request.get("/api/admin/waitlist.csv"),
    await request.post("/api/session"),
  ];
  for (const response of answers) {
    const headers = response.headers();
    expect(headers["content-security-policy"], response.url()).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(headers["x-content-type-options"], response.url()).toBe("nosniff");
    expect(headers["x-frame-options"], response.url()).toBe("DENY");
  }
  // Answers about a person or a session are never kept by a browser or a proxy.
  for (const response of answers.slice(3)) {
    expect(response.headers()["cache-control"], response.url()).toBe("no-store");
  }
  expect(
    (await request.get("/admin/waitlist", { maxRedirects: 0 })).headers()["cache-control"],
  ).toBe("no-store");
});

test("anonymous pages are served from memory: the same bytes, an ETag, and 304 on revalidation", async ({
  request,
}) => {
  const first = await request.get("/contact");
  const second = await request.get("/contact");
  expect(await second.text()).toBe(await first.text());
  const etag = first.headers()["etag"];
  expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  const again = await request.get("/contact", { headers: { "If-None-Match": etag! } });
  expect(again.status()).toBe(304);

  // Each encoding has its validator: brotli bytes are never "not modified" for a plain client.
  const tags = new Map<string, string>();
  for (const encoding of ["br", "gzip", "identity"]) {
    const answer = await request.get("/contact", { headers: { "Accept-Encoding": encoding } });
    tags.set(encoding, answer.headers()["etag"]!);
  }
  expect(new Set(tags.values()).size).toBe(3);
  const plain = await request.get("/contact", {
    headers: { "Accept-Encoding": "identity", "If-None-Match": tags.get("br")! },
  });
  expect(plain.status()).toBe(200);
});

test("the answer to a posted form repeats what was typed: no cache keeps it", async ({
  request,
}) => {
  const refused = await request.post("/waitlist", {
    form: { name: "Nadia Notkept", email: "nadia@not-an-address" },
    headers: { "Accept-Encoding": "br" },
  });
  expect(refused.status()).toBe(422);
  expect(await refused.text()).toContain("Nadia Notkept");
  expect(refused.headers()["cache-control"]).toBe("private, no-store");
  expect(refused.headers()["vary"]).toBe("Cookie, Accept-Encoding");
});

test("HTML is compressed for browsers that accept it", async ({ request }) => {
  const response = await request.get("/", { headers: { "Accept-Encoding": "br, gzip" } });
  expect(response.headers()["content-encoding"]).toBe("br");
});
