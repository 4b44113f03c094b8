-- A member deleting their own account is recorded on the admin's Activity page too (decision
-- 029, amended): one row per deletion, naming the waitlist entry erased with it by number, never
-- the address. The log stays append-only (0008's triggers).
ALTER TABLE admin_audit_log DROP CONSTRAINT admin_audit_log_action_check;
ALTER TABLE admin_audit_log ADD CONSTRAINT admin_audit_log_action_check
  CHECK (action IN ('invite', 'resend', 'decline', 'remove', 'export',
                    'privacy-request', 'privacy-confirm', 'privacy-complete',
                    'account-delete'));
