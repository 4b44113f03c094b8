import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Converts a .docx to PDF with LibreOffice, as a customer's lawyer opening it would see it. */
export function docxToPdf(docx: string): string {
  const out = mkdtempSync(path.join(tmpdir(), "tieout-pdf-"));
  const profile = mkdtempSync(path.join(tmpdir(), "tieout-lo-profile-"));
  execFileSync(
    "soffice",
    [
      `-env:UserInstallation=file://${profile}`,
      "--headless",
      "--convert-to",
      "pdf",
      "--outdir",
      out,
      docx,
    ],
    {
      stdio: "pipe",
      timeout: 120_000,
    },
  );
  const pdf = readdirSync(out).find((f) => f.endsWith(".pdf"));
  if (!pdf) throw new Error("LibreOffice produced no PDF");
  return path.join(out, pdf);
}

export function pdfPageCount(pdf: string): number {
  const info = execFileSync("pdfinfo", [pdf], { encoding: "utf8" });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
}

export function pdfText(pdf: string): string {
  return execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" }).replace(
    /\s+/g,
    " ",
  );
}
