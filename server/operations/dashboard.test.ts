import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { createDashboard } from "#server/operations/dashboard.ts";
import { viewSource } from "#server/operations/page-views.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

const database = databaseForThisFile();

describe("an entry's source", () => {
  test("is the name a page view of its landing would get, however odd the campaign or referrer", async () => {
    const { db } = database();
    const cases: [string | null, string | null][] = [
      ["Newsletter", null],
      ["  Spring Launch!! 2026 ", "https://www.linkedin.com/"],
      ["<script>alert(1)</script>", null],
      ["x".repeat(120), null],
      ["---", null],
      ["   ", "https://news.ycombinator.com/item?id=1"],
      [null, "https://WWW.Example.CO.uk:8443/path?q=1#top"],
      [null, "http://user:secret@partner.example/"],
      [null, "android-app://com.slack/"],
      [null, "not a url"],
      [null, null],
    ];
    let n = 0;
    for (const [utm, referrer] of cases) {
      const [row] = await queryRows<{ source: string }>(
        db,
        sql`INSERT INTO waitlist_entries (name, email, utm_source, referrer)
          VALUES ('Source test', ${`source-${n++}@example.com`}, ${utm}, ${referrer})
          RETURNING source`,
      );
      const landing = utm === null ? "/" : `/?utm_source=${encodeURIComponent(utm)}`;
      expect(row?.source, `utm_source ${utm}, referrer ${referrer}`).toBe(
        viewSource(landing, referrer ?? undefined, new Set()),
      );
    }
  });
});

describe("the dashboard's figures", () => {
  test("leads per day, the funnel and the sources of a period, and the mail of the last day", async () => {
    const { db } = database();
    await db.execute(sql`DELETE FROM waitlist_entries`);
    await db.execute(sql`
      INSERT INTO waitlist_entries (name, email, utm_source, created_at, state, confirmed_at) VALUES
        ('A', 'a@example.com', 'newsletter', now(), 'confirmed', now()),
        ('B', 'b@example.com', 'newsletter', now() - interval '1 day', 'waiting', NULL),
        ('C', 'c@example.com', NULL, now() - interval '40 days', 'confirmed', now())`);
    const today = new Date().toISOString().slice(0, 10);
    await db.execute(sql`
      INSERT INTO page_views (day, path, source, views) VALUES
        (${today}::date, '/', 'newsletter', 10), (${today}::date, '/dpa', '(direct)', 4),
        (${today}::date - 100, '/', 'newsletter', 99)`);
    await db.execute(sql`
      INSERT INTO outbox (key, channel, payload, status, sent_at, failed_at, last_error) VALUES
        ('d-1', 'email', '{}', 'sent', now(), NULL, NULL),
        ('d-2', 'email', '{}', 'failed', NULL, now(), '550 Mailbox unavailable'),
        ('d-3', 'email', '{}', 'pending', NULL, NULL, NULL)`);

    const overview = await createDashboard(db).overview(30);
    expect(overview.leadsPerDay).toHaveLength(30);
    expect(overview.leadsPerDay.at(-1)).toEqual({ day: today, entries: 1 });
    expect(overview.leadsPerDay.reduce((sum, d) => sum + d.entries, 0)).toBe(2);
    expect(overview.funnel).toEqual({ views: 14, entries: 2, confirmed: 1, invited: 0, joined: 0 });
    expect(overview.sources).toEqual([
      { source: "newsletter", views: 10, entries: 2, confirmed: 1, joined: 0 },
      { source: "(direct)", views: 4, entries: 0, confirmed: 0, joined: 0 },
    ]);
    expect(overview.mail).toMatchObject({
      waiting: 1,
      sentLastDay: 1,
      failedLastDay: 1,
      lastFailure: { reason: "550 Mailbox unavailable" },
    });
    expect((await createDashboard(db).overview(365)).funnel.entries).toBe(3);
  });
});
