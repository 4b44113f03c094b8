-- Email notice of sub-processor changes (decision 025): anyone may subscribe on /subprocessors.
-- A subscriber starts `waiting` and becomes `confirmed` when they press the button behind the
-- link in the confirmation mail; only confirmed subscribers get notices. One address is one row,
-- whatever its case.
CREATE TABLE subprocessor_subscribers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL,
  state text NOT NULL DEFAULT 'waiting',
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  CONSTRAINT subprocessor_subscribers_state_check CHECK (state IN ('waiting', 'confirmed'))
);

CREATE UNIQUE INDEX subprocessor_subscribers_email_key ON subprocessor_subscribers (lower(email));

-- The links in the subscription's mail, as waitlist_tokens keeps them (decision 023): only the
-- SHA-256 of a token, one purpose each, single use, with an expiry. Every notice carries a fresh
-- unsubscribe token. Erasing a subscriber erases their tokens with them.
CREATE TABLE subprocessor_tokens (
  token_hash text PRIMARY KEY,
  subscriber_id bigint NOT NULL,
  purpose text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT subprocessor_tokens_purpose_check CHECK (purpose IN ('confirm', 'unsubscribe')),
  CONSTRAINT subprocessor_tokens_subscriber_id_fkey FOREIGN KEY (subscriber_id)
    REFERENCES subprocessor_subscribers (id) ON DELETE CASCADE
);

CREATE INDEX subprocessor_tokens_subscriber_id_idx ON subprocessor_tokens (subscriber_id);
