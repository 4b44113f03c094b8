/**
 * The admin dashboard's figures (src/lib/dashboard.ts), each one aggregate query on an index:
 * entries by creation time and by their computed source (0011), page views by day, and the
 * outbox by status and time. Days are UTC days.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";
import {
  BROADCASTS_SHOWN,
  REFERRERS_SHOWN,
  type DashboardPeriod,
  type DashboardPort,
  type SourceRow,
} from "#src/lib/dashboard.ts";

const LEAD_DAYS = 30;
const SOURCES_SHOWN = 50;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

export function createDashboard(db: Db): DashboardPort {
  return {
    async overview(days: DashboardPeriod) {
      const today = new Date();
      const from = new Date(today);
      from.setUTCDate(from.getUTCDate() - (days - 1));
      const leadsFrom = new Date(today);
      leadsFrom.setUTCDate(leadsFrom.getUTCDate() - (LEAD_DAYS - 1));
      const start = sql`${isoDay(from)}::date`;
      const end = sql`${isoDay(today)}::date`;
      // Entries are counted by the UTC day they were made: [from 00:00, tomorrow 00:00).
      const createdIn = sql`created_at >= ${start}::timestamp AT TIME ZONE 'UTC'
        AND created_at < (${end} + 1)::timestamp AT TIME ZONE 'UTC'`;

      const [
        perDay,
        viewsBySource,
        entriesBySource,
        mail,
        lastFailure,
        broadcasts,
        referred,
        referrers,
      ] = await Promise.all([
        queryRows<{ day: string; entries: number }>(
          db,
          sql`SELECT to_char(d, 'YYYY-MM-DD') AS day, coalesce(n, 0)::int AS entries
            FROM generate_series(${isoDay(leadsFrom)}::date, ${end}, interval '1 day') AS d
            LEFT JOIN (
              SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n
              FROM waitlist_entries
              WHERE created_at >= ${isoDay(leadsFrom)}::timestamp AT TIME ZONE 'UTC'
              GROUP BY 1
            ) AS c ON c.day = d::date
            ORDER BY d`,
        ),
        queryRows<{ source: string; views: number }>(
          db,
          sql`SELECT source, sum(views)::bigint AS views FROM page_views
            WHERE day BETWEEN ${start} AND ${end} GROUP BY source`,
        ),
        queryRows<{
          source: string;
          entries: number;
          confirmed: number;
          invited: number;
          joined: number;
        }>(
          db,
          sql`SELECT source, count(*)::int AS entries,
              count(confirmed_at)::int AS confirmed,
              count(*) FILTER (WHERE state IN ('invited', 'joined'))::int AS invited,
              count(*) FILTER (WHERE state = 'joined')::int AS joined
            FROM waitlist_entries WHERE ${createdIn} GROUP BY source`,
        ),
        queryRows<{
          sent30: number;
          bounced30: number;
          complained30: number;
          suppressed: number;
          waiting: number;
          sent: number;
          failed: number;
          oldest: Date | string | null;
        }>(
          db,
          sql`SELECT
            (SELECT count(*)::int FROM outbox
              WHERE status = 'sent' AND sent_at > now() - interval '30 days') AS sent30,
            (SELECT count(*)::int FROM mail_events
              WHERE kind IN ('hard-bounce', 'soft-bounce') AND at > now() - interval '30 days')
              AS bounced30,
            (SELECT count(*)::int FROM mail_events
              WHERE kind = 'complaint' AND at > now() - interval '30 days') AS complained30,
            (SELECT count(*)::int FROM mail_suppressions) AS suppressed,
            (SELECT count(*)::int FROM outbox WHERE status = 'pending') AS waiting,
            (SELECT min(created_at) FROM outbox WHERE status = 'pending') AS oldest,
            (SELECT count(*)::int FROM outbox
              WHERE status = 'sent' AND sent_at > now() - interval '1 day') AS sent,
            (SELECT count(*)::int FROM outbox
              WHERE status = 'failed' AND failed_at > now() - interval '1 day') AS failed`,
        ),
        queryRows<{ at: Date | string | null; reason: string | null }>(
          db,
          sql`SELECT failed_at AS at, last_error AS reason FROM outbox WHERE status = 'failed'
            ORDER BY failed_at DESC NULLS LAST, id DESC LIMIT 1`,
        ),
        // Each broadcast's own rates (decision 041): what came back about its mails, by the
        // outbox row each names.
        queryRows<{
          id: number;
          subject: string;
          started_at: Date | string;
          sent: number;
          bounced: number;
          complained: number;
        }>(
          db,
          sql`SELECT b.id, b.subject, b.started_at,
              count(DISTINCT o.id) FILTER (WHERE o.status = 'sent')::int AS sent,
              count(DISTINCT m.outbox_id) FILTER (WHERE m.kind IN ('hard-bounce', 'soft-bounce'))::int
                AS bounced,
              count(DISTINCT m.outbox_id) FILTER (WHERE m.kind = 'complaint')::int AS complained
            FROM (SELECT id, subject, started_at FROM broadcasts
                  WHERE started_at > now() - interval '30 days'
                  ORDER BY started_at DESC, id DESC LIMIT ${BROADCASTS_SHOWN}) b
            JOIN broadcast_recipients r ON r.broadcast_id = b.id
            LEFT JOIN outbox o ON o.id = r.outbox_id
            LEFT JOIN mail_events m ON m.outbox_id = r.outbox_id
            GROUP BY b.id, b.subject, b.started_at
            ORDER BY b.started_at DESC, b.id DESC`,
        ),
        // Referrals (decision 045): entries of the period that came through a shared link, on
        // the partial index of referred_by.
        queryRows<{ entries: number; confirmed: number; referrers: number }>(
          db,
          sql`SELECT count(*)::int AS entries, count(confirmed_at)::int AS confirmed,
              count(DISTINCT referred_by)::int AS referrers
            FROM waitlist_entries WHERE referred_by IS NOT NULL AND ${createdIn}`,
        ),
        queryRows<{
          id: number;
          name: string;
          email: string;
          entries: number;
          confirmed: number;
        }>(
          db,
          sql`SELECT r.id::int AS id, r.name, r.email, c.entries, c.confirmed
            FROM (SELECT referred_by, count(*)::int AS entries,
                    count(confirmed_at)::int AS confirmed
                  FROM waitlist_entries WHERE referred_by IS NOT NULL AND ${createdIn}
                  GROUP BY referred_by) c
            JOIN waitlist_entries r ON r.id = c.referred_by
            ORDER BY c.entries DESC, c.confirmed DESC, r.id
            LIMIT ${REFERRERS_SHOWN}`,
        ),
      ]);

      const sources = new Map<string, SourceRow>();
      const row = (source: string) => {
        let found = sources.get(source);
        if (!found) {
          found = { source, views: 0, entries: 0, confirmed: 0, joined: 0 };
          sources.set(source, found);
        }
        return found;
      };
      for (const v of viewsBySource) row(v.source).views = Number(v.views);
      for (const e of entriesBySource)
        Object.assign(row(e.source), {
          entries: Number(e.entries),
          confirmed: Number(e.confirmed),
          joined: Number(e.joined),
        });
      const sum = (pick: (e: (typeof entriesBySource)[number]) => number) =>
        entriesBySource.reduce((total, e) => total + Number(pick(e)), 0);
      const flow = mail[0];

      return {
        period: { days, from: isoDay(from), to: isoDay(today) },
        leadsPerDay: perDay.map((d) => ({ day: d.day, entries: Number(d.entries) })),
        sources: [...sources.values()]
          .sort(
            (a, b) =>
              b.entries - a.entries || b.views - a.views || a.source.localeCompare(b.source),
          )
          .slice(0, SOURCES_SHOWN),
        funnel: {
          views: viewsBySource.reduce((total, v) => total + Number(v.views), 0),
          entries: sum((e) => e.entries),
          confirmed: sum((e) => e.confirmed),
          invited: sum((e) => e.invited),
          joined: sum((e) => e.joined),
        },
        referrals: {
          entries: Number(referred[0]?.entries ?? 0),
          confirmed: Number(referred[0]?.confirmed ?? 0),
          referrerCount: Number(referred[0]?.referrers ?? 0),
          referrers: referrers.map((r) => ({
            id: Number(r.id),
            name: r.name,
            email: r.email,
            entries: Number(r.entries),
            confirmed: Number(r.confirmed),
          })),
        },
        mail: {
          health: {
            sent: Number(flow?.sent30 ?? 0),
            bounced: Number(flow?.bounced30 ?? 0),
            complained: Number(flow?.complained30 ?? 0),
            suppressedNow: Number(flow?.suppressed ?? 0),
          },
          broadcasts: broadcasts.map((b) => ({
            id: Number(b.id),
            subject: b.subject,
            startedAt: iso(b.started_at) ?? "",
            sent: Number(b.sent),
            bounced: Number(b.bounced),
            complained: Number(b.complained),
          })),
          waiting: Number(flow?.waiting ?? 0),
          sentLastDay: Number(flow?.sent ?? 0),
          failedLastDay: Number(flow?.failed ?? 0),
          oldestWaitingAt: iso(flow?.oldest ?? null),
          lastFailure: lastFailure[0]
            ? { at: iso(lastFailure[0].at), reason: lastFailure[0].reason }
            : null,
        },
      };
    },
  };
}
