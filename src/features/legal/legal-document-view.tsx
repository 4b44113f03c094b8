import type { ReactNode } from "react";
import type { LegalDocument, LegalSection } from "#src/content/legal-types.ts";
import {
  LegalBlocks,
  LegalSectionView,
  TableOfContents,
} from "#src/features/legal/legal-blocks.tsx";
import { Container } from "#src/ui/container.tsx";

/**
 * The layout every legal page shares: title, effective line, a table of contents and the sections
 * with linkable anchors. `intro` and `after` let the DPA add its parties line, download button and
 * signature page without a second layout.
 */
export function LegalDocumentView({
  document,
  eyebrow = "Legal",
  extraSections = [],
  intro,
  after,
}: {
  document: LegalDocument;
  /** The small line above the title. */
  eyebrow?: string;
  extraSections?: readonly LegalSection[];
  intro?: ReactNode;
  after?: ReactNode;
}) {
  const toc = [...document.sections, ...extraSections];
  return (
    <Container className="py-12 sm:py-16">
      <header className="max-w-3xl border-b border-rule pb-8">
        <p className="text-sm font-semibold tracking-[0.14em] text-ledger uppercase">{eyebrow}</p>
        <h1 className="mt-3 font-serif text-4xl font-semibold tracking-tight sm:text-5xl">
          {document.title}
        </h1>
        <p className="mt-4 text-ink-soft">{document.effectiveLine}</p>
        {intro}
      </header>
      <div className="mt-10 grid grid-cols-[minmax(0,1fr)] gap-10 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-14">
        <aside>
          <TableOfContents sections={toc} />
        </aside>
        <article className="max-w-3xl min-w-0 space-y-12 leading-relaxed text-ink/90">
          {document.preamble.length > 0 ? (
            <div className="space-y-4">
              <LegalBlocks blocks={document.preamble} />
            </div>
          ) : null}
          {document.sections.map((section) => (
            <LegalSectionView key={section.id} section={section} />
          ))}
          {after}
        </article>
      </div>
    </Container>
  );
}
