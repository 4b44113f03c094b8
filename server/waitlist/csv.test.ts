import { expect, test } from "vitest";
import { csvCell, toCsv } from "#server/waitlist/csv.ts";

test("cells that Excel would run as formulas are neutralised", () => {
  expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
  for (const start of ["+", "-", "@", "\t", "\r"])
    expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
  expect(csvCell("Plain, with comma")).toBe('"Plain, with comma"');
  expect(csvCell(null)).toBe('""');
});

test("the file starts with a BOM, uses CRLF and keeps non-Latin text", () => {
  const csv = toCsv(["name", "company"], [["Zoë 李", "Müller\nGmbH"]]);
  expect(csv.startsWith("\uFEFF")).toBe(true);
  expect(csv).toBe('\uFEFF"name","company"\r\n"Zoë 李","Müller\nGmbH"\r\n');
});
