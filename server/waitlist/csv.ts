/**
 * CSV for Excel: UTF-8 with a byte-order mark (so Excel reads accents and non-Latin names), CRLF
 * rows, every cell quoted. A cell that begins with =, +, -, @, tab or carriage return is
 * neutralised with a leading apostrophe so Excel shows it as text instead of running a formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(","));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
