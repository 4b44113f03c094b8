import { data } from "react-router";
import {
  SuppressionsView,
  type SuppressionIntent,
  type SuppressionReply,
} from "#src/features/mail-admin/suppressions-view.tsx";
import { formText } from "#src/lib/form-text.ts";
import { requireAdmin } from "#src/lib/guards.ts";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/admin-suppressions";
import { loadContext } from "#src/load-context.ts";

/** Rows shown; the count above the table covers the whole list. */
const SHOWN = 200;
/** Bounce reports shown, those that need a person first; the count of those covers them all. */
const BOUNCES_SHOWN = 100;

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Suppressions",
    description: "The addresses the site's mail stops at, for administrators.",
    noindex: true,
  });

const UNAVAILABLE =
  "The suppression list is unavailable for a moment. Please try again in a minute.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not see the suppression list.");
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 254);
  try {
    const [list, bounces] = await Promise.all([
      server.mail.suppressions.list({ ...(query ? { search: query } : {}), limit: SHOWN }),
      server.mail.bounceReports(BOUNCES_SHOWN),
    ]);
    return {
      ...list,
      query,
      shown: SHOWN,
      bounces: { ...bounces, shown: BOUNCES_SHOWN },
      stepUpUntil: admin.stepUpUntil,
    };
  } catch {
    throw failure(server, UNAVAILABLE);
  }
}

const plural = (n: number) => (n === 1 ? "1 suppression" : `${n} suppressions`);

/** "Suppress" and "Remove from the list": one guard, and a sentence that says what happened. */
export async function action({ request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not change the suppression list.");
  const form = await request.formData();
  const intent: SuppressionIntent = formText(form, "intent") === "remove" ? "remove" : "add";
  const values = { address: formText(form, "address"), detail: formText(form, "detail") };
  // As the list keeps it (server/mail/mail-service.ts), so the sentence names what was changed.
  const address = values.address.trim().toLowerCase();
  const actor = { adminEmail: admin.email, clientAddress: server.clientAddress };
  const refuse = (message: string, status: number, field?: "address" | "detail") =>
    data<SuppressionReply>(
      { ok: false, intent, message, values, ...(field ? { field } : {}) },
      { status },
    );

  if (intent === "remove" && !admin.stepUpUntil)
    // Mail may reach the address again: a passkey within the last 15 minutes (decision 039).
    return refuse(
      "Confirm it's you: removing an address from the suppression list needs your passkey within the last 15 minutes. Press Remove from the list again to use it.",
      401,
    );
  try {
    if (intent === "add") {
      const result = await server.mail.suppressions.add(values, actor);
      if (!result.ok) return refuse(result.message, 422, fieldOf(result.field));
      return data<SuppressionReply>({
        ok: true,
        intent,
        message: result.added
          ? `${address} is suppressed.`
          : `${address} was already suppressed: nothing changed.`,
      });
    }
    const result = await server.mail.suppressions.remove(values, actor);
    if (!result.ok) return refuse(result.message, 422, fieldOf(result.field));
    return data<SuppressionReply>({
      ok: true,
      intent,
      message:
        result.removed === 0
          ? `${address} was not on the list.`
          : `${address} may be mailed again: ${plural(result.removed)} removed.`,
    });
  } catch {
    throw failure(server, UNAVAILABLE);
  }
}

function fieldOf(field: string | undefined): "address" | "detail" | undefined {
  return field === "address" || field === "detail" ? field : undefined;
}

export default function AdminSuppressions({ loaderData, actionData }: Route.ComponentProps) {
  return <SuppressionsView {...loaderData} reply={actionData} />;
}
