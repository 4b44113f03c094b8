import { AccountDeletedView } from "#src/features/auth/account-view.tsx";
import { pageMeta } from "#src/lib/meta.ts";
import type { Route } from "./+types/account-deleted";

/** Where a deletion ends: the same page for everyone, kept out of the sitemap and search. */
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Account Deleted",
    description: "Your account is deleted, its sessions ended and its waitlist entry erased.",
    noindex: true,
  });

export default function AccountDeleted() {
  return <AccountDeletedView />;
}
