/**
 * The parts of the server that sessions need, real and in one process, for tests of one plugin:
 * a migrated PGlite database, the session store, Firebase accounts (the emulator's address; some
 * tests never reach it, answering before Firebase is asked) and who may have a session.
 */
import type { Database } from "#db/client.ts";
import { createAdmission } from "#server/identity/admission.ts";
import { parseEnv, type Env } from "#server/env.ts";
import { createAccounts } from "#server/identity/firebase-admin.ts";
import { createSessions } from "#server/identity/session.ts";
import { createSessionStore } from "#server/identity/session-store.ts";
import { join } from "#server/waitlist/invitations.ts";

export function sessionsFor(database: Database, raw: Record<string, string> = {}) {
  const env: Env = parseEnv({
    SESSION_SECRET: "a session secret for one unit test and long enough",
    SESSION_RATE_LIMIT: "0",
    ...raw,
  });
  const accounts = createAccounts(env);
  const store = createSessionStore(database.db);
  const sessions = createSessions(env, env.sessionSecrets, store, accounts);
  const admission = createAdmission({
    env,
    join: (request) => join(database.db, request),
    accounts,
  });
  return { env, sessions, verifyIdToken: accounts.verifyIdToken, accounts, store, admission };
}
