import { redirect } from "react-router";
import { VerifyView } from "#src/features/auth/verify-view.tsx";
import { safeNext } from "#src/lib/admin-verify.ts";
import { failure, refusal } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/admin-verify";
import { loadContext } from "#src/load-context.ts";

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Verify It's You",
    description: "Administrators confirm their sign-in with a passkey before the admin opens.",
    noindex: true,
  });

/**
 * The one admin page a signed-in administrator reaches before a passkey verified the session
 * (decision 039); every other admin page sends them here.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  const state = await server.adminVerify.state();
  if (state.kind === "signed-out") throw redirect("/login");
  if (state.kind === "forbidden") throw refusal(403, state.message);
  if (state.kind === "unavailable")
    throw failure(
      server,
      "Sign-in checks are unavailable for a moment. Please try again in a minute.",
    );
  const url = new URL(request.url);
  const confirm = url.searchParams.get("confirm");
  return {
    state,
    next: safeNext(url.searchParams.get("next")),
    confirm: confirm === "export" ? confirm : null,
  };
}

export default function AdminVerify({ loaderData }: Route.ComponentProps) {
  return <VerifyView {...loaderData} />;
}
