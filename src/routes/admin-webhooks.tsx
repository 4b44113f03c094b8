import { data } from "react-router";
import { WebhooksView, type WebhookReply } from "#src/features/webhooks/webhooks-view.tsx";
import { formText } from "#src/lib/form-text.ts";
import { requireAdmin } from "#src/lib/guards.ts";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/admin-webhooks";
import { loadContext } from "#src/load-context.ts";

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Webhooks",
    description: "The endpoints that hear of the waitlist's changes, for administrators.",
    noindex: true,
  });

const UNAVAILABLE = "The webhooks are unavailable for a moment. Please try again in a minute.";

export async function loader({ context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not see the webhooks.");
  try {
    return {
      endpoints: await server.webhooks.list(),
      stepUpUntil: admin.stepUpUntil,
      allowPrivate: server.webhooks.allowsPrivate,
    };
  } catch {
    throw failure(server, UNAVAILABLE);
  }
}

/** "Add endpoint": checked, then saved with its Activity row; the secret comes back once. */
export async function action({ request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not change the webhooks.");
  const form = await request.formData();
  const values = {
    url: formText(form, "url"),
    description: formText(form, "description"),
    events: form.getAll("events").filter((v): v is string => typeof v === "string"),
  };
  if (!admin.stepUpUntil)
    return data<WebhookReply>(
      {
        ok: false,
        message:
          "Confirm it's you: adding an endpoint needs your passkey within the last 15 minutes. Press Add endpoint again to use it.",
        values,
      },
      { status: 401 },
    );
  try {
    const result = await server.webhooks.add(values, {
      adminEmail: admin.email,
      clientAddress: server.clientAddress,
    });
    if (!result.ok) return data<WebhookReply>({ ...result, values }, { status: 422 });
    return data<WebhookReply>(result);
  } catch {
    throw failure(server, UNAVAILABLE);
  }
}

export default function AdminWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  return <WebhooksView {...loaderData} reply={actionData} />;
}
