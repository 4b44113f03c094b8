-- Page views, counted by the server without cookies or personal data (server/page-views.ts):
-- one row per day, page and source, summed by every instance that flushes its counts here. The
-- source is a campaign's utm_source or the referring site's host; nothing else about the visitor
-- is kept.
CREATE TABLE page_views (
  day date NOT NULL,
  path text NOT NULL,
  source text NOT NULL,
  views bigint NOT NULL CHECK (views > 0),
  PRIMARY KEY (day, path, source)
);
