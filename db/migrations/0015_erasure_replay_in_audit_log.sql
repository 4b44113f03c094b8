-- A restore that carries erasures out again (decision 032) records each one it found on the
-- admin's Activity page: by the site itself, naming an erased entry by number, never the address.
ALTER TABLE admin_audit_log DROP CONSTRAINT admin_audit_log_action_check;
ALTER TABLE admin_audit_log ADD CONSTRAINT admin_audit_log_action_check
  CHECK (action IN ('invite', 'resend', 'decline', 'remove', 'export',
                    'privacy-request', 'privacy-confirm', 'privacy-complete',
                    'account-delete', 'erasure-replay'));
