-- When a message was given up (decision 022), shown on the admin's deliveries page beside its
-- reason. Messages that failed before this migration keep it empty: that time was not recorded.
ALTER TABLE outbox ADD COLUMN failed_at timestamptz;
