import { readFileSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { DPA } from "#src/content/dpa.ts";
import { sectionHeading } from "#src/features/legal/section-heading.ts";
import { expect, test, waitForHydration } from "#tests/support/fixtures.ts";
import { docxToPdf, pdfPageCount, pdfText } from "#tests/support/office.ts";

test.describe.configure({ timeout: 120_000 });

const HEADINGS = [...DPA.sections, ...DPA.annexes].map(sectionHeading);

test("'Download DPA' builds the whole agreement as Tieout_DPA.docx, and it opens in LibreOffice", async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  await page.goto("/dpa");
  await waitForHydration(page);
  const beforeClick = scripts.length;
  const apiCalls: string[] = [];
  page.on("request", (r) => {
    if (!r.url().includes("/assets/")) apiCalls.push(r.url());
  });

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download DPA" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("Tieout_DPA.docx");
  // The docx library arrived only on the click, and the file itself needed no request.
  expect(scripts.length).toBeGreaterThan(beforeClick);
  expect(apiCalls).toEqual([]);
  await expect(page.getByRole("button", { name: "Download DPA" })).toBeEnabled();

  const saved = await file.path();
  const files = unzipSync(new Uint8Array(readFileSync(saved)));
  const document = strFromU8(files["word/document.xml"]!);
  const styles = strFromU8(files["word/styles.xml"]!);
  const text = document
    .replace(/<[^>]+>/g, "")
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
  const missing = HEADINGS.filter((heading) => !text.includes(heading));
  expect(missing).toEqual([]);
  expect(text).toContain("Signature Page");
  for (const size of ["22", "32", "28"])
    expect(`${document}${styles}`).toContain(`<w:sz w:val="${size}"/>`);

  const pdf = docxToPdf(saved);
  const pages = pdfPageCount(pdf);
  expect(pages).toBeGreaterThanOrEqual(8);
  expect(pages).toBeLessThanOrEqual(40);
  const pdfWords = pdfText(pdf);
  expect(HEADINGS.filter((heading) => !pdfWords.includes(heading.replace(/\s+/g, " ")))).toEqual(
    [],
  );
  expect(pdfWords).toContain(`Page 1 of ${pages}`);
});
