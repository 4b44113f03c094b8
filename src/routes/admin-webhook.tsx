import { data, redirect } from "react-router";
import { WebhookEndpointPage, type WebhookReply } from "#src/features/webhooks/webhooks-view.tsx";
import { formText } from "#src/lib/form-text.ts";
import { requireAdmin } from "#src/lib/guards.ts";
import { failure, refusal } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { EndpointIntent } from "#src/lib/webhooks.ts";
import type { Route } from "./+types/admin-webhook";
import { loadContext } from "#src/load-context.ts";

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Webhook endpoint",
    description: "A webhook endpoint, its actions and its delivery log, for administrators.",
    noindex: true,
  });

const UNAVAILABLE = "The webhooks are unavailable for a moment. Please try again in a minute.";

const NO_SUCH = "There is no such webhook endpoint: it may have been removed.";

const INTENTS: readonly EndpointIntent[] = ["test", "rotate", "disable", "enable", "remove"];

/** The endpoint's number as the address spells it: digits only, no leading zero. */
function idOf(param: string | undefined): number | null {
  return param && /^[1-9]\d{0,14}$/.test(param) ? Number(param) : null;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not see the webhooks.");
  const id = idOf(params.id);
  if (id === null) throw refusal(404, NO_SUCH);
  let found;
  try {
    found = await server.webhooks.get(id);
  } catch {
    throw failure(server, UNAVAILABLE);
  }
  if (!found) throw refusal(404, NO_SUCH);
  return { ...found, stepUpUntil: admin.stepUpUntil };
}

/** One of the endpoint's buttons; rotating and removing need a fresh passkey step-up. */
export async function action({ params, request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not change the webhooks.");
  const id = idOf(params.id);
  if (id === null) throw refusal(404, NO_SUCH);
  const form = await request.formData();
  const intent = INTENTS.find((i) => i === formText(form, "intent"));
  if (!intent)
    return data<WebhookReply>({ ok: false, message: "Press one of the buttons." }, { status: 422 });
  if ((intent === "rotate" || intent === "remove") && !admin.stepUpUntil)
    return data<WebhookReply>(
      {
        ok: false,
        message: `Confirm it's you: ${intent === "rotate" ? "rotating the secret" : "removing the endpoint"} needs your passkey within the last 15 minutes. Press the button again to use it.`,
      },
      { status: 401 },
    );
  let result;
  try {
    result = await server.webhooks.act(id, intent, {
      adminEmail: admin.email,
      clientAddress: server.clientAddress,
    });
  } catch {
    throw failure(server, UNAVAILABLE);
  }
  // The page is gone with it: back to the list, which no longer shows it.
  if (result.ok && intent === "remove") return redirect("/admin/webhooks", 303);
  return data<WebhookReply>(result, { status: result.ok ? 200 : 409 });
}

export default function AdminWebhook({ loaderData, actionData }: Route.ComponentProps) {
  return <WebhookEndpointPage {...loaderData} reply={actionData} />;
}
