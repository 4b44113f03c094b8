-- Signed webhooks (decision 046): the endpoints an administrator added, and every attempt to
-- deliver to one. A delivery itself is an outbox row (channel 'webhook'), written in the
-- transaction of the change it reports, one per endpoint that asked for the event.
CREATE TABLE webhook_endpoints (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text[] NOT NULL,
  -- The signing secret (Standard Webhooks' `whsec_…`), shown once; after a rotation the one before
  -- it signs too, until previous_secret_until.
  secret text NOT NULL,
  previous_secret text,
  previous_secret_until timestamptz,
  -- Since when every attempt has failed (cleared by a success); five days of it disables the
  -- endpoint, as does a 410.
  failing_since timestamptz,
  disabled_at timestamptz,
  disabled_reason text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT webhook_endpoints_url_check
    CHECK (url LIKE 'https://%' AND char_length(url) <= 2000),
  CONSTRAINT webhook_endpoints_description_check CHECK (char_length(description) <= 200),
  CONSTRAINT webhook_endpoints_events_check CHECK (cardinality(events) >= 1),
  CONSTRAINT webhook_endpoints_secret_check CHECK (secret LIKE 'whsec_%')
);

-- The delivery log: what each attempt got back, and how long it took. Names the message and the
-- event's type, never what it carried.
CREATE TABLE webhook_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  endpoint_id bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  message_id text NOT NULL,
  event_type text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  status_code integer,
  duration_ms integer NOT NULL,
  outcome text NOT NULL,
  error text,
  CONSTRAINT webhook_attempts_outcome_check CHECK (outcome IN ('delivered', 'retry', 'failed'))
);
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, at DESC NULLS LAST);

ALTER TABLE outbox DROP CONSTRAINT outbox_channel_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_channel_check
  CHECK (channel IN ('email', 'forward', 'slack', 'webhook'));

ALTER TABLE admin_audit_log DROP CONSTRAINT admin_audit_log_action_check;
ALTER TABLE admin_audit_log ADD CONSTRAINT admin_audit_log_action_check CHECK (action IN (
  'invite', 'resend', 'decline', 'remove', 'export', 'privacy-request', 'privacy-confirm',
  'privacy-complete', 'account-delete', 'erasure-replay', 'passkey-add', 'passkey-remove',
  'passkey-rename', 'passkeys-reset', 'recovery-codes', 'recovery-use', 'admin-lock',
  'export-token-create', 'export-token-revoke', 'broadcast-test', 'broadcast-start',
  'broadcast-pause', 'broadcast-resume', 'broadcast-cancel', 'broadcast-schedule',
  'suppression-add', 'suppression-remove', 'audience-save', 'audience-delete',
  'webhook-add', 'webhook-remove', 'webhook-rotate', 'webhook-enable', 'webhook-disable',
  'webhook-test'));
