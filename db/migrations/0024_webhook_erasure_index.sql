-- An erasure deletes the webhook messages still waiting that name the erased entry
-- (server/webhooks/events.ts): by this index, not by reading the whole outbox, which a broadcast
-- can fill with a hundred thousand rows.
CREATE INDEX outbox_webhook_entry_idx ON outbox ((payload->'data'->>'id')) WHERE channel = 'webhook';
