import { redirect } from "react-router";
import { requireUser } from "#src/lib/guards.ts";
import { failure } from "#src/lib/http-errors.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/account-data";
import { loadContext } from "#src/load-context.ts";

/** "Download my data" (decision 029): a resource route, only a POST from the account page. */
export const handle = SIGNED_IN_ONLY;

/** Opened as an address (a reload, a bookmark): the account page, whose button downloads. */
export function loader() {
  return redirect("/account");
}

export async function action({ context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const user = await requireUser(server);
  const held = await server.account.exportData(user.uid).catch(() => undefined);
  if (held === undefined)
    throw failure(server, "Your data is unavailable for a moment. Please try again in a minute.");
  if (held === null) throw failure(server, "This account no longer exists.", { status: 410 });
  const day = held.exportedAt.slice(0, 10);
  return new Response(`${JSON.stringify(held, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="tieout-my-data-${day}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
