-- From waitlist to beta user (decision 024). An entry's state goes on past `confirmed`: an admin
-- invites it (`invited`), its owner creates an account from the invitation (`joined`), or an
-- admin declines it (`declined`). Which change each state allows is decided in one module
-- (src/features/waitlist/lifecycle.ts); the CHECK only keeps the column to the five names.
ALTER TABLE waitlist_entries DROP CONSTRAINT waitlist_entries_state_check;
ALTER TABLE waitlist_entries
  ADD COLUMN invited_at timestamptz,
  -- When the last invitation mail was written: Resend waits an hour after it.
  ADD COLUMN invite_sent_at timestamptz,
  ADD COLUMN declined_at timestamptz,
  ADD COLUMN joined_at timestamptz,
  -- The Firebase account that joined from this entry: it keeps its access in invite-only mode.
  ADD COLUMN joined_uid text,
  -- Mails an admin's action wrote for this entry (invitations, resends, a decline): each one's
  -- outbox key carries its number, so erasing the entry finds every one of them by key.
  ADD COLUMN admin_mails integer NOT NULL DEFAULT 0,
  ADD CONSTRAINT waitlist_entries_state_check
    CHECK (state IN ('waiting', 'confirmed', 'invited', 'joined', 'declined'));

-- The invitation's link is a token like the others: only its SHA-256 is kept.
ALTER TABLE waitlist_tokens DROP CONSTRAINT waitlist_tokens_purpose_check;
ALTER TABLE waitlist_tokens
  ADD CONSTRAINT waitlist_tokens_purpose_check CHECK (purpose IN ('confirm', 'remove', 'invite'));

-- The admin list pages newest first by (created_at, id), with or without a state filter: keyset
-- pagination walks these indexes (backwards) from the last row shown, whatever the page number.
DROP INDEX waitlist_entries_created_at_idx;
CREATE INDEX waitlist_entries_newest_idx ON waitlist_entries (created_at, id);
CREATE INDEX waitlist_entries_state_newest_idx ON waitlist_entries (state, created_at, id);
CREATE INDEX waitlist_entries_joined_uid_idx ON waitlist_entries (joined_uid)
  WHERE joined_uid IS NOT NULL;

-- How many entries each state holds, kept by the database itself as entries are added, change
-- state or are erased (statement triggers below), so the admin list shows its counts without
-- reading every entry. A new state needs its row here.
CREATE TABLE waitlist_state_counts (
  state text PRIMARY KEY,
  entries bigint NOT NULL
);
INSERT INTO waitlist_state_counts (state, entries)
SELECT s, (SELECT count(*) FROM waitlist_entries WHERE state = s)
FROM unnest(ARRAY['waiting', 'confirmed', 'invited', 'joined', 'declined']) AS s;

CREATE FUNCTION waitlist_state_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE waitlist_state_counts c SET entries = c.entries + d.n
    FROM (SELECT state, count(*) AS n FROM new_entries GROUP BY state) d WHERE c.state = d.state;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE waitlist_state_counts c SET entries = c.entries - d.n
    FROM (SELECT state, count(*) AS n FROM old_entries GROUP BY state) d WHERE c.state = d.state;
  ELSE
    -- Only the rows whose state changed move a count (most updates leave it as it was).
    UPDATE waitlist_state_counts c SET entries = c.entries + d.n
    FROM (
      SELECT state, sum(n) AS n FROM (
        SELECT o.state, -1 AS n FROM old_entries o JOIN new_entries w USING (id) WHERE o.state <> w.state
        UNION ALL
        SELECT w.state, 1 FROM old_entries o JOIN new_entries w USING (id) WHERE o.state <> w.state
      ) moves GROUP BY state
    ) d WHERE c.state = d.state;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER waitlist_state_counts_insert AFTER INSERT ON waitlist_entries
  REFERENCING NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_state_counts_follow();
CREATE TRIGGER waitlist_state_counts_update AFTER UPDATE ON waitlist_entries
  REFERENCING OLD TABLE AS old_entries NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_state_counts_follow();
CREATE TRIGGER waitlist_state_counts_delete AFTER DELETE ON waitlist_entries
  REFERENCING OLD TABLE AS old_entries
  FOR EACH STATEMENT EXECUTE FUNCTION waitlist_state_counts_follow();

-- Every admin action and export, one row per entry acted on. It names the entry by id only (no
-- foreign key: a row outlives the entry's erasure) and keeps no personal data of the lead.
CREATE TABLE admin_audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  admin_email text NOT NULL,
  action text NOT NULL,
  entry_id bigint,
  outcome text NOT NULL,
  client_address text NOT NULL,
  CONSTRAINT admin_audit_log_action_check
    CHECK (action IN ('invite', 'resend', 'decline', 'remove', 'export'))
);

-- Append-only in the database itself: no UPDATE, DELETE or TRUNCATE gets through, whatever the
-- site's code asks. Only a migration that drops these triggers could change that.
CREATE FUNCTION admin_audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'admin_audit_log is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER admin_audit_log_no_update_or_delete BEFORE UPDATE OR DELETE ON admin_audit_log
  FOR EACH ROW EXECUTE FUNCTION admin_audit_log_refuse_change();
CREATE TRIGGER admin_audit_log_no_truncate BEFORE TRUNCATE ON admin_audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_log_refuse_change();
