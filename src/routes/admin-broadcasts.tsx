import { BroadcastsListView } from "#src/features/mail-admin/broadcast-view.tsx";
import { requireAdmin } from "#src/lib/guards.ts";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/admin-broadcasts";
import { loadContext } from "#src/load-context.ts";

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Broadcasts",
    description: "The broadcasts to the list, drafts and sent, for administrators.",
    noindex: true,
  });

export async function loader({ context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  await requireAdmin(server, "This account may not see the broadcasts.");
  try {
    return { broadcasts: await server.mail.broadcasts.list() };
  } catch {
    throw failure(server, "Broadcasts are unavailable for a moment. Please try again in a minute.");
  }
}

export default function AdminBroadcasts({ loaderData }: Route.ComponentProps) {
  return <BroadcastsListView broadcasts={loaderData.broadcasts} />;
}
