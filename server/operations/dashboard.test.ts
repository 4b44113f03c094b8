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

  test("referrals of a period: entries through a shared link, and whose links brought the most", async () => {
    const { db } = database();
    await db.execute(sql`DELETE FROM waitlist_entries`);
    await db.execute(sql`
      INSERT INTO waitlist_entries (id, name, email, created_at) OVERRIDING SYSTEM VALUE VALUES
        (1, 'Ada', 'ada@example.com', now() - interval '100 days'),
        (2, 'Bea', 'bea@example.com', now() - interval '100 days')`);
    await db.execute(sql`
      INSERT INTO waitlist_entries (name, email, referred_by, created_at, state, confirmed_at)
      VALUES
        ('R1', 'r1@example.com', 1, now(), 'confirmed', now()),
        ('R2', 'r2@example.com', 1, now(), 'waiting', NULL),
        ('R3', 'r3@example.com', 2, now(), 'confirmed', now()),
        ('Old', 'old@example.com', 2, now() - interval '60 days', 'confirmed', now())`);

    const { referrals } = await createDashboard(db).overview(30);
    expect(referrals).toEqual({
      entries: 3,
      confirmed: 2,
      referrerCount: 2,
      referrers: [
        { id: 1, name: "Ada", email: "ada@example.com", entries: 2, confirmed: 1 },
        { id: 2, name: "Bea", email: "bea@example.com", entries: 1, confirmed: 1 },
      ],
    });
    const year = (await createDashboard(db).overview(365)).referrals;
    // Over a year both brought two; the one whose entries confirmed more comes first.
    expect(year.referrers.map((r) => [r.email, r.entries, r.confirmed])).toEqual([
      ["bea@example.com", 2, 2],
      ["ada@example.com", 2, 1],
    ]);
    // An erased referrer leaves its entries unattributed: they no longer count as referred.
    await db.execute(sql`DELETE FROM waitlist_entries WHERE id = 1`);
    expect((await createDashboard(db).overview(30)).referrals).toMatchObject({
      entries: 1,
      referrerCount: 1,
    });
    await db.execute(sql`DELETE FROM waitlist_entries`);
  });

  test("each broadcast of the last 30 days with its own sent, bounced and complained", async () => {
    const { db } = database();
    await db.execute(sql`TRUNCATE broadcasts, broadcast_recipients, mail_events CASCADE`);
    await db.execute(sql`DELETE FROM outbox`);
    await db.execute(sql`DELETE FROM waitlist_entries`);
    await db.execute(sql`
      INSERT INTO waitlist_entries (id, name, email, state, confirmed_at)
      OVERRIDING SYSTEM VALUE
      SELECT i, 'Lead ' || i, 'lead-' || i || '@example.com', 'confirmed', now()
      FROM generate_series(1, 4) AS i`);
    await db.execute(sql`
      INSERT INTO outbox (id, key, channel, payload, status, sent_at)
      OVERRIDING SYSTEM VALUE
      SELECT i, 'broadcast:' || i, 'email', '{}', 'sent', now() FROM generate_series(1, 4) AS i`);
    await db.execute(sql`
      INSERT INTO broadcasts (id, kind, subject, body, audience, status, recipients, created_by, started_at)
      OVERRIDING SYSTEM VALUE VALUES
        (1, 'waitlist-news', 'Texas next week', 'x', '{}', 'finished', 4, 'o@example.com', now() - interval '1 day'),
        (2, 'waitlist-news', 'Long ago', 'x', '{}', 'finished', 0, 'o@example.com', now() - interval '40 days')`);
    await db.execute(sql`
      INSERT INTO broadcast_recipients (broadcast_id, entry_id, status, outbox_id)
      SELECT 1, i, 'queued', i FROM generate_series(1, 4) AS i`);
    // One address bounced twice (soft, then hard), and complained too: counted once in each.
    await db.execute(sql`
      INSERT INTO mail_events (outbox_id, address_hash, kind) VALUES
        (1, 'h1', 'soft-bounce'), (1, 'h1', 'hard-bounce'), (1, 'h1', 'complaint'), (2, 'h2', 'complaint')`);

    const { mail } = await createDashboard(db).overview(30);
    expect(mail.broadcasts).toEqual([
      {
        id: 1,
        subject: "Texas next week",
        startedAt: expect.any(String) as string,
        sent: 4,
        bounced: 1,
        complained: 2,
      },
    ]);
  });
});
