/**
 * The embedded database on a thread of its own (decision 055): PGlite runs every statement on the
 * thread that calls it, so here it is called from this one, and the thread that answers visitors
 * only posts a statement and reads its rows (db/client.ts, `threadedPglite`). Each request names
 * an open transaction or none; a statement outside one waits for it, as PGlite's own lock makes
 * it. Run from source (Node strips the types, so only erasable syntax) or as the build bundles it.
 */
import { cp } from "node:fs/promises";
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { keepStatements, type KeptStatements } from "./pglite-named-statements.ts";

/** A statement's place: a transaction this thread holds open, or none. */
type On = { tx: number | null };
export type ThreadRequest = { id: number } & (
  | (On & {
      op: "query";
      sql: string;
      params: unknown[] | undefined;
      rowMode: "array" | "object" | undefined;
      /** Types whose values come back as PostgreSQL wrote them (Drizzle parses those itself). */
      raw: number[];
    })
  | (On & { op: "exec"; sql: string })
  | { op: "begin" | "commit" | "rollback"; tx: number }
  | { op: "snapshot"; to: string }
  | { op: "close" }
);
/**
 * A statement sent over a port another thread holds (see `attach` below): one statement, outside
 * any transaction, that answers with how many rows it changed.
 */
export type PortStatement = { id: number; sql: string; params: unknown[] };
export type PortReply = { id: number; affectedRows?: number; error?: ThreadError };
/** Gives this thread a port to take statements from (db/client.ts, `statementPort`). */
export type AttachRequest = { op: "attach"; port: MessagePort };
/** What a PostgreSQL error carries (code, constraint, detail…), as text. */
export type ThreadError = { message: string; fields: Record<string, string> };
export type ThreadReply = { id: number; result?: unknown; error?: ThreadError };
/** The first message: the database is open, or why it could not be. */
export type ThreadReady = { id: 0; error?: ThreadError };

const port = parentPort!;
const { dir } = workerData as { dir: string };

function describe(error: unknown): ThreadError {
  const fields: Record<string, string> = {};
  if (error && typeof error === "object")
    for (const [name, value] of Object.entries(error))
      if (typeof value === "string" || typeof value === "number") fields[name] = String(value);
  return { message: error instanceof Error ? error.message : String(error), fields };
}

const identity = (value: unknown) => value;
/** A transaction's outcome is decided by the other thread: commit (true) or roll back. */
const open = new Map<number, { tx: Transaction; decide: (commit: boolean) => void }>();
const ends = new Map<number, Promise<null>>();
const rolledBack = new Error("rolled back");

let client: PGlite;
let statements: KeptStatements;
try {
  client = await PGlite.create(dir);
  await dropRowArrayParsers(client);
  statements = keepStatements(client);
} catch (error) {
  port.postMessage({ id: 0, error: describe(error) } satisfies ThreadReady);
  process.exit(1);
}
port.postMessage({ id: 0 } satisfies ThreadReady);

/**
 * PGlite copies its table of value parsers, one per type it knows, into a new object for every
 * result it reads. Two thirds of that table are arrays of rows (one for each system view and
 * table), whose elements it has no parser for, and no query here asks for one: left out, every
 * statement costs about a third less (decision 054). Arrays of values keep theirs.
 */
async function dropRowArrayParsers(pglite: PGlite): Promise<void> {
  const { rows } = await pglite.query<{ typarray: number }>(
    "SELECT typarray FROM pg_type WHERE typtype = 'c' AND typarray <> 0",
  );
  const rowArrays = new Set(rows.map((r) => String(r.typarray)));
  pglite.parsers = Object.fromEntries(
    Object.entries(pglite.parsers).filter(([oid]) => !rowArrays.has(oid)),
  );
}

function on(tx: number | null): Pick<PGlite, "query" | "exec"> {
  if (tx === null) return client;
  const held = open.get(tx);
  if (!held) throw new Error("This transaction has already ended.");
  return held.tx;
}

/** Opens transaction `id` and resolves once it holds the database; it ends when told to. */
function begin(id: number): Promise<null> {
  return new Promise<null>((began, failed) => {
    const end = client
      .transaction(async (tx) => {
        const commit = await new Promise<boolean>((decide) => {
          open.set(id, { tx, decide });
          began(null);
        });
        if (!commit) throw rolledBack;
      })
      .then(
        () => null,
        (error: unknown) => {
          if (error === rolledBack) return null;
          throw error;
        },
      )
      .finally(() => {
        open.delete(id);
        ends.delete(id);
      });
    ends.set(id, end);
    // BEGIN itself failed: the other thread is still waiting to hear that it began.
    end.catch(failed);
  });
}

async function handle(request: ThreadRequest): Promise<unknown> {
  switch (request.op) {
    case "query": {
      const parsers = Object.fromEntries(request.raw.map((oid) => [oid, identity]));
      // Throws when the transaction named has ended.
      if (request.tx !== null) on(request.tx);
      const { rows, fields, affectedRows } = await statements.query(
        request.sql,
        request.params,
        { rowMode: request.rowMode, parsers },
        request.tx !== null,
      );
      return { rows, fields, affectedRows };
    }
    case "exec": {
      try {
        const results = await on(request.tx).exec(request.sql);
        return results.map(({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows }));
      } finally {
        statements.invalidate();
      }
    }
    case "begin":
      return begin(request.tx);
    case "commit":
    case "rollback": {
      const end = ends.get(request.tx);
      open.get(request.tx)?.decide(request.op === "commit");
      return end ?? null;
    }
    case "snapshot":
      // No statement runs, and so nothing is written, while a transaction holds the database;
      // every commit is already in the WAL on disk.
      await client.transaction(() => cp(dir, request.to, { recursive: true }));
      return null;
    case "close":
      await client.close();
      return null;
  }
}

/**
 * Another thread's own line to the database (decision 063): the mail thread marks each mail of a
 * broadcast sent the moment the relay takes it, without the visitors' thread carrying the
 * statement. Only single statements outside a transaction come this way.
 */
function attach(other: MessagePort): void {
  other.on("message", ({ id, sql, params }: PortStatement) => {
    void statements.query(sql, params, {}, false).then(
      ({ affectedRows }) => other.postMessage({ id, affectedRows } satisfies PortReply),
      (error: unknown) => other.postMessage({ id, error: describe(error) } satisfies PortReply),
    );
  });
}

port.on("message", (request: ThreadRequest | AttachRequest) => {
  if (request.op === "attach") {
    attach(request.port);
    return;
  }
  void handle(request).then(
    (result) => port.postMessage({ id: request.id, result } satisfies ThreadReply),
    (error: unknown) =>
      port.postMessage({ id: request.id, error: describe(error) } satisfies ThreadReply),
  );
});
