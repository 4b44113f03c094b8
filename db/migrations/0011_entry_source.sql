-- Each entry's source, as page views name theirs (server/page-views.ts, cleanSource): the
-- campaign's utm_source, else the referring site's host without "www.", else "(direct)"; lower
-- case, runs of other characters as "-", at most 64 characters. Computed by the database for old
-- and new rows alike, so the dashboard groups entries by it without reading every referrer.
ALTER TABLE waitlist_entries ADD COLUMN source text NOT NULL GENERATED ALWAYS AS (
  coalesce(
    nullif(left(regexp_replace(regexp_replace(lower(
      coalesce(
        nullif(btrim(utm_source), ''),
        regexp_replace(substring(referrer FROM '^[hH][tT][tT][pP][sS]?://(?:[^@/?#]*@)?([^/:?#]+)'), '^www\.', '', 'i')
      )), '[^a-z0-9._-]+', '-', 'g'), '^-+|-+$', '', 'g'), 64), ''),
    '(direct)')
) STORED;

-- The dashboard's mail figures for the last day read these instead of the whole outbox.
CREATE INDEX outbox_sent_at_idx ON outbox (sent_at) WHERE status = 'sent';
CREATE INDEX outbox_failed_at_idx ON outbox (failed_at) WHERE status = 'failed';
