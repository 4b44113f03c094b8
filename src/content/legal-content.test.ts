import { describe, expect, test } from "vitest";
import { DPA } from "#src/content/dpa.ts";
import type { LegalBlock, LegalDocument } from "#src/content/legal-types.ts";
import { PRIVACY_POLICY } from "#src/content/privacy-policy.ts";
import { SECURITY_FACTS } from "#src/content/security-facts.ts";
import { addressLines, postalAddress, SITE } from "#src/content/site.ts";
import { categoryItems } from "#src/content/subprocessors.ts";
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

  test("every link's words are in its text, and every link goes to a page or a mailbox", () => {
    for (const block of doc.sections.flatMap((section) => section.blocks)) {
      if ((block.kind !== "paragraph" && block.kind !== "clause") || !block.link) continue;
      expect(block.text, block.link.words).toContain(block.link.words);
      expect(block.link.href).toMatch(/^(\/[a-z]|mailto:)/);
    }
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

/** The block numbered `number` in `doc` (sections and, for the DPA, the annexes). */
function clause(doc: LegalDocument & { annexes?: typeof DPA.annexes }, number: string) {
  const found = [...doc.sections, ...(doc.annexes ?? [])]
    .flatMap((section) => section.blocks)
    .find((block) => block.kind === "clause" && block.number === number);
  if (found?.kind !== "clause") throw new Error(`no clause ${number}`);
  return found;
}

describe("the sub-processors, from their one typed source", () => {
  test("the DPA's 5.2 and Annex A.9 and the Privacy Policy's 5.1 list the same categories", () => {
    expect(clause(DPA, "5.2").items).toEqual(categoryItems());
    expect(clause(DPA, "A.9").items).toEqual(categoryItems());
    expect(clause(PRIVACY_POLICY, "5.1").items).toEqual(categoryItems());
  });

  test("the DPA's 5.3 and the Privacy Policy's 5.2 link to the list", () => {
    expect(clause(DPA, "5.3").link).toEqual({
      words: "a current list of its Sub-processors",
      href: "/subprocessors",
    });
    expect(clause(PRIVACY_POLICY, "5.2").link?.href).toBe("/subprocessors");
  });
});

test("the security figures read the same in the DPA, the Privacy Policy and the Terms", () => {
  const dpa = fullText(DPA) + DPA.annexes.map((a) => a.blocks.map(blockText).join(" ")).join(" ");
  const { encryptionInTransit, encryptionAtRest, incidentNoticeHours } = SECURITY_FACTS;
  expect(dpa).toContain(`in transit using ${encryptionInTransit} or higher`);
  expect(dpa).toContain(`at rest using ${encryptionAtRest} or an equivalent algorithm`);
  expect(dpa).toContain(`no later than ${incidentNoticeHours} hours after becoming aware of it`);
  const deletion = `within ${SECURITY_FACTS.backupDeletionDays} days after`;
  expect(dpa).toContain(deletion);
  expect(fullText(PRIVACY_POLICY)).toContain(
    `in transit using ${encryptionInTransit} and at rest using ${encryptionAtRest}`,
  );
  expect(fullText(PRIVACY_POLICY)).toContain(
    `export your data for ${SECURITY_FACTS.exportWindowDays} days`,
  );
  expect(fullText(TERMS_OF_SERVICE)).toContain(deletion);
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
