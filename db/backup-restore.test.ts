/**
 * A backup of the embedded database and its restore, on real PGlite databases: what comes back is
 * what went in, value for value, with the schema the migrations make; and a restore that cannot
 * be whole leaves nothing behind.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, expect, test, vi } from "vitest";
import { dumpEmbedded, tablesCreatedBy, type DumpSummary } from "#db/logical-dump.ts";
import { knownMigrations, readMigration, runMigrations } from "#db/migrate.ts";
import { openDump, restoreEmbedded } from "#db/restore.ts";

// Each test opens two or three PGlite databases: seconds each on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const open: PGlite[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) await db.close();
});

async function migratedDatabase(dir?: string): Promise<PGlite> {
  const db = await PGlite.create(dir);
  open.push(db);
  await runMigrations({
    exec: async (script) => {
      await db.exec(script);
    },
    names: async (query) => (await db.query<{ name: string }>(query)).rows.map((r) => r.name),
  });
  return db;
}

/** Rows, columns, indexes, constraints and sequence positions: what a restore must give back. */
async function everything(db: PGlite) {
  const text = async (sql: string) => (await db.query<{ t: string }>(sql)).rows.map((r) => r.t);
  const tables = await text(
    "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
  );
  const rows: Record<string, string[]> = {};
  for (const table of tables)
    rows[table] = await text(`SELECT row_to_json(x)::text AS t FROM public.${table} x ORDER BY 1`);
  return {
    rows,
    columns: await text(
      `SELECT concat_ws(' ', table_name, column_name, data_type, column_default, is_nullable, is_identity, identity_generation) AS t
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    ),
    indexes: await text(
      "SELECT indexdef AS t FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1",
    ),
    constraints: await text(
      `SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS t
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1`,
    ),
    sequences: await text(
      `SELECT 'waitlist ' || last_value || ' ' || is_called AS t FROM waitlist_entries_id_seq
       UNION ALL SELECT 'outbox ' || last_value || ' ' || is_called FROM outbox_id_seq`,
    ),
  };
}

async function backUp(db: PGlite, file: string): Promise<DumpSummary> {
  const pieces: string[] = [];
  const summary = await dumpEmbedded(
    db,
    {
      write: (piece) => {
        pieces.push(piece);
        return Promise.resolve();
      },
    },
    { source: "a test database" },
  );
  writeFileSync(file, pieces.join(""));
  return summary;
}

const workDirs: string[] = [];
function workDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "tieout-backup-test-"));
  workDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
});

async function fill(db: PGlite) {
  await db.exec(`
    INSERT INTO waitlist_entries (name, email, company, message, utm_source, referrer, created_at, state, confirmed_at) VALUES
      ('O''Brien; DROP TABLE waitlist_entries; --', 'obrien@example.com', E'Back\\\\slash \\\\\\\\ and a tab\\t',
       E'Two\\nlines\\r\\nand ☃ 🧾 עברית', '', NULL, '2001-02-03 04:05:06.789012+00', 'confirmed', '1999-12-31 23:59:59.999999+00'),
      ('$$ dollars $x$ */ /*', 'Dollar@Example.com', NULL, repeat('a long message ', 4000), 'newsletter',
       'https://example.com/?a=1&b=''2''', 'infinity', 'waiting', NULL),
      ('Plain', 'plain@example.com', 'Firm LLP', NULL, NULL, NULL, now(), 'waiting', NULL);
    INSERT INTO outbox (key, channel, payload, message_id, status, attempts, last_error, sent_at) VALUES
      ('waitlist-confirm-mail:1', 'email',
       '{"to": "obrien@example.com", "subject": "Say \\"yes\\" \\\\ now", "n": [1, 2.5, null, true], "emoji": "🧾"}',
       '<1@tieout.ai>', 'sent', 1, NULL, now()),
      ('waitlist-forward:2', 'forward', '{"name": "$$ dollars"}', NULL, 'failed', 7, E'HTTP 500: it''s\\nbroken', NULL);
    INSERT INTO waitlist_tokens (token_hash, entry_id, purpose, expires_at) VALUES
      (repeat('a', 64), 1, 'confirm', now() + interval '14 days'),
      (repeat('b', 64), 2, 'remove', now() + interval '30 days');
    INSERT INTO sessions (id, uid, expires_at, email, email_verified, signed_in_at) VALUES
      ('session-1', 'uid-1', now() + interval '1 day', 'admin@example.com', true, now());
    INSERT INTO rate_limit_windows VALUES ('203.0.113.9', date_trunc('minute', now()), 4);
    -- The mail to the list (decision 041): a consent, a broadcast under way, a suppression kept by
    -- its hash alone, what came back about a mail.
    INSERT INTO consent_events (entry_id, kind, given, place) VALUES (1, 'product-news', true, 'confirmation');
    INSERT INTO broadcasts (kind, subject, body, audience, status, recipients, created_by, started_at)
      VALUES ('waitlist-news', E'Texas \u2014 "next" week', E'**Bold**\n\n- one', '{"states": ["confirmed"], "search": ""}',
              'sending', 1, 'owner@example.com', now());
    INSERT INTO broadcast_recipients (broadcast_id, entry_id, status, outbox_id) VALUES (1, 1, 'queued', 1);
    INSERT INTO mail_suppressions (address_hash, scope, address, reason, detail)
      VALUES (repeat('c', 64), 'all', NULL, 'complaint', E'abuse report \u2014 ARF');
    INSERT INTO mail_events (outbox_id, address_hash, kind, detail) VALUES (1, repeat('c', 64), 'complaint', 'ARF');
    INSERT INTO bounce_reports (raw_hash, via, outcome, kind, detail, raw)
      VALUES (repeat('d', 64), 'imap', 'unparsed', NULL, 'no report part', E'From: x\r\n\r\nbody');
    -- Qualifying answers and a saved audience (decisions 043, 044).
    UPDATE waitlist_entries SET answers = '{"firmSize": "2-5", "software": ["drake", "xero"]}',
      answered_at = now() WHERE id = 1;
    INSERT INTO audiences (name, filter, created_by)
      VALUES (E'Texas \u2014 "firms"', 'state=confirmed&practice=us-tx', 'owner@example.com');
    -- A webhook endpoint, its event list an array, and an attempt of its log (decision 046).
    INSERT INTO webhook_endpoints (url, description, events, secret, created_by)
      VALUES ('https://hooks.example.com/in?a=1', E'The CRM \u2014 "main"',
        ARRAY['entry.created', 'entry.removed'], 'whsec_c2VjcmV0', 'owner@example.com');
    -- A staged import, its file as bytes (issue 37, part 5).
    INSERT INTO waitlist_imports (id, file_name, content, uploaded_by)
      VALUES (repeat('a', 32), E'old \u2014 form.csv', '\x456d61696c0d0a'::bytea, 'owner@example.com');
    INSERT INTO webhook_attempts (endpoint_id, message_id, event_type, status_code, duration_ms, outcome, error)
      VALUES (1, 'msg_1', 'entry.created', 503, 12, 'retry', 'answered 503');
    -- An id handed out, then its row erased: the restored sequence must not hand it out again.
    INSERT INTO waitlist_entries (name, email) VALUES ('Erased', 'erased@example.com');
    DELETE FROM waitlist_entries WHERE email = 'erased@example.com';
  `);
}

test("a restored backup holds every row value for value, with the schema and sequences of the original", async () => {
  const dir = workDir();
  const original = await migratedDatabase();
  await fill(original);
  const file = path.join(dir, "backup.sql");
  const summary = await backUp(original, file);
  expect(summary).toEqual({
    // waitlist_state_counts is not dumped: the restore rebuilds it from the entries.
    tables: {
      admin_audit_log: 0,
      admin_challenges: 0,
      admin_export_tokens: 0,
      admin_locks: 0,
      admin_passkeys: 0,
      admin_recovery_codes: 0,
      admin_verification_failures: 0,
      audiences: 1,
      bounce_reports: 1,
      broadcast_recipients: 1,
      broadcasts: 1,
      consent_events: 1,
      mail_events: 1,
      mail_suppressions: 1,
      outbox: 2,
      page_views: 0,
      privacy_requests: 0,
      rate_limit_windows: 1,
      schema_migrations: (await knownMigrations()).length,
      sessions: 1,
      subprocessor_subscribers: 0,
      subprocessor_tokens: 0,
      waitlist_entries: 3,
      waitlist_imports: 1,
      waitlist_tokens: 2,
      webhook_attempts: 1,
      webhook_endpoints: 1,
    },
    leftOut: [],
  });

  const dataDir = path.join(dir, "restored");
  const counted = await restoreEmbedded(dataDir, await openDump(file));
  expect(counted).toEqual(summary.tables);
  expect(readdirSync(dataDir).sort()).toEqual(["pglite"]);
  const restored = await PGlite.create(path.join(dataDir, "pglite"));
  open.push(restored);
  expect(await everything(restored)).toEqual(await everything(original));

  // The next entry gets the id after the erased one, as it would have on the original.
  const next = await restored.query<{ id: number }>(
    "INSERT INTO waitlist_entries (name, email) VALUES ('Next', 'next@example.com') RETURNING id",
  );
  expect(next.rows[0]?.id).toBe(5);
});

test("a backup cut short, or whose rows do not add up to its header, is refused and leaves no database behind", async () => {
  const dir = workDir();
  const original = await migratedDatabase();
  await fill(original);
  const file = path.join(dir, "backup.sql");
  await backUp(original, file);
  const text = readFileSync(file, "utf8");

  const cut = path.join(dir, "cut.sql");
  writeFileSync(cut, text.slice(0, Math.floor(text.length * 0.8)));
  const intoNew = path.join(dir, "never-created");
  await expect(restoreEmbedded(intoNew, await openDump(cut))).rejects.toThrow(
    "it was cut short: it does not end with the closing line `npm run backup` writes",
  );
  expect(existsSync(intoNew)).toBe(false);

  const tampered = path.join(dir, "tampered.sql");
  writeFileSync(tampered, text.replace('"sessions":1', '"sessions":2'));
  const existing = path.join(dir, "existing");
  await mkdir(existing);
  writeFileSync(path.join(existing, "session-secret"), "kept");
  await expect(restoreEmbedded(existing, await openDump(tampered))).rejects.toThrow(
    "after loading it, sessions holds 1 rows where the backup counted 2",
  );
  expect(readdirSync(existing)).toEqual(["session-secret"]);
});

test("a DATA_DIR that already holds a database is refused and left as it was", async () => {
  const dir = workDir();
  const file = path.join(dir, "backup.sql");
  await backUp(await migratedDatabase(), file);
  const dataDir = path.join(dir, "data");
  await mkdir(dataDir);
  const taken = await migratedDatabase(path.join(dataDir, "pglite"));
  await taken.exec(
    "INSERT INTO waitlist_entries (name, email) VALUES ('Kept', 'kept@example.com')",
  );
  const before = await everything(taken);
  await taken.close();
  open.splice(open.indexOf(taken), 1);

  await expect(restoreEmbedded(dataDir, await openDump(file))).rejects.toThrow(
    `DATA_DIR (${dataDir}) already holds a database (${path.join(dataDir, "pglite")}): a restore writes only into an empty DATA_DIR and overwrites nothing`,
  );
  expect(readdirSync(dataDir)).toEqual(["pglite"]);
  const after = await PGlite.create(path.join(dataDir, "pglite"));
  open.push(after);
  expect(await everything(after)).toEqual(before);
});

test("a table the migrations do not create is left out of the backup, and named", async () => {
  const db = await migratedDatabase();
  await db.exec("CREATE TABLE scratch (x int); INSERT INTO scratch VALUES (1);");
  const summary = await backUp(db, path.join(workDir(), "backup.sql"));
  expect(summary.leftOut).toEqual(["scratch"]);
  expect(Object.keys(summary.tables)).not.toContain("scratch");
});

test("the tables read from the migrations' CREATE and DROP TABLE are those a migrated database has", async () => {
  const db = await migratedDatabase();
  const names = await knownMigrations();
  const scripts = await Promise.all(names.map((name) => readMigration(name)));
  const tables = (
    await db.query<{ t: string }>(
      "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public'",
    )
  ).rows.map((r) => r.t);
  expect([...tablesCreatedBy(scripts)].sort()).toEqual(tables.sort());
  expect(
    tablesCreatedBy([
      '-- CREATE TABLE not_this (x int);\nCREATE TABLE IF NOT EXISTS public."Kept" (x int);',
      "create table gone (x int); DROP TABLE IF EXISTS gone;",
    ]),
  ).toEqual(new Set(["schema_migrations", "Kept"]));
});
