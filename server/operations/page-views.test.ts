import Fastify, { type FastifyRequest } from "fastify";
import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "#db/client.ts";
import {
  createPageViews,
  DIRECT,
  isCountable,
  MAX_SOURCES_PER_DAY,
  OTHER,
  viewSource,
} from "#server/operations/page-views.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

const database = databaseForThisFile();
const OWN = new Set(["tieout.ai"]);
const PERSON = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/150.0 Safari/537.36";

/** What the server does with one request: counted or not, seen through a real Fastify request. */
async function seen(
  headers: Record<string, string>,
  method: "GET" | "HEAD" = "GET",
  url = "/",
): Promise<FastifyRequest> {
  const app = Fastify();
  let request: FastifyRequest | undefined;
  app.route({
    method: ["GET", "HEAD"],
    url: "/*",
    handler: (req, reply) => ((request = req), reply.send("ok")),
  });
  await app.inject({ method, url, headers });
  return request!;
}

describe("the source of a view", () => {
  test("the landing URL's utm_source first, cleaned to a short lower-case name", () => {
    expect(viewSource("/?utm_source=Newsletter&utm_medium=email", "https://x.com/", OWN)).toBe(
      "newsletter",
    );
    expect(viewSource("/?utm_source=%3Cscript%3E%20Big%20Launch!", undefined, OWN)).toBe(
      "script-big-launch",
    );
    expect(viewSource(`/?utm_source=${"a".repeat(500)}`, undefined, OWN)).toHaveLength(64);
  });

  test("else the referring site's host; our own host, odd referrers and none are direct", () => {
    expect(viewSource("/", "https://www.linkedin.com/feed/", OWN)).toBe("linkedin.com");
    expect(viewSource("/dpa", "https://tieout.ai/", OWN)).toBe(DIRECT);
    expect(viewSource("/dpa", "http://127.0.0.1:3000/", OWN, "127.0.0.1")).toBe(DIRECT);
    expect(viewSource("/", "android-app://com.slack/", OWN)).toBe(DIRECT);
    expect(viewSource("/", "not a url", OWN)).toBe(DIRECT);
    expect(viewSource("/?utm_source=", undefined, OWN)).toBe(DIRECT);
  });
});

describe("what counts as a view", () => {
  test("a person's GET does; HEAD, a prefetch, a known crawler and no user agent do not", async () => {
    expect(isCountable(await seen({ "user-agent": PERSON }))).toBe(true);
    expect(isCountable(await seen({ "user-agent": PERSON }, "HEAD"))).toBe(false);
    expect(isCountable(await seen({ "user-agent": PERSON, "sec-purpose": "prefetch" }))).toBe(
      false,
    );
    expect(isCountable(await seen({ "user-agent": PERSON, purpose: "prefetch" }))).toBe(false);
    expect(
      isCountable(await seen({ "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1)" })),
    ).toBe(false);
    expect(isCountable(await seen({ "user-agent": "curl/8.5.0" }))).toBe(false);
    expect(isCountable(await seen({}))).toBe(false);
  });
});

describe("counting", () => {
  test("two instances on one database add up; nothing is lost at stop; no address is stored", async () => {
    const { db } = database();
    const log = pino({ level: "silent" });
    const a = createPageViews({ db, log, siteUrl: "https://tieout.ai", flushMs: 60_000 });
    const b = createPageViews({ db, log, siteUrl: "https://tieout.ai", flushMs: 60_000 });
    const visit = await seen({ "user-agent": PERSON, referer: "https://news.ycombinator.com/" });
    for (let i = 0; i < 3; i++) a.count(visit, "/");
    await a.flush();
    for (let i = 0; i < 2; i++) b.count(visit, "/");
    a.count(visit, "/");
    a.count(await seen({ "user-agent": PERSON }, "GET", "/?utm_source=LinkedIn"), "/dpa");
    await Promise.all([a.stop(), b.stop()]);

    const rows = await queryRows<{ path: string; source: string; views: number }>(
      db,
      sql`SELECT path, source, views::int AS views FROM page_views ORDER BY path, source`,
    );
    expect(rows).toEqual([
      { path: "/", source: "news.ycombinator.com", views: 6 },
      { path: "/dpa", source: "linkedin", views: 1 },
    ]);
    const columns = await queryRows<{ column_name: string }>(
      db,
      sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'page_views'`,
    );
    expect(columns.map((c) => c.column_name).sort()).toEqual(["day", "path", "source", "views"]);
  });
});

test("a view from our own page, reached by a name other than SITE_URL's, is direct", async () => {
  const { db } = database();
  await db.execute(sql`DELETE FROM page_views`);
  const views = createPageViews({
    db,
    log: pino({ level: "silent" }),
    siteUrl: "https://tieout.ai",
    flushMs: 60_000,
  });
  // inject's requests come to Host localhost:80.
  views.count(await seen({ "user-agent": PERSON, referer: "http://localhost/dpa" }), "/");
  views.count(await seen({ "user-agent": PERSON, referer: "https://example.com/" }), "/");
  views.count(await seen({ "user-agent": PERSON }), "/");
  await views.stop();
  const rows = await queryRows<{ source: string; views: number }>(
    db,
    sql`SELECT source, views::int AS views FROM page_views ORDER BY source`,
  );
  expect(rows).toEqual([
    { source: DIRECT, views: 2 },
    { source: "example.com", views: 1 },
  ]);
});

test("made-up sources cannot grow the table: past the day's bound they count as (other)", async () => {
  const { db } = database();
  await db.execute(sql`DELETE FROM page_views`);
  const views = createPageViews({
    db,
    log: pino({ level: "silent" }),
    siteUrl: "https://tieout.ai",
    flushMs: 60_000,
  });
  for (let i = 0; i < MAX_SOURCES_PER_DAY + 200; i++)
    views.count(await seen({ "user-agent": PERSON }, "GET", `/?utm_source=made-up-${i}`), "/");
  await views.stop();
  const [row] = await queryRows<{ sources: number; other: number; total: number }>(
    db,
    sql`SELECT count(*)::int AS sources, sum(views)::int AS total,
      coalesce(sum(views) FILTER (WHERE source = ${OTHER}), 0)::int AS other FROM page_views`,
  );
  expect(row).toEqual({
    sources: MAX_SOURCES_PER_DAY + 1,
    other: 200,
    total: MAX_SOURCES_PER_DAY + 200,
  });
  // 700 requests through a real Fastify instance: a busy machine needs more than the default 5 s.
}, 60_000);
