/**
 * A broadcast: /admin/broadcasts/new before its first save, /admin/broadcasts/:id after (both
 * registered in src/routes.ts with this module). The composer's form saves the draft first for
 * every button; on the new page the first save makes the broadcast, and the same form is sent on to
 * its own page with a 307 (the browser and React Router both post it again there), which saves it
 * again, unchanged, and does what was pressed. So a reload never makes a second draft, and what the
 * button did is answered on the broadcast's own page.
 */
import { data, redirect } from "react-router";
import {
  BroadcastView,
  DRAFT_INTENTS,
  type BroadcastReply,
  type DraftField,
  type DraftValues,
} from "#src/features/mail-admin/broadcast-view.tsx";
import { formatDateTime } from "#src/lib/date-time.ts";
import { formText } from "#src/lib/form-text.ts";
import { requireAdmin } from "#src/lib/guards.ts";
import { failure, refusal } from "#src/lib/http-errors.ts";
import type { MailActor, MailRefusal } from "#src/lib/mail-ports.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/admin-broadcast";
import { loadContext, type LoadContext } from "#src/load-context.ts";

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.params.id === undefined ? "New broadcast" : "Broadcast",
    description: "A broadcast to the list: its draft, or how its sending goes. For administrators.",
    noindex: true,
  });

const UNAVAILABLE = "Broadcasts are unavailable for a moment. Please try again in a minute.";
const NO_SUCH = "There is no such broadcast.";

/** The broadcast's id from the address; null on the new page, 0 when it names none. */
function idOf(params: { id?: string }): number | null {
  if (params.id === undefined) return null;
  return /^[1-9]\d{0,14}$/.test(params.id) ? Number(params.id) : 0;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not see the broadcasts.");
  const id = idOf(params);
  if (id === 0) throw refusal(404, NO_SUCH);
  // The saved audiences a draft may aim at (decision 044).
  const audiences = await server.waitlist.audiences.names().catch(() => {
    throw failure(server, UNAVAILABLE);
  });
  const page = { adminEmail: admin.email, stepUpUntil: admin.stepUpUntil, audiences };
  if (id === null) return { ...page, broadcast: null, reach: null, progress: null };
  const found = await server.mail.broadcasts.get(id).catch(() => {
    throw failure(server, UNAVAILABLE);
  });
  if (!found) throw refusal(404, NO_SUCH);
  const { mail } = server;
  try {
    // Who it goes to, counted now from what is saved: before it starts, while it is a draft or
    // waits for its time. Once it started, its own figures.
    const counted =
      (found.status === "draft" || found.status === "scheduled") &&
      found.audience.states.length > 0;
    const [reach, progress] = await Promise.all([
      counted ? mail.broadcasts.count(found.kind, found.audience) : null,
      found.startedAt !== null ? mail.broadcasts.progress(id) : null,
    ]);
    return { ...page, broadcast: found, reach, progress };
  } catch {
    throw failure(server, UNAVAILABLE);
  }
}

/** The composer's fields as sent. */
function valuesOf(form: FormData): DraftValues {
  return {
    kind: formText(form, "kind"),
    subject: formText(form, "subject"),
    body: formText(form, "body"),
    states: form.getAll("states").filter((s): s is string => typeof s === "string"),
    search: formText(form, "search"),
    audience: formText(form, "audience"),
    at: formText(form, "at"),
  };
}

/**
 * The saved audience the composer's list names, as it is now: undefined for none, null when the
 * choice names no audience there is.
 */
async function savedAudience(server: LoadContext, choice: string) {
  if (choice === "") return undefined;
  if (!/^[1-9]\d{0,14}$/.test(choice)) return null;
  const found = await server.waitlist.audiences.get(Number(choice));
  return found ? { id: Number(choice), ...found } : null;
}

/** "2026-12-01T09:30" typed as UTC; null when it is not a time. */
function utcTime(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return null;
  const at = new Date(`${value}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

const FIELDS: readonly DraftField[] = ["kind", "subject", "body", "audience", "at"];
const fieldOf = (field: string | undefined) => FIELDS.find((f) => f === field);

/** A refusal as the page shows it: at its field, with what was typed when it is about a draft. */
function refused(result: MailRefusal, status: number, values?: DraftValues) {
  const field = fieldOf(result.field);
  return data<BroadcastReply>(
    {
      ok: false,
      message: result.message,
      ...(field ? { field } : {}),
      ...(values ? { values } : {}),
    },
    { status },
  );
}

const done = (message: string, extra: Partial<Extract<BroadcastReply, { ok: true }>> = {}) =>
  data<BroadcastReply>({ ok: true, message, ...extra });

/** Sending needs a passkey within the last 15 minutes (decision 039); the sentence that says so. */
const stepUpNeeded = (what: string, button: string) =>
  data<BroadcastReply>(
    {
      ok: false,
      message: `Confirm it's you: ${what} needs your passkey within the last 15 minutes. Press ${button} again to use it.`,
    },
    { status: 401 },
  );

export async function action({ request, params, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not send broadcasts.");
  const id = idOf(params);
  if (id === 0) throw refusal(404, NO_SUCH);
  const form = await request.formData();
  const intent = formText(form, "intent");
  const actor: MailActor = { adminEmail: admin.email, clientAddress: server.clientAddress };
  const { broadcasts } = server.mail;
  try {
    if (intent === "pause" || intent === "resume" || intent === "cancel") {
      if (id === null) return refused({ ok: false, message: NO_SUCH }, 404);
      const result = await broadcasts[intent](id, actor);
      if (!result.ok) return refused(result, 409);
      return done(
        intent === "pause"
          ? "Paused: no more mails are handed over until you resume."
          : intent === "resume"
            ? "Sending goes on."
            : "Cancelled: nobody else gets it.",
      );
    }
    const draftIntent = DRAFT_INTENTS.find((i) => i === intent);
    if (!draftIntent) return refused({ ok: false, message: "Choose what to do with it." }, 400);
    const values = valuesOf(form);

    // Pressed again once it started (a second press, a reload): the service says it did nothing.
    const current = id === null ? null : await broadcasts.get(id);
    if (id !== null && !current) return refused({ ok: false, message: NO_SUCH }, 404);
    const started = current !== null && current.status !== "draft";
    if (started && (draftIntent === "send" || draftIntent === "schedule")) {
      const again = await broadcasts.start(current.id, actor);
      return again.ok ? done("Sending has started.") : refused(again, 409);
    }

    const aimedAt = await savedAudience(server, values.audience);
    if (aimedAt === null)
      return refused(
        { ok: false, field: "audience", message: "That saved audience is no longer there." },
        422,
        values,
      );
    const saved = await broadcasts.save(
      id,
      {
        kind: values.kind,
        subject: values.subject,
        body: values.body,
        audience: { states: values.states, search: values.search, saved: aimedAt ?? null },
      },
      actor,
    );
    if (!saved.ok) return refused(saved, saved.field ? 422 : 409, values);
    // A new broadcast: its own page does the rest, with the same form (see the top of this file).
    if (id === null) return redirect(`/admin/broadcasts/${saved.id}`, 307);

    switch (draftIntent) {
      case "save":
        return done("Draft saved.");
      case "preview": {
        const preview = broadcasts.preview(values);
        if (!preview.ok) return refused(preview, 422, values);
        return done("Draft saved. The preview is below the form.", {
          preview: {
            subject: preview.subject,
            // Its own document, so the mail's inline styles apply (decision 042); a new address
            // for every press, so the frame loads again.
            src: `/admin/broadcasts/${id}/preview?at=${Date.now().toString(36)}`,
            text: preview.text,
          },
        });
      }
      case "test": {
        const sent = await broadcasts.testSend(id, actor);
        if (!sent.ok) return refused(sent, 409);
        return done(
          `Draft saved. A test is on its way to ${admin.email}, its subject marked [Test].`,
        );
      }
      case "send": {
        if (!admin.stepUpUntil) return stepUpNeeded("sending a broadcast", "Send now");
        const begun = await broadcasts.start(id, actor);
        if (!begun.ok) return refused(begun, begun.field ? 422 : 409, values);
        return done(
          begun.recipients === undefined
            ? "Sending has started."
            : `Sending has started to ${begun.recipients.toLocaleString("en-US")} ${begun.recipients === 1 ? "recipient" : "recipients"}.`,
        );
      }
      case "schedule": {
        if (!admin.stepUpUntil) return stepUpNeeded("scheduling a broadcast", "Schedule");
        const at = utcTime(values.at);
        if (!at)
          return refused(
            {
              ok: false,
              field: "at",
              message: "Enter when to send it, as a date and a time in UTC.",
            },
            422,
            values,
          );
        const scheduled = await broadcasts.start(id, actor, at);
        if (!scheduled.ok) return refused(scheduled, scheduled.field ? 422 : 409, values);
        return done(`Scheduled: it sends at ${formatDateTime(at.toISOString())} (UTC).`);
      }
    }
  } catch {
    throw failure(server, UNAVAILABLE);
  }
}

export default function AdminBroadcast({ loaderData, actionData }: Route.ComponentProps) {
  return <BroadcastView {...loaderData} reply={actionData} />;
}
