import {
  boolean,
  bigint,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

/** Mirrors db/migrations (the SQL there is the source of truth; this is for typed queries). */
export const waitlistEntries = pgTable("waitlist_entries", {
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
  forwardStatus: text("forward_status", { enum: ["none", "pending", "sent", "failed"] })
    .notNull()
    .default("none"),
  forwardAttempts: integer("forward_attempts").notNull().default(0),
  forwardNextAt: timestamp("forward_next_at", { withTimezone: true }),
  forwardLastError: text("forward_last_error"),
  forwardedAt: timestamp("forwarded_at", { withTimezone: true }),
});

export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

export type WaitlistRow = typeof waitlistEntries.$inferSelect;

export const sessions = pgTable("sessions", {
  id: text("id").primaryKey(),
  uid: text("uid").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
  signedInAt: timestamp("signed_in_at", { withTimezone: true }),
  accountCheckedAt: timestamp("account_checked_at", { withTimezone: true }).notNull().defaultNow(),
  email: text("email"),
  emailVerified: boolean("email_verified").notNull().default(false),
});
