import type { ReactNode } from "react";
import type { DpaDocument, LegalSection } from "#src/content/legal-types.ts";
import { LegalSectionView } from "#src/features/legal/legal-blocks.tsx";
import { LegalDocumentView } from "#src/features/legal/legal-document-view.tsx";

const SIGNATURE_ANCHOR = "signature-page";

/** The /dpa page: the whole agreement from the single DPA content module. */
export function DpaView({ dpa, actions }: { dpa: DpaDocument; actions?: ReactNode }) {
  const signatureEntry: LegalSection = {
    id: SIGNATURE_ANCHOR,
    title: dpa.signature.title,
    blocks: [],
  };
  return (
    <LegalDocumentView
      document={dpa}
      extraSections={[signatureEntry, ...dpa.annexes]}
      intro={
        <>
          <p className="mt-5 max-w-2xl leading-relaxed">{dpa.partiesLine}</p>
          <p className="mt-3 text-ink-soft">
            <span className="font-semibold text-ink">Effective date:</span> {dpa.effectiveDate}
          </p>
          {actions ? <div className="mt-6">{actions}</div> : null}
        </>
      }
      after={
        <>
          <section aria-labelledby={SIGNATURE_ANCHOR} className="scroll-mt-24">
            <h2
              id={SIGNATURE_ANCHOR}
              className="font-serif text-2xl font-semibold tracking-tight text-ink"
            >
              {dpa.signature.title}
            </h2>
            <p className="mt-4">{dpa.signature.intro}</p>
            <div className="mt-6 grid gap-6 sm:grid-cols-2">
              {dpa.signature.parties.map((party) => (
                <div key={party.role} className="rounded-xl border border-rule bg-card p-6">
                  <p className="font-semibold text-ink">{party.party}</p>
                  <p className="text-sm text-ink-soft">as {party.role}</p>
                  <dl className="mt-5 space-y-5">
                    {party.fields.map((field) => (
                      <div key={field} className="border-b border-ink/40 pb-1">
                        <dt className="text-xs tracking-wide text-ink-soft uppercase">{field}</dt>
                        <dd className="h-6">
                          <span className="sr-only">To be completed on execution</span>
                        </dd>
                      </div>
                    ))}
                  </dl>
                </div>
              ))}
            </div>
          </section>
          {dpa.annexes.map((annex) => (
            <LegalSectionView key={annex.id} section={annex} />
          ))}
        </>
      }
    />
  );
}
