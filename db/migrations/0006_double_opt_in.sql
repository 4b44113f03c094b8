-- Double opt-in (decision 023). An entry starts `waiting` and becomes `confirmed` when
-- its owner presses the button behind the link in the confirmation mail. The invitation work adds
-- its own states (invited, joined, declined) to this CHECK when it lands. Entries made before this
-- migration were never asked to confirm, so they stay `waiting`.
ALTER TABLE waitlist_entries
  ADD COLUMN state text NOT NULL DEFAULT 'waiting',
  ADD COLUMN confirmed_at timestamptz,
  ADD CONSTRAINT waitlist_entries_state_check CHECK (state IN ('waiting', 'confirmed'));

-- The links in waitlist mail. Only the SHA-256 of a token is kept (a leaked table opens nothing);
-- each token serves one purpose, works once and until it expires. Erasing an entry erases its
-- tokens with it.
CREATE TABLE waitlist_tokens (
  token_hash text PRIMARY KEY,
  entry_id bigint NOT NULL,
  purpose text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT waitlist_tokens_purpose_check CHECK (purpose IN ('confirm', 'remove')),
  CONSTRAINT waitlist_tokens_entry_id_fkey FOREIGN KEY (entry_id)
    REFERENCES waitlist_entries (id) ON DELETE CASCADE
);

CREATE INDEX waitlist_tokens_entry_id_idx ON waitlist_tokens (entry_id);
