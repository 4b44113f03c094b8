/**
 * What a backup file is (docs/decisions/027): plain SQL that loads into an empty PostgreSQL
 * database, between a header of ours and a closing line of ours. The header's first line says what
 * the file is; its second is JSON: when and from where it was taken, how (our logical dump or
 * pg_dump), the migrations applied, and the rows of each table, which a restore counts again
 * before it commits. The closing line tells a whole file from one cut short.
 */

const DUMP_FORMAT = 1;
const TITLE = `-- Tieout backup (format ${DUMP_FORMAT}).`;
export const DUMP_END = "-- End of Tieout backup.";

export type DumpMeta = {
  format: number;
  /** When the dump's snapshot was taken, ISO 8601. */
  taken: string;
  /** Where it came from, in words: "the embedded database in /srv/tieout/data". */
  source: string;
  /** The PostgreSQL it came from: "PostgreSQL 17.5". */
  server: string;
  /** "logical dump of our tables" or "pg_dump 15.18". */
  method: string;
  /** db/migrations files applied to the database dumped, in order. */
  migrations: string[];
  /** Rows per table of the public schema, counted in the dump's own snapshot. */
  tables: Record<string, number>;
};

export class DumpFormatError extends Error {
  override name = "DumpFormatError";
}

export function formatHeader(meta: Omit<DumpMeta, "format">): string {
  const full: DumpMeta = { format: DUMP_FORMAT, ...meta };
  return (
    `${TITLE} Restore it with \`npm run restore -- FILE\` into an empty DATA_DIR or database.\n` +
    `-- ${JSON.stringify(full)}\n`
  );
}

/**
 * The header of a dump from the first two lines of its text. Anything else (another program's
 * SQL, a file that is not text, a newer format) is refused with a sentence that says which.
 */
export function parseHeader(head: string): DumpMeta {
  const [first = "", second = ""] = head.split("\n", 2);
  if (!first.startsWith("-- Tieout backup (format "))
    throw new DumpFormatError(
      "it is not a Tieout backup (it does not start with the line `npm run backup` writes)",
    );
  if (!first.startsWith(TITLE))
    throw new DumpFormatError(
      "it was written by a newer version of the site (another backup format): restore it with that version",
    );
  let meta: DumpMeta;
  try {
    meta = JSON.parse(second.replace(/^-- /, "")) as DumpMeta;
  } catch {
    throw new DumpFormatError("its header is damaged (the second line is not the JSON we write)");
  }
  const valid =
    typeof meta === "object" &&
    meta !== null &&
    meta.format === DUMP_FORMAT &&
    typeof meta.taken === "string" &&
    typeof meta.source === "string" &&
    typeof meta.server === "string" &&
    typeof meta.method === "string" &&
    Array.isArray(meta.migrations) &&
    meta.migrations.every((m) => typeof m === "string") &&
    typeof meta.tables === "object" &&
    meta.tables !== null &&
    Object.values(meta.tables).every((n) => Number.isSafeInteger(n) && n >= 0);
  if (!valid)
    throw new DumpFormatError("its header is damaged (fields missing or of the wrong type)");
  return meta;
}

const IDENT_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;
const isIdentChar = (c: string | undefined) => c !== undefined && IDENT_CHAR.test(c);
/** In code: what may start a quote, a comment, a psql command, or end a statement. */
const CODE_STOP = /[;'"\-/$\\]/g;
const QUOTE_STOP = /'/g;
const E_QUOTE_STOP = /['\\]/g;
const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;
const NOT_BLANK = /\S/;

/** A statement with the comments before it, or a psql command (`\\restrict …`) on its own line. */
export type Statement = { sql: string; line: number; psql: boolean };

type State =
  | { in: "code" }
  | { in: "quote"; backslash: boolean }
  | { in: "ident" }
  | { in: "dollar"; tag: string }
  | { in: "line-comment" }
  | { in: "block-comment"; depth: number };

const CODE: State = { in: "code" };
const QUOTE: State = { in: "quote", backslash: false };
const E_QUOTE: State = { in: "quote", backslash: true };
const IDENT: State = { in: "ident" };
const LINE_COMMENT: State = { in: "line-comment" };

/**
 * Cuts SQL text into statements as it arrives, in pieces of any size: a `;` ends a statement only
 * outside quotes ('…', E'…' with backslash escapes, "…", $tag$…$tag$) and comments (-- and nested
 * block comments). Each statement keeps the comments before it and the line it starts on. A
 * backslash where a statement would start begins a psql command, which runs to the end of its
 * line: pg_dump 15.14 and later write `\\restrict` and `\\unrestrict` around a plain dump.
 */
export class StatementSplitter {
  #text = "";
  /** Where scanning resumes in #text; where the current statement began, and its line. */
  #pos = 0;
  #start = 0;
  #line = 1;
  /** Nothing but blanks and comments since the current statement began. */
  #blank = true;
  #state: State = CODE;

  /** Adds text; returns the statements it completed. */
  push(chunk: string): Statement[] {
    this.#text += chunk;
    const done: Statement[] = [];
    this.#scan(done, false);
    // Drop what is consumed so the buffer holds only the statement under way.
    if (this.#start > 0) {
      this.#text = this.#text.slice(this.#start);
      this.#pos -= this.#start;
      this.#start = 0;
    }
    return done;
  }

  /**
   * The end of the text: the statements it completed, then what follows the last one (comments
   * and blanks in a whole dump, never SQL) and, when the text stops inside a quote or a comment,
   * which.
   */
  end(): { statements: Statement[]; rest: string; inside: string | undefined } {
    const statements: Statement[] = [];
    this.#scan(statements, true);
    const inside = {
      code: undefined,
      "line-comment": undefined,
      quote: "a quoted string",
      ident: "a quoted name",
      dollar: "a dollar-quoted string",
      "block-comment": "a comment",
    }[this.#state.in];
    return { statements, rest: this.#text.slice(this.#start), inside };
  }

  /**
   * Records the statement (or psql command) from #start, blanks before it left out, up to `end`;
   * the next one starts there.
   */
  #emit(done: Statement[], t: string, end: number, psql: boolean) {
    let from = this.#start;
    while (from < end && /\s/.test(t[from]!)) from++;
    const line = this.#line + countLines(t, this.#start, from);
    done.push({ sql: psql ? t.slice(from, end).trimEnd() : t.slice(from, end), line, psql });
    this.#line += countLines(t, this.#start, end);
    this.#start = end;
    this.#blank = true;
  }

  #scan(done: Statement[], final: boolean) {
    const t = this.#text;
    let i = this.#pos;
    /** The character after i is not here yet, and more text may come. */
    const cut = () => !final && i + 1 >= t.length;
    scan: while (i < t.length) {
      const s = this.#state;
      switch (s.in) {
        case "code": {
          CODE_STOP.lastIndex = i;
          const m = CODE_STOP.exec(t);
          const j = m ? m.index : t.length;
          if (this.#blank && j > i && NOT_BLANK.test(t.slice(i, j))) this.#blank = false;
          i = j;
          if (!m) break scan;
          const c = t[i];
          if (c === ";") {
            i++;
            this.#emit(done, t, i, false);
          } else if (c === "\\" && this.#blank) {
            const eol = t.indexOf("\n", i);
            if (eol === -1 && !final) break scan;
            // Comments before the command are dropped with it.
            this.#line += countLines(t, this.#start, i);
            this.#start = i;
            i = eol === -1 ? t.length : eol;
            this.#emit(done, t, i, true);
          } else if (c === "-" || c === "/") {
            if (cut()) break scan;
            if (c === "-" && t[i + 1] === "-") {
              this.#state = LINE_COMMENT;
              i += 2;
            } else if (c === "/" && t[i + 1] === "*") {
              this.#state = { in: "block-comment", depth: 1 };
              i += 2;
            } else {
              this.#blank = false;
              i++;
            }
          } else if (c === "$" && !isIdentChar(t[i - 1])) {
            DOLLAR_TAG.lastIndex = i;
            const tag = DOLLAR_TAG.exec(t);
            this.#blank = false;
            if (tag) {
              this.#state = { in: "dollar", tag: tag[0] };
              i += tag[0].length;
            } else if (!final && /^\$[A-Za-z0-9_\u0080-\uffff]*$/.test(t.slice(i, i + 66))) {
              // Perhaps a tag cut by the end of the text so far: wait for the rest.
              break scan;
            } else i++;
          } else {
            this.#blank = false;
            if (c === "'") {
              const prefix = t[i - 1];
              this.#state =
                (prefix === "E" || prefix === "e") && !isIdentChar(t[i - 2]) ? E_QUOTE : QUOTE;
            } else if (c === '"') this.#state = IDENT;
            i++;
          }
          break;
        }
        case "quote": {
          const stop = s.backslash ? E_QUOTE_STOP : QUOTE_STOP;
          stop.lastIndex = i;
          const m = stop.exec(t);
          if (!m) {
            i = t.length;
            break scan;
          }
          i = m.index;
          if (cut()) break scan;
          if (t[i] === "\\") i += 2;
          else if (t[i + 1] === "'") i += 2;
          else {
            this.#state = CODE;
            i++;
          }
          break;
        }
        case "ident": {
          const close = t.indexOf('"', i);
          if (close === -1) {
            i = t.length;
            break scan;
          }
          i = close;
          if (cut()) break scan;
          if (t[i + 1] === '"') i += 2;
          else {
            this.#state = CODE;
            i++;
          }
          break;
        }
        case "dollar": {
          const close = t.indexOf(s.tag, i);
          if (close === -1) {
            // Keep the last characters: the closing tag may be cut in two.
            i = Math.max(i, t.length - s.tag.length + 1);
            break scan;
          }
          this.#state = CODE;
          i = close + s.tag.length;
          break;
        }
        case "line-comment": {
          const eol = t.indexOf("\n", i);
          if (eol === -1) {
            i = t.length;
            break scan;
          }
          this.#state = CODE;
          i = eol + 1;
          break;
        }
        case "block-comment": {
          const open = t.indexOf("/*", i);
          const close = t.indexOf("*/", i);
          if (close === -1 && open === -1) {
            // A "*" or "/" at the very end may begin the next marker.
            i = Math.max(i, t.length - 1);
            break scan;
          }
          if (open !== -1 && (close === -1 || open < close)) {
            this.#state = { in: "block-comment", depth: s.depth + 1 };
            i = open + 2;
          } else {
            this.#state = s.depth === 1 ? CODE : { in: "block-comment", depth: s.depth - 1 };
            i = close + 2;
          }
          break;
        }
      }
    }
    this.#pos = i;
  }
}

function countLines(t: string, from: number, to: number): number {
  let n = 0;
  for (let i = t.indexOf("\n", from); i !== -1 && i < to; i = t.indexOf("\n", i + 1)) n++;
  return n;
}

/** True when the text after the last statement is only comments and blanks. */
export function isOnlyComments(text: string): boolean {
  return text.split("\n").every((line) => line.trim() === "" || line.trim().startsWith("--"));
}
