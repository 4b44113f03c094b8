-- Server-side sessions: the signed cookie names one of these rows, so signing out (or an
-- administrator's revocation) ends it everywhere at once, even for a copied cookie.
CREATE TABLE sessions (
  id text PRIMARY KEY,
  uid text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);

CREATE INDEX sessions_uid_idx ON sessions (uid);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);
