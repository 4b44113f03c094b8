import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "#db/client.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { startServer } from "#tests/support/server.ts";

const TOKEN = "an-operator-metrics-token-0123456789abcdef";
/** A person's browser (a headless one names itself so, and counts as automation). */
const PERSON =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36";

/** The page_views rows of a stopped server's database. */
async function pageViews(dataDir: string) {
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    return await queryRows<{ path: string; source: string; views: number }>(
      database.db,
      sql`SELECT path, source, views::int AS views FROM page_views ORDER BY path, source`,
    );
  } finally {
    await database.close();
  }
}

test("page views are counted per page and source, without cookies, and none is lost at a clean stop", async ({
  browser,
}) => {
  const server = await startServer({ METRICS_TOKEN: TOKEN });
  try {
    const context = await browser.newContext({ userAgent: PERSON });
    const page = await context.newPage();
    // A campaign's landing, a visit from another site, then pages reached from our own.
    await page.goto(`${server.url}/?utm_source=Spring-Newsletter&utm_campaign=launch`);
    await page.goto(`${server.url}/dpa`, { referer: "https://www.linkedin.com/feed/" });
    await page.goto(`${server.url}/contact`, { referer: `${server.url}/dpa` });
    await page.goto(`${server.url}/contact`);
    // Not views: a HEAD, a prefetch, a crawler, an unknown path, a page for one person.
    await fetch(`${server.url}/contact`, {
      method: "HEAD",
      headers: { "user-agent": "Mozilla/5.0" },
    });
    await fetch(`${server.url}/contact`, {
      headers: { "user-agent": PERSON, "sec-purpose": "prefetch" },
    });
    await fetch(`${server.url}/contact`, {
      headers: { "user-agent": "Mozilla/5.0 (compatible; bingbot/2.0)" },
    });
    await page.goto(`${server.url}/no-such-page`);
    await page.goto(`${server.url}/waitlist/confirm?token=nothing`);
    expect(await context.cookies()).toEqual([]);

    // The metrics count them too, for the bearer of the token only.
    const metrics = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^page_views_total 4$/m);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    await context.close();
  } finally {
    expect(await server.stop("SIGTERM")).toBe(0);
  }
  expect(await pageViews(server.dataDir)).toEqual([
    { path: "/", source: "spring-newsletter", views: 1 },
    { path: "/contact", source: "(direct)", views: 2 },
    { path: "/dpa", source: "linkedin.com", views: 1 },
  ]);
});

test("PAGE_VIEWS=off counts nothing; without METRICS_TOKEN or METRICS_PORT there is no /metrics", async ({
  browser,
}) => {
  const server = await startServer({ PAGE_VIEWS: "off" });
  try {
    const page = await browser.newPage({ userAgent: PERSON });
    await page.goto(`${server.url}/`);
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).toBe(404);
    await page.close();
  } finally {
    await server.stop("SIGTERM");
  }
  expect(await pageViews(server.dataDir)).toEqual([]);
});

test("METRICS_PORT serves the metrics on loopback, on a port of their own", async () => {
  const metricsPort = 20_000 + Math.floor(Math.random() * 20_000);
  const server = await startServer({ METRICS_PORT: String(metricsPort) });
  try {
    await submitOne(server.url);
    const own = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(own.status).toBe(200);
    const text = await own.text();
    expect(text).toMatch(/^waitlist_submissions_total\{result="created"\} 1$/m);
    expect(text).toContain("http_request_duration_seconds_bucket");
    // Nothing else answers there, and the main port has no /metrics.
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect(server.output()).toContain(`Metrics at http://127.0.0.1:${metricsPort}/metrics`);
  } finally {
    await server.stop("SIGTERM");
  }
});

async function submitOne(url: string) {
  const answer = await fetch(`${url}/api/waitlist`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Metrics Person", email: "metrics.person@example.com" }),
  });
  expect(answer.status).toBe(202);
}
