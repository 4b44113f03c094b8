/**
 * `npm run backup` and `npm run restore` as an operator meets them, site stopped: what they print,
 * what they write, and how they refuse what they cannot do (one line, exit code 1, nothing
 * written or changed). The site running, and PostgreSQL, are in tests/e2e/backups*.spec.ts.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { openDatabase } from "#db/client.ts";
import { legacySubject } from "#server/audit/erasure-ledger.ts";
import { TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";
import { everyRow, runCommand, type CommandResult } from "#tests/support/backup-commands.ts";
import { siteLogText } from "#tests/support/log-lines.ts";

// Every command starts its own Node process, and most open PGlite: seconds each.
vi.setConfig({ testTimeout: 180_000 });

const work = mkdtempSync(path.join(tmpdir(), "tieout-backup-cli-"));
const site = path.join(work, "site");
const backup = path.join(work, "site.sql");

beforeAll(async () => {
  const database = await openDatabase({ dataDir: site, databaseUrl: undefined });
  for (const statement of [
    sql`INSERT INTO waitlist_entries (name, email, state)
        VALUES ('Ada', 'ada@example.com', 'confirmed'), ('Grace', 'grace@example.com', 'waiting')`,
    sql`INSERT INTO outbox (key, channel, payload)
        VALUES ('waitlist-confirm-mail:1', 'email', '{"to": [{"address": "ada@example.com"}]}'),
               ('waitlist-confirm-mail:2', 'email', '{"to": [{"address": "grace@example.com"}]}')`,
    sql`INSERT INTO sessions (id, uid, expires_at) VALUES ('s', 'uid', now() + interval '1 day')`,
  ])
    await database.db.execute(statement);
  await database.close();
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const USAGE =
  "Usage: npm run restore -- FILE --erasures LOG [--erasures LOG…] | --no-erasures   (FILE: a file from npm run backup, into an empty DATA_DIR or DATABASE_URL; LOG: the site's log since the backup, whose erasures are carried out again)";

/** The one line a refusal prints, after checking it is the only output and the exit code is 1. */
function refusal(result: CommandResult): string {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).not.toMatch(/^\s+at /m);
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

test("a backup of a stopped site says what it wrote, restores into an empty DATA_DIR, and is for its owner's eyes only", async () => {
  const made = await runCommand("backup", [backup], { DATA_DIR: site });
  expect(made.stderr).toBe("");
  expect(made.code).toBe(0);
  const [reading, wrote, rows] = made.stdout.trimEnd().split("\n");
  expect(reading).toBe(
    `Backing up the embedded database in ${site} (site stopped): reading it directly.`,
  );
  expect(wrote).toMatch(
    new RegExp(
      `^Wrote ${backup} \\(\\d+\\.\\d KB\\) in \\d+\\.\\d s: logical dump of our tables of the embedded database in ${site} \\(site stopped\\)\\.$`,
    ),
  );
  expect(rows).toBe(
    "Rows: admin_audit_log 0, admin_challenges 0, admin_export_tokens 0, admin_locks 0, admin_passkeys 0, admin_recovery_codes 0, admin_verification_failures 0, audiences 0, bounce_reports 0, broadcast_recipients 0, broadcasts 0, consent_events 0, mail_events 0, mail_suppressions 0, outbox 2, page_views 0, privacy_requests 0, rate_limit_windows 0, sessions 1, subprocessor_subscribers 0, subprocessor_tokens 0, waitlist_entries 2, waitlist_imports 0, waitlist_tokens 0, webhook_attempts 0, webhook_endpoints 0.",
  );
  expect(statSync(backup).mode & 0o777).toBe(0o600);
  expect(readdirSync(work).filter((name) => name.includes(".partial"))).toEqual([]);

  const restoredDir = path.join(work, "restored");
  const restored = await runCommand("restore", [backup, "--no-erasures"], {
    DATA_DIR: restoredDir,
  });
  expect(restored.stderr).toBe("");
  expect(restored.code).toBe(0);
  const lines = restored.stdout.trimEnd().split("\n");
  expect(lines[0]).toMatch(
    new RegExp(
      `^Restored ${backup} \\(taken \\S+ from the embedded database in ${site} \\(site stopped\\), logical dump of our tables\\) into DATA_DIR \\(${restoredDir}\\) in \\d+\\.\\d s\\.$`,
    ),
  );
  expect(lines.slice(1)).toEqual([
    "Every row the backup counted is there: admin_audit_log 0, admin_challenges 0, admin_export_tokens 0, admin_locks 0, admin_passkeys 0, admin_recovery_codes 0, admin_verification_failures 0, audiences 0, bounce_reports 0, broadcast_recipients 0, broadcasts 0, consent_events 0, mail_events 0, mail_suppressions 0, outbox 2, page_views 0, privacy_requests 0, rate_limit_windows 0, sessions 1, subprocessor_subscribers 0, subprocessor_tokens 0, waitlist_entries 2, waitlist_imports 0, waitlist_tokens 0, webhook_attempts 0, webhook_endpoints 0.",
    "Ended what the backup held open, since it may have ended after the backup was taken: 1 session (everyone signs in again). Removal and unsubscribe links still work.",
    "Erasures: none carried out again (--no-erasures): anything erased after the backup was taken is back.",
    "Mail stopped: none stopped again (--no-erasures): an unsubscribe, bounce or complaint after the backup was taken no longer stops mail; look at the suppression list.",
    "Start the site on it as usual (npm start); it applies any newer migrations.",
  ]);
  expect(readdirSync(restoredDir)).toEqual(["pglite"]);
});

test("a backup named .gz is gzip-compressed and restores the same", async () => {
  const gz = path.join(work, "site.sql.gz");
  expect((await runCommand("backup", [gz], { DATA_DIR: site })).code).toBe(0);
  const text = gunzipSync(readFileSync(gz)).toString("utf8");
  expect(text.startsWith("-- Tieout backup (format 1).")).toBe(true);
  expect(text.trimEnd().endsWith("-- End of Tieout backup.")).toBe(true);
  const restored = await runCommand("restore", [gz, "--no-erasures"], {
    DATA_DIR: path.join(work, "from-gz"),
  });
  expect(restored.code).toBe(0);
  expect(restored.stdout).toContain(
    "Every row the backup counted is there: admin_audit_log 0, admin_challenges 0, admin_export_tokens 0, admin_locks 0, admin_passkeys 0, admin_recovery_codes 0, admin_verification_failures 0, audiences 0, bounce_reports 0, broadcast_recipients 0, broadcasts 0, consent_events 0, mail_events 0, mail_suppressions 0, outbox 2, page_views 0, privacy_requests 0, rate_limit_windows 0, sessions 1, subprocessor_subscribers 0, subprocessor_tokens 0, waitlist_entries 2, waitlist_imports 0, waitlist_tokens 0, webhook_attempts 0, webhook_endpoints 0.",
  );
});

test("the backup command refuses what it cannot do with one line, and writes nothing", async () => {
  const existing = path.join(work, "existing.sql");
  writeFileSync(existing, "precious");
  const empty = path.join(work, "no-database-here");
  mkdirSync(empty);
  const cases: [string[], Record<string, string>, string][] = [
    [
      [],
      { DATA_DIR: site },
      "Usage: npm run backup -- FILE   (FILE must not exist yet; a name ending in .gz is compressed)",
    ],
    [
      [existing],
      { DATA_DIR: site },
      `${existing} already exists: a backup never overwrites a file. Choose a new name, for example backups/tieout-$(date +%F-%H%M).sql.gz`,
    ],
    [
      [path.join(work, "no-such-folder", "b.sql")],
      { DATA_DIR: site },
      `Cannot write ${path.join(work, "no-such-folder", "b.sql")}: there is no folder ${path.join(work, "no-such-folder")}`,
    ],
    [
      [path.join(work, "nothing.sql")],
      { DATA_DIR: empty },
      `There is no embedded database in DATA_DIR (${empty}): nothing to back up. Set DATA_DIR to the site's data folder, or DATABASE_URL for a PostgreSQL server.`,
    ],
  ];
  for (const [args, env, message] of cases) {
    expect(refusal(await runCommand("backup", args, env)), args.join(" ")).toBe(message);
  }
  expect(readFileSync(existing, "utf8")).toBe("precious");
  expect(existsSync(path.join(work, "nothing.sql"))).toBe(false);
  expect(readdirSync(work).filter((name) => name.includes(".partial"))).toEqual([]);
});

test("the restore command refuses what is not a whole backup of ours, or a target in use, with one line, and changes nothing", async () => {
  const whole = readFileSync(backup, "utf8");
  const files = {
    missing: path.join(work, "missing.sql"),
    folder: path.join(work, "a-folder"),
    unreadable: path.join(work, "unreadable.sql"),
    notOurs: path.join(work, "not-ours.sql"),
    gzipNotOurs: path.join(work, "not-ours.sql.gz"),
    cut: path.join(work, "cut.sql"),
    newer: path.join(work, "newer.sql"),
  };
  mkdirSync(files.folder);
  writeFileSync(files.unreadable, whole);
  chmodSync(files.unreadable, 0o000);
  writeFileSync(files.notOurs, "--\n-- PostgreSQL database dump\n--\nSET x = 1;\n");
  writeFileSync(files.gzipNotOurs, gzipSync("CREATE TABLE t (x int);\n"));
  writeFileSync(files.cut, whole.slice(0, Math.floor(whole.length / 2)));
  writeFileSync(files.newer, whole.replace('"0001_waitlist.sql"', '"0999_from_the_future.sql"'));
  const target = path.join(work, "target");
  const cases: [string | undefined, string][] = [
    [undefined, USAGE],
    [files.missing, `Cannot restore ${files.missing}: there is no such file.`],
    [files.folder, `Cannot restore ${files.folder}: it is a folder, not a backup file.`],
    [
      files.notOurs,
      `Cannot restore ${files.notOurs}: it is not a Tieout backup (it does not start with the line \`npm run backup\` writes).`,
    ],
    [
      files.gzipNotOurs,
      `Cannot restore ${files.gzipNotOurs}: it is not a Tieout backup (it does not start with the line \`npm run backup\` writes).`,
    ],
    [
      files.cut,
      `Cannot restore ${files.cut}: it was cut short: it does not end with the closing line \`npm run backup\` writes. Nothing was changed.`,
    ],
    [
      files.newer,
      `Cannot restore ${files.newer}: it comes from a newer version of the site (migration 0999_from_the_future.sql is not in db/migrations). Restore it with that version.`,
    ],
  ];
  // Root reads any file: the unreadable case applies to everyone else.
  if (process.getuid?.() !== 0)
    cases.push([
      files.unreadable,
      `Cannot restore ${files.unreadable}: it cannot be read (permission denied).`,
    ]);
  for (const [file, message] of cases) {
    const result = await runCommand("restore", file ? [file, "--no-erasures"] : [], {
      DATA_DIR: target,
    });
    expect(refusal(result), file).toBe(message);
    expect(existsSync(target), file).toBe(false);
  }

  expect(refusal(await runCommand("restore", [backup, "--no-erasures"], { DATA_DIR: site }))).toBe(
    `Cannot restore ${backup}: DATA_DIR (${site}) already holds a database (${path.join(site, "pglite")}): a restore writes only into an empty DATA_DIR and overwrites nothing. Point DATA_DIR at a new folder, or move this one away first. Nothing was changed.`,
  );

  // A DATA_DIR locked by a live process (this test's) is not restored into either.
  const locked = path.join(work, "locked");
  mkdirSync(locked);
  writeFileSync(path.join(locked, "pglite.lock"), String(process.pid));
  expect(
    refusal(await runCommand("restore", [backup, "--no-erasures"], { DATA_DIR: locked })),
  ).toBe(
    `Cannot restore into DATA_DIR (${locked}): process ${process.pid} is using it. A restore writes only into an empty DATA_DIR that no server uses; nothing was changed.`,
  );
  expect(readdirSync(locked)).toEqual(["pglite.lock"]);

  // Nor one locked by a process in another container, whose pid means nothing here: it is named
  // by its host and PID namespace, and its heartbeat (the lock's mtime, refreshed) says it runs.
  const elsewhere = path.join(work, "locked-elsewhere");
  mkdirSync(elsewhere);
  const lock = path.join(elsewhere, "pglite.lock");
  writeFileSync(
    lock,
    JSON.stringify({
      pid: 1,
      hostname: "web-2",
      pidNamespace: "pid:[4026532178]",
      bootId: "another-boot",
      token: "theirs",
      since: new Date().toISOString(),
    }),
  );
  const heartbeat = spawn(process.execPath, [
    "-e",
    `setInterval(() => require("node:fs").utimesSync(${JSON.stringify(lock)}, new Date(), new Date()), 50)`,
  ]);
  try {
    // It says why it waits (a holder that crashed would refresh nothing), and refuses at the
    // next heartbeat.
    const result = await runCommand("restore", [backup, "--no-erasures"], { DATA_DIR: elsewhere });
    expect(result.stdout).toMatch(
      /^The embedded database in .+ is locked by process 1 on host web-2, PID namespace pid:\[4026532178\], whose last heartbeat was \d+ s ago: waiting up to 30 s for the next one \(if none comes, it has stopped, and this process takes the lock over\)\.\n$/,
    );
    expect(refusal({ ...result, stdout: "" })).toBe(
      `Cannot restore into DATA_DIR (${elsewhere}): process 1 on host web-2, PID namespace pid:[4026532178] is using it. A restore writes only into an empty DATA_DIR that no server uses; nothing was changed.`,
    );
  } finally {
    heartbeat.kill();
  }
  expect(readdirSync(elsewhere)).toEqual(["pglite.lock"]);
});

/** A log file as the site writes it, each line at the time given. */
function siteLog(file: string, lines: Parameters<typeof siteLogText>[0]) {
  writeFileSync(file, siteLogText(lines));
}

test("a restore asks what was erased since the backup, reads it from the site's log, and erases it again before the restore is final", async () => {
  const taken = new Date(
    (
      JSON.parse(readFileSync(backup, "utf8").split("\n")[1]!.replace(/^-- /, "")) as {
        taken: string;
      }
    ).taken,
  ).getTime();
  const hour = 3_600_000;
  const target = path.join(work, "with-erasures");
  const ada = ["ada@example.com"];
  const grace = ["grace@example.com"];
  const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

  // Not a word on erasures: refused, with what to do.
  expect(refusal(await runCommand("restore", [backup], { DATA_DIR: target }))).toBe(
    `Cannot restore ${backup} without a word on erasures: a restore brings back what was erased after the backup was taken (${at(taken)}). Give the site's log since then with --erasures LOG (once per file; .gz is read too), and what it erased is erased again. If nothing was erased since, or no log is left, say --no-erasures (see the README, Backups). Nothing was changed.`,
  );
  expect(
    refusal(
      await runCommand("restore", [backup, "--no-erasures", "--erasures", "x.log"], {
        DATA_DIR: target,
      }),
    ),
  ).toBe(`Say --erasures LOG or --no-erasures, not both. ${USAGE}`);

  // A log that starts after the backup cannot say what was erased in between.
  const late = path.join(work, "late.log");
  siteLog(late, [{ time: taken + hour }, { time: taken + 2 * hour }]);
  expect(
    refusal(await runCommand("restore", [backup, "--erasures", late], { DATA_DIR: target })),
  ).toBe(
    `Cannot restore ${backup}: the log given begins at ${at(taken + hour)}, after the backup was taken (${at(taken)}): erasures in between would be missed. Give the older log too (--erasures once per file). Nothing was changed.`,
  );
  // An erasure line damaged on the way stops the restore: going on could bring back what it erased.
  const damaged = path.join(work, "damaged.log");
  siteLog(damaged, [{ time: taken - hour }]);
  writeFileSync(
    damaged,
    readFileSync(damaged, "utf8") +
      `{"level":30,"time":${taken + hour},"event":"erasure","scope":"everything","subject":"ada@example.com"}\n`,
  );
  expect(
    refusal(await runCommand("restore", [backup, "--erasures", damaged], { DATA_DIR: target })),
  ).toBe(
    `Cannot restore ${backup}: ${damaged} line 2 is an erasure that cannot be read: its subject is not a hash of ours. Nothing was changed.`,
  );
  expect(existsSync(target)).toBe(false);

  // The log, split in two files as a rotation leaves it: Grace's entry was erased an hour before
  // the backup (she joined again, and the backup holds her new entry); Ada's after it.
  const older = path.join(work, "site.log.1.gz");
  const newer = path.join(work, "site.log");
  siteLog(older, [
    { time: taken - 2 * hour },
    { time: taken - hour, erasure: { scope: "waitlist entry", addresses: grace } },
  ]);
  writeFileSync(older, gzipSync(readFileSync(older)));
  siteLog(newer, [
    { time: taken + hour, erasure: { scope: "everything", addresses: ada } },
    { time: taken + 2 * hour, erasure: { scope: "subscription", addresses: ada } },
    // Grace's address bounced: it stays stopped (decision 042).
    {
      time: taken + 2 * hour + 1,
      stop: { address: "grace@example.com", scope: "all", reason: "hard-bounce" },
    },
    { time: taken + 3 * hour },
    // A day without a line: a log file of that time left out, or the site stopped.
    { time: taken + 30 * hour },
  ]);
  // A line of the older, unkeyed form after the keyed ones: the site no longer writes those.
  writeFileSync(
    newer,
    readFileSync(newer, "utf8") +
      `{"level":30,"time":${taken + 31 * hour},"event":"erasure","scope":"subscription","subject":"${legacySubject("nobody@example.com")}"}\n`,
  );
  // Without the key the site hashed the addresses with, its lines match nothing: refused.
  const keyless = await runCommand("restore", [backup, "--erasures", older, "--erasures", newer], {
    DATA_DIR: target,
  });
  expect(refusal(keyless)).toMatch(
    new RegExp(
      `^Cannot restore ${backup}: the erasures and stops of mail logged since the backup name addresses by hashes keyed with key [0-9a-f]{16} \\(first at ${newer}:1\\) and key [0-9a-f]{16} \\(first at ${newer}:3\\), and ERASURE_KEY is not set\\. Set ERASURE_KEY to the key the site ran with .* Nothing was changed\\.$`,
    ),
  );
  expect(existsSync(target)).toBe(false);
  const restored = await runCommand(
    "restore",
    [backup, "--erasures", older, `--erasures=${newer}`],
    {
      DATA_DIR: target,
      ERASURE_KEY: `${TEST_ERASURE_KEY},an older key of the site and 32+ characters long`,
    },
  );
  expect(restored.code, restored.stderr).toBe(0);
  // Said, not refused: the site may have been stopped.
  expect(restored.stderr).toBe(
    `Warning: the erasure at ${newer}:6 has no key, but was logged after the site began keying its erasures (${at(taken - hour)}): unless an instance of an older version still ran then, it was not written by the site. It was carried out; look at it.\n` +
      `Warning: the log has no line from ${at(taken + 3 * hour)} to ${at(taken + 30 * hour)} (27 h). If the site ran then, a log file of that time is missing and erasures made in it were not carried out again.\n`,
  );
  expect(restored.stdout.trimEnd().split("\n").slice(2)).toEqual([
    "Ended what the backup held open, since it may have ended after the backup was taken: 1 session (everyone signs in again). Removal and unsubscribe links still work.",
    `Erasures: 3 logged since the backup was taken (8 log lines from ${at(taken - 2 * hour)} to ${at(taken + 31 * hour)}), carried out again: 1 found something to erase (1 waitlist entry), 2 found nothing under the addresses they name (not in the backup, or erased by an earlier line).`,
    "Mail stopped: 1 stop logged since the backup was taken (an unsubscribe, a bounce, a complaint or an administrator's), stopped again: 1 put back on the suppression list.",
    "Start the site on it as usual (npm start); it applies any newer migrations.",
  ]);
  const rows = await everyRow({ dataDir: target });
  expect(rows.waitlist_entries!.map((row) => (JSON.parse(row) as { email: string }).email)).toEqual(
    ["grace@example.com"],
  );
  expect(rows.mail_suppressions!.map((row) => JSON.parse(row) as Record<string, unknown>)).toEqual([
    expect.objectContaining({ address: "grace@example.com", scope: "all", reason: "hard-bounce" }),
  ]);
  expect(rows.outbox!.join("\n")).not.toContain("ada@example.com");
  expect(rows.outbox).toHaveLength(1);
});
