/**
 * `npm run backup -- FILE` and `npm run restore -- FILE` as an operator runs them: a process of
 * their own, configured only through the environment given (nothing inherited but PATH).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type CommandResult = { code: number | null; stdout: string; stderr: string };

/**
 * Runs the command through npm (`viaNpm`), or directly as npm would (node with tsx), which keeps
 * npm's own lines out of the output a test reads to the letter.
 */
export function runCommand(
  command: "backup" | "restore",
  args: string[],
  env: Record<string, string>,
  { viaNpm = false }: { viaNpm?: boolean } = {},
): Promise<CommandResult> {
  const [bin, argv] = viaNpm
    ? ["npm", ["run", command, "--", ...args]]
    : [process.execPath, ["--import", "tsx", `scripts/${command}.ts`, ...args]];
  const child = spawn(bin, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Times in UTC, so the same row reads the same on the embedded database and on a server. */
const SAME_TEXT = "SET TimeZone = 'UTC'";

/**
 * Every row of every table of ours, each as JSON, sorted: for comparing a database with its
 * restore. Opens a stopped site's DATA_DIR directly, or the database of a URL.
 */
export async function everyRow(
  target: { dataDir: string } | { databaseUrl: string },
): Promise<Record<string, string[]>> {
  const tablesQuery =
    "SELECT tablename AS t FROM pg_catalog.pg_tables WHERE schemaname = 'public' ORDER BY 1";
  const rowsQuery = (table: string) =>
    `SELECT row_to_json(x)::text AS t FROM public."${table}" x ORDER BY 1`;
  const rows: Record<string, string[]> = {};
  if ("dataDir" in target) {
    const db = await PGlite.create(path.join(target.dataDir, "pglite"));
    try {
      await db.exec(SAME_TEXT);
      for (const { t } of (await db.query<{ t: string }>(tablesQuery)).rows)
        rows[t] = (await db.query<{ t: string }>(rowsQuery(t))).rows.map((r) => r.t).sort();
    } finally {
      await db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      await client.query(SAME_TEXT);
      for (const { t } of (await client.query<{ t: string }>(tablesQuery)).rows)
        rows[t] = (await client.query<{ t: string }>(rowsQuery(t))).rows.map((r) => r.t).sort();
    } finally {
      await client.end();
    }
  }
  return rows;
}

/** The columns a restore changes when it ends what the backup held open (server/operations/after-restore.ts). */
const ENDED_BY_RESTORE: Record<string, string> = {
  sessions: "revoked_at",
  waitlist_tokens: "expires_at",
  subprocessor_tokens: "expires_at",
  privacy_requests: "token_expires_at",
};

/**
 * `everyRow` without the times a restore moves when it ends sessions and links: every row and
 * every other value of a backup comes back exactly. `openAfterRestore` says that they did end.
 */
export function withoutEndings(rows: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [table, list] of Object.entries(rows)) {
    const column = ENDED_BY_RESTORE[table];
    out[table] = column
      ? list
          .map((row) => {
            const values = JSON.parse(row) as Record<string, unknown>;
            delete values[column];
            return JSON.stringify(values);
          })
          .sort()
      : list;
  }
  return out;
}

/**
 * What still grants something in a restored database: live sessions, and live links but the
 * removal and unsubscribe ones. A restore leaves none (decision 035).
 */
export function openAfterRestore(rows: Record<string, string[]>): string[] {
  const now = Date.now();
  const live = (at: unknown) => typeof at === "string" && new Date(at).getTime() > now;
  const parse = (table: string) =>
    (rows[table] ?? []).map((row) => JSON.parse(row) as Record<string, unknown>);
  return [
    ...parse("sessions")
      .filter((s) => s.revoked_at === null && live(s.expires_at))
      .map((s) => `session of ${String(s.uid)}`),
    ...parse("waitlist_tokens")
      .filter((t) => t.purpose !== "remove" && t.used_at === null && live(t.expires_at))
      .map((t) => `${String(t.purpose)} link of entry ${String(t.entry_id)}`),
    ...parse("subprocessor_tokens")
      .filter((t) => t.purpose !== "unsubscribe" && t.used_at === null && live(t.expires_at))
      .map((t) => `${String(t.purpose)} link of subscriber ${String(t.subscriber_id)}`),
    ...parse("privacy_requests")
      .filter((r) => r.state === "unconfirmed" && live(r.token_expires_at))
      .map((r) => `link of privacy request ${String(r.id)}`),
  ];
}
