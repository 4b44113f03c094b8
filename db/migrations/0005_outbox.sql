-- One outbox for every delivery that follows a change (decision 022): a mail, the post to the
-- operator's collector, the Slack notice. The row is written in the transaction of its cause, so
-- the cause and its message commit together; `key` names the cause, so a retried cause adds no
-- second message. A worker claims due rows (FOR UPDATE SKIP LOCKED), leases them by pushing
-- next_attempt_at ahead, delivers, and records the outcome.
CREATE TABLE outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key text NOT NULL,
  channel text NOT NULL CHECK (channel IN ('email', 'forward', 'slack')),
  -- What is sent, rendered when enqueued so that every attempt sends the same thing.
  payload jsonb NOT NULL,
  -- Email only: the Message-ID, fixed at enqueue so a receiver can drop a repeat.
  message_id text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  CONSTRAINT outbox_key_key UNIQUE (key)
);

CREATE INDEX outbox_due_idx ON outbox (next_attempt_at) WHERE status = 'pending';

-- The forwarder's own outbox on waitlist_entries moves here, history included, so the admin page
-- and the CSV keep showing each entry's forwarding state (now read from the outbox). Rows still
-- pending get a fresh give-up window from now.
INSERT INTO outbox (key, channel, payload, status, attempts, next_attempt_at, last_error, sent_at)
SELECT 'waitlist-forward:' || id, 'forward',
  jsonb_build_object('name', name, 'email', email, 'company', company, 'message', message),
  forward_status, forward_attempts, coalesce(forward_next_at, now()), forward_last_error,
  forwarded_at
FROM waitlist_entries
WHERE forward_status <> 'none'
ORDER BY id;

DROP INDEX waitlist_entries_forward_due_idx;
ALTER TABLE waitlist_entries
  DROP COLUMN forward_status,
  DROP COLUMN forward_attempts,
  DROP COLUMN forward_next_at,
  DROP COLUMN forward_last_error,
  DROP COLUMN forwarded_at;
