/**
 * Prometheus metrics (decision 028), in one registry per process: request durations by route and
 * status class, waitlist submissions by result, the outbox's depth and deliveries by result, page
 * views, and the process's own figures. Never public: served on the main port only to
 * `Authorization: Bearer <METRICS_TOKEN>`, and/or on METRICS_PORT (loopback by default); with
 * neither, /metrics does not exist.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(db: Db) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to its response, by route and status class.",
      labelNames: ["method", "route", "status"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    waitlistSubmissions: new Counter({
      name: "waitlist_submissions_total",
      help: "Waitlist submissions by result (created, exists, invalid, rate-limited, ignored, unavailable).",
      labelNames: ["result"] as const,
      registers: [registry],
    }),
    deliveries: new Counter({
      name: "outbox_deliveries_total",
      help: "Outbox delivery attempts by channel and result (sent, retry, failed).",
      labelNames: ["channel", "result"] as const,
      registers: [registry],
    }),
    outboxDepth: new Gauge({
      name: "outbox_messages",
      help: "Messages in the outbox by status, read from the database when scraped.",
      labelNames: ["status"] as const,
      registers: [registry],
      async collect() {
        const rows = await queryRows<{ status: string; n: number }>(
          db,
          sql`SELECT status, count(*)::int AS n FROM outbox GROUP BY status`,
        );
        this.reset();
        for (const status of ["pending", "sent", "failed"])
          this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
      },
    }),
    pageViews: new Counter({
      name: "page_views_total",
      help: "Page views counted (documents sent to people, not bots or prefetches).",
      registers: [registry],
    }),
  };
}

/** The route label: the registered route, with every built file under one name. */
export function routeLabel(route: string | undefined): string {
  if (route === undefined) return "unmatched";
  if (route.startsWith("/assets/")) return "/assets/*";
  return route;
}

export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** Whether an Authorization header carries the token, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1] ?? "";
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(token)) && given !== "";
}
