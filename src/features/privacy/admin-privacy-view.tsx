/**
 * The admin's privacy requests page (decision 030): the requests still to be answered, the
 * nearest deadline first, each with what the administrator needs to answer it. Copies and
 * deletions are carried out by the site as soon as they are confirmed, so one stays here only
 * while a step of it is being retried; a correction stays until an administrator says what was
 * done, which mails the requester and clears the request's personal data.
 */
import { Form, useNavigation } from "react-router";
import { useStepUp } from "#src/lib/use-step-up.ts";
import { formatDateTime } from "#src/lib/date-time.ts";
import type {
  OpenPrivacyRequest,
  PrivacyRequestKind,
  PrivacyRequestsOverview,
} from "#src/lib/privacy-requests.ts";
import { AdminNav } from "#src/ui/admin-nav.tsx";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";
import { CountTiles } from "#src/ui/count-tiles.tsx";
import { TableRegion } from "#src/ui/table-region.tsx";

const KIND: Record<PrivacyRequestKind, string> = {
  access: "Copy of data",
  deletion: "Deletion",
  correction: "Correction",
};

export type CompleteReply = { ok: boolean; message: string };

const DAY_MS = 86_400_000;
const CELL = "px-4 py-3";

/** "12 days left", "due today", "3 days overdue", counted from `now`. */
function deadlineText(dueAt: string, now: number): string {
  const days = Math.floor((Date.parse(dueAt) - now) / DAY_MS);
  if (days < 0) return `${-days} ${-days === 1 ? "day" : "days"} overdue`;
  if (days === 0) return "due within a day";
  return `${days} ${days === 1 ? "day" : "days"} left`;
}

function CompleteForm({
  request,
  stepUpUntil,
}: {
  request: OpenPrivacyRequest;
  stepUpUntil: string | null;
}) {
  const navigation = useNavigation();
  const stepUp = useStepUp(stepUpUntil);
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("id") === String(request.id);
  if (request.kind !== "correction")
    return <p className="text-ink-soft">Carried out by the site; retried every minute.</p>;
  const noteId = `note-${request.id}`;
  return (
    <Form method="post" className="space-y-2" {...stepUp.form()}>
      <input type="hidden" name="id" value={request.id} />
      {stepUp.error ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {stepUp.error}
        </p>
      ) : null}
      <label htmlFor={noteId} className="block text-sm font-semibold">
        What was done (mailed to the requester)
      </label>
      <textarea
        id={noteId}
        name="note"
        required
        maxLength={2000}
        rows={3}
        className="block w-full rounded-md border border-rule bg-white px-3 py-2 text-sm"
      />
      <Button type="submit" size="sm" disabled={busy}>
        {busy ? "Saving..." : `Mark request ${request.id} done`}
      </Button>
    </Form>
  );
}

export function AdminPrivacyView({
  overview,
  now,
  reply,
  stepUpUntil,
}: {
  overview: PrivacyRequestsOverview;
  /** Until when this session's last passkey counts as a step-up (ISO 8601), or null. */
  stepUpUntil: string | null;
  /** When the page was rendered (ms), so the days left read the same on the server and client. */
  now: number;
  reply: CompleteReply | undefined;
}) {
  const overdue = overview.open.filter((r) => Date.parse(r.dueAt) < now).length;
  const done = overview.completedLately;
  return (
    <Container className="py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Privacy requests</h1>
          <p className="mt-2 max-w-2xl text-ink-soft">
            Requests confirmed by their link and not yet answered, the nearest deadline first. The
            deadline is the shortest the Privacy Policy promises, counted from the request.
          </p>
        </div>
        <AdminNav current="/admin/privacy" />
      </div>
      <CountTiles
        label="Privacy requests"
        className="mt-8"
        items={[
          { n: overview.open.length, what: "open" },
          { n: overdue, what: "overdue" },
          { n: overview.unconfirmed, what: "waiting for their link" },
          { n: done.access + done.deletion + done.correction, what: "answered in 30 days" },
        ]}
      />
      <div aria-live="polite" className="mt-6">
        {reply ? (
          <p
            role={reply.ok ? "status" : "alert"}
            className={reply.ok ? "font-medium text-ledger-dark" : "font-medium text-danger"}
          >
            {reply.message}
          </p>
        ) : null}
      </div>
      <h2 className="mt-6 font-serif text-2xl font-semibold tracking-tight">Open requests</h2>
      <TableRegion
        label="Open privacy requests"
        headings={["Request", "Kind", "Requester", "Details", "Deadline (UTC)", "Answer"]}
        empty="No request is waiting for an answer."
        minWidth="min-w-[60rem]"
      >
        {overview.open.map((request) => (
          <tr key={request.id} className="border-t border-rule align-top">
            <td className={`${CELL} tabular-nums`}>{request.id}</td>
            <td className={CELL}>{KIND[request.kind]}</td>
            <td className={`${CELL} min-w-48 [overflow-wrap:anywhere]`}>
              {request.name}
              <br />
              <span className="text-ink-soft">{request.email}</span>
            </td>
            <td className={`${CELL} min-w-48 whitespace-pre-wrap`}>{request.details || "-"}</td>
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>
              {formatDateTime(request.dueAt)}
              <br />
              <span className={Date.parse(request.dueAt) < now ? "font-semibold text-danger" : ""}>
                {deadlineText(request.dueAt, now)}
              </span>
              <br />
              <span className="text-ink-soft">Asked {formatDateTime(request.createdAt)}</span>
            </td>
            <td className={`${CELL} w-72`}>
              <CompleteForm request={request} stepUpUntil={stepUpUntil} />
            </td>
          </tr>
        ))}
      </TableRegion>
    </Container>
  );
}
