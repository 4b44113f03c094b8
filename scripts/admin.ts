/**
 * `npm run admin -- reset-passkeys EMAIL` and `npm run admin -- export-token EMAIL [--days N]`:
 * the operator's admin commands (server/identity/admin-commands.ts, decision 039), configured as
 * the server is. With the embedded database and the site running, the site runs the command (on
 * DATA_DIR/admin.sock); otherwise this opens the database itself. A new export token is printed
 * alone on standard output, so a script can capture it; everything else goes to standard error.
 */
import pino from "pino";
import { openDatabase } from "#db/client.ts";
import { DatabaseStartError } from "#db/start-error.ts";
import {
  askTheSite,
  NoAdminSocket,
  parseAdminCommand,
  runAdminCommand,
  type AdminCommand,
} from "#server/identity/admin-commands.ts";
import { createAdminCredentials } from "#server/identity/admin-credentials.ts";
import { createAdminVerification } from "#server/identity/admin-verification.ts";
import { createAccounts } from "#server/identity/firebase-admin.ts";
import { resolveSessionSecrets } from "#server/identity/session.ts";
import { createSessionStore } from "#server/identity/session-store.ts";
import { fail, loadConfiguration } from "./backup-cli.ts";

const args = process.argv.slice(2);
const parsed = parseAdminCommand(args);
if (typeof parsed === "string") {
  if (args[0] === "--help" || args[0] === "-h") {
    console.log(parsed);
    process.exit(0);
  }
  fail(parsed);
}
const command: AdminCommand = parsed;
const env = loadConfiguration();

function report(answer: { output: string } | { error: string }): never {
  if ("error" in answer) fail(answer.error);
  if (command.command === "export-token") {
    process.stdout.write(`${answer.output}\n`);
    process.stderr.write(
      `The export token above works for ${command.days} days; it is shown only now. ${env.siteUrl}/admin/waitlist lists and revokes it.\n`,
    );
  } else {
    process.stderr.write(`${answer.output}\n`);
  }
  process.exit(0);
}

if (!env.databaseUrl) {
  try {
    report(await askTheSite(env.dataDir, command));
  } catch (error) {
    if (!(error instanceof NoAdminSocket)) throw error;
    // No site running here: the command opens the folder itself.
  }
}

let database;
try {
  database = await openDatabase({
    dataDir: env.dataDir,
    databaseUrl: env.databaseUrl,
    onLockWait: (message) => process.stderr.write(`${message}\n`),
  });
} catch (error) {
  if (error instanceof DatabaseStartError) fail(error.message);
  throw error;
}
const log = pino({ level: "warn" }, process.stderr);
try {
  const verification = createAdminVerification({
    db: database.db,
    env,
    log,
    credentials: createAdminCredentials(database.db),
    store: createSessionStore(database.db),
    codeKey: (await resolveSessionSecrets(env))[0]!,
    // The site's outbox worker sends the mail when it next looks (within seconds if it runs).
    onEnqueued: () => {},
    accounts: createAccounts(env),
  });
  const answer = await runAdminCommand(verification, command);
  await database.close();
  report(answer);
} catch (error) {
  await database.close().catch(() => {});
  fail(`The command failed: ${(error as Error).message}`);
}
