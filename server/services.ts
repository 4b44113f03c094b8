/**
 * Everything the HTTP app depends on, opened once at start-up and closed in reverse order on
 * shutdown: the database (migrated) and, for the embedded one, the backup socket; the waitlist, the outbox worker that delivers mail and
 * webhooks and what the admin sees of it, sessions, token checks.
 */
import type { FastifyBaseLogger } from "fastify";
import { serveBackups } from "#db/backup-socket.ts";
import { openDatabase } from "#db/client.ts";
import type { Env, SmtpRelay } from "#server/env.ts";
import { createAccounts } from "#server/firebase-admin.ts";
import { createSessions, resolveSessionSecrets } from "#server/session.ts";
import { createSessionStore } from "#server/session-store.ts";
import { createDeliveries } from "#server/outbox/deliveries.ts";
import { createEmailSender } from "#server/outbox/email.ts";
import { startOutboxWorker } from "#server/outbox/worker.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";

/**
 * `localRelay`: where mail goes when SMTP_URL is unset (start-up's local catcher). Without either,
 * mail waits in the outbox and nothing leaves the machine.
 */
export async function openServices(
  env: Env,
  log: FastifyBaseLogger,
  { localRelay }: { localRelay?: SmtpRelay } = {},
) {
  const accounts = createAccounts(env);
  const database = await openDatabase({ dataDir: env.dataDir, databaseUrl: env.databaseUrl });
  // `npm run backup` with the site running asks it on DATA_DIR/backup.sock (decision 027).
  const backups = database.snapshot
    ? await serveBackups({ dataDir: env.dataDir, snapshot: database.snapshot, log })
    : undefined;
  const waitlist = createWaitlistService({ db: database.db, env, log });
  const relay = env.mail.relay ?? localRelay;
  const outbox = startOutboxWorker({
    db: database.db,
    destinations: {
      email: relay ? createEmailSender(relay, env.mail.dkim) : undefined,
      forward: env.waitlistForward,
      slackWebhookUrl: env.slackWebhookUrl,
    },
    log,
  });
  waitlist.onEnqueued(() => outbox.wake());
  return {
    database,
    waitlist,
    deliveries: createDeliveries(database.db),
    ping: database.ping,
    sessions: createSessions(
      env,
      await resolveSessionSecrets(env),
      createSessionStore(database.db),
      accounts,
    ),
    verifyIdToken: accounts.verifyIdToken,
    async close() {
      await outbox.stop();
      await backups?.close();
      await database.close();
    },
  };
}
