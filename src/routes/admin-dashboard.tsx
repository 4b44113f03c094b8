import { DashboardView } from "#src/features/dashboard/dashboard-view.tsx";
import { periodFrom } from "#src/lib/dashboard.ts";
import { requireAdmin } from "#src/lib/guards.ts";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/admin-dashboard";
import { loadContext } from "#src/load-context.ts";

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Dashboard",
    description: "The waitlist's funnel, its sources and the site's mail, for administrators.",
    noindex: true,
  });

export async function loader({ context, request }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  await requireAdmin(server, "This account may not see the dashboard.");
  const days = periodFrom(new URL(request.url).searchParams.get("period"));
  try {
    return await server.dashboard.overview(days);
  } catch {
    throw failure(
      server,
      "The dashboard is unavailable for a moment. Please try again in a minute.",
    );
  }
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  return <DashboardView {...loaderData} />;
}
