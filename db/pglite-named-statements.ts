/**
 * Statements the embedded database keeps parsed (decision 059). PGlite's `query` sends each
 * statement unnamed: Parse, Describe, Bind, Describe, Execute and Sync, six calls into the
 * database, the text parsed again every time. Here the first run of a statement parses it under a
 * name and keeps its parameter types and row description; every later run is Bind, Execute and
 * Sync on that name. PostgreSQL plans a kept statement as it plans any prepared one: for its own
 * values at first, then once for all values when that plan costs no more (its default
 * `plan_cache_mode`, decision 065). Forcing a plan for each run's values was tried and undone: the
 * setting holds for the whole session, so it also replanned every foreign key's check and every
 * trigger's statement for each row, and a bulk insert took seven times as long.
 *
 * A statement that may change what rows look like (DDL, or any script sent with `exec`) makes every
 * kept statement stale: they are deallocated before the next one is kept, and until then each
 * statement runs unnamed. Should one be missed, PostgreSQL refuses a kept statement whose rows
 * changed ("cached plan must not change result type") rather than answer wrongly; that refusal
 * makes them stale too. Run from source on the database's thread (db/pglite-thread.ts): erasable
 * syntax only.
 */
import {
  parse,
  protocol,
  types,
  type messages,
  type PGlite,
  type Results,
} from "@electric-sql/pglite";

type BackendMessage = Awaited<ReturnType<PGlite["execProtocolStream"]>>[number];
type Kept = { name: string; types: number[]; row: BackendMessage | undefined };
type Options = {
  rowMode?: "array" | "object";
  parsers?: Record<number, (value: string) => unknown>;
};

/** The rows a command's tag says it changed: INSERT 0 n, UPDATE n, DELETE n, COPY n, MERGE n. */
function affectedRows(tag: string): number {
  const words = tag.split(" ");
  switch (words[0]) {
    case "INSERT":
      return parseInt(words[2]!, 10);
    case "UPDATE":
    case "DELETE":
    case "COPY":
    case "MERGE":
      return parseInt(words[1]!, 10);
    default:
      return 0;
  }
}

/** How many statements are kept; past it, a statement not kept runs unnamed, as PGlite's would. */
const KEPT_STATEMENT_LIMIT = 500;

/** What can change a table's columns or a type, and so what a kept statement reads. */
const CHANGES_SCHEMA = /^\s*(create|alter|drop|truncate|comment|do|grant|revoke|reindex)\b/i;
/** PostgreSQL's refusal of a kept statement whose rows would now look different. */
const RESULT_TYPE_CHANGED = "0A000";
const NO_SYNC = { syncToFs: false } as const;

export type KeptStatements = {
  /** Runs a statement, in transaction `inTransaction` (already holding the database) or alone. */
  query: (
    sql: string,
    params: unknown[] | undefined,
    options: Options,
    inTransaction: boolean,
  ) => Promise<Results>;
  /** After a script sent with `exec`: whatever it changed, no kept statement is used again. */
  invalidate: () => void;
  /** How many statements are kept now. */
  readonly size: number;
};

/** Keeps statements parsed, planned as PostgreSQL plans any prepared statement. */
export function keepStatements(client: PGlite, limit = KEPT_STATEMENT_LIMIT): KeptStatements {
  const kept = new Map<string, Kept>();
  let made = 0;
  let stale = false;

  const send = (message: Uint8Array) => client.execProtocolStream(message, NO_SYNC);

  /** Drops every kept statement, once no transaction is open (DEALLOCATE cannot run in a failed one). */
  async function forgetIfStale(): Promise<void> {
    if (!stale || client.isInTransaction()) return;
    try {
      await send(protocol.serialize.query("DEALLOCATE ALL"));
    } finally {
      await send(protocol.serialize.sync());
    }
    kept.clear();
    stale = false;
  }

  async function run(sql: string, params: unknown[], options: Options): Promise<Results> {
    await forgetIfStale();
    const messages: BackendMessage[] = [];
    let statement = kept.get(sql);
    try {
      if (!statement) {
        const name = !stale && kept.size < limit ? `kept_${made++}` : "";
        messages.push(...(await send(protocol.serialize.parse({ name, text: sql }))));
        const described = await send(protocol.serialize.describe({ type: "S", name }));
        statement = {
          name,
          types: parse.parseDescribeStatementResults(described),
          row: described.find((message) => message.name === "rowDescription"),
        };
        if (name) kept.set(sql, statement);
      }
      const { types } = statement;
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serialize = client.serializers[types[i] ?? 0];
        // A type with no serializer (an enum, a uuid) takes the value's own text, as in PGlite's query.
        return serialize ? serialize(value) : (value as { toString(): string }).toString();
      });
      messages.push(
        ...(await send(protocol.serialize.bind({ statement: statement.name, values }))),
      );
      // What Describe would say of the portal: the statement's rows, all as text.
      if (statement.row) messages.push(statement.row);
      messages.push(...(await send(protocol.serialize.execute({}))));
    } catch (error) {
      if ((error as { code?: string }).code === RESULT_TYPE_CHANGED) stale = true;
      // As PGlite's own errors carry them.
      throw Object.assign(error as Error, { query: sql, params });
    } finally {
      messages.push(...(await send(protocol.serialize.sync())));
    }
    if (CHANGES_SCHEMA.test(sql)) stale = true;
    if (!client.isInTransaction()) await client.syncToFs();
    return resultOf(messages, options);
  }

  /**
   * The statement's rows, fields and count, as PGlite's `parse.parseResults` gives its first result.
   * That copies the client's three hundred parsers into one object with the query's own on every
   * call: reading rows without that copy took a statement by key from about 220 to 130 µs of CPU
   * (decision 060). Here each value looks in the query's parsers, then the client's, then PGlite's
   * defaults, the order PGlite's own lookup gives.
   */
  function resultOf(messages: BackendMessage[], options: Options): Results {
    const own = options.parsers ?? {};
    const value = (text: string | null, type: number): unknown => {
      if (text === null) return null;
      const parser = own[type] ?? client.parsers[type];
      return parser ? parser(text, type) : types.parseType(text, type);
    };
    let fields: { name: string; dataTypeID: number }[] = [];
    const rows: unknown[] = [];
    for (const message of messages) {
      if (message.name === "rowDescription") {
        fields = (message as messages.RowDescriptionMessage).fields.map(({ name, dataTypeID }) => ({
          name,
          dataTypeID,
        }));
      } else if (message.name === "dataRow") {
        const values = (message as messages.DataRowMessage).fields.map((text, i) =>
          value(text, fields[i]!.dataTypeID),
        );
        rows.push(
          options.rowMode === "array"
            ? values
            : Object.fromEntries(fields.map((field, i) => [field.name, values[i]])),
        );
      } else if (message.name === "commandComplete") {
        const { text } = message as messages.CommandCompleteMessage;
        return { rows, fields, affectedRows: affectedRows(text) } as Results;
      }
    }
    return { rows: [], fields: [], affectedRows: 0 };
  }

  return {
    async query(sql, params, options, inTransaction) {
      await client._checkReady();
      const once = () => client._runExclusiveQuery(() => run(sql, params ?? [], options));
      // Alone, it waits for any open transaction, as PGlite's `query` does.
      return inTransaction ? once() : client._runExclusiveTransaction(once);
    },
    invalidate() {
      stale = true;
    },
    get size() {
      return kept.size;
    },
  };
}
