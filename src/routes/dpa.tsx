import type { Route } from "./+types/dpa";
import { IN_SITEMAP } from "#src/lib/route-handle.ts";
import { DPA } from "#src/content/dpa.ts";
import { SITE } from "#src/content/site.ts";
import { DownloadDpaButton } from "#src/features/legal/dpa/download-dpa-button.tsx";
import { DpaView } from "#src/features/legal/dpa/dpa-view.tsx";
import { pageMeta } from "#src/lib/meta.ts";

export const handle = IN_SITEMAP;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Data Processing Addendum",
    description: `${SITE.name}'s data processing addendum: ${SITE.legalEntity} as processor, the customer as controller, security measures, sub-processors, transfers and Annex A.`,
  });

export default function Dpa() {
  return <DpaView dpa={DPA} actions={<DownloadDpaButton dpa={DPA} />} />;
}
