/**
 * What the server hands every loader and action (server/render-page.ts builds it per request). It
 * travels in React Router's context under one key: a loader or action reads it first with
 * `context.get(loadContext)` and passes it to the guards and helpers (decision 038).
 */
import type { ImportsPort } from "#src/lib/imports.ts";
import type { WebhooksPort } from "#src/lib/webhooks.ts";
import { createContext } from "react-router";
import type { WaitlistPort } from "#src/features/waitlist/types.ts";
import type { AccountPort } from "#src/lib/account.ts";
import type { MailPort } from "#src/lib/mail-ports.ts";
import type { AdminVerifyPort } from "#src/lib/admin-verify.ts";
import type { ActivityPort } from "#src/lib/activity.ts";
import type { DashboardPort } from "#src/lib/dashboard.ts";
import type { DeliveriesPort } from "#src/lib/deliveries.ts";
import type { AdminCheck, UserAccess } from "#src/lib/guards.ts";
import type { PrivacyRequestsPort } from "#src/lib/privacy-requests.ts";
import type { PageUser, PublicEnv } from "#src/lib/public-env.ts";
import type { SubscriptionsPort } from "#src/lib/subprocessor-subscriptions.ts";

export type LoadContext = {
  publicEnv: PublicEnv;
  /** From a valid session cookie; null for anonymous visitors. */
  sessionUser: PageUser | null;
  /** The rate-limit key of this client. */
  clientKey: string;
  /** This client's address (as TRUST_PROXY says), for the admin audit log. */
  clientAddress: string;
  /** SIGNUP_MODE: "invite" when only invited addresses may sign up (decision 024). */
  signupMode: "open" | "invite";
  /** This request's id, as in the server's log lines. */
  requestId: string;
  /** The page asked for, without query or `.data`: where /admin/verify comes back to. */
  pagePath: string;
  /** Logs an error met while answering this request, as one structured line (no stack trace for
   * a refusal of the visitor's request). */
  reportError: (error: unknown) => void;
  waitlist: WaitlistPort;
  /** The email subscription to sub-processor changes (decision 025). */
  subprocessors: SubscriptionsPort;
  /** Privacy requests (decision 030); overview and complete only after requireAdmin. */
  privacyRequests: PrivacyRequestsPort;
  /** The outbox as the admin's deliveries page shows it; ask only after requireAdmin. */
  deliveries: DeliveriesPort;
  /** The admin dashboard's figures; ask only after requireAdmin. */
  dashboard: DashboardPort;
  /** The admin audit log as the Activity page shows it; ask only after requireAdmin. */
  activity: ActivityPort;
  /**
   * Whether this visitor may use the admin, asked of Firebase when called (a deleted or disabled
   * account is refused at once); "unavailable" when Firebase cannot be reached.
   */
  adminAccess: () => Promise<AdminCheck>;
  /**
   * This visitor's session with its account read from Firebase now (asked once per request);
   * pages for signed-in visitors ask through requireUser.
   */
  userAccess: () => Promise<UserAccess>;
  /** The signed-in account's own data and actions; ask only after requireUser. */
  account: AccountPort;
  /** An administrator's passkey verification and passkeys (decision 039). */
  adminVerify: AdminVerifyPort;
  /**
   * Mail to the list (decision 041): unsubscribe links for anyone holding one; the broadcasts and
   * the suppression list only after requireAdmin.
   */
  mail: MailPort;
  /** Signed webhooks' endpoints (decision 046); ask only after requireAdmin. */
  webhooks: WebhooksPort;
  /** Imports of an administrator's sheet (issue 37, part 5); ask only after requireAdmin. */
  imports: ImportsPort;
};

/**
 * The key the load context travels under. The server takes it from the build, which exports it
 * from src/entry.server.tsx, and not from an import of its own: React Router tells keys apart by
 * identity, and this module runs once in the build and once more in the server.
 */
export const loadContext = createContext<LoadContext>();
