/**
 * The admin's Activity page (decision 024): the audit log, newest first, a page at a time. Who did
 * what, to which entry (by number: the log keeps no lead's name or address, and outlives entries
 * that were erased), when, and from which address. Read only: nothing on this page changes a row.
 */
import { Link } from "react-router";
import { loggedOutcome } from "#src/features/waitlist/admin-summary.ts";
import { AUTOMATIC, type ActivityPage, type AuditAction } from "#src/lib/activity.ts";
import { formatDateTime } from "#src/lib/date-time.ts";
import { Button } from "#src/ui/button.tsx";
import { AdminNav } from "#src/ui/admin-nav.tsx";
import { Container } from "#src/ui/container.tsx";
import { TableRegion } from "#src/ui/table-region.tsx";

const ACTION: Record<AuditAction, string> = {
  invite: "Invite",
  resend: "Resend",
  decline: "Decline",
  remove: "Remove",
  export: "Export (CSV)",
  "privacy-request": "Privacy request made",
  "privacy-confirm": "Privacy request confirmed",
  "privacy-complete": "Privacy request completed",
  "account-delete": "Account deleted by its owner",
  "erasure-replay": "Erased again after a restore",
  "passkey-add": "Passkey added",
  "passkey-remove": "Passkey removed",
  "passkey-rename": "Passkey renamed",
  "passkeys-reset": "Passkeys reset",
  "recovery-codes": "Recovery codes made",
  "recovery-use": "Recovery code used",
  "admin-lock": "Verification locked",
  "export-token-create": "Export token made",
  "export-token-revoke": "Export token revoked",
  "broadcast-test": "Broadcast test sent",
  "broadcast-schedule": "Broadcast scheduled",
  "broadcast-start": "Broadcast started",
  "broadcast-pause": "Broadcast paused",
  "broadcast-resume": "Broadcast resumed",
  "broadcast-cancel": "Broadcast cancelled",
  "suppression-add": "Address suppressed",
  "suppression-remove": "Suppression removed",
  "audience-save": "Audience saved",
  "audience-delete": "Audience deleted",
  "webhook-add": "Webhook endpoint added",
  "webhook-remove": "Webhook endpoint removed",
  "webhook-rotate": "Webhook secret rotated",
  "webhook-enable": "Webhook endpoint enabled",
  "webhook-disable": "Webhook endpoint disabled",
  "webhook-test": "Webhook test event sent",
  import: "Sheet imported",
};

/** What concerns a webhook endpoint: named by its outcome (the endpoint's number and address). */
const WEBHOOK_ACTIONS = new Set<AuditAction>([
  "webhook-add",
  "webhook-remove",
  "webhook-rotate",
  "webhook-enable",
  "webhook-disable",
  "webhook-test",
]);

/** What concerns an administrator's own access: named by its outcome, not an entry. */
const ACCESS_ACTIONS = new Set<AuditAction>([
  "passkey-add",
  "passkey-remove",
  "passkey-rename",
  "passkeys-reset",
  "recovery-codes",
  "recovery-use",
  "admin-lock",
  "export-token-create",
  "export-token-revoke",
]);

/**
 * Who acted: the administrator; for a privacy request, its requester or the site itself; the
 * member, for their own account.
 */
function actor(row: ActivityPage["rows"][number]): string {
  if (row.adminEmail !== null) return row.adminEmail;
  if (ACCESS_ACTIONS.has(row.action)) return "The site's operator (npm run admin)";
  if (row.action === "account-delete") return "The member";
  if (row.action === "erasure-replay") return "The restore (automatic)";
  return row.action === "privacy-complete" ? "The site (automatic)" : "The requester";
}

/**
 * What was acted on: an entry or a privacy request, by number; all entries for an export; for a
 * deleted account, the entry erased with it, if there was one.
 */
function subject(row: ActivityPage["rows"][number]): string {
  if (row.requestId !== null) return `Request ${row.requestId}`;
  if (ACCESS_ACTIONS.has(row.action)) return "Admin access";
  if (WEBHOOK_ACTIONS.has(row.action)) return "Webhooks";
  if (row.action === "account-delete") return row.entryId === null ? "No entry" : `#${row.entryId}`;
  if (row.action === "erasure-replay")
    return row.entryId === null ? "An address" : `#${row.entryId}`;
  return row.entryId === null ? "All entries" : `#${row.entryId}`;
}

const CELL = "px-4 py-3";

export function ActivityView({ page, paged }: { page: ActivityPage; paged: boolean }) {
  return (
    <Container className="py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Activity</h1>
          <p className="mt-2 max-w-2xl text-ink-soft">
            Every action an administrator took on the waitlist, every export, every step of a
            privacy request, every account its owner deleted, and every erasure a restore carried
            out again, newest first. The log cannot be changed from the site; entries and requests
            are named by number.
          </p>
        </div>
        <AdminNav current="/admin/activity" />
      </div>
      <TableRegion
        label="Administrator activity"
        headings={["When (UTC)", "By", "Action", "Subject", "Outcome", "From"]}
        empty={paged ? "No older activity." : "Nothing has been recorded yet."}
        minWidth="min-w-[52rem]"
        className="mt-8"
      >
        {page.rows.map((row) => (
          <tr key={row.id} className="border-t border-rule align-top">
            <td className={`${CELL} whitespace-nowrap tabular-nums`}>{formatDateTime(row.at)}</td>
            {/* An address may break anywhere; words only between them. */}
            <td className={`${CELL} ${row.adminEmail === null ? "min-w-28" : "break-all"}`}>
              {actor(row)}
            </td>
            <td className={CELL}>{ACTION[row.action]}</td>
            <td className={`${CELL} tabular-nums`}>{subject(row)}</td>
            <td className={CELL}>
              {row.requestId === null ? loggedOutcome(row.outcome) : row.outcome}
            </td>
            <td className={`${CELL} ${row.clientAddress === AUTOMATIC ? "" : "break-all"}`}>
              {row.clientAddress}
            </td>
          </tr>
        ))}
      </TableRegion>
      <nav aria-label="Pages of the activity" className="mt-4 flex flex-wrap gap-3">
        {paged ? (
          <Button asChild variant="secondary" size="sm">
            <Link to="/admin/activity">Newest</Link>
          </Button>
        ) : null}
        {page.older !== null ? (
          <Button asChild variant="secondary" size="sm">
            <Link to={`/admin/activity?before=${page.older}`}>Older activity</Link>
          </Button>
        ) : null}
      </nav>
    </Container>
  );
}
