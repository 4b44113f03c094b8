/**
 * Backups of a site on PostgreSQL (Debian's server, started for these tests like
 * postgres.spec.ts does): through pg_dump, and through our own logical dump when pg_dump is not
 * on PATH; and a backup moving between the two engines, embedded to PostgreSQL and back.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { exportTokenOf, signInVerified, type Account } from "#tests/support/accounts.ts";
import {
  everyRow,
  openAfterRestore,
  runCommand,
  withoutEndings,
} from "#tests/support/backup-commands.ts";
import { TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { siteLogText } from "#tests/support/log-lines.ts";
import { createDatabase, startPostgres, type Postgres } from "#tests/support/postgres.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ mode: "serial", timeout: 300_000 });

let server: Postgres;
test.beforeAll(() => {
  // Beside postgres.spec.ts's ports, below Linux's ephemeral range.
  server = startPostgres(25452 + Number(process.env.TEST_PARALLEL_INDEX ?? 0));
});
test.afterAll(() => server?.remove());

const newDatabase = (name: string) => createDatabase(server, name);

/** A site with `count` entries, stopped, so its rows stay as they are for comparing. */
async function siteWithEntries(env: Record<string, string>, count: number, prefix: string) {
  const site = await startServer(env);
  try {
    for (let i = 0; i < count; i++)
      expect(
        (
          await submitToWaitlist(site.url, {
            name: `${prefix} ${i}`,
            email: `${prefix}-${i}@example.com`,
            message: `It's "quoted"; and\nbroken \\ in two`,
          })
        ).status,
      ).toBe(202);
  } finally {
    await site.stop();
  }
  return site;
}

/**
 * Writes to `file` a log as the site writes it: a line from before the backup, then the erasure of
 * `erased`'s entry an hour after it, by the site's own writer.
 */
function siteLog(file: string, erased: string): string {
  const now = Date.now();
  writeFileSync(
    file,
    siteLogText([
      { time: now - 3_600_000 },
      {
        time: now + 3_600_000,
        erasure: { scope: "waitlist entry", addresses: [erased] },
      },
    ]),
  );
  return file;
}

/** An export token of the administrator on `site`, verified there with a passkey (decision 039). */
async function adminToken(site: RunningServer, admin: Account): Promise<string> {
  return exportTokenOf(site, (await signInVerified(site, admin)).cookie);
}

async function exportedCount(site: RunningServer, token: string): Promise<number> {
  const answer = await fetch(`${site.url}/api/admin/waitlist.csv`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(200);
  return (await answer.text()).trim().split("\r\n").length - 1;
}

test("a PostgreSQL site is backed up through pg_dump, or our own dump without it, and restores into an empty database", async ({
  newUser: admin,
  newFolder,
}) => {
  const url = await newDatabase("site");
  await siteWithEntries({ DATABASE_URL: url }, 30, "pg");
  const before = await everyRow({ databaseUrl: url });
  expect(before.waitlist_entries).toHaveLength(30);

  const dumped = path.join(newFolder(), "pg_dump.sql");
  const withPgDump = await runCommand("backup", [dumped], { DATABASE_URL: url }, { viaNpm: true });
  expect(withPgDump.code, withPgDump.stderr).toBe(0);
  const where = url.replace(/^postgresql:\/\/tieout@/, "");
  expect(withPgDump.stdout).toMatch(
    new RegExp(`Backing up the PostgreSQL server at ${where} with pg_dump \\d+\\.\\d+\\.`),
  );
  // rate_limit_windows: each new address counted one confirmation mail to its mailbox today.
  expect(withPgDump.stdout).toContain(
    "Rows: admin_audit_log 0, admin_challenges 0, admin_export_tokens 0, admin_locks 0, admin_passkeys 0, admin_recovery_codes 0, admin_verification_failures 0, audiences 0, bounce_reports 0, broadcast_recipients 0, broadcasts 0, consent_events 0, mail_events 0, mail_suppressions 0, outbox 30, page_views 0, privacy_requests 0, rate_limit_windows 30, sessions 0, subprocessor_subscribers 0, subprocessor_tokens 0, waitlist_entries 30, waitlist_imports 0, waitlist_state_counts 5, waitlist_tokens 60, webhook_attempts 0, webhook_endpoints 0.",
  );

  // Without pg_dump on PATH (only the project's own tools), the command says so and dumps itself.
  const ours = path.join(newFolder(), "logical.sql");
  const withoutPgDump = await runCommand("backup", [ours], {
    DATABASE_URL: url,
    PATH: path.resolve("node_modules/.bin"),
  });
  expect(withoutPgDump.code, withoutPgDump.stderr).toBe(0);
  expect(withoutPgDump.stdout).toContain(
    `Backing up the PostgreSQL server at ${where}: pg_dump is not installed (none on PATH), so with our own logical dump of our tables.`,
  );

  const refused = await runCommand("restore", [dumped, "--no-erasures"], { DATABASE_URL: url });
  expect(refused.code).toBe(1);
  expect(refused.stderr.trim()).toMatch(
    new RegExp(
      `^Cannot restore ${dumped}: the database in DATABASE_URL \\(${where}\\) is not empty \\(\\d+ tables or sequences: public\\.admin_audit_log, public\\.admin_audit_log_id_seq, public\\.admin_challenges, public\\.admin_export_tokens, …\\): a restore writes only into an empty database and overwrites nothing\\. Create a new one \\(CREATE DATABASE …\\) and point DATABASE_URL at it\\. Nothing was changed\\.$`,
    ),
  );
  expect(await everyRow({ databaseUrl: url })).toEqual(before);

  for (const [file, name] of [
    [dumped, "from_pg_dump"],
    [ours, "from_logical"],
  ] as const) {
    const target = await newDatabase(name);
    const restore = await runCommand(
      "restore",
      [file, "--no-erasures"],
      { DATABASE_URL: target },
      { viaNpm: true },
    );
    expect(restore.code, restore.stderr).toBe(0);
    const restored = await everyRow({ databaseUrl: target });
    expect(withoutEndings(restored), name).toEqual(withoutEndings(before));
    expect(openAfterRestore(restored), name).toEqual([]);
  }

  // The site's log says an entry of the backup was erased after it: restored into PostgreSQL,
  // the erasure is carried out again in the restore's own transaction.
  const site = siteLog(path.join(newFolder(), "site.log"), "pg-7@example.com");
  const withErasures = await newDatabase("with_erasures");
  const replayed = await runCommand("restore", [dumped, "--erasures", site], {
    DATABASE_URL: withErasures,
    ERASURE_KEY: TEST_ERASURE_KEY,
  });
  expect(replayed.code, replayed.stderr).toBe(0);
  expect(replayed.stdout).toContain(
    "carried out again: 1 found something to erase (1 waitlist entry).",
  );
  const left = (await everyRow({ databaseUrl: withErasures })).waitlist_entries ?? [];
  expect(left).toHaveLength(29);
  expect(left.join("\n")).not.toContain("pg-7@example.com");

  const restored = await startServer({
    DATABASE_URL: url.replace(/\/site$/, "/from_pg_dump"),
    ADMIN_EMAILS: admin.email,
  });
  try {
    expect(await exportedCount(restored, await adminToken(restored, admin))).toBe(30);
  } finally {
    await restored.stop();
  }
});

test("a backup moves between the engines: embedded into PostgreSQL, PostgreSQL into an empty DATA_DIR", async ({
  newUser: admin,
  newFolder,
}) => {
  const embedded = await siteWithEntries({}, 25, "embedded");
  const embeddedRows = await everyRow({ dataDir: embedded.dataDir });
  const fromEmbedded = path.join(newFolder(), "embedded.sql.gz");
  expect((await runCommand("backup", [fromEmbedded], { DATA_DIR: embedded.dataDir })).code).toBe(0);
  const target = await newDatabase("from_embedded");
  const intoServer = await runCommand("restore", [fromEmbedded, "--no-erasures"], {
    DATABASE_URL: target,
  });
  expect(intoServer.code, intoServer.stderr).toBe(0);
  expect(withoutEndings(await everyRow({ databaseUrl: target }))).toEqual(
    withoutEndings(embeddedRows),
  );

  const url = await newDatabase("to_embedded");
  await siteWithEntries({ DATABASE_URL: url }, 25, "server");
  const serverRows = await everyRow({ databaseUrl: url });
  const fromServer = path.join(newFolder(), "server.sql");
  expect((await runCommand("backup", [fromServer], { DATABASE_URL: url })).code).toBe(0);
  const dataDir = path.join(newFolder(), "data");
  const intoEmbedded = await runCommand("restore", [fromServer, "--no-erasures"], {
    DATA_DIR: dataDir,
  });
  expect(intoEmbedded.code, intoEmbedded.stderr).toBe(0);
  expect(withoutEndings(await everyRow({ dataDir }))).toEqual(withoutEndings(serverRows));
  // A pg_dump file with erasures to carry out again, into the embedded database.
  const replayedDir = path.join(newFolder(), "data");
  const replayed = await runCommand(
    "restore",
    [fromServer, "--erasures", siteLog(path.join(newFolder(), "site.log"), "server-3@example.com")],
    { DATA_DIR: replayedDir, ERASURE_KEY: TEST_ERASURE_KEY },
  );
  expect(replayed.code, replayed.stderr).toBe(0);
  const left = (await everyRow({ dataDir: replayedDir })).waitlist_entries ?? [];
  expect(left, replayed.stdout).toHaveLength(24);
  expect(left.join("\n")).not.toContain("server-3@example.com");

  const onServer = await startServer({ DATABASE_URL: target, ADMIN_EMAILS: admin.email });
  const onEmbedded = await startServer({ ADMIN_EMAILS: admin.email }, { dataDir });
  try {
    expect(await exportedCount(onServer, await adminToken(onServer, admin))).toBe(25);
    expect(await exportedCount(onEmbedded, await adminToken(onEmbedded, admin))).toBe(25);
  } finally {
    await Promise.all([onServer.stop(), onEmbedded.stop()]);
  }
});
