-- A session row keeps the SHA-256 of its id, never the id the cookie carries (decision 035): a
-- backup plus the cookie secret can no longer make a cookie that opens a session. Sessions live
-- now keep working, since the server hashes the cookie's id before looking it up.
UPDATE sessions SET id = encode(sha256(convert_to(id, 'UTF8')), 'hex');
