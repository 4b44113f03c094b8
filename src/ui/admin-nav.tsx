/**
 * The admin pages' own navigation, the same on each: the dashboard, the entries, the activity log,
 * the deliveries, the privacy requests, the broadcasts, the suppression list, the webhooks and
 * the import. The page the
 * administrator is on is marked, not linked.
 */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "#src/ui/button.tsx";

const ADMIN_PAGES = [
  { to: "/admin", name: "Dashboard" },
  { to: "/admin/waitlist", name: "Entries" },
  { to: "/admin/activity", name: "Activity" },
  { to: "/admin/deliveries", name: "Deliveries" },
  { to: "/admin/privacy", name: "Privacy requests" },
  { to: "/admin/broadcasts", name: "Broadcasts" },
  { to: "/admin/suppressions", name: "Suppressions" },
  { to: "/admin/webhooks", name: "Webhooks" },
  { to: "/admin/import", name: "Import" },
] as const;

export type AdminPage = (typeof ADMIN_PAGES)[number]["to"];

export function AdminNav({ current, children }: { current: AdminPage; children?: ReactNode }) {
  return (
    <nav aria-label="Admin pages" className="flex flex-wrap gap-2">
      {ADMIN_PAGES.map(({ to, name }) =>
        to === current ? (
          <span
            key={to}
            aria-current="page"
            className="inline-flex min-h-11 items-center rounded-md border border-ink bg-paper px-5 text-[0.95rem] font-semibold"
          >
            {name}
          </span>
        ) : (
          <Button key={to} asChild variant="secondary">
            <Link to={to}>{name}</Link>
          </Button>
        ),
      )}
      {children}
    </nav>
  );
}
