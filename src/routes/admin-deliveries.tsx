import { DeliveriesView } from "#src/features/deliveries/deliveries-view.tsx";
import { requireAdmin } from "#src/lib/guards.ts";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/admin-deliveries";
import { loadContext } from "#src/load-context.ts";

/** Rows shown in each table; the counts above them cover every message. */
const SHOWN = { failed: 100, waiting: 100 };

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Deliveries",
    description: "Mail and webhook deliveries, failed and waiting, for administrators.",
    noindex: true,
  });

export async function loader({ context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  await requireAdmin(server, "This account may not see the deliveries.");
  try {
    return await server.deliveries.overview(SHOWN);
  } catch {
    throw failure(
      server,
      "The deliveries are unavailable for a moment. Please try again in a minute.",
    );
  }
}

export default function AdminDeliveries({ loaderData }: Route.ComponentProps) {
  return <DeliveriesView {...loaderData} />;
}
