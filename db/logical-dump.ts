/**
 * Our own dump of our own tables (docs/decisions/027): the migrations the database has applied,
 * replayed from db/migrations, then every row of every table they create as INSERT statements,
 * then each identity sequence where it stood. All of it is read in one transaction, so the dump
 * is one moment of the database. It serves the embedded database (running or stopped) and a
 * PostgreSQL server when pg_dump is not there; the file format is db/dump-format.ts.
 */
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { formatHeader, DUMP_END } from "#db/dump-format.ts";
import { knownMigrations, readMigration, SCHEMA_MIGRATIONS_TABLE } from "#db/migrate.ts";

/** A connection inside a transaction the dump opened; every value is read as text. */
export type DumpConnection = { query: <T>(sql: string) => Promise<T[]> };

/** Where a dump goes, a piece at a time; the promise settles when the piece may be followed. */
export type DumpOutput = { write: (text: string) => Promise<void> };

export type DumpProgress = { table: string; rows: number; of: number };

type DumpOptions = {
  /** Where the database is, in words, for the header. */
  source: string;
  /** When its data was as dumped: now, unless it is a snapshot taken earlier. */
  taken?: string;
  onProgress?: (progress: DumpProgress) => void;
};

export type DumpSummary = {
  /** Rows per table written, as the header says. */
  tables: Record<string, number>;
  /** Tables in the public schema that db/migrations does not create, so not in the dump. */
  leftOut: string[];
};

export class DumpError extends Error {
  override name = "DumpError";
}

export const LOGICAL_METHOD = "logical dump of our tables";
const ROWS_PER_INSERT = 500;
const INSERT_CHARS = 256 * 1024;

/** What any dump says in its header, read in the dump's own snapshot. */
export async function readDatabaseFacts(conn: DumpConnection) {
  const [version] = await conn.query<{ v: string }>(
    "SELECT current_setting('server_version') AS v",
  );
  const hasMigrations = await conn.query<{ n: string }>(
    "SELECT 1::text AS n FROM pg_catalog.pg_tables WHERE schemaname = 'public' AND tablename = 'schema_migrations'",
  );
  const migrations =
    hasMigrations.length > 0
      ? (
          await conn.query<{ name: string }>(
            "SELECT name FROM public.schema_migrations ORDER BY name",
          )
        ).map((r) => r.name)
      : [];
  const names = (
    await conn.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_catalog.pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    )
  ).map((r) => r.name);
  const tables: Record<string, number> = {};
  for (const name of names) {
    const [row] = await conn.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM public.${quoteIdent(name)}`,
    );
    tables[name] = Number(row?.n ?? 0);
  }
  return { server: `PostgreSQL ${version?.v ?? "unknown"}`, migrations, tables };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Tables whose rows the database keeps itself, by triggers on other tables: the restore rebuilds
 * them as it loads those tables, so they are not dumped (their rows would be counted twice).
 * waitlist_state_counts: the entries per state (0008).
 */
const DERIVED_TABLES: ReadonlySet<string> = new Set(["waitlist_state_counts"]);

/** The tables a list of migrations leaves behind, read from their CREATE and DROP TABLE. */
export function tablesCreatedBy(scripts: string[]): Set<string> {
  const tables = new Set(["schema_migrations"]);
  // A quoted name keeps its case; an unquoted one is folded to lower case, as PostgreSQL does.
  const name = String.raw`(?:public\.)?(?:"([^"]+)"|([A-Za-z_][A-Za-z0-9_]*))`;
  const statement = new RegExp(
    String.raw`\b(CREATE|DROP)\s+TABLE\s+(?:IF\s+(?:NOT\s+)?EXISTS\s+)?${name}`,
    "gi",
  );
  for (const script of scripts) {
    const code = script.replace(/--[^\n]*/g, "");
    for (const m of code.matchAll(statement)) {
      const table = m[2] ?? m[3]!.toLowerCase();
      if (m[1]!.toUpperCase() === "CREATE") tables.add(table);
      else tables.delete(table);
    }
  }
  return tables;
}

/** Parents before children, so every foreign key finds its row; ties by name. */
function foreignKeyOrder(tables: string[], edges: { child: string; parent: string }[]): string[] {
  const waiting = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of edges)
    if (child !== parent && waiting.has(child) && waiting.has(parent))
      waiting.get(child)!.add(parent);
  const order: string[] = [];
  while (waiting.size > 0) {
    const ready = [...waiting].filter(([, parents]) => parents.size === 0).map(([t]) => t);
    // A cycle of foreign keys (none in our schema): the rest in name order.
    const next = ready.length > 0 ? ready.sort() : [...waiting.keys()].sort();
    for (const table of next) {
      order.push(table);
      waiting.delete(table);
      for (const parents of waiting.values()) parents.delete(table);
    }
  }
  return order;
}

/**
 * Writes the whole dump, header to closing line. Runs as the first statements of a transaction
 * the caller opened and closes after it; makes it read-only and repeatable-read.
 */
async function writeLogicalDump(
  conn: DumpConnection,
  out: DumpOutput,
  options: DumpOptions,
): Promise<DumpSummary> {
  await conn.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
  // Values are written as PostgreSQL prints them; these settings make that exact and the same
  // everywhere (UTC times, ISO dates, floats to the last digit).
  for (const setting of [
    "TimeZone = 'UTC'",
    "DateStyle = 'ISO, YMD'",
    "IntervalStyle = 'postgres'",
    "extra_float_digits = 3",
    "bytea_output = 'hex'",
  ])
    await conn.query(`SET LOCAL ${setting}`);
  const taken = options.taken ?? new Date().toISOString();
  const facts = await readDatabaseFacts(conn);

  const known = new Set(await knownMigrations());
  const unknown = facts.migrations.filter((m) => !known.has(m));
  if (unknown.length > 0)
    throw new DumpError(
      `the database has migration ${unknown.join(", ")}, which this version of the site does not have: back it up with the version that applied it`,
    );
  const scripts = await Promise.all(facts.migrations.map((m) => readMigration(m)));
  const ours = tablesCreatedBy(scripts);
  const present = Object.keys(facts.tables);
  const leftOut = present.filter((t) => !ours.has(t));
  const dumped = present.filter((t) => ours.has(t) && !DERIVED_TABLES.has(t));
  const tables = Object.fromEntries(dumped.map((t) => [t, facts.tables[t]!]));

  await out.write(
    formatHeader({
      taken,
      source: options.source,
      server: facts.server,
      method: LOGICAL_METHOD,
      migrations: facts.migrations,
      tables,
    }),
  );
  await out.write(
    [
      "",
      "SET client_encoding = 'UTF8';",
      "SET standard_conforming_strings = on;",
      "SET check_function_bodies = false;",
      "SET client_min_messages = warning;",
      "SELECT pg_catalog.set_config('search_path', 'public', false);",
      "",
      "-- The schema: db/migrations as the database applied them, in order.",
      `${SCHEMA_MIGRATIONS_TABLE};`,
      "",
    ].join("\n"),
  );
  for (const [i, script] of scripts.entries())
    await out.write(`-- db/migrations/${facts.migrations[i]}\n${script.trimEnd()}\n\n`);

  const edges = await conn.query<{ child: string; parent: string }>(
    `SELECT child.relname AS child, parent.relname AS parent
     FROM pg_catalog.pg_constraint c
     JOIN pg_catalog.pg_class child ON child.oid = c.conrelid
     JOIN pg_catalog.pg_class parent ON parent.oid = c.confrelid
     WHERE c.contype = 'f'
       AND child.relnamespace = 'public'::regnamespace
       AND parent.relnamespace = 'public'::regnamespace`,
  );
  for (const table of foreignKeyOrder(dumped, edges)) {
    const of = tables[table]!;
    await out.write(`-- ${table}: ${of} ${of === 1 ? "row" : "rows"}\n`);
    if (of > 0) await writeRows(conn, out, table, of, options.onProgress);
  }

  const sequences = await conn.query<{ seq: string; table: string }>(
    `SELECT format('%I.%I', sn.nspname, s.relname) AS seq, t.relname AS table
     FROM pg_catalog.pg_class s
     JOIN pg_catalog.pg_namespace sn ON sn.oid = s.relnamespace
     JOIN pg_catalog.pg_depend d ON d.objid = s.oid
       AND d.classid = 'pg_catalog.pg_class'::regclass
       AND d.refclassid = 'pg_catalog.pg_class'::regclass
       AND d.deptype IN ('a', 'i')
     JOIN pg_catalog.pg_class t ON t.oid = d.refobjid
     WHERE s.relkind = 'S' AND t.relnamespace = 'public'::regnamespace
     ORDER BY 1`,
  );
  const lines = ["-- Identity sequences, where they stood."];
  for (const { seq, table } of sequences) {
    if (!(table in tables)) continue;
    const [state] = await conn.query<{ call: string }>(
      `SELECT format('SELECT pg_catalog.setval(%L, %s, %s);', '${seq.replace(/'/g, "''")}', last_value, CASE WHEN is_called THEN 'true' ELSE 'false' END) AS call FROM ${seq}`,
    );
    if (state) lines.push(state.call);
  }
  await out.write(`${lines.join("\n")}\n\n${DUMP_END}\n`);
  return { tables, leftOut };
}

async function writeRows(
  conn: DumpConnection,
  out: DumpOutput,
  table: string,
  of: number,
  onProgress: ((progress: DumpProgress) => void) | undefined,
) {
  const columns = await conn.query<{ name: string; identity: string }>(
    `SELECT quote_ident(a.attname) AS name, a.attidentity::text AS identity
     FROM pg_catalog.pg_attribute a
     WHERE a.attrelid = 'public.${quoteIdent(table)}'::regclass
       AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     ORDER BY a.attnum`,
  );
  const key = await conn.query<{ name: string }>(
    `SELECT quote_ident(a.attname) AS name
     FROM pg_catalog.pg_index i
     JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
     WHERE i.indrelid = 'public.${quoteIdent(table)}'::regclass AND i.indisprimary
     ORDER BY array_position(i.indkey::int2[], a.attnum)`,
  );
  const names = columns.map((c) => c.name);
  // PostgreSQL writes each row as a tuple of literals, so every value comes back exactly.
  const tuple = `'(' || concat_ws(', ', ${names.map((n) => `quote_nullable(${n})`).join(", ")}) || ')'`;
  const orderBy = key.length > 0 ? ` ORDER BY ${key.map((k) => k.name).join(", ")}` : "";
  const insert =
    `INSERT INTO public.${quoteIdent(table)} (${names.join(", ")})` +
    (columns.some((c) => c.identity === "a") ? " OVERRIDING SYSTEM VALUE" : "") +
    " VALUES\n";
  await conn.query(
    `DECLARE tieout_dump NO SCROLL CURSOR FOR SELECT ${tuple} AS t FROM public.${quoteIdent(table)}${orderBy}`,
  );
  let rows = 0;
  for (;;) {
    const batch = await conn.query<{ t: string }>(`FETCH ${ROWS_PER_INSERT} FROM tieout_dump`);
    if (batch.length === 0) break;
    // A statement of at most about INSERT_CHARS, however long the rows (mails are kilobytes).
    let tuples: string[] = [];
    let chars = 0;
    for (const { t } of batch) {
      tuples.push(t);
      chars += t.length;
      if (chars >= INSERT_CHARS) {
        await out.write(`${insert}${tuples.join(",\n")};\n`);
        tuples = [];
        chars = 0;
      }
    }
    if (tuples.length > 0) await out.write(`${insert}${tuples.join(",\n")};\n`);
    rows += batch.length;
    onProgress?.({ table, rows, of });
  }
  await conn.query("CLOSE tieout_dump");
  await out.write("\n");
}

/** A logical dump through the embedded database's one connection, in a transaction of its own. */
export function dumpEmbedded(
  client: PGlite,
  out: DumpOutput,
  options: DumpOptions,
): Promise<DumpSummary> {
  return client.transaction((tx) =>
    writeLogicalDump(
      { query: async <T>(sql: string) => (await tx.query<T>(sql)).rows },
      out,
      options,
    ),
  );
}

/** A logical dump of a PostgreSQL server through one client, in a transaction of its own. */
export async function dumpServer(
  client: pg.ClientBase,
  out: DumpOutput,
  options: DumpOptions,
): Promise<DumpSummary> {
  await client.query("BEGIN");
  try {
    const summary = await writeLogicalDump(
      { query: async <T>(sql: string) => (await client.query(sql)).rows as T[] },
      out,
      options,
    );
    await client.query("COMMIT");
    return summary;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
