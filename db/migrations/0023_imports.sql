-- Imports (issue 37, part 5): an uploaded sheet, kept between its preview and its import, and what
-- came of it. The file's bytes go once it is imported, or after a day (housekeeping): a staged
-- file holds people's names and addresses.
CREATE TABLE waitlist_imports (
  id text PRIMARY KEY,
  file_name text NOT NULL,
  content bytea,
  uploaded_by text NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  -- How consent was had: 'confirmed' (they confirmed with us before; `statement` says how) or
  -- 'unconfirmed' (each new address is mailed to confirm, as a form's would be).
  basis text,
  statement text,
  imported_at timestamptz,
  imported_by text,
  outcome text,
  -- What the import did, in the preview's words: {new, exists, duplicate, suppressed, invalid}.
  counts jsonb,
  -- Why an upload was refused (no content kept): the upload page reads it by the row's id, so
  -- the reason, which can quote a cell, never travels in an address.
  refusal text,
  CONSTRAINT waitlist_imports_id_check CHECK (id ~ '^[0-9a-f]{32}$'),
  CONSTRAINT waitlist_imports_file_name_check CHECK (char_length(file_name) BETWEEN 1 AND 255),
  CONSTRAINT waitlist_imports_content_check CHECK (octet_length(content) < 5242880),
  CONSTRAINT waitlist_imports_basis_check CHECK (basis IN ('confirmed', 'unconfirmed')),
  CONSTRAINT waitlist_imports_statement_check CHECK (char_length(statement) <= 1000),
  CONSTRAINT waitlist_imports_refusal_check CHECK (
    refusal IS NULL OR (content IS NULL AND char_length(refusal) <= 1000))
);

-- The import an entry came by: its evidence of consent when it came confirmed.
ALTER TABLE waitlist_entries ADD COLUMN import_id text
  REFERENCES waitlist_imports (id) ON DELETE SET NULL;

ALTER TABLE consent_events DROP CONSTRAINT consent_events_place_check;
ALTER TABLE consent_events ADD CONSTRAINT consent_events_place_check
  CHECK (place IN ('confirmation', 'account', 'unsubscribe-page', 'one-click', 'restore', 'import'));

ALTER TABLE admin_audit_log DROP CONSTRAINT admin_audit_log_action_check;
ALTER TABLE admin_audit_log ADD CONSTRAINT admin_audit_log_action_check CHECK (action IN (
  'invite', 'resend', 'decline', 'remove', 'export', 'privacy-request', 'privacy-confirm',
  'privacy-complete', 'account-delete', 'erasure-replay', 'passkey-add', 'passkey-remove',
  'passkey-rename', 'passkeys-reset', 'recovery-codes', 'recovery-use', 'admin-lock',
  'export-token-create', 'export-token-revoke', 'broadcast-test', 'broadcast-start',
  'broadcast-pause', 'broadcast-resume', 'broadcast-cancel', 'broadcast-schedule',
  'suppression-add', 'suppression-remove', 'audience-save', 'audience-delete',
  'webhook-add', 'webhook-remove', 'webhook-rotate', 'webhook-enable', 'webhook-disable',
  'webhook-test', 'import'));
