/**
 * Everything the HTTP app depends on, opened once at start-up and closed in reverse order on
 * shutdown: the database (migrated) and, for the embedded one, the backup socket; the waitlist,
 * the outbox worker that delivers mail and webhooks and what the admin sees of it, privacy
 * requests, the admin audit log, sessions and who may have one, token checks.
 */
import { createImports } from "#server/waitlist/import/imports.ts";
import type { FastifyBaseLogger } from "fastify";
import { serveBackups } from "#db/backup-socket.ts";
import { openDatabase } from "#db/client.ts";
import { createAdmission } from "#server/identity/admission.ts";
import { createActivity, recordExport, type ExportRecord } from "#server/audit/audit-log.ts";
import type { Env, SmtpRelay } from "#server/env.ts";
import { createAccountService } from "#server/account/account.ts";
import { createAccounts } from "#server/identity/firebase-admin.ts";
import { createSessions, resolveSessionSecrets } from "#server/identity/session.ts";
import { createSessionStore } from "#server/identity/session-store.ts";
import { createAdminCredentials } from "#server/identity/admin-credentials.ts";
import { createAdminVerification } from "#server/identity/admin-verification.ts";
import { serveAdminCommands } from "#server/identity/admin-commands.ts";
import { createDashboard } from "#server/operations/dashboard.ts";
import { createMetrics } from "#server/operations/metrics.ts";
import { createDeliveries } from "#server/outbox/deliveries.ts";
import { createEmailSender } from "#server/outbox/email.ts";
import { startOutboxWorker } from "#server/outbox/worker.ts";
import { startHousekeeping } from "#server/operations/housekeeping.ts";
import { startVacuum } from "#server/operations/vacuum.ts";
import { createErasureLedger, startLedgerMarks } from "#server/audit/erasure-ledger.ts";
import { keptSecrets } from "#server/identity/kept-secret.ts";
import { createPageViews } from "#server/operations/page-views.ts";
import { openMail } from "#server/broadcasts/mail-service.ts";
import { startBroadcastPump } from "#server/broadcasts/pump.ts";
import { createBounceInbox, verpKey } from "#server/mail/bounces/inbox.ts";
import { startImapReader } from "#server/mail/bounces/imap-reader.ts";
import { startBounceListener } from "#server/mail/bounces/smtp-listener.ts";
import { verpAddress } from "#server/mail/bounces/verp.ts";
import { createPrivacyRequests } from "#server/privacy/requests.ts";
import { createSubprocessorSubscriptions } from "#server/subprocessors/subscriptions.ts";
import { createWaitlistService, type WaitlistService } from "#server/waitlist/service.ts";
import { createAnswersService } from "#server/waitlist/answers.ts";
import { answersLinkKey } from "#server/waitlist/answers-link.ts";
import { createWebhookDelivery } from "#server/webhooks/deliver.ts";
import { createWebhookEndpoints } from "#server/webhooks/endpoints.ts";

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
  const database = await openDatabase({
    dataDir: env.dataDir,
    databaseUrl: env.databaseUrl,
    // A container restarted after a crash finds its predecessor's lock: see docs/decisions/005.
    onLockWait: (message) => log.warn({ event: "database.lock_wait" }, message),
  });
  // `npm run backup` with the site running asks it on DATA_DIR/backup.sock (decision 027).
  const backups = database.snapshot
    ? await serveBackups({ dataDir: env.dataDir, snapshot: database.snapshot, log })
    : undefined;
  const metrics = createMetrics(database.db);
  // Every erasure is a line of the log, its addresses named by a keyed hash (decisions 032, 035).
  const erasureKeys = await keptSecrets(env.erasureKeys, env.dataDir, "erasure-key");
  const ledger = createErasureLedger(log, erasureKeys);
  // The qualifying questions' links are keyed by the same kept secret (decision 043).
  const answers = createAnswersService({
    db: database.db,
    keys: erasureKeys.map(answersLinkKey),
    log,
  });
  const service = createWaitlistService({ db: database.db, env, log, ledger, answers });
  // Every submission, by the form or the API, is counted by its result.
  const waitlist: WaitlistService = {
    ...service,
    async submit(input, meta) {
      const result = await service.submit(input, meta);
      metrics.waitlistSubmissions.inc({ result: result.kind });
      return result;
    },
  };
  // The suppression list names addresses by a hash under a key derived from the same secret as
  // the ledger's, so an address erased from the list of entries stays suppressed (decision 041).
  let wakeOutbox = () => {};
  const {
    suppressions,
    broadcasts,
    port: mail,
  } = openMail({
    db: database.db,
    env,
    log,
    secrets: erasureKeys,
    onEnqueued: () => wakeOutbox(),
  });
  const relay = env.mail.relay ?? localRelay;
  // Bounces and complaints that come back (decision 041): read from a mailbox, or received on a
  // port of our own, and recorded against the mail they name.
  const bounces = env.bounces;
  const bounceKey = verpKey(erasureKeys[0]!);
  const inbox = bounces
    ? createBounceInbox({
        db: database.db,
        suppressions,
        bounceAddress: bounces.address,
        verpKey: bounceKey,
        log,
      })
    : undefined;
  const imapReader =
    inbox && bounces?.imapUrl
      ? startImapReader({
          url: bounces.imapUrl,
          log,
          pollMs: 60_000,
          handle: (raw) => inbox.handle(raw, "imap"),
        })
      : undefined;
  const bounceListener =
    inbox && bounces?.smtpPort !== undefined
      ? await startBounceListener({
          port: bounces.smtpPort,
          host: env.host,
          bounceAddress: bounces.address,
          log,
          handle: (raw, envelope) => inbox.handle(raw, "smtp", envelope.rcptTo),
        })
      : undefined;
  // Signed webhooks (decision 046): delivered by the outbox, endpoints kept by the admin.
  const webhookDelivery = createWebhookDelivery({
    db: database.db,
    env,
    log,
    onEnqueued: () => wakeOutbox(),
  });
  const webhooks = createWebhookEndpoints({
    db: database.db,
    env,
    onEnqueued: () => wakeOutbox(),
  });
  const outbox = startOutboxWorker({
    db: database.db,
    suppressions,
    destinations: {
      email: relay ? createEmailSender(relay, env.mail.dkim, database.statementPort) : undefined,
      returnPath: bounces
        ? (outboxId) => verpAddress(bounces.address, outboxId, bounceKey)
        : undefined,
      forward: env.waitlistForward,
      slackWebhookUrl: env.slackWebhookUrl,
      webhook: webhookDelivery,
    },
    log,
    onOutcome: (channel, result) => metrics.deliveries.inc({ channel, result }),
  });
  service.onEnqueued(() => outbox.wake());
  // Imports of an administrator's sheet (issue 37, part 5).
  const imports = createImports({
    db: database.db,
    env,
    suppressions,
    onEnqueued: () => outbox.wake(),
  });
  wakeOutbox = () => outbox.wake();
  // Broadcasts (decision 041): a turn a second hands the outbox what the rate allows.
  const broadcastPump = startBroadcastPump({ broadcasts, env, log });
  const subprocessors = createSubprocessorSubscriptions({ db: database.db, env, log, ledger });
  subprocessors.onEnqueued(() => outbox.wake());
  // A published sub-processor change is mailed to every confirmed subscriber once, however many
  // instances start (decision 025). The site serves without it should the database refuse now.
  await subprocessors.announce().catch((error: unknown) => {
    log.error(
      { err: error, event: "subprocessors.announce_failed" },
      "sub-processor changes not announced",
    );
  });
  // Privacy requests: a confirmed copy or deletion is carried out at once, and the sweep retries
  // what could not be and closes requests never confirmed (decision 030).
  const sessionStore = createSessionStore(database.db);
  const privacyRequests = createPrivacyRequests({
    db: database.db,
    env,
    log,
    accounts,
    store: sessionStore,
    ledger,
  });
  privacyRequests.onEnqueued(() => outbox.wake());
  privacyRequests.start();
  const sessionSecrets = await resolveSessionSecrets(env);
  // Administrators' passkeys, recovery codes and export tokens (decision 039).
  const adminCredentials = createAdminCredentials(database.db);
  const adminVerification = createAdminVerification({
    db: database.db,
    env,
    log,
    credentials: adminCredentials,
    store: sessionStore,
    codeKey: sessionSecrets[0]!,
    onEnqueued: () => outbox.wake(),
    accounts,
  });
  // `npm run admin` beside the running site asks it on DATA_DIR/admin.sock (embedded database).
  const adminCommands = database.snapshot
    ? await serveAdminCommands({ dataDir: env.dataDir, verification: adminVerification, log })
    : undefined;
  const housekeeping = startHousekeeping({ db: database.db, log });
  // The embedded database has no autovacuum of its own (decision 060).
  const vacuum = database.kind === "pglite" ? startVacuum({ db: database.db, log }) : undefined;
  const ledgerMarks = startLedgerMarks(log);
  const pageViews = env.pageViews
    ? createPageViews({
        db: database.db,
        log,
        siteUrl: env.siteUrl,
        onCount: () => metrics.pageViews.inc(),
      })
    : undefined;
  return {
    database,
    waitlist,
    subprocessors,
    privacyRequests,
    metrics,
    pageViews,
    deliveries: createDeliveries(database.db),
    mail,
    webhooks,
    imports,
    dashboard: createDashboard(database.db),
    activity: createActivity(database.db),
    /** Records an export in the audit log; it throws when the log cannot be written. */
    recordExport: (record: ExportRecord) => recordExport(database.db, record),
    admission: createAdmission({ env, join: waitlist.join, accounts }),
    ping: database.ping,
    sessions: createSessions(env, sessionSecrets, sessionStore, accounts),
    adminVerification,
    account: createAccountService({ db: database.db, accounts, store: sessionStore, log, ledger }),
    verifyIdToken: accounts.verifyIdToken,
    async close() {
      await pageViews?.stop();
      await privacyRequests.stop();
      await housekeeping.stop();
      await vacuum?.stop();
      await broadcastPump.stop();
      await imapReader?.stop();
      await bounceListener?.stop();
      ledgerMarks.stop();
      await outbox.stop();
      await backups?.close();
      await adminCommands?.close();
      await database.close();
    },
  };
}

export type Services = Awaited<ReturnType<typeof openServices>>;
