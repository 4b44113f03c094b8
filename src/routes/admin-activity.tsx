import { ActivityView } from "#src/features/waitlist/activity-view.tsx";
import { requireAdmin } from "#src/lib/guards.ts";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/admin-activity";
import { loadContext } from "#src/load-context.ts";

/** Rows per page, newest first; older pages by the id of the last row shown. */
const PAGE_SIZE = 100;

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Activity",
    description: "What administrators did on the waitlist, for administrators.",
    noindex: true,
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  await requireAdmin(server, "This account may not see the activity.");
  const asked = new URL(request.url).searchParams.get("before") ?? "";
  const before = /^\d{1,15}$/.test(asked) ? Number(asked) : null;
  try {
    return {
      page: await server.activity.page({ before, limit: PAGE_SIZE }),
      paged: before !== null,
    };
  } catch {
    throw failure(
      server,
      "The activity is unavailable for a moment. Please try again in a minute.",
    );
  }
}

export default function AdminActivity({ loaderData }: Route.ComponentProps) {
  return <ActivityView {...loaderData} />;
}
