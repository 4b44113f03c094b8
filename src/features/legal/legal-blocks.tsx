import { Link } from "react-router";
import type { InlineLink, LegalBlock, LegalSection } from "#src/content/legal-types.ts";
import { sectionHeading } from "#src/features/legal/section-heading.ts";

const LINK_CLASS = "font-semibold text-ledger-dark underline underline-offset-4";

/** A block's text with its link's words made a link: a page of the site, or a mailto:. */
function LinkedText({ text, link }: { text: string; link?: InlineLink }) {
  const at = link ? text.indexOf(link.words) : -1;
  if (!link || at === -1) return <>{text}</>;
  const words = link.href.startsWith("/") ? (
    <Link to={link.href} className={LINK_CLASS}>
      {link.words}
    </Link>
  ) : (
    <a href={link.href} className={LINK_CLASS}>
      {link.words}
    </a>
  );
  return (
    <>
      {text.slice(0, at)}
      {words}
      {text.slice(at + link.words.length)}
    </>
  );
}

export function LegalBlocks({ blocks }: { blocks: readonly LegalBlock[] }) {
  return (
    <>
      {blocks.map((block, i) => (
        <LegalBlockView key={i} block={block} />
      ))}
    </>
  );
}

function LegalBlockView({ block }: { block: LegalBlock }) {
  switch (block.kind) {
    case "paragraph":
      return (
        <p>
          <LinkedText text={block.text} link={block.link} />
        </p>
      );
    case "clause":
      return (
        // Styled by its one class in app.css, not per part: see the note there.
        <div className="legal-clause">
          <span>{block.number}</span>
          <div>
            <p>
              {block.heading ? <strong>{block.heading}. </strong> : null}
              <LinkedText text={block.text} link={block.link} />
            </p>
            {block.items ? <BulletList items={block.items} /> : null}
          </div>
        </div>
      );
    case "list":
      return <BulletList items={block.items} />;
    case "definition":
      return (
        <p>
          <strong className="font-semibold text-ink">“{block.term}”</strong> {block.text}
        </p>
      );
    case "table":
      return (
        // Narrow screens scroll the table sideways; the region is focusable so keyboards can too.
        <div
          role="region"
          aria-label={`Table: ${block.header.join(", ")}`}
          tabIndex={0}
          className="overflow-x-auto rounded-lg border border-rule"
        >
          <table className="w-full min-w-[32rem] border-collapse text-left text-[0.95rem]">
            <thead className="bg-ledger-soft text-ink">
              <tr>
                {block.header.map((h) => (
                  <th key={h} scope="col" className="px-4 py-2.5 font-semibold">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r} className="border-t border-rule align-top">
                  {row.map((cell, c) =>
                    c === 0 ? (
                      <th key={c} scope="row" className="px-4 py-2.5 font-semibold text-ink">
                        {cell}
                      </th>
                    ) : (
                      <td key={c} className="px-4 py-2.5">
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

function BulletList({ items }: { items: readonly string[] }) {
  return (
    <ul className="list-disc space-y-1.5 pl-5 marker:text-ledger">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

/** Laid out only when scrolled near, so long documents paint at once (src/app.css). */
export function LegalSectionView({ section }: { section: LegalSection }) {
  return (
    <section aria-labelledby={section.id} className="legal-section render-when-near">
      {/* Styled by the section's one class in app.css, like the clause. */}
      <h2 id={section.id}>
        {sectionHeading(section)}
        <a href={`#${section.id}`} aria-label={`Link to section ${sectionHeading(section)}`}>
          #
        </a>
      </h2>
      <div>
        <LegalBlocks blocks={section.blocks} />
      </div>
    </section>
  );
}

export function TableOfContents({ sections }: { sections: readonly LegalSection[] }) {
  return (
    <nav
      aria-labelledby="toc-title"
      className="rounded-xl border border-rule bg-card p-5 lg:sticky lg:top-24 lg:max-h-[calc(100dvh-7rem)] lg:overflow-y-auto"
    >
      <h2
        id="toc-title"
        className="text-xs font-semibold tracking-[0.14em] text-ink-soft uppercase"
      >
        Contents
      </h2>
      <ol className="mt-3 legal-contents space-y-0.5 text-[0.92rem]">
        {sections.map((s) => (
          <li key={s.id}>
            <a href={`#${s.id}`}>{sectionHeading(s)}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
