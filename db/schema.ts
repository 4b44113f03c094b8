/**
 * The tables as Drizzle sees them, for typed queries. db/migrations/*.sql is the source of truth:
 * a change is written there first, then declared here the same way, constraints and indexes
 * included. db/schema.test.ts fails whenever the two disagree, naming the table and the column,
 * constraint or index (docs/decisions/016).
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  bigint,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** One list for the column's TypeScript type and its CHECK constraint. */
const FORWARD_STATUSES = ["none", "pending", "sent", "failed"] as const;

export const waitlistEntries = pgTable(
  "waitlist_entries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    company: text("company"),
    message: text("message"),
    utmSource: text("utm_source"),
    utmMedium: text("utm_medium"),
    utmCampaign: text("utm_campaign"),
    utmTerm: text("utm_term"),
    utmContent: text("utm_content"),
    referrer: text("referrer"),
    landingPath: text("landing_path"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    forwardStatus: text("forward_status", { enum: FORWARD_STATUSES }).notNull().default("none"),
    forwardAttempts: integer("forward_attempts").notNull().default(0),
    forwardNextAt: timestamp("forward_next_at", { withTimezone: true }),
    forwardLastError: text("forward_last_error"),
    forwardedAt: timestamp("forwarded_at", { withTimezone: true }),
  },
  (t) => [
    check(
      "waitlist_entries_forward_status_check",
      sql`${t.forwardStatus} IN (${sql.raw(FORWARD_STATUSES.map((s) => `'${s}'`).join(", "))})`,
    ),
    uniqueIndex("waitlist_entries_email_key").on(sql`lower(${t.email})`),
    // As 0001 wrote it: PostgreSQL's plain DESC sorts NULLs first; drizzle-kit would say NULLS LAST.
    index("waitlist_entries_created_at_idx").on(t.createdAt.desc().nullsFirst()),
    index("waitlist_entries_forward_due_idx")
      .on(t.forwardNextAt)
      .where(sql`${t.forwardStatus} = 'pending'`),
  ],
);

export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull(),
  },
  // PostgreSQL's name for it; drizzle-kit would call it rate_limit_windows_key_window_start_pk.
  (t) => [primaryKey({ name: "rate_limit_windows_pkey", columns: [t.key, t.windowStart] })],
);

export type WaitlistRow = typeof waitlistEntries.$inferSelect;

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    uid: text("uid").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    signedInAt: timestamp("signed_in_at", { withTimezone: true }),
    accountCheckedAt: timestamp("account_checked_at", { withTimezone: true })
      .notNull()
      .defaultNow(),
    email: text("email"),
    emailVerified: boolean("email_verified").notNull().default(false),
  },
  (t) => [index("sessions_uid_idx").on(t.uid), index("sessions_expires_at_idx").on(t.expiresAt)],
);
