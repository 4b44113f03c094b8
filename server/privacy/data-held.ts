/**
 * Everything the site holds under one email address, as a confirmed access request mails it
 * (decision 030): the waitlist entry, the subscription to sub-processor changes, the Firebase
 * account with its sessions, and the privacy requests made for the address. The file is JSON; the
 * mail's body is the same data in sentences (`summarizeDataHeld`).
 */
import { and, eq, inArray, isNull, or, sql, type AnyColumn } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import {
  adminAuditLog,
  privacyRequests,
  subprocessorSubscribers,
  waitlistEntries,
} from "#db/schema.ts";
import type { Accounts } from "#server/identity/firebase-admin.ts";
import type { SessionStore } from "#server/identity/session-store.ts";
import { SITE } from "#src/content/site.ts";
import type { AuditAction } from "#src/lib/activity.ts";

type Row = Record<string, string | number | null>;

/** A row as its owner downloads it: every column, times in ISO 8601. */
export function entryForExport(row: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) {
    if (value instanceof Date) out[key] = value.toISOString();
    else if (typeof value === "string" || typeof value === "number" || value === null)
      out[key] = value;
    else out[key] = JSON.stringify(value);
  }
  return out;
}

/**
 * The steps in the audit log that only the owner of an address can have taken, so that the address
 * they were taken from is theirs to receive. Confirming a privacy request is one: it is a press on
 * a link mailed to the address. Making a request is not: anyone can name any address in the form,
 * and the address it came from is the filer's, who may be a stranger. Every other action is an
 * administrator's or the site's. A list of what may show, not of what may not: an action added
 * later carries no address into anyone's copy until someone decides that it is the owner's own.
 */
const OWNERS_OWN_STEPS = ["privacy-confirm"] as const satisfies readonly AuditAction[];

/**
 * What this database holds under an address, apart from an account's sessions: the waitlist
 * entry, the subscription, the privacy requests, and the audit log's rows about the entry and the
 * requests (which name them by number only). Both "Download my data" on /account and a confirmed
 * access request give it.
 */
export async function heldUnderAddress(db: Db, email: string) {
  const sameAddress = (column: AnyColumn) => sql`lower(${column}) = lower(${email})`;
  const [entry] = await db.select().from(waitlistEntries).where(sameAddress(waitlistEntries.email));
  const [subscriber] = await db
    .select({
      email: subprocessorSubscribers.email,
      state: subprocessorSubscribers.state,
      createdAt: subprocessorSubscribers.createdAt,
      confirmedAt: subprocessorSubscribers.confirmedAt,
    })
    .from(subprocessorSubscribers)
    .where(sameAddress(subprocessorSubscribers.email));
  const requests = await db
    .select({
      id: privacyRequests.id,
      kind: privacyRequests.kind,
      state: privacyRequests.state,
      name: privacyRequests.name,
      details: privacyRequests.details,
      createdAt: privacyRequests.createdAt,
      confirmedAt: privacyRequests.confirmedAt,
      dueAt: privacyRequests.dueAt,
    })
    .from(privacyRequests)
    .where(sameAddress(privacyRequests.email))
    .orderBy(privacyRequests.id);
  const about = [
    ...(entry ? [eq(adminAuditLog.entryId, entry.id)] : []),
    ...(requests.length > 0
      ? [
          inArray(
            adminAuditLog.requestId,
            requests.map((r) => r.id),
          ),
        ]
      : []),
  ];
  const audit =
    about.length === 0
      ? []
      : await db
          .select({
            at: adminAuditLog.at,
            action: adminAuditLog.action,
            entryId: adminAuditLog.entryId,
            requestId: adminAuditLog.requestId,
            outcome: adminAuditLog.outcome,
            // Only for the owner's own steps; a filer's or an administrator's address is not theirs.
            fromAddress: sql<string | null>`CASE WHEN ${and(
              inArray(adminAuditLog.action, OWNERS_OWN_STEPS),
              isNull(adminAuditLog.adminEmail),
            )} THEN ${adminAuditLog.clientAddress} END`,
          })
          .from(adminAuditLog)
          .where(or(...about))
          .orderBy(adminAuditLog.id);
  return {
    waitlistEntry: entry ? entryForExport(entry) : null,
    subprocessorSubscription: subscriber ? entryForExport(subscriber) : null,
    privacyRequests: requests.map(entryForExport),
    auditEntries: audit.map(entryForExport),
  };
}

export type DataHeld = {
  /** The address the request named. */
  email: string;
  /** ISO 8601. */
  gatheredAt: string;
  account: {
    emailVerified: boolean;
    createdAt: string | null;
    lastSignInAt: string | null;
    sessions: Row[];
  } | null;
} & Awaited<ReturnType<typeof heldUnderAddress>>;

/** Gathers what is held under `email`; throws when the database or Firebase cannot be read. */
export async function gatherDataHeld(
  db: Db,
  accounts: Pick<Accounts, "findByEmail" | "details">,
  store: Pick<SessionStore, "listForAccount">,
  email: string,
): Promise<DataHeld> {
  const uid = await accounts.findByEmail(email);
  const details = uid ? await accounts.details(uid) : null;
  const sessionRows = uid === null ? [] : await store.listForAccount(uid);
  return {
    email,
    gatheredAt: new Date().toISOString(),
    account: details
      ? {
          emailVerified: details.emailVerified,
          createdAt: details.createdAt,
          lastSignInAt: details.lastSignInAt,
          sessions: sessionRows.map(entryForExport),
        }
      : null,
    ...(await heldUnderAddress(db, email)),
  };
}

/** `2026-11-23T18:00:00.000Z` as "2026-11-23 18:00 UTC"; anything else as it is. */
function when(value: string | number | null | undefined): string {
  if (typeof value !== "string") return value === null || value === undefined ? "-" : String(value);
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(value);
  return match ? `${match[1]} ${match[2]} UTC` : value;
}

/**
 * The data in sentences, for the mail's body: one heading per kind of record, then its fields.
 * The same headings appear whether or not anything is held, so the mail reads alike either way.
 */
export function summarizeDataHeld(data: DataHeld): { heading: string; lines: string[] }[] {
  const entry = data.waitlistEntry;
  const subscription = data.subprocessorSubscription;
  const account = data.account;
  return [
    {
      heading: "Waitlist",
      lines: entry
        ? [
            `Name: ${entry.name ?? "-"}`,
            `Email: ${entry.email ?? "-"}`,
            `Company: ${entry.company ?? "-"}`,
            `Message: ${entry.message ?? "-"}`,
            `State: ${entry.state ?? "-"}`,
            `Added to the list: ${when(entry.createdAt)}`,
          ]
        : ["No waitlist entry is held under this address."],
    },
    {
      heading: "Notice of sub-processor changes",
      lines: subscription
        ? [
            `Subscription: ${subscription.state === "confirmed" ? "confirmed" : "not confirmed"}`,
            `Asked for: ${when(subscription.createdAt)}`,
          ]
        : ["No subscription is held under this address."],
    },
    {
      heading: `${SITE.name} account`,
      lines: account
        ? [
            `Email verified: ${account.emailVerified ? "yes" : "no"}`,
            `Created: ${when(account.createdAt)}`,
            `Last sign-in: ${when(account.lastSignInAt)}`,
            `Sessions on record: ${account.sessions.length}`,
          ]
        : ["No account is held under this address."],
    },
    {
      heading: "Privacy requests",
      lines: data.privacyRequests.map(
        (r) => `Request ${r.id}: ${r.kind}, made ${when(r.createdAt)}, ${r.state}`,
      ),
    },
  ];
}
