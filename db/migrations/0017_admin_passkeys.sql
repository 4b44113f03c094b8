-- Administrative access behind a passkey (decision 039). An administrator is known by the address
-- ADMIN_EMAILS lists, in lower case; every table here names them by it.

-- A session's level for the admin. Signed in (the Firebase password) is the row itself; verified
-- is a passkey assertion, or a recovery code, made on this very row: the id changes on every
-- verification, so these are only ever set on a row made for them.
ALTER TABLE sessions ADD COLUMN admin_verified_at timestamptz;
-- How the row was verified: 'recovery' asks for a new passkey before anything else.
ALTER TABLE sessions ADD COLUMN admin_verified_by text;
-- The last passkey assertion of this session: the step-up that sensitive actions ask for.
ALTER TABLE sessions ADD COLUMN admin_step_up_at timestamptz;
-- The last admin request of this session: an hour without one and the passkey is asked again.
ALTER TABLE sessions ADD COLUMN admin_seen_at timestamptz;
-- The mailed code was entered on this session: its first passkey may be registered.
ALTER TABLE sessions ADD COLUMN admin_mailbox_proven_at timestamptz;
ALTER TABLE sessions ADD CONSTRAINT sessions_admin_verified_by_check
  CHECK (admin_verified_by IN ('passkey', 'recovery'));
ALTER TABLE sessions ADD CONSTRAINT sessions_admin_verified_check
  CHECK ((admin_verified_at IS NULL) = (admin_verified_by IS NULL));

-- An administrator's passkeys (WebAuthn credentials). The public key is not a secret; the
-- authenticator keeps the private one.
CREATE TABLE admin_passkeys (
  credential_id text PRIMARY KEY,
  admin_email text NOT NULL,
  -- The WebAuthn user handle this administrator's passkeys share (random, base64url).
  user_handle text NOT NULL,
  -- base64url
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  backed_up boolean NOT NULL,
  device_type text NOT NULL,
  aaguid text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  CONSTRAINT admin_passkeys_device_type_check CHECK (device_type IN ('singleDevice', 'multiDevice')),
  CONSTRAINT admin_passkeys_name_check CHECK (char_length(name) BETWEEN 1 AND 60)
);
CREATE INDEX admin_passkeys_admin_email_idx ON admin_passkeys (admin_email);

-- Recovery codes by the SHA-256 of the code (each holds 120 random bits: nothing to guess).
CREATE TABLE admin_recovery_codes (
  code_hash text PRIMARY KEY,
  admin_email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz
);
CREATE INDEX admin_recovery_codes_admin_email_idx ON admin_recovery_codes (admin_email);

-- The challenge of a ceremony in progress, bound to one session row and one ceremony, used once.
-- For 'mailbox' the secret is the keyed hash of the mailed code, never the code.
CREATE TABLE admin_challenges (
  session_id text NOT NULL,
  ceremony text NOT NULL,
  secret text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT admin_challenges_pkey PRIMARY KEY (session_id, ceremony),
  CONSTRAINT admin_challenges_ceremony_check
    CHECK (ceremony IN ('register', 'authenticate', 'mailbox'))
);
CREATE INDEX admin_challenges_expires_at_idx ON admin_challenges (expires_at);

-- Failed verifications (a wrong code, a refused assertion), counted for the lock.
CREATE TABLE admin_verification_failures (
  id bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  admin_email text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  reason text NOT NULL
);
CREATE INDEX admin_verification_failures_admin_email_at_idx
  ON admin_verification_failures (admin_email, at);

-- An administrator locked out of verification until a time, after five failures in 15 minutes.
CREATE TABLE admin_locks (
  admin_email text PRIMARY KEY,
  locked_until timestamptz NOT NULL
);

-- Tokens for scripts that download the CSV export, by the SHA-256 of the token (256 random bits).
CREATE TABLE admin_export_tokens (
  id bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  admin_email text NOT NULL,
  token_hash text NOT NULL,
  label text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  last_used_at timestamptz,
  last_used_from text,
  CONSTRAINT admin_export_tokens_token_hash_key UNIQUE (token_hash),
  CONSTRAINT admin_export_tokens_label_check CHECK (char_length(label) BETWEEN 1 AND 60)
);
CREATE INDEX admin_export_tokens_admin_email_idx ON admin_export_tokens (admin_email);

-- What an administrator's credentials went through, on the Activity page.
ALTER TABLE admin_audit_log DROP CONSTRAINT admin_audit_log_action_check;
ALTER TABLE admin_audit_log ADD CONSTRAINT admin_audit_log_action_check
  CHECK (action IN ('invite', 'resend', 'decline', 'remove', 'export',
                    'privacy-request', 'privacy-confirm', 'privacy-complete',
                    'account-delete', 'erasure-replay',
                    'passkey-add', 'passkey-remove', 'passkey-rename', 'passkeys-reset',
                    'recovery-codes', 'recovery-use', 'admin-lock',
                    'export-token-create', 'export-token-revoke'));
