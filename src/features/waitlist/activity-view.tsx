/**
 * The admin's Activity page (decision 024): the audit log, newest first, a page at a time. Who did
 * what, to which entry (by number: the log keeps no lead's name or address, and outlives entries
 * that were erased), when, and from which address. Read only: nothing on this page changes a row.
 */
import { Link } from "react-router";
import { loggedOutcome } from "#src/features/waitlist/admin-summary.ts";
import type { ActivityPage, AuditAction } from "#src/lib/activity.ts";
import { formatDateTime } from "#src/lib/date-time.ts";
import { Button } from "#src/ui/button.tsx";
import { AdminNav } from "#src/ui/admin-nav.tsx";
import { Container } from "#src/ui/container.tsx";

const ACTION: Record<AuditAction, string> = {
  invite: "Invite",
  resend: "Resend",
  decline: "Decline",
  remove: "Remove",
  export: "Export (CSV)",
};

const CELL = "px-4 py-3";

export function ActivityView({ page, paged }: { page: ActivityPage; paged: boolean }) {
  return (
    <Container className="py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Activity</h1>
          <p className="mt-2 max-w-2xl text-ink-soft">
            Every action an administrator took on the waitlist, and every export, newest first. The
            log cannot be changed from the site; entries are named by number.
          </p>
        </div>
        <AdminNav current="/admin/activity" />
      </div>
      <div
        role="region"
        aria-label="Administrator activity"
        tabIndex={0}
        className="mt-8 overflow-x-auto rounded-xl border border-rule bg-card"
      >
        <table className="w-full min-w-[52rem] border-collapse text-left text-sm">
          <thead className="bg-ledger-soft">
            <tr>
              {["When (UTC)", "Administrator", "Action", "Entry", "Outcome", "From"].map((h) => (
                <th key={h} scope="col" className={`${CELL} font-semibold`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {page.rows.length === 0 ? (
              <tr>
                <td colSpan={6} className="px-4 py-8 text-center text-ink-soft">
                  {paged ? "No older activity." : "No administrator has acted yet."}
                </td>
              </tr>
            ) : (
              page.rows.map((row) => (
                <tr key={row.id} className="border-t border-rule align-top">
                  <td className={`${CELL} whitespace-nowrap tabular-nums`}>
                    {formatDateTime(row.at)}
                  </td>
                  <td className={`${CELL} break-all`}>{row.adminEmail}</td>
                  <td className={CELL}>{ACTION[row.action]}</td>
                  <td className={`${CELL} tabular-nums`}>
                    {row.entryId === null ? "All entries" : `#${row.entryId}`}
                  </td>
                  <td className={CELL}>{loggedOutcome(row.outcome)}</td>
                  <td className={`${CELL} break-all`}>{row.clientAddress}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
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
