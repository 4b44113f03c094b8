import type { Route } from "./+types/security";
import { SECURITY_PAGE } from "#src/content/security.ts";
import { SITE } from "#src/content/site.ts";
import { LegalDocumentView } from "#src/features/legal/legal-document-view.tsx";
import { IN_SITEMAP } from "#src/lib/route-handle.ts";
import { pageMeta } from "#src/lib/meta.ts";

export const handle = IN_SITEMAP;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Security",
    description: `How ${SITE.name} protects firm and client data: encryption, where data lives, no training on your content, access and logging, incident notice, deletion, WISP and §7216 notes, and how to report a vulnerability.`,
  });

export default function Security() {
  return <LegalDocumentView document={SECURITY_PAGE} eyebrow="Trust" />;
}
