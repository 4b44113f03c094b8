import type { Route } from "./+types/privacy-policy";
import { DOCUMENT_IN_SITEMAP } from "#src/lib/route-handle.ts";
import { PRIVACY_POLICY } from "#src/content/privacy-policy.ts";
import { SITE } from "#src/content/site.ts";
import { LegalDocumentView } from "#src/features/legal/legal-document-view.tsx";
import { pageMeta } from "#src/lib/meta.ts";

export const handle = DOCUMENT_IN_SITEMAP;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Privacy Policy",
    description: `What ${SITE.name} collects (account data, customer content, usage data), why, who processes it, how long it is kept and your rights.`,
  });

export default function PrivacyPolicy() {
  return <LegalDocumentView document={PRIVACY_POLICY} />;
}
