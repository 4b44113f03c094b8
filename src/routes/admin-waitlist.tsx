import { Form, Link } from "react-router";
import { formatDateTime } from "#src/lib/date-time.ts";
import { requireAdmin } from "#src/lib/guards.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import { failure } from "#src/lib/http-errors.ts";
import type { Route } from "./+types/admin-waitlist";
import { pageMeta } from "#src/lib/meta.ts";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";

const PAGE_SIZE = 500;

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Waitlist",
    description: "The waitlist entries, for administrators.",
    noindex: true,
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, "This account may not see the waitlist.");
  const query = new URL(request.url).searchParams.get("q")?.slice(0, 200) ?? "";
  try {
    return { query, ...(await context.waitlist.list({ query, limit: PAGE_SIZE })) };
  } catch {
    throw failure(
      context,
      "The waitlist is unavailable for a moment. Please try again in a minute.",
    );
  }
}

const FORWARD_LABEL = {
  none: "Not forwarded",
  pending: "Pending",
  sent: "Sent",
  failed: "Failed",
} as const;

export default function AdminWaitlist({ loaderData }: Route.ComponentProps) {
  const { entries, total, matching, query } = loaderData;
  return (
    <Container className="py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Waitlist</h1>
          <p className="mt-2 text-ink-soft">
            {total.toLocaleString("en-US")} {total === 1 ? "entry" : "entries"}, newest first
            {query ? `; ${matching.toLocaleString("en-US")} matching “${query}”` : ""}.
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button asChild variant="secondary">
            <Link to="/admin/deliveries">Deliveries</Link>
          </Button>
          <Button asChild variant="secondary">
            <a href="/api/admin/waitlist.csv" download>
              Export CSV
            </a>
          </Button>
        </div>
      </div>
      <Form method="get" role="search" className="mt-8 flex max-w-lg gap-2">
        <label htmlFor="waitlist-search" className="sr-only">
          Search by name, email or company
        </label>
        <input
          id="waitlist-search"
          type="search"
          name="q"
          defaultValue={query}
          placeholder="Search by name, email or company"
          className="block min-h-11 w-full rounded-md border border-rule bg-white px-3.5"
        />
        <Button type="submit">Search</Button>
      </Form>
      <div
        role="region"
        aria-label="Waitlist entries"
        tabIndex={0}
        className="mt-6 overflow-x-auto rounded-xl border border-rule bg-card"
      >
        <table className="w-full min-w-[62rem] border-collapse text-left text-sm">
          <thead className="bg-ledger-soft">
            <tr>
              {[
                "Joined (UTC)",
                "Name",
                "Email",
                "State",
                "Company",
                "Use case",
                "Source",
                "Forwarded",
              ].map((h) => (
                <th key={h} scope="col" className="px-4 py-3 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {entries.length === 0 ? (
              <tr>
                <td colSpan={8} className="px-4 py-8 text-center text-ink-soft">
                  {query ? "No entries match this search." : "No one has joined yet."}
                </td>
              </tr>
            ) : (
              entries.map((e) => (
                <tr key={e.id} className="border-t border-rule align-top">
                  <td className="px-4 py-3 whitespace-nowrap tabular-nums">
                    {formatDateTime(e.createdAt)}
                  </td>
                  <td className="px-4 py-3 font-medium">{e.name}</td>
                  <td className="px-4 py-3">{e.email}</td>
                  <td className="px-4 py-3">{e.state}</td>
                  <td className="px-4 py-3">{e.company}</td>
                  <td className="max-w-xs px-4 py-3 break-words">{e.message}</td>
                  <td className="px-4 py-3 break-all">{e.source}</td>
                  <td className="px-4 py-3" title={e.forwardLastError ?? undefined}>
                    {FORWARD_LABEL[e.forwardStatus]}
                    {e.forwardStatus === "pending" || e.forwardStatus === "failed"
                      ? ` (${e.forwardAttempts} tries)`
                      : ""}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {matching > entries.length ? (
        <p className="mt-4 text-sm text-ink-soft">
          Showing the newest {entries.length.toLocaleString("en-US")}. Export the CSV for all of
          them.
        </p>
      ) : null}
    </Container>
  );
}
