import type { Route } from "./+types/terms-of-service";
import { DOCUMENT_IN_SITEMAP } from "#src/lib/route-handle.ts";
import { SITE } from "#src/content/site.ts";
import { TERMS_OF_SERVICE } from "#src/content/terms-of-service.ts";
import { LegalDocumentView } from "#src/features/legal/legal-document-view.tsx";
import { pageMeta } from "#src/lib/meta.ts";

export const handle = DOCUMENT_IN_SITEMAP;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Terms of Service",
    description: `The terms for using ${SITE.name}: accounts, free trials, subscriptions, cancellation, suspension and your responsibilities for AI output.`,
  });

export default function TermsOfService() {
  return <LegalDocumentView document={TERMS_OF_SERVICE} />;
}
