/**
 * Everything the HTTP app depends on, opened once at start-up and closed in reverse order on
 * shutdown: the database (migrated), the waitlist, the outbox worker that delivers mail and
 * webhooks and what the admin sees of it, the admin audit log, sessions and who may have one,
 * token checks.
 */
import type { FastifyBaseLogger } from "fastify";
import { openDatabase } from "#db/client.ts";
import { createAdmission } from "#server/admission.ts";
import { createActivity, recordExport, type ExportRecord } from "#server/audit/audit-log.ts";
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
    activity: createActivity(database.db),
    /** Records an export in the audit log; it throws when the log cannot be written. */
    recordExport: (record: ExportRecord) => recordExport(database.db, record),
    admission: createAdmission({ env, join: waitlist.join, accounts }),
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
      await database.close();
    },
  };
}

export type Services = Awaited<ReturnType<typeof openServices>>;
