/**
 * Page views, counted by the server without cookies, stored addresses, fingerprints or any script
 * (decision 028). A view is a page of the site sent as a document to a GET that is not a known
 * bot or crawler and not a prefetch. It is kept as one count per day, page and source: the
 * campaign's `utm_source` from the landing URL, else the host of the referring site, else
 * "(direct)". Nothing else about the visitor is looked at after the request.
 *
 * Counting is an increment in memory; every few seconds (and at shutdown) the counts are added to
 * the `page_views` rows in one statement, so several instances on one database sum correctly. A
 * flush that fails keeps its counts for the next one.
 */
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { isbot } from "isbot";
import type { Db } from "#db/client.ts";

export const DIRECT = "(direct)";
/**
 * Where a view is counted once its source would pass a bound: sources are what clients send, so
 * no client may add rows without end, in memory or in the table.
 */
export const OTHER = "(other)";
/** Distinct totals held in memory between two flushes. */
const MAX_KEYS = 10_000;
/** Distinct sources one instance records for one day; later new ones count as OTHER. */
export const MAX_SOURCES_PER_DAY = 500;
const MAX_SOURCE_LENGTH = 64;

export type PageViews = {
  /** Counts the request as a view of `path` (a page's canonical path) if it is one. */
  count: (req: FastifyRequest, path: string) => void;
  /** Adds the counts held in memory to the database now. */
  flush: () => Promise<void>;
  /** Stops the timer and flushes what is left. */
  stop: () => Promise<void>;
};

/** A campaign name or host as stored: lower case, letters, digits and `.-_` only, bounded. */
function cleanSource(value: string): string {
  const cleaned = value
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SOURCE_LENGTH);
  return cleaned === "" ? DIRECT : cleaned;
}

/**
 * The source of a view: the landing URL's `utm_source`, else the referring site's host (our own
 * host and unreadable referrers count as direct).
 */
export function viewSource(
  url: string,
  referer: string | undefined,
  ownHosts: ReadonlySet<string>,
  requestHost?: string,
): string {
  const queryAt = url.indexOf("?");
  if (queryAt !== -1) {
    const campaign = new URLSearchParams(url.slice(queryAt + 1)).get("utm_source");
    if (campaign !== null && campaign.trim() !== "") return cleanSource(campaign);
  }
  if (!referer) return DIRECT;
  let host: string;
  try {
    const from = new URL(referer);
    if (from.protocol !== "http:" && from.protocol !== "https:") return DIRECT;
    host = from.hostname.replace(/^www\./, "");
  } catch {
    return DIRECT;
  }
  return ownHosts.has(host) || host === requestHost?.replace(/^www\./, "")
    ? DIRECT
    : cleanSource(host);
}

/**
 * isbot's answer per user agent: its pattern is long, and the same few browsers ask again and
 * again. Bounded (cleared when full), so no client can grow it; it holds nothing about a visitor.
 */
const botVerdicts = new Map<string, boolean>();
const MAX_VERDICTS = 1_000;

function isKnownBot(agent: string): boolean {
  let verdict = botVerdicts.get(agent);
  if (verdict === undefined) {
    verdict = isbot(agent);
    if (botVerdicts.size >= MAX_VERDICTS) botVerdicts.clear();
    botVerdicts.set(agent, verdict);
  }
  return verdict;
}

/** Whether a page request is a person's view: a GET, not a prefetch, not a known bot. */
export function isCountable(req: FastifyRequest): boolean {
  if (req.method !== "GET") return false;
  const headers = req.headers;
  const purpose = headers["sec-purpose"] ?? headers["purpose"] ?? headers["x-moz"];
  if (typeof purpose === "string" && /prefetch|prerender/i.test(purpose)) return false;
  const agent = headers["user-agent"];
  return typeof agent === "string" && agent !== "" && !isKnownBot(agent);
}

/** Today's UTC date, formatted once per day rather than on every view. */
let currentDay = { text: "", until: 0 };
function today(): string {
  const now = Date.now();
  if (now >= currentDay.until) {
    const text = new Date(now).toISOString().slice(0, 10);
    currentDay = { text, until: Date.parse(`${text}T00:00:00Z`) + 86_400_000 };
  }
  return currentDay.text;
}

export function createPageViews({
  db,
  log,
  siteUrl,
  flushMs = 5_000,
  onCount = () => {},
}: {
  db: Db;
  log: FastifyBaseLogger;
  siteUrl: string;
  flushMs?: number;
  /** Told of every view counted (the metrics count them too). */
  onCount?: () => void;
}): PageViews {
  const ownHosts = new Set([new URL(siteUrl).hostname.replace(/^www\./, "")]);
  /** `day \n path \n source` → views since the last flush. */
  let counts = new Map<string, number>();
  /** The sources seen today (only today's: a new day starts a new set). */
  let sourcesOf = { day: "", seen: new Set<string>() };
  let flushing: Promise<void> = Promise.resolve();

  const add = (key: string, views: number) => {
    let current = counts.get(key);
    if (current === undefined && counts.size >= MAX_KEYS) {
      const [day = "", path = ""] = key.split("\n");
      key = `${day}\n${path}\n${OTHER}`;
      current = counts.get(key);
    }
    counts.set(key, (current ?? 0) + views);
  };

  async function write() {
    if (counts.size === 0) return;
    const batch = counts;
    counts = new Map();
    // In one order on every instance: two flushes at once then lock their rows in the same order,
    // and one waits for the other instead of both deadlocking.
    const rows = [...batch]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, views]) => {
        const [day = "", path = "", source = ""] = key.split("\n");
        return sql`(${day}::date, ${path}, ${source}, ${views})`;
      });
    try {
      await db.execute(sql`
        INSERT INTO page_views (day, path, source, views) VALUES ${sql.join(rows, sql`, `)}
        ON CONFLICT (day, path, source) DO UPDATE SET views = page_views.views + excluded.views`);
    } catch (error) {
      // Kept for the next flush (still bounded by MAX_KEYS): a database that is away for a moment
      // loses no view.
      for (const [key, views] of batch) add(key, views);
      log.error(
        { event: "page_views.flush_failed", err: error as Error },
        "page views not written",
      );
    }
  }

  const flush = () => (flushing = flushing.then(write));
  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    count(req, path) {
      if (!isCountable(req)) return;
      const day = today();
      if (sourcesOf.day !== day) sourcesOf = { day, seen: new Set() };
      // The request's host name matters only against a referrer: most views come without one.
      const referer = req.headers.referer;
      let source = viewSource(req.url, referer, ownHosts, referer ? req.hostname : undefined);
      if (!sourcesOf.seen.has(source)) {
        if (sourcesOf.seen.size >= MAX_SOURCES_PER_DAY) source = OTHER;
        else sourcesOf.seen.add(source);
      }
      add(`${day}\n${path}\n${source}`, 1);
      onCount();
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
