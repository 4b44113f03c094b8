-- Telling the list (decision 041): consent to each kind of broadcast, the suppression list that
-- every send checks, and broadcasts whose recipients are fixed when sending starts.

-- Consent, as it stands now, on the entry; consent_events keeps how it came to be. Waitlist news
-- goes to confirmed entries unless they stopped it; product news only to those who asked for it.
ALTER TABLE waitlist_entries ADD COLUMN product_news_at timestamptz;
ALTER TABLE waitlist_entries ADD COLUMN waitlist_news_stopped_at timestamptz;

-- Every consent given or withdrawn: which kind, when and where. It goes with its entry.
CREATE TABLE consent_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  entry_id bigint NOT NULL,
  kind text NOT NULL,
  given boolean NOT NULL,
  -- Where: the confirmation page, /account, a mail's unsubscribe page, a mail client's one-click,
  -- or a restore carrying out again a withdrawal made after its backup (decision 042).
  place text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT consent_events_entry_id_fkey FOREIGN KEY (entry_id)
    REFERENCES waitlist_entries (id) ON DELETE CASCADE,
  CONSTRAINT consent_events_kind_check CHECK (kind IN ('waitlist-news', 'product-news')),
  CONSTRAINT consent_events_place_check
    CHECK (place IN ('confirmation', 'account', 'unsubscribe-page', 'one-click', 'restore'))
);
CREATE INDEX consent_events_entry_id_idx ON consent_events (entry_id);

-- Addresses that get no mail they did not just ask for, by a keyed hash of the address (HMAC-SHA256
-- of its lower case, under a key derived from ERASURE_KEY), so an entry erased later stays
-- suppressed without its address being kept. `address` is the clear address until then.
-- `scope` 'all' stops every mail that policy lets it stop; a broadcast kind's scope stops that
-- kind alone (its one-click unsubscribe).
CREATE TABLE mail_suppressions (
  address_hash text NOT NULL,
  scope text NOT NULL,
  address text,
  reason text NOT NULL,
  detail text NOT NULL DEFAULT '',
  -- The administrator who added it, for reason 'admin'.
  added_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT mail_suppressions_pkey PRIMARY KEY (address_hash, scope),
  CONSTRAINT mail_suppressions_scope_check
    CHECK (scope IN ('all', 'waitlist-news', 'product-news')),
  CONSTRAINT mail_suppressions_reason_check
    CHECK (reason IN ('refused', 'hard-bounce', 'soft-bounces', 'complaint', 'unsubscribe', 'admin')),
  CONSTRAINT mail_suppressions_detail_check CHECK (char_length(detail) <= 500)
);
CREATE INDEX mail_suppressions_created_at_idx ON mail_suppressions (created_at);

-- What came back about a mail that was sent: a bounce, a complaint or an unsubscribe, by the
-- outbox row it names. Soft bounces are counted here: three within 30 days suppress the address.
CREATE TABLE mail_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  outbox_id bigint,
  address_hash text NOT NULL,
  kind text NOT NULL,
  detail text NOT NULL DEFAULT '',
  at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT mail_events_kind_check
    CHECK (kind IN ('refused', 'hard-bounce', 'soft-bounce', 'complaint', 'unsubscribe')),
  CONSTRAINT mail_events_detail_check CHECK (char_length(detail) <= 500)
);
CREATE INDEX mail_events_outbox_id_idx ON mail_events (outbox_id);
CREATE INDEX mail_events_address_hash_at_idx ON mail_events (address_hash, at);
CREATE INDEX mail_events_at_idx ON mail_events (at);

-- What came back to the bounce address (BOUNCE_IMAP_URL, BOUNCE_SMTP_PORT): every message, by the
-- SHA-256 of its bytes (read twice, it is kept once), with what was made of it. One that could not
-- be read, or names no mail of ours, keeps its text for an administrator to read; housekeeping
-- deletes reports after 30 days.
CREATE TABLE bounce_reports (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  raw_hash text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  via text NOT NULL,
  outcome text NOT NULL,
  kind text,
  outbox_id bigint,
  detail text NOT NULL DEFAULT '',
  raw text,
  CONSTRAINT bounce_reports_raw_hash_key UNIQUE (raw_hash),
  CONSTRAINT bounce_reports_via_check CHECK (via IN ('imap', 'smtp')),
  CONSTRAINT bounce_reports_outcome_check CHECK (outcome IN ('recorded', 'unmatched', 'unparsed')),
  CONSTRAINT bounce_reports_detail_check CHECK (char_length(detail) <= 1000)
);
CREATE INDEX bounce_reports_received_at_idx ON bounce_reports (received_at);

-- A mail held back at the moment of sending because its address is suppressed.
ALTER TABLE outbox DROP CONSTRAINT outbox_status_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_status_check
  CHECK (status IN ('pending', 'sent', 'failed', 'suppressed'));

CREATE TABLE broadcasts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  subject text NOT NULL,
  -- Markdown, rendered into the site's mail layout when each mail is written.
  body text NOT NULL,
  -- Who it goes to, beyond the kind's consent: the entry states and the admin list's filters.
  audience jsonb NOT NULL,
  status text NOT NULL DEFAULT 'draft',
  scheduled_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  -- Why it is paused, in words for the administrator.
  paused_reason text,
  -- How far the sending rate has handed mails over: each mail moves it on by 60 s divided by
  -- BROADCAST_RATE_PER_MINUTE, under the row's lock, so instances together keep to the rate.
  pumped_at timestamptz,
  recipients integer NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT broadcasts_kind_check CHECK (kind IN ('waitlist-news', 'product-news')),
  CONSTRAINT broadcasts_status_check
    CHECK (status IN ('draft', 'scheduled', 'sending', 'paused', 'finished', 'cancelled')),
  CONSTRAINT broadcasts_subject_check CHECK (char_length(subject) BETWEEN 1 AND 200),
  CONSTRAINT broadcasts_body_check CHECK (char_length(body) BETWEEN 1 AND 50000)
);
CREATE INDEX broadcasts_due_idx ON broadcasts (status) WHERE status IN ('scheduled', 'sending');

-- The recipients of a broadcast, fixed when sending starts: one row per entry, so a person gets a
-- broadcast at most once. A row leaves 'waiting' in the same transaction that writes its mail to
-- the outbox (under the key broadcast:<id>:<entry>), or notes why no mail was written.
CREATE TABLE broadcast_recipients (
  broadcast_id bigint NOT NULL,
  entry_id bigint NOT NULL,
  status text NOT NULL DEFAULT 'waiting',
  outbox_id bigint,
  CONSTRAINT broadcast_recipients_pkey PRIMARY KEY (broadcast_id, entry_id),
  CONSTRAINT broadcast_recipients_broadcast_id_fkey FOREIGN KEY (broadcast_id)
    REFERENCES broadcasts (id) ON DELETE CASCADE,
  CONSTRAINT broadcast_recipients_entry_id_fkey FOREIGN KEY (entry_id)
    REFERENCES waitlist_entries (id) ON DELETE CASCADE,
  CONSTRAINT broadcast_recipients_status_check
    CHECK (status IN ('waiting', 'queued', 'suppressed', 'unsubscribed'))
);
CREATE INDEX broadcast_recipients_waiting_idx ON broadcast_recipients (broadcast_id, entry_id)
  WHERE status = 'waiting';
CREATE INDEX broadcast_recipients_outbox_id_idx ON broadcast_recipients (outbox_id);

-- The administrator's actions on broadcasts and the suppression list go to the audit log.
ALTER TABLE admin_audit_log DROP CONSTRAINT admin_audit_log_action_check;
ALTER TABLE admin_audit_log ADD CONSTRAINT admin_audit_log_action_check CHECK (action IN (
  'invite', 'resend', 'decline', 'remove', 'export', 'privacy-request', 'privacy-confirm',
  'privacy-complete', 'account-delete', 'erasure-replay', 'passkey-add', 'passkey-remove',
  'passkey-rename', 'passkeys-reset', 'recovery-codes', 'recovery-use', 'admin-lock',
  'export-token-create', 'export-token-revoke', 'broadcast-test', 'broadcast-start',
  'broadcast-pause', 'broadcast-resume', 'broadcast-cancel', 'broadcast-schedule',
  'suppression-add', 'suppression-remove'));
-- The broadcast an action was about, by number.
ALTER TABLE admin_audit_log ADD COLUMN broadcast_id bigint;

-- A removed or erased address stays suppressed by its hash alone: when the last row that holds it
-- goes (an entry, a sub-processor subscription), the list forgets the clear address. A trigger, so
-- that no way of erasing has to remember it; server/privacy/erase.ts does the same for an address
-- erased with nothing else of it held.
CREATE FUNCTION mail_suppressions_forget_address() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE mail_suppressions SET address = NULL WHERE address = lower(btrim(OLD.email));
  RETURN OLD;
END
$$;
CREATE TRIGGER waitlist_entries_forget_suppressed_address AFTER DELETE ON waitlist_entries
  FOR EACH ROW EXECUTE FUNCTION mail_suppressions_forget_address();
CREATE TRIGGER subprocessor_subscribers_forget_suppressed_address
  AFTER DELETE ON subprocessor_subscribers
  FOR EACH ROW EXECUTE FUNCTION mail_suppressions_forget_address();
