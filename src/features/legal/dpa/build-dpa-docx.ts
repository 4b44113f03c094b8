/**
 * The DPA as a Word document, built from the same content module as the /dpa page. Runs in the
 * browser (imported only when 'Download DPA' is pressed) and in Node for the tests.
 * Word's own heading styles carry the structure, so the navigation pane and a table of contents
 * work: Heading 1 (16 pt) for the sections, signature page and annex; Heading 2 (14 pt) inside them.
 */
import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  Footer,
  HeadingLevel,
  LevelFormat,
  PageNumber,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TabStopType,
  TextRun,
  WidthType,
} from "docx";
import type {
  DpaDocument,
  InlineLink,
  LegalBlock,
  LegalSection,
} from "#src/content/legal-types.ts";
import { sectionHeading } from "#src/features/legal/section-heading.ts";

/** Half-points, as Word counts them: 11 pt body, 16 pt and 14 pt headings. */
const DOCX_SIZES = { body: 22, heading1: 32, heading2: 28, title: 40, small: 18 } as const;

const FONT = "Calibri";
const INK = "0F2A24";
const RULE = { style: BorderStyle.SINGLE, size: 4, color: "BFB8A8" } as const;

/**
 * A block's text as runs, its link's words a hyperlink. Word has no notion of the site, so a path
 * becomes the absolute address under SITE_URL.
 */
function linkedRuns(text: string, link: InlineLink | undefined, siteUrl: string) {
  const at = link ? text.indexOf(link.words) : -1;
  if (!link || at === -1) return [new TextRun(text)];
  return [
    new TextRun(text.slice(0, at)),
    new ExternalHyperlink({
      link: link.href.startsWith("/") ? `${siteUrl}${link.href}` : link.href,
      children: [new TextRun({ text: link.words, style: "Hyperlink" })],
    }),
    new TextRun(text.slice(at + link.words.length)),
  ];
}

function clauseParagraph(
  block: Extract<LegalBlock, { kind: "clause" }>,
  siteUrl: string,
): Paragraph {
  return new Paragraph({
    indent: { left: 720, hanging: 720 },
    tabStops: [{ type: TabStopType.LEFT, position: 720 }],
    children: [
      new TextRun({ text: block.number, bold: true }),
      new TextRun({ text: "\t" }),
      ...(block.heading ? [new TextRun({ text: `${block.heading}. `, bold: true })] : []),
      ...linkedRuns(block.text, block.link, siteUrl),
    ],
  });
}

function bullets(items: readonly string[], indented: boolean): Paragraph[] {
  return items.map(
    (item) =>
      new Paragraph({
        numbering: { reference: indented ? "clause-bullets" : "bullets", level: 0 },
        children: [new TextRun(item)],
      }),
  );
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): Table {
  const cell = (text: string, options: { header: boolean; bold: boolean }) =>
    new TableCell({
      shading: options.header ? { fill: "E3EFE8" } : undefined,
      margins: { top: 80, bottom: 80, left: 120, right: 120 },
      children: [
        new Paragraph({
          spacing: { after: 0 },
          children: [new TextRun({ text, bold: options.bold })],
        }),
      ],
    });
  // Two-column tables (measure, description): a narrow first column; otherwise equal columns.
  const total = 9300;
  const columnWidths =
    header.length === 2
      ? [2700, total - 2700]
      : header.map(() => Math.floor(total / header.length));
  return new Table({
    width: { size: total, type: WidthType.DXA },
    columnWidths,
    borders: {
      top: RULE,
      bottom: RULE,
      left: RULE,
      right: RULE,
      insideHorizontal: RULE,
      insideVertical: RULE,
    },
    rows: [
      new TableRow({
        tableHeader: true,
        children: header.map((h) => cell(h, { header: true, bold: true })),
      }),
      ...rows.map(
        (row) =>
          new TableRow({
            cantSplit: true,
            children: row.map((c, i) => cell(c, { header: false, bold: i === 0 })),
          }),
      ),
    ],
  });
}

function blocks(list: readonly LegalBlock[], siteUrl: string): (Paragraph | Table)[] {
  return list.flatMap((block): (Paragraph | Table)[] => {
    switch (block.kind) {
      case "paragraph":
        return [new Paragraph({ children: linkedRuns(block.text, block.link, siteUrl) })];
      case "clause":
        return [clauseParagraph(block, siteUrl), ...bullets(block.items ?? [], true)];
      case "list":
        return bullets(block.items, false);
      case "definition":
        return [
          new Paragraph({
            indent: { left: 720 },
            children: [
              new TextRun({ text: `“${block.term}” `, bold: true }),
              new TextRun(block.text),
            ],
          }),
        ];
      case "table":
        return [table(block.header, block.rows), new Paragraph("")];
    }
  });
}

function section(s: LegalSection, newPage: boolean, siteUrl: string): (Paragraph | Table)[] {
  return [
    new Paragraph({
      heading: HeadingLevel.HEADING_1,
      pageBreakBefore: newPage,
      text: sectionHeading(s),
    }),
    ...blocks(s.blocks, siteUrl),
  ];
}

function signatureTable(dpa: DpaDocument): Table {
  const column = (party: DpaDocument["signature"]["parties"][number]) =>
    new TableCell({
      width: { size: 50, type: WidthType.PERCENTAGE },
      margins: { top: 120, bottom: 120, left: 160, right: 160 },
      children: [
        new Paragraph({ heading: HeadingLevel.HEADING_2, text: party.party }),
        new Paragraph({ children: [new TextRun({ text: `as ${party.role}`, italics: true })] }),
        ...party.fields.flatMap((field) => [
          new Paragraph({
            spacing: { before: 360, after: 0 },
            border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: "000000", space: 1 } },
            children: [],
          }),
          new Paragraph({
            spacing: { after: 0 },
            children: [new TextRun({ text: field, size: DOCX_SIZES.small })],
          }),
        ]),
      ],
    });
  const none = { style: BorderStyle.NONE, size: 0, color: "FFFFFF" } as const;
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    borders: {
      top: none,
      bottom: none,
      left: none,
      right: none,
      insideHorizontal: none,
      insideVertical: none,
    },
    rows: [new TableRow({ cantSplit: true, children: dpa.signature.parties.map(column) })],
  });
}

/** `siteUrl`: the public origin (SITE_URL), for the links in the text. */
export function buildDpaDocument(dpa: DpaDocument, productName: string, siteUrl: string): Document {
  return new Document({
    creator: productName,
    title: `${productName} ${dpa.title}`,
    description: dpa.partiesLine,
    styles: {
      default: {
        document: {
          run: { font: FONT, size: DOCX_SIZES.body, color: "1F2A27" },
          paragraph: { spacing: { after: 140, line: 288 } },
        },
        title: {
          run: { font: FONT, size: DOCX_SIZES.title, bold: true, color: INK },
          paragraph: { spacing: { after: 120 } },
        },
        heading1: {
          run: { font: FONT, size: DOCX_SIZES.heading1, bold: true, color: INK },
          paragraph: { spacing: { before: 360, after: 140 }, keepNext: true, keepLines: true },
        },
        heading2: {
          run: { font: FONT, size: DOCX_SIZES.heading2, bold: true, color: INK },
          paragraph: { spacing: { before: 240, after: 100 }, keepNext: true, keepLines: true },
        },
      },
    },
    numbering: {
      config: [
        {
          reference: "bullets",
          levels: [
            {
              level: 0,
              format: LevelFormat.BULLET,
              text: "•",
              alignment: AlignmentType.LEFT,
              style: { paragraph: { indent: { left: 720, hanging: 360 } } },
            },
          ],
        },
        {
          reference: "clause-bullets",
          levels: [
            {
              level: 0,
              format: LevelFormat.BULLET,
              text: "•",
              alignment: AlignmentType.LEFT,
              style: { paragraph: { indent: { left: 1080, hanging: 360 } } },
            },
          ],
        },
      ],
    },
    sections: [
      {
        properties: { page: { margin: { top: 1440, bottom: 1440, left: 1300, right: 1300 } } },
        footers: {
          default: new Footer({
            children: [
              new Paragraph({
                alignment: AlignmentType.CENTER,
                children: [
                  new TextRun({
                    text: `${productName} ${dpa.title}  ·  Page `,
                    size: DOCX_SIZES.small,
                  }),
                  new TextRun({ children: [PageNumber.CURRENT], size: DOCX_SIZES.small }),
                  new TextRun({ text: " of ", size: DOCX_SIZES.small }),
                  new TextRun({ children: [PageNumber.TOTAL_PAGES], size: DOCX_SIZES.small }),
                ],
              }),
            ],
          }),
        },
        children: [
          new Paragraph({ heading: HeadingLevel.TITLE, text: dpa.title }),
          new Paragraph({ children: [new TextRun({ text: dpa.effectiveLine, italics: true })] }),
          new Paragraph({ heading: HeadingLevel.HEADING_2, text: "Parties" }),
          new Paragraph(dpa.partiesLine),
          new Paragraph({
            children: [
              new TextRun({ text: "Effective date: ", bold: true }),
              new TextRun(dpa.effectiveDate),
            ],
          }),
          ...blocks(dpa.preamble, siteUrl),
          ...dpa.sections.flatMap((s) => section(s, false, siteUrl)),
          new Paragraph({
            heading: HeadingLevel.HEADING_1,
            pageBreakBefore: true,
            text: dpa.signature.title,
          }),
          new Paragraph(dpa.signature.intro),
          signatureTable(dpa),
          ...dpa.annexes.flatMap((annex) => section(annex, true, siteUrl)),
        ],
      },
    ],
  });
}

export function dpaFileName(productName: string): string {
  return `${productName.replace(/[^A-Za-z0-9._-]+/g, "_")}_DPA.docx`;
}
