-- Qualifying questions after confirming (decision 043): a person's optional answers, as the ids of
-- the choices in src/content/qualifying-questions.ts, and when they last saved them. An object of
-- question ids; a question left alone is absent. Bounded, so no form can store a novel.
ALTER TABLE waitlist_entries ADD COLUMN answers jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE waitlist_entries ADD COLUMN answered_at timestamptz;
ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_answers_check
  CHECK (jsonb_typeof(answers) = 'object' AND octet_length(answers::text) <= 2000);
-- The admin list's and the audiences' filters ask `answers @> '{"firmSize":"2-5"}'`.
CREATE INDEX waitlist_entries_answers_idx ON waitlist_entries USING gin (answers jsonb_path_ops);
