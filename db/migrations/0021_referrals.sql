-- Referrals as a signal (decision 045). Each entry has a code of its own for the link it may share
-- ("Know another firm? Share this link"): random, never derived from the address, so the link
-- tells nobody who shared it. An entry made through such a link names the entry that shared it.
-- The queue never reads either column: a referral moves nobody.
--
-- A volatile default is evaluated once per row, so the entries already there get codes of their
-- own as the column is added. 16 hex characters of a random UUID's hash: 64 bits, so a clash
-- (which the unique index would refuse) is not a thing that happens at any list's size.
ALTER TABLE waitlist_entries ADD COLUMN referral_code text NOT NULL
  DEFAULT left(md5(gen_random_uuid()::text), 16);
ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_referral_code_check
  CHECK (referral_code ~ '^[0-9a-f]{16}$');
CREATE UNIQUE INDEX waitlist_entries_referral_code_key ON waitlist_entries (referral_code);
-- Erasing the entry that shared a link leaves the entries it brought, without its name.
ALTER TABLE waitlist_entries ADD COLUMN referred_by bigint
  REFERENCES waitlist_entries (id) ON DELETE SET NULL;
CREATE INDEX waitlist_entries_referred_by_idx ON waitlist_entries (referred_by)
  WHERE referred_by IS NOT NULL;
