/**
 * The backup file's own parts: the header a restore reads before it touches anything, and the
 * cutting of a dump's SQL into statements, whatever pieces the file arrives in.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import {
  DUMP_END,
  formatHeader,
  parseHeader,
  StatementSplitter,
  type Statement,
} from "#db/dump-format.ts";

const META = {
  taken: "2026-11-23T10:00:00.000Z",
  source: "the embedded database in /srv/tieout/data (site stopped)",
  server: "PostgreSQL 17.5",
  method: "logical dump of our tables",
  migrations: ["0001_waitlist.sql", "0002_sessions.sql"],
  tables: { waitlist_entries: 3, sessions: 0 },
};

test("the header says what the file is and how to restore it, and reads back as written", () => {
  const header = formatHeader(META);
  expect(header.split("\n")[0]).toBe(
    "-- Tieout backup (format 1). Restore it with `npm run restore -- FILE` into an empty DATA_DIR or database.",
  );
  expect(parseHeader(`${header}SET client_encoding = 'UTF8';\n`)).toEqual({ format: 1, ...META });
});

test("a file that is not one of our backups is refused with the reason, before anything is read on", () => {
  const notOurs = [
    "--\n-- PostgreSQL database dump\n--\n",
    "CREATE TABLE t (id int);\n",
    "\u001f\u008b\u0008binary",
    "",
  ];
  for (const text of notOurs)
    expect(() => parseHeader(text), JSON.stringify(text)).toThrow(/it is not a Tieout backup/);
  expect(() => parseHeader("-- Tieout backup (format 2). Restore it…\n-- {}\n")).toThrow(
    /written by a newer version of the site/,
  );
  const [first] = formatHeader(META).split("\n");
  expect(() => parseHeader(`${first}\n-- {"format":1,"taken":\n`)).toThrow(/header is damaged/);
  expect(() => parseHeader(`${first}\n-- {"format":1,"tables":{"x":-1}}\n`)).toThrow(
    /header is damaged/,
  );
});

/** Every statement of `text`, fed in pieces cut at `cuts`. */
function split(text: string, cuts: number[] = []) {
  const splitter = new StatementSplitter();
  const statements: Statement[] = [];
  let from = 0;
  for (const at of [...cuts.filter((c) => c > 0 && c < text.length)].sort((a, b) => a - b)) {
    statements.push(...splitter.push(text.slice(from, at)));
    from = at;
  }
  statements.push(...splitter.push(text.slice(from)));
  const end = splitter.end();
  return { statements: [...statements, ...end.statements], rest: end.rest, inside: end.inside };
}

const sqlOf = (statements: Statement[]) => statements.map((s) => (s.psql ? s.sql : s.sql.trim()));

test("a semicolon inside quotes, names, dollar quotes and comments does not end a statement", () => {
  const text = [
    "INSERT INTO t VALUES ('a;b', 'it''s; fine', E'back\\\\slash\\'; quote', U&'d\\0061t;a');",
    'CREATE TABLE "odd;""name" (x int);',
    "CREATE FUNCTION f() RETURNS text AS $body$ SELECT ';' || $x$;$x$ $body$ LANGUAGE sql;",
    "SELECT $$;$$, 1; -- a comment; with 'a quote",
    "/* a /* nested; */ comment; */ SELECT 2;",
    "SELECT 'line\nbreak;';",
    DUMP_END,
    "",
  ].join("\n");
  const { statements, rest, inside } = split(text);
  expect(sqlOf(statements)).toEqual([
    "INSERT INTO t VALUES ('a;b', 'it''s; fine', E'back\\\\slash\\'; quote', U&'d\\0061t;a');",
    'CREATE TABLE "odd;""name" (x int);',
    "CREATE FUNCTION f() RETURNS text AS $body$ SELECT ';' || $x$;$x$ $body$ LANGUAGE sql;",
    "SELECT $$;$$, 1;",
    "-- a comment; with 'a quote\n/* a /* nested; */ comment; */ SELECT 2;",
    "SELECT 'line\nbreak;';",
  ]);
  expect(statements.map((s) => s.line)).toEqual([1, 2, 3, 4, 4, 6]);
  expect(rest.trim()).toBe(DUMP_END);
  expect(inside).toBeUndefined();
});

test("pg_dump's \\restrict lines are psql commands of their own, not part of a statement", () => {
  const text =
    "--\n-- PostgreSQL database dump\n--\n\n\\restrict AbC123\n\nSET x = 1;\nSELECT '\\restrict not';\n\n\\unrestrict AbC123\n\n" +
    `${DUMP_END}\n`;
  const { statements, rest } = split(text);
  expect(statements.map((s) => [s.psql, s.psql ? s.sql : s.sql.trim(), s.line])).toEqual([
    [true, "\\restrict AbC123", 5],
    [false, "SET x = 1;", 7],
    [false, "SELECT '\\restrict not';", 8],
    [true, "\\unrestrict AbC123", 10],
  ]);
  expect(rest.trim()).toBe(DUMP_END);
});

test("a dump that stops inside a string, or with a statement unfinished, is told apart from a whole one", () => {
  expect(split("SELECT 'never closed;\n").inside).toBe("a quoted string");
  expect(split("SELECT $x$ never closed;\n").inside).toBe("a dollar-quoted string");
  expect(split("/* never closed; */ /* \n").inside).toBe("a comment");
  const unfinished = split("SELECT 1;\nINSERT INTO t VALUES (1");
  expect(unfinished.inside).toBeUndefined();
  expect(unfinished.rest.trim()).toBe("INSERT INTO t VALUES (1");
});

test("the statements are the same whatever pieces the text arrives in", () => {
  const piece = fc.constantFrom(
    "SELECT 1",
    "'a;b'",
    "'it''s'",
    "E'x\\\\y\\';z'",
    '"q;""n"',
    "$$;$$",
    "$tag$ $x$ ; $tag$",
    "-- c;'\n",
    "/* a /* b; */ c */",
    "\n",
    " - ",
    " / ",
    "e'not;escaped'",
    "'\\'",
    "x$1",
  );
  const statement = fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => `${p.join(" ")};`);
  fc.assert(
    fc.property(
      fc.array(statement, { minLength: 1, maxLength: 8 }),
      fc.array(fc.nat(400), { maxLength: 12 }),
      (statements, cuts) => {
        const text = `${statements.join("\n")}\n${DUMP_END}\n`;
        const whole = split(text);
        const pieces = split(text, cuts);
        expect(pieces).toEqual(whole);
        expect(whole.rest.trim()).toBe(DUMP_END);
        expect(whole.statements.map((s) => s.sql.trim())).toEqual(statements.map((s) => s.trim()));
      },
    ),
    { numRuns: 300 },
  );
});
