-- Privacy requests (decision 030): access, deletion or correction of what the site holds under an
-- email address, asked on /privacy-request and confirmed by a link mailed to that address.
--
-- A request holds the requester's address, name and details only while it is being handled: once
-- it is completed they are cleared (set to NULL), and what stays is its kind, its dates and its
-- outcome. The link's token is kept as its SHA-256, as every other link's.
CREATE TABLE privacy_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  state text NOT NULL DEFAULT 'unconfirmed',
  email text,
  name text,
  details text,
  token_hash text,
  token_expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  due_at timestamptz,
  completed_at timestamptz,
  outcome text,
  CONSTRAINT privacy_requests_kind_check CHECK (kind IN ('access', 'deletion', 'correction')),
  CONSTRAINT privacy_requests_state_check CHECK (state IN ('unconfirmed', 'open', 'completed')),
  -- Open (confirmed) requests carry their deadline; completed ones their outcome, and nothing
  -- personal once completed.
  CONSTRAINT privacy_requests_confirmed_check
    CHECK (state <> 'open' OR (confirmed_at IS NOT NULL AND due_at IS NOT NULL)),
  CONSTRAINT privacy_requests_completed_check
    CHECK ((state = 'completed') = (completed_at IS NOT NULL AND outcome IS NOT NULL)),
  CONSTRAINT privacy_requests_personal_check
    CHECK (state = 'completed' OR email IS NOT NULL)
);
CREATE UNIQUE INDEX privacy_requests_token_hash_key ON privacy_requests (token_hash);
CREATE INDEX privacy_requests_email_idx ON privacy_requests (lower(email)) WHERE email IS NOT NULL;
CREATE INDEX privacy_requests_open_idx ON privacy_requests (due_at) WHERE state = 'open';

-- The audit log records privacy requests too: received and confirmed (by the requester, who has
-- no admin address), completed (by the site, or by the admin who did a correction). Such rows
-- name the request by number, never by address, and the log stays append-only (0008's triggers).
ALTER TABLE admin_audit_log ALTER COLUMN admin_email DROP NOT NULL;
ALTER TABLE admin_audit_log ADD COLUMN request_id bigint;
ALTER TABLE admin_audit_log DROP CONSTRAINT admin_audit_log_action_check;
ALTER TABLE admin_audit_log ADD CONSTRAINT admin_audit_log_action_check
  CHECK (action IN ('invite', 'resend', 'decline', 'remove', 'export',
                    'privacy-request', 'privacy-confirm', 'privacy-complete'));
