-- Saved audiences (decision 044): a filter of the entry list under a name, kept as the list's own
-- address text (`state=confirmed&practice=us-tx`), for an invitation batch or a broadcast to aim at.
CREATE TABLE audiences (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  filter text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT audiences_name_check CHECK (char_length(btrim(name)) BETWEEN 1 AND 80),
  CONSTRAINT audiences_filter_check CHECK (char_length(filter) <= 2000)
);
CREATE UNIQUE INDEX audiences_name_key ON audiences (lower(btrim(name)));

-- Saving and deleting one are Activity rows; the invitations of a batch are each their own.
ALTER TABLE admin_audit_log DROP CONSTRAINT admin_audit_log_action_check;
ALTER TABLE admin_audit_log ADD CONSTRAINT admin_audit_log_action_check CHECK (action IN (
  'invite', 'resend', 'decline', 'remove', 'export', 'privacy-request', 'privacy-confirm',
  'privacy-complete', 'account-delete', 'erasure-replay', 'passkey-add', 'passkey-remove',
  'passkey-rename', 'passkeys-reset', 'recovery-codes', 'recovery-use', 'admin-lock',
  'export-token-create', 'export-token-revoke', 'broadcast-test', 'broadcast-start',
  'broadcast-pause', 'broadcast-resume', 'broadcast-cancel', 'broadcast-schedule',
  'suppression-add', 'suppression-remove', 'audience-save', 'audience-delete'));
