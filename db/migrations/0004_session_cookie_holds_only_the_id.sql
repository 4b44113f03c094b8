-- The session cookie now carries only the session's id, signed (decision 013): who the visitor is
-- lives in the row, refreshed from Firebase whenever the account is checked. Cookies of the old
-- format no longer verify, so every session from before this migration is ended.
ALTER TABLE sessions ADD COLUMN email text;
ALTER TABLE sessions ADD COLUMN email_verified boolean NOT NULL DEFAULT false;
UPDATE sessions SET revoked_at = now() WHERE revoked_at IS NULL;
