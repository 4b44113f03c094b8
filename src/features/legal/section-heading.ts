import type { LegalSection } from "#src/content/legal-types.ts";

/** "4. Processor Obligations" or "Annex A: Details…": the same words on the page and in Word. */
export function sectionHeading(section: Pick<LegalSection, "number" | "title">): string {
  if (!section.number) return section.title;
  return /^\d+$/.test(section.number)
    ? `${section.number}. ${section.title}`
    : `${section.number}: ${section.title}`;
}
