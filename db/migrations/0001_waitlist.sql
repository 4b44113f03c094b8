-- The waitlist: every request for access, stored before the visitor is told it worked.
CREATE TABLE waitlist_entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  company text,
  message text,
  utm_source text,
  utm_medium text,
  utm_campaign text,
  utm_term text,
  utm_content text,
  referrer text,
  landing_path text,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Forwarding to an external collector (optional): an outbox kept on the row itself.
  forward_status text NOT NULL DEFAULT 'none'
    CHECK (forward_status IN ('none', 'pending', 'sent', 'failed')),
  forward_attempts integer NOT NULL DEFAULT 0,
  forward_next_at timestamptz,
  forward_last_error text,
  forwarded_at timestamptz
);

-- One row per address, whatever its case.
CREATE UNIQUE INDEX waitlist_entries_email_key ON waitlist_entries (lower(email));
CREATE INDEX waitlist_entries_created_at_idx ON waitlist_entries (created_at DESC);
CREATE INDEX waitlist_entries_forward_due_idx ON waitlist_entries (forward_next_at)
  WHERE forward_status = 'pending';

-- Fixed one-minute windows of requests per client, shared by every server instance.
CREATE TABLE rate_limit_windows (
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
