/**
 * The shape of every legal text on the site. One document model, rendered by the page views and,
 * for the DPA, by the .docx builder as well. Text is plain: no markup, no HTML.
 */
export type LegalBlock =
  /** A plain paragraph. */
  | { kind: "paragraph"; text: string; link?: InlineLink }
  /** A numbered clause such as "4.2", with an optional lead-in in bold and an optional list. */
  | {
      kind: "clause";
      number: string;
      heading?: string;
      text: string;
      items?: readonly string[];
      link?: InlineLink;
    }
  /** A bulleted list. */
  | { kind: "list"; items: readonly string[] }
  /** A defined term and its meaning. */
  | { kind: "definition"; term: string; text: string }
  /** A simple table with a header row. */
  | { kind: "table"; header: readonly string[]; rows: readonly (readonly string[])[] };

/**
 * Words of a block's text that link somewhere: a page of the site by its path ("/subprocessors",
 * "/dpa#security-incidents"), which the .docx writes as an absolute address, or a `mailto:`.
 * The words must occur in the text (src/content/legal-content.test.ts checks it).
 */
export type InlineLink = { words: string; href: string };

export type LegalSection = {
  /** Stable anchor id, kebab-case, unique in the document (used for #links and the table of contents). */
  id: string;
  /** Section number as shown, e.g. "4"; omitted for unnumbered sections. */
  number?: string;
  title: string;
  blocks: readonly LegalBlock[];
};

export type LegalDocument = {
  title: string;
  /** Shown under the title, e.g. "Effective June 1, 2025". */
  effectiveLine: string;
  /** Paragraphs before the first section. */
  preamble: readonly LegalBlock[];
  sections: readonly LegalSection[];
};

/** The data processing addendum: a legal document plus the parts only an agreement has. */
export type DpaDocument = LegalDocument & {
  /** One sentence naming the parties: the provider as Processor, the customer as Controller. */
  partiesLine: string;
  /** Effective date wording, e.g. "the date of execution by both parties". */
  effectiveDate: string;
  /** The signature page: a lead-in sentence and one signature block per party. */
  signature: {
    title: string;
    intro: string;
    parties: readonly {
      role: "Controller" | "Processor";
      party: string;
      fields: readonly string[];
    }[];
  };
  /** Annexes after the signature page (Annex A: details of processing and security measures). */
  annexes: readonly LegalSection[];
};
