import { data, type ShouldRevalidateFunction } from "react-router";
import {
  isAudienceAction,
  parseAdminForm,
  parseAudienceForm,
} from "#src/features/waitlist/admin-form.ts";
import { ExportTokensPanel } from "#src/features/auth/export-tokens-panel.tsx";
import { AdminListView, type AdminActionReply } from "#src/features/waitlist/admin-list-view.tsx";
import { summarize } from "#src/features/waitlist/admin-summary.ts";
import { entryFilterOf } from "#src/features/waitlist/entry-filter.ts";
import type { AdminMeta, ListPosition } from "#src/features/waitlist/types.ts";
import { requireAdmin } from "#src/lib/guards.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import { failure } from "#src/lib/http-errors.ts";
import type { Route } from "./+types/admin-waitlist";
import { pageMeta } from "#src/lib/meta.ts";
import { loadContext, type LoadContext } from "#src/load-context.ts";

/** Entries per page; a page is found by keyset (server/waitlist/admin-list.ts). */
const PAGE_SIZE = 50;

export const handle = SIGNED_IN_ONLY;

/**
 * After any press the list is read again, a refused one too (React Router skips that by default
 * after a 4xx): a batch refused because its audience's number moved shows the number it has now.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  defaultShouldRevalidate,
}) => formMethod === "POST" || defaultShouldRevalidate;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Waitlist",
    description: "The waitlist entries, for administrators.",
    noindex: true,
  });

const UNAVAILABLE = "The waitlist is unavailable for a moment. Please try again in a minute.";

/** The list's place from the address: its filter, and the cursor of a page past the first. */
function placeOf(url: URL) {
  const after = url.searchParams.get("after");
  const before = url.searchParams.get("before");
  const position: ListPosition = after ? { after } : before ? { before } : null;
  return { filter: entryFilterOf(url.searchParams), position };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not see the waitlist.");
  const { filter, position } = placeOf(new URL(request.url));
  try {
    const [page, exportTokens, audiences] = await Promise.all([
      server.waitlist.list({ filter, position, limit: PAGE_SIZE }),
      server.adminVerify.exportTokens(),
      server.waitlist.audiences.list(),
    ]);
    return {
      page,
      filter,
      audiences,
      paged: position !== null,
      stepUpUntil: admin.stepUpUntil,
      exportTokens,
      now: Date.now(),
    };
  } catch {
    throw failure(server, UNAVAILABLE);
  }
}

/** Invite, Resend, Decline, Remove, Invite selected: one guard, one form, one answer. */
export async function action({ request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not change the waitlist.");
  const form = await request.formData();
  const meta = {
    adminEmail: admin.email,
    clientAddress: server.clientAddress,
    requestId: server.requestId,
  };
  if (isAudienceAction(form.get("act")))
    return actOnAudience(server, form, meta, admin.stepUpUntil);
  const parsed = parseAdminForm(form);
  if (!parsed.ok)
    return data<AdminActionReply>({ kind: "invalid", message: parsed.message }, { status: 400 });
  // A bulk invitation needs a passkey within the last 15 minutes (decision 039).
  if (parsed.bulk && !admin.stepUpUntil)
    return data<AdminActionReply>(
      {
        kind: "step-up",
        message:
          "Confirm it's you: inviting selected entries needs your passkey within the last 15 minutes. Press Invite selected again to use it.",
      },
      { status: 401 },
    );
  const result = await server.waitlist.act(parsed.request, meta);
  if (result.kind === "unavailable") throw failure(server, UNAVAILABLE);
  return data<AdminActionReply>({ kind: "done", summary: summarize(result.outcomes) });
}

/** Save, delete, or invite a saved audience (decision 044). */
async function actOnAudience(
  server: LoadContext,
  form: FormData,
  meta: AdminMeta,
  stepUpUntil: string | null,
) {
  const parsed = parseAudienceForm(form);
  if (!parsed.ok)
    return data<AdminActionReply>({ kind: "invalid", message: parsed.message }, { status: 400 });
  const { request } = parsed;
  const { audiences } = server.waitlist;
  // An invitation batch needs a passkey within the last 15 minutes, as Invite selected does.
  if (request.kind === "invite" && !stepUpUntil)
    return data<AdminActionReply>(
      {
        kind: "step-up",
        message:
          "Confirm it's you: inviting an audience needs your passkey within the last 15 minutes. Press its Invite button again to use it.",
      },
      { status: 401 },
    );
  let result;
  try {
    result =
      request.kind === "save"
        ? await audiences.save(
            request.name,
            entryFilterOf(new URLSearchParams(request.filter)),
            meta,
          )
        : request.kind === "delete"
          ? await audiences.remove(request.id, meta)
          : await audiences.invite(request.id, request.expected, meta);
  } catch {
    throw failure(server, UNAVAILABLE);
  }
  if ("kind" in result) {
    if (result.kind === "unavailable") throw failure(server, UNAVAILABLE);
    return data<AdminActionReply>({ kind: "done", summary: summarize(result.outcomes) });
  }
  return result.ok
    ? data<AdminActionReply>({ kind: "done", summary: result.message })
    : data<AdminActionReply>({ kind: "invalid", message: result.message }, { status: 409 });
}

export default function AdminWaitlist({ loaderData, actionData }: Route.ComponentProps) {
  const { exportTokens, now, ...list } = loaderData;
  return (
    <AdminListView {...list} reply={actionData}>
      <ExportTokensPanel tokens={exportTokens} now={now} />
    </AdminListView>
  );
}
