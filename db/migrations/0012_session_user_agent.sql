-- A session remembers the browser that started it (its User-Agent, at most 512 characters), so
-- the account page's "Download my data" can say which browsers hold or held a session.
ALTER TABLE sessions ADD COLUMN user_agent text;
