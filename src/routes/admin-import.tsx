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

/** The upload form; `?refused=` is why the last file was refused (the upload's redirect says). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  await requireAdmin(server, "This account may not import.");
  const refused = new URL(request.url).searchParams.get("refused");
  let recent;
  try {
    recent = await server.imports.recent();
  } catch {
    throw failure(server, "Imports are unavailable for a moment. Please try again in a minute.");
  }
  return { refused: refused ? refused.slice(0, 400) : null, recent };
}

export default function AdminImport({ loaderData }: Route.ComponentProps) {
  return <ImportUploadView refused={loaderData.refused} recent={loaderData.recent} />;
}
