import { Packer } from "docx";
import { strFromU8, unzipSync } from "fflate";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, test } from "vitest";
import { DPA } from "#src/content/dpa.ts";
import type { DpaDocument } from "#src/content/legal-types.ts";
import { buildDpaDocument, dpaFileName } from "#src/features/legal/dpa/build-dpa-docx.ts";
import { DpaView } from "#src/features/legal/dpa/dpa-view.tsx";
import { sectionHeading } from "#src/features/legal/section-heading.ts";

async function docxParts(dpa: DpaDocument) {
  const buffer = await Packer.toBuffer(buildDpaDocument(dpa, "Tieout", "https://tieout.example"));
  const files = unzipSync(new Uint8Array(buffer));
  const read = (name: string) => strFromU8(files[name] ?? new Uint8Array());
  return {
    document: read("word/document.xml"),
    relationships: read("word/_rels/document.xml.rels"),
    styles: read("word/styles.xml"),
    footer: Object.keys(files)
      .filter((f) => f.startsWith("word/footer"))
      .map(read)
      .join(""),
  };
}

const xmlText = (xml: string) =>
  xml
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

function pageHtml(dpa: DpaDocument): string {
  const router = createMemoryRouter([{ path: "/dpa", element: <DpaView dpa={dpa} /> }], {
    initialEntries: ["/dpa"],
  });
  return renderToString(<RouterProvider router={router} />);
}

describe("the DPA Word document", () => {
  test("holds every section heading, the signature page and Annex A, in Word heading styles", async () => {
    const { document } = await docxParts(DPA);
    const text = xmlText(document);
    for (const section of [...DPA.sections, ...DPA.annexes])
      expect(text).toContain(sectionHeading(section));
    expect(text).toContain(DPA.signature.title);
    expect(text).toContain(DPA.partiesLine.replace(/"/g, '"'));
    expect(document.match(/<w:pStyle w:val="Heading1"\/>/g)?.length).toBe(
      DPA.sections.length + DPA.annexes.length + 1,
    );
    expect(document).toContain('<w:pStyle w:val="Heading2"/>');
    // The signature page and the annex each start a page.
    expect(document.match(/<w:pageBreakBefore\/>/g)?.length).toBe(1 + DPA.annexes.length);
  });

  test("uses 11 pt body text and 16 pt and 14 pt headings, and numbers its pages", async () => {
    const { styles, footer } = await docxParts(DPA);
    expect(styles).toMatch(/<w:docDefaults>[\s\S]*<w:sz w:val="22"\/>/);
    expect(styles).toMatch(/w:styleId="Heading1"[\s\S]*?<w:sz w:val="32"\/>/);
    expect(styles).toMatch(/w:styleId="Heading2"[\s\S]*?<w:sz w:val="28"\/>/);
    expect(footer).toContain("PAGE");
    expect(footer).toContain("NUMPAGES");
  });

  test("links section 5.3 to the sub-processor list under the site's address", async () => {
    const { document, relationships } = await docxParts(DPA);
    expect(relationships).toContain('Target="https://tieout.example/subprocessors"');
    expect(relationships).toContain('TargetMode="External"');
    expect(document).toMatch(/<w:hyperlink [^>]*>[\s\S]*?a current list of its Sub-processors/);
  });

  test("is named after the product", () => {
    expect(dpaFileName("Tieout")).toBe("Tieout_DPA.docx");
    expect(dpaFileName("Tie Out & Co")).toBe("Tie_Out_Co_DPA.docx");
  });
});

test("the page and the file come from the same content: a new section appears in both", async () => {
  const added: DpaDocument = {
    ...DPA,
    sections: [
      ...DPA.sections,
      {
        id: "cooperation-with-regulators",
        number: "13",
        title: "Cooperation with Regulators",
        blocks: [
          {
            kind: "clause",
            number: "13.1",
            text: "Provider will cooperate with supervisory authorities as the law requires.",
          },
        ],
      },
    ],
  };
  expect(xmlText((await docxParts(added)).document)).toContain("13. Cooperation with Regulators");
  expect(xmlText((await docxParts(DPA)).document)).not.toContain("Cooperation with Regulators");
  const html = pageHtml(added);
  expect(html).toContain("13. Cooperation with Regulators");
  expect(html).toContain('href="#cooperation-with-regulators"');
  expect(pageHtml(DPA)).not.toContain("Cooperation with Regulators");
});
