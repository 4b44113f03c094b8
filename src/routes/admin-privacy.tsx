import { data } from "react-router";
import { AdminPrivacyView, type CompleteReply } from "#src/features/privacy/admin-privacy-view.tsx";
import { formText } from "#src/lib/form-text.ts";
import { requireAdmin } from "#src/lib/guards.ts";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/admin-privacy";
import { loadContext } from "#src/load-context.ts";

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Privacy requests",
    description: "Privacy requests to answer, with their deadlines, for administrators.",
    noindex: true,
  });

const UNAVAILABLE = "Privacy requests are unavailable for a moment. Please try again in a minute.";

export async function loader({ context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not see privacy requests.");
  try {
    return {
      overview: await server.privacyRequests.overview(),
      now: Date.now(),
      stepUpUntil: admin.stepUpUntil,
    };
  } catch {
    throw failure(server, UNAVAILABLE);
  }
}

/** "Mark request N done" on a correction: the note is mailed to the requester. */
export async function action({ request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not answer privacy requests.");
  const form = await request.formData();
  const asked = formText(form, "id");
  const id = /^[1-9]\d{0,14}$/.test(asked) ? Number(asked) : 0;
  if (id === 0)
    return data<CompleteReply>({ ok: false, message: "No such request." }, { status: 400 });
  // Completing a request needs a passkey within the last 15 minutes (decision 039).
  if (!admin.stepUpUntil)
    return data<CompleteReply>(
      {
        ok: false,
        message: `Confirm it's you: completing request ${id} needs your passkey within the last 15 minutes. Press the button again to use it.`,
      },
      { status: 401 },
    );
  const result = await server.privacyRequests.complete(id, formText(form, "note"), {
    adminEmail: admin.email,
    clientAddress: server.clientAddress,
    requestId: server.requestId,
  });
  switch (result.kind) {
    case "completed":
      return data<CompleteReply>({
        ok: true,
        message: `Request ${id} is answered; the requester is mailed what was done.`,
      });
    case "invalid":
      return data<CompleteReply>({ ok: false, message: result.message }, { status: 400 });
    case "not-open":
      return data<CompleteReply>(
        { ok: false, message: `Request ${id} is not an open correction request: nothing changed.` },
        { status: 409 },
      );
    case "unavailable":
      throw failure(server, UNAVAILABLE);
  }
}

export default function AdminPrivacy({ loaderData, actionData }: Route.ComponentProps) {
  return <AdminPrivacyView {...loaderData} reply={actionData} />;
}
