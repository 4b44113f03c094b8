import { describe, expect, test } from "vitest";
import { DPA } from "#src/content/dpa.ts";
import type { LegalBlock, LegalDocument } from "#src/content/legal-types.ts";
import { PRIVACY_POLICY } from "#src/content/privacy-policy.ts";
import { addressLines, postalAddress, SITE } from "#src/content/site.ts";
import { TERMS_OF_SERVICE } from "#src/content/terms-of-service.ts";

function blockText(block: LegalBlock): string {
  switch (block.kind) {
    case "paragraph":
      return block.text;
    case "clause":
      return [block.heading ?? "", block.text, ...(block.items ?? [])].join(" ");
    case "list":
      return block.items.join(" ");
    case "definition":
      return `${block.term} ${block.text}`;
    case "table":
      return [...block.header, ...block.rows.flat()].join(" ");
  }
}

function fullText(doc: LegalDocument): string {
  return [
    ...doc.preamble,
    ...doc.sections.flatMap((s) => [{ kind: "paragraph", text: s.title } as const, ...s.blocks]),
  ]
    .map(blockText)
    .join("\n");
}

describe.each([
  ["Terms of Service", TERMS_OF_SERVICE],
  ["Privacy Policy", PRIVACY_POLICY],
  ["Data Processing Addendum", DPA],
] as const)("%s", (title, doc) => {
  test("has its title, unique anchors and numbered sections in order", () => {
    expect(doc.title).toBe(title);
    const ids = doc.sections.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(doc.sections.map((s) => s.number)).toEqual(doc.sections.map((_, i) => String(i + 1)));
  });

  test("names the product from the site config and has no filler or template text", () => {
    const text = fullText(doc);
    expect(text).toContain(SITE.name);
    expect(text).not.toMatch(/lorem|ipsum|\[(company|name|date)\]|TODO|TBD/i);
  });

  test("clause numbers follow their section", () => {
    for (const section of doc.sections) {
      for (const block of section.blocks) {
        if (block.kind === "clause")
          expect(block.number.startsWith(`${section.number}.`), block.number).toBe(true);
      }
    }
  });
});

test("the Terms carry every figure that belongs to them", () => {
  expect(TERMS_OF_SERVICE.effectiveLine).toBe("Effective June 1, 2025");
  const text = fullText(TERMS_OF_SERVICE);
  for (const figure of [
    "7, 14 or 30 days",
    "7 days",
    "Net 30",
    "1.5%",
    "12 months",
    "$100",
    "18",
    "15 days",
    "90 days",
    "30 days",
    SITE.supportHours,
  ]) {
    expect(text, figure).toContain(figure);
  }
  for (const topic of ["trial", "subscription", "cancel", "suspend", "account"])
    expect(text.toLowerCase()).toContain(topic);
});

test("the Privacy Policy names the data it covers and its deadlines", () => {
  expect(PRIVACY_POLICY.effectiveLine).toBe("Effective June 1, 2025");
  const text = fullText(PRIVACY_POLICY);
  for (const figure of ["45 days", "13", "30 days", "90 days"])
    expect(text, figure).toContain(figure);
  for (const data of [
    "name",
    "email",
    "company name",
    "password",
    "billing",
    "Customer Content",
    "usage data",
  ]) {
    expect(text.toLowerCase(), data).toContain(data.toLowerCase());
  }
});

test("the DPA has all twelve sections, its figures, a signature page and Annex A", () => {
  expect(DPA.sections).toHaveLength(12);
  expect(DPA.partiesLine).toMatch(/Processor/);
  expect(DPA.partiesLine).toMatch(/Controller/);
  const text = fullText(DPA) + DPA.annexes.map((a) => a.blocks.map(blockText).join(" ")).join(" ");
  for (const figure of [
    "TLS 1.3",
    "AES-256",
    "24/7",
    "Module Two",
    "Ireland",
    "30 days",
    "15 days",
    "Clause 7",
    "Clause 9",
    "Clause 11",
  ]) {
    expect(text, figure).toContain(figure);
  }
  expect(DPA.signature.parties.map((p) => p.role)).toEqual(["Controller", "Processor"]);
  expect(DPA.annexes[0]?.number).toBe("Annex A");
});

describe("the postal address, written one way everywhere", () => {
  test("as lines (footer, contact page) and on one line (the legal texts)", () => {
    expect(addressLines()).toEqual(["8 The Green, Suite A", "Dover, DE 19901", "United States"]);
    expect(postalAddress(SITE.legalEntity)).toBe(
      "Tieout, Inc., 8 The Green, Suite A, Dover, DE 19901, United States",
    );
    for (const doc of [PRIVACY_POLICY, TERMS_OF_SERVICE, DPA]) {
      expect(fullText(doc), doc.title).toContain(postalAddress());
    }
  });
});
