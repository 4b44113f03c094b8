/**
 * Reading an uploaded sheet for an import (issue 37, part 5): the bytes an administrator sent,
 * checked before anything else is done with them. A file refused here imports nothing, and the
 * message says what to change: its size, its encoding, its lack of rows, or a cell that Excel
 * would run as a formula.
 */
import { parse } from "csv-parse/sync";

/** The largest file taken: 5 MB, about 50,000 rows of a typical sign-up sheet. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Rows taken from one file, the header row apart. */
const IMPORT_MAX_ROWS = 20_000;

/** A row under the header: its cells, and its number as a spreadsheet shows it (the header's is 1
 * when nothing is above it). Blank rows are left out, so the numbers can skip. */
type SheetRow = { at: number; cells: string[] };

export type Sheet = { headers: string[]; rows: SheetRow[] };

export type SheetRead = { ok: true; sheet: Sheet } | { ok: false; message: string };

const SAVE_AS =
  'In Excel, choose File, Save As, "CSV UTF-8 (Comma delimited)"; in Google Sheets, File, Download, "Comma-separated values".';

/**
 * A cell a spreadsheet would run rather than show: one that starts with "=" or "@", or with "+"
 * or "-" followed by something other than a number (a phone number or a negative figure is fine).
 */
const FORMULA_CELL = /^\s*(?:[=@]|[+-](?![\d.\s]*$))/;

/** The delimiter of the header line: the one of comma, semicolon or tab it holds most of. */
function delimiterOf(text: string): string {
  const first = text.slice(0, text.search(/\r?\n|$/));
  const counts = [",", ";", "\t"].map((d) => ({ d, n: first.split(d).length - 1 }));
  counts.sort((a, b) => b.n - a.n);
  return counts[0]!.n > 0 ? counts[0]!.d : ",";
}

const excelColumn = (i: number): string =>
  i < 26 ? String.fromCharCode(65 + i) : excelColumn(Math.floor(i / 26) - 1) + excelColumn(i % 26);

export function readSheet(bytes: Uint8Array): SheetRead {
  if (bytes.length === 0) return { ok: false, message: "The file is empty." };
  if (bytes.length >= IMPORT_MAX_BYTES)
    return {
      ok: false,
      message: `The file is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; an import takes less than 5 MB. Split it into smaller files.`,
    };
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    return { ok: false, message: `The file is UTF-16 text, not UTF-8. ${SAVE_AS}` };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return {
      ok: false,
      message: `The file is not UTF-8 text (an older Excel "CSV" is often Windows-1252). ${SAVE_AS}`,
    };
  }
  if (text.includes("\u0000"))
    return {
      ok: false,
      message: `The file holds NUL characters: it is not a CSV file. ${SAVE_AS}`,
    };
  let records: string[][];
  try {
    const parsed: unknown = parse(text, {
      delimiter: delimiterOf(text),
      relax_column_count: true,
      relax_quotes: true,
      // Blank lines are records here, dropped below once counted: a spreadsheet numbers them too.
      skip_empty_lines: false,
      trim: false,
      bom: true,
    });
    // Without `columns`, every record is an array of its cells as text.
    records = parsed as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return {
      ok: false,
      message: `The file could not be read as CSV${line ? ` (near line ${line})` : ""}: a quote may be left open.`,
    };
  }
  // A record is one spreadsheet row, however many lines its quoted cells span.
  const [header, ...rows] = records
    .map((cells, i) => ({ at: i + 1, cells }))
    .filter((r) => r.cells.some((cell) => cell.trim() !== ""));
  if (!header) return { ok: false, message: "The file has no rows." };
  if (rows.length === 0)
    return { ok: false, message: "The file has a header row and nothing under it." };
  if (rows.length > IMPORT_MAX_ROWS)
    return {
      ok: false,
      message: `The file has ${rows.length.toLocaleString("en-US")} rows; an import takes at most ${IMPORT_MAX_ROWS.toLocaleString("en-US")}. Split it into smaller files.`,
    };
  const width = Math.max(header.cells.length, ...rows.map((r) => r.cells.length));
  const seen = new Map<string, number>();
  const headers = Array.from({ length: width }, (_, i) => {
    const named = (header.cells[i] ?? "").trim() || `Column ${excelColumn(i)}`;
    const n = (seen.get(named.toLowerCase()) ?? 0) + 1;
    seen.set(named.toLowerCase(), n);
    return n === 1 ? named : `${named} (${n})`;
  });
  for (const { at, cells } of rows)
    for (const [c, cell] of cells.entries())
      if (FORMULA_CELL.test(cell))
        return {
          ok: false,
          message: `Row ${at}, column "${headers[c]}" (${excelColumn(c)}${at}) starts like a formula ("${cell.trim().slice(0, 20)}"). Nothing was imported: remove the formula, or type the cell as plain text, and upload the file again.`,
        };
  return {
    ok: true,
    sheet: {
      headers,
      rows: rows.map(({ at, cells }) => ({ at, cells: headers.map((_, i) => cells[i] ?? "") })),
    },
  };
}
