import { ImportUploadView } from "#src/features/import/import-view.tsx";
import { requireAdmin } from "#src/lib/guards.ts";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/admin-import";
import { loadContext } from "#src/load-context.ts";

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Import",
    description: "Import a sheet of people into the waitlist, for administrators.",
    noindex: true,
  });

/** The upload form; `?refused=` names the refusal of the last file (the upload's redirect says). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not import.");
  const refusalId = new URL(request.url).searchParams.get("refused");
  try {
    return {
      refused: refusalId ? await server.imports.refusal(refusalId, admin.email) : null,
      recent: await server.imports.recent(),
    };
  } catch {
    throw failure(server, "Imports are unavailable for a moment. Please try again in a minute.");
  }
}

export default function AdminImport({ loaderData }: Route.ComponentProps) {
  return <ImportUploadView refused={loaderData.refused} recent={loaderData.recent} />;
}
