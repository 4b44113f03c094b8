/**
 * Everything the HTTP app depends on, opened once at start-up and closed in reverse order on
 * shutdown: the database (migrated), the waitlist and its forwarder, sessions, token checks.
 */
import type { FastifyBaseLogger } from "fastify";
import { openDatabase } from "#db/client.ts";
import type { Env } from "#server/env.ts";
import { createAccounts } from "#server/firebase-admin.ts";
import { createSessions, resolveSessionSecrets } from "#server/session.ts";
import { createSessionStore } from "#server/session-store.ts";
import { startForwarder } from "#server/waitlist/forwarder.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";

export async function openServices(env: Env, log: FastifyBaseLogger) {
  const accounts = createAccounts(env);
  const database = await openDatabase({ dataDir: env.dataDir, databaseUrl: env.databaseUrl });
  const waitlist = createWaitlistService({ db: database.db, env, log });
  const forwarder = startForwarder({ db: database.db, env, log });
  waitlist.onCreated(() => forwarder.wake());
  return {
    database,
    waitlist,
    ping: database.ping,
    sessions: createSessions(
      env,
      await resolveSessionSecrets(env),
      createSessionStore(database.db),
      accounts,
    ),
    verifyIdToken: accounts.verifyIdToken,
    async close() {
      await forwarder.stop();
      await database.close();
    },
  };
}
