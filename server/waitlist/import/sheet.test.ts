import { describe, expect, test } from "vitest";
import { IMPORT_MAX_BYTES, readSheet } from "#server/waitlist/import/sheet.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("reading an uploaded sheet", () => {
  test("a form service's CSV: quoted cells with commas and line breaks, a BOM, CRLF rows", () => {
    const read = readSheet(
      bytes(
        '\uFEFFTimestamp,Email,Name,"Use case"\r\n3/4/2026 10:11:12,ada@example-cpa.com,Ada Byron,"Returns, and\r\nworkpapers"\r\n,,,\r\n',
      ),
    );
    expect(read).toEqual({
      ok: true,
      sheet: {
        headers: ["Timestamp", "Email", "Name", "Use case"],
        rows: [
          {
            at: 2,
            cells: [
              "3/4/2026 10:11:12",
              "ada@example-cpa.com",
              "Ada Byron",
              "Returns, and\r\nworkpapers",
            ],
          },
        ],
      },
    });
  });

  test("a European Excel file (semicolons); ragged rows padded; blank and repeated headers named", () => {
    const read = readSheet(bytes("E-mail;;E-mail\nbo@example.com;x\n"));
    expect(read).toEqual({
      ok: true,
      sheet: {
        headers: ["E-mail", "Column B", "E-mail (2)"],
        rows: [{ at: 2, cells: ["bo@example.com", "x", ""] }],
      },
    });
  });

  test("rows keep the numbers a spreadsheet shows them under: blank rows count, a cell's line breaks do not", () => {
    const read = readSheet(
      bytes('\nEmail,Notes\nann@example.com,"two\nlines"\n\n,\nbo@example.com,\n'),
    );
    expect(read.ok && read.sheet.rows).toEqual([
      { at: 3, cells: ["ann@example.com", "two\nlines"] },
      { at: 6, cells: ["bo@example.com", ""] },
    ]);
    const formula = readSheet(bytes("Email,Name\n\nann@example.com,Ann\n\nbo@example.com,=1+1\n"));
    expect(!formula.ok && formula.message).toMatch(/^Row 5, column "Name" \(B5\)/);
  });

  test("a bad file is refused whole, with what to change", () => {
    const cases: [Uint8Array, RegExp][] = [
      [bytes(""), /empty/],
      [new Uint8Array(IMPORT_MAX_BYTES), /5\.0 MB; an import takes less than 5 MB/],
      [new Uint8Array([0xff, 0xfe, 0x45, 0x00]), /UTF-16/],
      [new Uint8Array([0x45, 0x6d, 0x61, 0x69, 0x6c, 0x0a, 0x41, 0xe9, 0x0a]), /not UTF-8 text/],
      [bytes("Email\u0000\nx"), /NUL/],
      [bytes('Email,Name\n"open quote,Ann\n'), /could not be read as CSV/],
      [bytes("Email\n"), /nothing under it/],
      [
        bytes('Email,Name\nann@example.com,=HYPERLINK("x")\n'),
        /Row 2, column "Name" \(B2\) starts like a formula/,
      ],
      [bytes("Email,Name\n@SUM(A1),Ann\n"), /formula/],
      [bytes("Email,Notes\nann@example.com,-cmd|' /C calc'!A0\n"), /formula/],
    ];
    for (const [file, message] of cases) {
      const read = readSheet(file);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.message).toMatch(message);
    }
  });

  test("a phone number or a negative figure is not a formula", () => {
    const read = readSheet(bytes("Email,Phone,Balance\nann@example.com,+1 512 555 0100,-42.50\n"));
    expect(read.ok).toBe(true);
  });
});
