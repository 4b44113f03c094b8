-- A session remembers when its password sign-in happened (Firebase's auth_time, so it compares
-- with the account's tokensValidAfterTime on Firebase's own clock) and when the account was last
-- checked with Firebase: a deleted, disabled or revoked account ends its sessions (decision 011).
ALTER TABLE sessions ADD COLUMN signed_in_at timestamptz;
ALTER TABLE sessions ADD COLUMN account_checked_at timestamptz NOT NULL DEFAULT now();
