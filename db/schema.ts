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
  customType,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  jsonb,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** `'a', 'b'`: one list for a column's TypeScript type and its CHECK constraint. */
const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

/** PostgreSQL's bytes, as Node's Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** An uploaded sheet between its preview and its import, and what came of it (0023). */
export const waitlistImports = pgTable(
  "waitlist_imports",
  {
    id: text("id").primaryKey(),
    fileName: text("file_name").notNull(),
    content: bytea("content"),
    uploadedBy: text("uploaded_by").notNull(),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true }).notNull().defaultNow(),
    basis: text("basis", { enum: ["confirmed", "unconfirmed"] }),
    statement: text("statement"),
    importedAt: timestamp("imported_at", { withTimezone: true }),
    importedBy: text("imported_by"),
    outcome: text("outcome"),
    counts: jsonb("counts").$type<Record<string, number>>(),
    refusal: text("refusal"),
  },
  (t) => [
    check("waitlist_imports_id_check", sql`${t.id} ~ '^[0-9a-f]{32}$'`),
    check("waitlist_imports_file_name_check", sql`char_length(${t.fileName}) BETWEEN 1 AND 255`),
    check("waitlist_imports_content_check", sql`octet_length(${t.content}) < 5242880`),
    check("waitlist_imports_basis_check", sql`${t.basis} IN ('confirmed', 'unconfirmed')`),
    check("waitlist_imports_statement_check", sql`char_length(${t.statement}) <= 1000`),
    check(
      "waitlist_imports_refusal_check",
      sql`${t.refusal} IS NULL OR (${t.content} IS NULL AND char_length(${t.refusal}) <= 1000)`,
    ),
  ],
);

/**
 * An entry's way from the list to the product (decisions 023, 024). Which change each state allows
 * is src/features/waitlist/lifecycle.ts; its ENTRY_STATES is checked equal to this list.
 */
export const WAITLIST_STATES = ["waiting", "confirmed", "invited", "joined", "declined"] as const;

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
    state: text("state", { enum: WAITLIST_STATES }).notNull().default("waiting"),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** Computed by the database (0011): the source page views would give this entry's landing. */
    source: text("source")
      .notNull()
      .generatedAlwaysAs(
        sql`coalesce(nullif(left(regexp_replace(regexp_replace(lower(coalesce(nullif(btrim(utm_source), ''), regexp_replace(substring(referrer FROM '^[hH][tT][tT][pP][sS]?://(?:[^@/?#]*@)?([^/:?#]+)'), '^www\\.', '', 'i'))), '[^a-z0-9._-]+', '-', 'g'), '^-+|-+$', '', 'g'), 64), ''), '(direct)')`,
      ),
    invitedAt: timestamp("invited_at", { withTimezone: true }),
    inviteSentAt: timestamp("invite_sent_at", { withTimezone: true }),
    declinedAt: timestamp("declined_at", { withTimezone: true }),
    joinedAt: timestamp("joined_at", { withTimezone: true }),
    joinedUid: text("joined_uid"),
    adminMails: integer("admin_mails").notNull().default(0),
    /** Consent to product news, and since when (db/migrations/0018, decision 041). */
    productNewsAt: timestamp("product_news_at", { withTimezone: true }),
    /** Waitlist news stopped by its owner, and since when. */
    waitlistNewsStoppedAt: timestamp("waitlist_news_stopped_at", { withTimezone: true }),
    /** The qualifying questions' answers, and when they were last saved (0019, decision 043). */
    answers: jsonb("answers")
      .notNull()
      .default(sql`'{}'::jsonb`),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    /** The code of the link this entry may share, and who shared the link it came by (0021). */
    referralCode: text("referral_code")
      .notNull()
      .default(sql`left(md5((gen_random_uuid())::text), 16)`),
    referredBy: bigint("referred_by", { mode: "number" }),
    /** The import the entry came by (0023): its evidence of consent when it came confirmed. */
    importId: text("import_id"),
  },
  (t) => [
    check("waitlist_entries_state_check", sql`${t.state} IN (${sqlList(WAITLIST_STATES)})`),
    check(
      "waitlist_entries_answers_check",
      sql`jsonb_typeof(${t.answers}) = 'object' AND octet_length(${t.answers}::text) <= 2000`,
    ),
    index("waitlist_entries_answers_idx").using("gin", sql`${t.answers} jsonb_path_ops`),
    check("waitlist_entries_referral_code_check", sql`${t.referralCode} ~ '^[0-9a-f]{16}$'`),
    uniqueIndex("waitlist_entries_referral_code_key").on(t.referralCode),
    foreignKey({
      name: "waitlist_entries_referred_by_fkey",
      columns: [t.referredBy],
      foreignColumns: [t.id],
    }).onDelete("set null"),
    foreignKey({
      name: "waitlist_entries_import_id_fkey",
      columns: [t.importId],
      foreignColumns: [waitlistImports.id],
    }).onDelete("set null"),
    index("waitlist_entries_referred_by_idx")
      .on(t.referredBy)
      .where(sql`${t.referredBy} IS NOT NULL`),
    uniqueIndex("waitlist_entries_email_key").on(sql`lower(${t.email})`),
    // Keyset pagination of the admin list, newest first, with and without a state (0008).
    index("waitlist_entries_newest_idx").on(t.createdAt, t.id),
    index("waitlist_entries_state_newest_idx").on(t.state, t.createdAt, t.id),
    index("waitlist_entries_joined_uid_idx")
      .on(t.joinedUid)
      .where(sql`${t.joinedUid} IS NOT NULL`),
  ],
);

/**
 * Entries per state, kept by statement triggers on waitlist_entries (db/migrations/0008), so the
 * admin list's counts cost one small read at any size.
 */
export const waitlistStateCounts = pgTable("waitlist_state_counts", {
  state: text("state").primaryKey(),
  entries: bigint("entries", { mode: "number" }).notNull(),
});

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

/** How a session was verified for the admin: a passkey, or a recovery code (a passkey is due). */
export const ADMIN_VERIFIED_BY = ["passkey", "recovery"] as const;

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
    userAgent: text("user_agent"),
    /** The admin's levels of this session (db/migrations/0017, decision 039). */
    adminVerifiedAt: timestamp("admin_verified_at", { withTimezone: true }),
    adminVerifiedBy: text("admin_verified_by", { enum: ADMIN_VERIFIED_BY }),
    adminStepUpAt: timestamp("admin_step_up_at", { withTimezone: true }),
    adminSeenAt: timestamp("admin_seen_at", { withTimezone: true }),
    adminMailboxProvenAt: timestamp("admin_mailbox_proven_at", { withTimezone: true }),
  },
  (t) => [
    index("sessions_uid_idx").on(t.uid),
    index("sessions_expires_at_idx").on(t.expiresAt),
    check(
      "sessions_admin_verified_by_check",
      sql`${t.adminVerifiedBy} IN (${sqlList(ADMIN_VERIFIED_BY)})`,
    ),
    check(
      "sessions_admin_verified_check",
      sql`(${t.adminVerifiedAt} IS NULL) = (${t.adminVerifiedBy} IS NULL)`,
    ),
  ],
);

export const OUTBOX_CHANNELS = ["email", "forward", "slack", "webhook"] as const;
export const OUTBOX_STATUSES = ["pending", "sent", "failed", "suppressed"] as const;

/** Every delivery that follows a change: db/migrations/0005_outbox.sql and 0007, decision 022. */
export const outbox = pgTable(
  "outbox",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    key: text("key").notNull(),
    channel: text("channel", { enum: OUTBOX_CHANNELS }).notNull(),
    payload: jsonb("payload").notNull(),
    messageId: text("message_id"),
    status: text("status", { enum: OUTBOX_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    failedAt: timestamp("failed_at", { withTimezone: true }),
  },
  (t) => [
    check("outbox_channel_check", sql`${t.channel} IN (${sqlList(OUTBOX_CHANNELS)})`),
    check("outbox_status_check", sql`${t.status} IN (${sqlList(OUTBOX_STATUSES)})`),
    unique("outbox_key_key").on(t.key),
    index("outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index("outbox_sent_at_idx")
      .on(t.sentAt)
      .where(sql`${t.status} = 'sent'`),
    index("outbox_failed_at_idx")
      .on(t.failedAt)
      .where(sql`${t.status} = 'failed'`),
    index("outbox_webhook_entry_idx")
      .on(sql`(${t.payload}->'data'->>'id')`)
      .where(sql`${t.channel} = 'webhook'`),
  ],
);

export const WAITLIST_TOKEN_PURPOSES = ["confirm", "remove", "invite"] as const;

/** The links in waitlist mail, by the SHA-256 of their token: db/migrations/0006 and 0008. */
export const waitlistTokens = pgTable(
  "waitlist_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    entryId: bigint("entry_id", { mode: "number" }).notNull(),
    purpose: text("purpose", { enum: WAITLIST_TOKEN_PURPOSES }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "waitlist_tokens_purpose_check",
      sql`${t.purpose} IN (${sqlList(WAITLIST_TOKEN_PURPOSES)})`,
    ),
    foreignKey({
      name: "waitlist_tokens_entry_id_fkey",
      columns: [t.entryId],
      foreignColumns: [waitlistEntries.id],
    }).onDelete("cascade"),
    index("waitlist_tokens_entry_id_idx").on(t.entryId),
  ],
);

/** Page views per day, page and source (server/operations/page-views.ts). */
export const pageViews = pgTable(
  "page_views",
  {
    day: date("day").notNull(),
    path: text("path").notNull(),
    source: text("source").notNull(),
    views: bigint("views", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ name: "page_views_pkey", columns: [t.day, t.path, t.source] }),
    check("page_views_views_check", sql`${t.views} > 0`),
  ],
);

export const SUBSCRIBER_STATES = ["waiting", "confirmed"] as const;

/** Who is told of sub-processor changes: db/migrations/0009, decision 025. */
export const subprocessorSubscribers = pgTable(
  "subprocessor_subscribers",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    email: text("email").notNull(),
    state: text("state", { enum: SUBSCRIBER_STATES }).notNull().default("waiting"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  },
  (t) => [
    check(
      "subprocessor_subscribers_state_check",
      sql`${t.state} IN (${sqlList(SUBSCRIBER_STATES)})`,
    ),
    uniqueIndex("subprocessor_subscribers_email_key").on(sql`lower(${t.email})`),
  ],
);

export const SUBSCRIPTION_TOKEN_PURPOSES = ["confirm", "unsubscribe"] as const;

/** The links in subscription mail, by the SHA-256 of their token: db/migrations/0009. */
export const subprocessorTokens = pgTable(
  "subprocessor_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    subscriberId: bigint("subscriber_id", { mode: "number" }).notNull(),
    purpose: text("purpose", { enum: SUBSCRIPTION_TOKEN_PURPOSES }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "subprocessor_tokens_purpose_check",
      sql`${t.purpose} IN (${sqlList(SUBSCRIPTION_TOKEN_PURPOSES)})`,
    ),
    foreignKey({
      name: "subprocessor_tokens_subscriber_id_fkey",
      columns: [t.subscriberId],
      foreignColumns: [subprocessorSubscribers.id],
    }).onDelete("cascade"),
    index("subprocessor_tokens_subscriber_id_idx").on(t.subscriberId),
  ],
);

export const AUDIT_ACTIONS = [
  "invite",
  "resend",
  "decline",
  "remove",
  "export",
  "privacy-request",
  "privacy-confirm",
  "privacy-complete",
  "account-delete",
  "erasure-replay",
  "passkey-add",
  "passkey-remove",
  "passkey-rename",
  "passkeys-reset",
  "recovery-codes",
  "recovery-use",
  "admin-lock",
  "export-token-create",
  "export-token-revoke",
  "broadcast-test",
  "broadcast-start",
  "broadcast-pause",
  "broadcast-resume",
  "broadcast-cancel",
  "broadcast-schedule",
  "suppression-add",
  "suppression-remove",
  "audience-save",
  "audience-delete",
  "webhook-add",
  "webhook-remove",
  "webhook-rotate",
  "webhook-enable",
  "webhook-disable",
  "webhook-test",
  "import",
] as const;

/**
 * Every admin action and export (db/migrations/0008, decision 024). Append-only: triggers refuse
 * UPDATE, DELETE and TRUNCATE. `entry_id` has no foreign key, so a row outlives the entry.
 */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** Null for what a privacy requester or the site itself did (db/migrations/0013). */
    adminEmail: text("admin_email"),
    action: text("action", { enum: AUDIT_ACTIONS }).notNull(),
    entryId: bigint("entry_id", { mode: "number" }),
    outcome: text("outcome").notNull(),
    clientAddress: text("client_address").notNull(),
    /** The privacy request acted on, by number (it outlives the request's personal data). */
    requestId: bigint("request_id", { mode: "number" }),
    /** The broadcast acted on, by number (db/migrations/0018). */
    broadcastId: bigint("broadcast_id", { mode: "number" }),
  },
  (t) => [check("admin_audit_log_action_check", sql`${t.action} IN (${sqlList(AUDIT_ACTIONS)})`)],
);

export const PRIVACY_REQUEST_KINDS = ["access", "deletion", "correction"] as const;
export const PRIVACY_REQUEST_STATES = ["unconfirmed", "open", "completed"] as const;

/**
 * Privacy requests (db/migrations/0013, decision 030). The address, name and details are held
 * while the request is handled and cleared once it is completed.
 */
export const privacyRequests = pgTable(
  "privacy_requests",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: PRIVACY_REQUEST_KINDS }).notNull(),
    state: text("state", { enum: PRIVACY_REQUEST_STATES }).notNull().default("unconfirmed"),
    email: text("email"),
    name: text("name"),
    details: text("details"),
    tokenHash: text("token_hash"),
    tokenExpiresAt: timestamp("token_expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    dueAt: timestamp("due_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    outcome: text("outcome"),
  },
  (t) => [
    check("privacy_requests_kind_check", sql`${t.kind} IN (${sqlList(PRIVACY_REQUEST_KINDS)})`),
    check("privacy_requests_state_check", sql`${t.state} IN (${sqlList(PRIVACY_REQUEST_STATES)})`),
    check(
      "privacy_requests_confirmed_check",
      sql`${t.state} <> 'open' OR (${t.confirmedAt} IS NOT NULL AND ${t.dueAt} IS NOT NULL)`,
    ),
    check(
      "privacy_requests_completed_check",
      sql`(${t.state} = 'completed') = (${t.completedAt} IS NOT NULL AND ${t.outcome} IS NOT NULL)`,
    ),
    check(
      "privacy_requests_personal_check",
      sql`${t.state} = 'completed' OR ${t.email} IS NOT NULL`,
    ),
    uniqueIndex("privacy_requests_token_hash_key").on(t.tokenHash),
    index("privacy_requests_email_idx")
      .on(sql`lower(${t.email})`)
      .where(sql`${t.email} IS NOT NULL`),
    index("privacy_requests_open_idx")
      .on(t.dueAt)
      .where(sql`${t.state} = 'open'`),
  ],
);

export const PASSKEY_DEVICE_TYPES = ["singleDevice", "multiDevice"] as const;

/** An administrator's passkeys (WebAuthn credentials): db/migrations/0017, decision 039. */
export const adminPasskeys = pgTable(
  "admin_passkeys",
  {
    credentialId: text("credential_id").primaryKey(),
    adminEmail: text("admin_email").notNull(),
    userHandle: text("user_handle").notNull(),
    /** base64url. */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    backedUp: boolean("backed_up").notNull(),
    deviceType: text("device_type", { enum: PASSKEY_DEVICE_TYPES }).notNull(),
    aaguid: text("aaguid").notNull(),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    check(
      "admin_passkeys_device_type_check",
      sql`${t.deviceType} IN (${sqlList(PASSKEY_DEVICE_TYPES)})`,
    ),
    check("admin_passkeys_name_check", sql`char_length(${t.name}) BETWEEN 1 AND 60`),
    index("admin_passkeys_admin_email_idx").on(t.adminEmail),
  ],
);

/** Recovery codes by the SHA-256 of each: db/migrations/0017. */
export const adminRecoveryCodes = pgTable(
  "admin_recovery_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    adminEmail: text("admin_email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("admin_recovery_codes_admin_email_idx").on(t.adminEmail)],
);

export const ADMIN_CEREMONIES = ["register", "authenticate", "mailbox"] as const;

/** A ceremony's challenge, bound to one session row, used once: db/migrations/0017. */
export const adminChallenges = pgTable(
  "admin_challenges",
  {
    sessionId: text("session_id").notNull(),
    ceremony: text("ceremony", { enum: ADMIN_CEREMONIES }).notNull(),
    secret: text("secret").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "admin_challenges_pkey", columns: [t.sessionId, t.ceremony] }),
    check("admin_challenges_ceremony_check", sql`${t.ceremony} IN (${sqlList(ADMIN_CEREMONIES)})`),
    index("admin_challenges_expires_at_idx").on(t.expiresAt),
  ],
);

/** Failed verifications, counted for the lock: db/migrations/0017. */
export const adminVerificationFailures = pgTable(
  "admin_verification_failures",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    adminEmail: text("admin_email").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    reason: text("reason").notNull(),
  },
  (t) => [index("admin_verification_failures_admin_email_at_idx").on(t.adminEmail, t.at)],
);

/** Administrators locked out of verification until a time: db/migrations/0017. */
export const adminLocks = pgTable("admin_locks", {
  adminEmail: text("admin_email").primaryKey(),
  lockedUntil: timestamp("locked_until", { withTimezone: true }).notNull(),
});

/** Tokens for scripts that download the export, by the SHA-256 of each: db/migrations/0017. */
export const adminExportTokens = pgTable(
  "admin_export_tokens",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    adminEmail: text("admin_email").notNull(),
    tokenHash: text("token_hash").notNull(),
    label: text("label").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    lastUsedFrom: text("last_used_from"),
  },
  (t) => [
    unique("admin_export_tokens_token_hash_key").on(t.tokenHash),
    check("admin_export_tokens_label_check", sql`char_length(${t.label}) BETWEEN 1 AND 60`),
    index("admin_export_tokens_admin_email_idx").on(t.adminEmail),
  ],
);

/** The two kinds of broadcast, each with its own consent (decision 041). */
export const BROADCAST_KINDS = ["waitlist-news", "product-news"] as const;
export const CONSENT_PLACES = [
  "confirmation",
  "account",
  "unsubscribe-page",
  "one-click",
  "restore",
  "import",
] as const;

/** Every consent given or withdrawn, with when and where: db/migrations/0018. */
export const consentEvents = pgTable(
  "consent_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    entryId: bigint("entry_id", { mode: "number" }).notNull(),
    kind: text("kind", { enum: BROADCAST_KINDS }).notNull(),
    given: boolean("given").notNull(),
    place: text("place", { enum: CONSENT_PLACES }).notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: "consent_events_entry_id_fkey",
      columns: [t.entryId],
      foreignColumns: [waitlistEntries.id],
    }).onDelete("cascade"),
    check("consent_events_kind_check", sql`${t.kind} IN (${sqlList(BROADCAST_KINDS)})`),
    check("consent_events_place_check", sql`${t.place} IN (${sqlList(CONSENT_PLACES)})`),
    index("consent_events_entry_id_idx").on(t.entryId),
  ],
);

export const SUPPRESSION_SCOPES = ["all", ...BROADCAST_KINDS] as const;
export const SUPPRESSION_REASONS = [
  "refused",
  "hard-bounce",
  "soft-bounces",
  "complaint",
  "unsubscribe",
  "admin",
] as const;

/** The suppression list, by a keyed hash of each address: db/migrations/0018. */
export const mailSuppressions = pgTable(
  "mail_suppressions",
  {
    addressHash: text("address_hash").notNull(),
    scope: text("scope", { enum: SUPPRESSION_SCOPES }).notNull(),
    address: text("address"),
    reason: text("reason", { enum: SUPPRESSION_REASONS }).notNull(),
    detail: text("detail").notNull().default(""),
    addedBy: text("added_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "mail_suppressions_pkey", columns: [t.addressHash, t.scope] }),
    check("mail_suppressions_scope_check", sql`${t.scope} IN (${sqlList(SUPPRESSION_SCOPES)})`),
    check("mail_suppressions_reason_check", sql`${t.reason} IN (${sqlList(SUPPRESSION_REASONS)})`),
    check("mail_suppressions_detail_check", sql`char_length(${t.detail}) <= 500`),
    index("mail_suppressions_created_at_idx").on(t.createdAt),
  ],
);

export const MAIL_EVENT_KINDS = [
  "refused",
  "hard-bounce",
  "soft-bounce",
  "complaint",
  "unsubscribe",
] as const;

/** What came back about a sent mail, by its outbox row: db/migrations/0018. */
export const mailEvents = pgTable(
  "mail_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    outboxId: bigint("outbox_id", { mode: "number" }),
    addressHash: text("address_hash").notNull(),
    kind: text("kind", { enum: MAIL_EVENT_KINDS }).notNull(),
    detail: text("detail").notNull().default(""),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("mail_events_kind_check", sql`${t.kind} IN (${sqlList(MAIL_EVENT_KINDS)})`),
    check("mail_events_detail_check", sql`char_length(${t.detail}) <= 500`),
    index("mail_events_outbox_id_idx").on(t.outboxId),
    index("mail_events_address_hash_at_idx").on(t.addressHash, t.at),
    index("mail_events_at_idx").on(t.at),
  ],
);

export const BROADCAST_STATUSES = [
  "draft",
  "scheduled",
  "sending",
  "paused",
  "finished",
  "cancelled",
] as const;

/** Broadcasts to the list: db/migrations/0018, decision 041. */
export const broadcasts = pgTable(
  "broadcasts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: BROADCAST_KINDS }).notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    audience: jsonb("audience").notNull(),
    status: text("status", { enum: BROADCAST_STATUSES }).notNull().default("draft"),
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    pausedReason: text("paused_reason"),
    pumpedAt: timestamp("pumped_at", { withTimezone: true }),
    recipients: integer("recipients").notNull().default(0),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("broadcasts_kind_check", sql`${t.kind} IN (${sqlList(BROADCAST_KINDS)})`),
    check("broadcasts_status_check", sql`${t.status} IN (${sqlList(BROADCAST_STATUSES)})`),
    check("broadcasts_subject_check", sql`char_length(${t.subject}) BETWEEN 1 AND 200`),
    check("broadcasts_body_check", sql`char_length(${t.body}) BETWEEN 1 AND 50000`),
    index("broadcasts_due_idx")
      .on(t.status)
      .where(sql`${t.status} IN ('scheduled', 'sending')`),
  ],
);

export const RECIPIENT_STATUSES = ["waiting", "queued", "suppressed", "unsubscribed"] as const;

/** A broadcast's recipients, fixed when sending starts: db/migrations/0018. */
export const broadcastRecipients = pgTable(
  "broadcast_recipients",
  {
    broadcastId: bigint("broadcast_id", { mode: "number" }).notNull(),
    entryId: bigint("entry_id", { mode: "number" }).notNull(),
    status: text("status", { enum: RECIPIENT_STATUSES }).notNull().default("waiting"),
    outboxId: bigint("outbox_id", { mode: "number" }),
  },
  (t) => [
    primaryKey({ name: "broadcast_recipients_pkey", columns: [t.broadcastId, t.entryId] }),
    foreignKey({
      name: "broadcast_recipients_broadcast_id_fkey",
      columns: [t.broadcastId],
      foreignColumns: [broadcasts.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "broadcast_recipients_entry_id_fkey",
      columns: [t.entryId],
      foreignColumns: [waitlistEntries.id],
    }).onDelete("cascade"),
    check(
      "broadcast_recipients_status_check",
      sql`${t.status} IN (${sqlList(RECIPIENT_STATUSES)})`,
    ),
    index("broadcast_recipients_waiting_idx")
      .on(t.broadcastId, t.entryId)
      .where(sql`${t.status} = 'waiting'`),
    index("broadcast_recipients_outbox_id_idx").on(t.outboxId),
  ],
);

export const BOUNCE_REPORT_VIA = ["imap", "smtp"] as const;
export const BOUNCE_REPORT_OUTCOMES = ["recorded", "unmatched", "unparsed"] as const;

/** What came back to the bounce address, and what was made of it: db/migrations/0018. */
export const bounceReports = pgTable(
  "bounce_reports",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    rawHash: text("raw_hash").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    via: text("via", { enum: BOUNCE_REPORT_VIA }).notNull(),
    outcome: text("outcome", { enum: BOUNCE_REPORT_OUTCOMES }).notNull(),
    kind: text("kind"),
    outboxId: bigint("outbox_id", { mode: "number" }),
    detail: text("detail").notNull().default(""),
    raw: text("raw"),
  },
  (t) => [
    unique("bounce_reports_raw_hash_key").on(t.rawHash),
    check("bounce_reports_via_check", sql`${t.via} IN (${sqlList(BOUNCE_REPORT_VIA)})`),
    check(
      "bounce_reports_outcome_check",
      sql`${t.outcome} IN (${sqlList(BOUNCE_REPORT_OUTCOMES)})`,
    ),
    check("bounce_reports_detail_check", sql`char_length(${t.detail}) <= 1000`),
    index("bounce_reports_received_at_idx").on(t.receivedAt),
  ],
);

/** Saved audiences: a filter of the entry list under a name (db/migrations/0020, decision 044). */
export const audiences = pgTable(
  "audiences",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    /** The filter as the admin list's address writes it (src/features/waitlist/entry-filter.ts). */
    filter: text("filter").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("audiences_name_check", sql`char_length(btrim(${t.name})) BETWEEN 1 AND 80`),
    check("audiences_filter_check", sql`char_length(${t.filter}) <= 2000`),
    uniqueIndex("audiences_name_key").on(sql`lower(btrim(${t.name}))`),
  ],
);

/** Signed webhooks' endpoints (db/migrations/0022, decision 046). */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: text("events").array().notNull(),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true }),
    failingSince: timestamp("failing_since", { withTimezone: true }),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason"),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "webhook_endpoints_url_check",
      sql`${t.url} LIKE 'https://%' AND char_length(${t.url}) <= 2000`,
    ),
    check("webhook_endpoints_description_check", sql`char_length(${t.description}) <= 200`),
    check("webhook_endpoints_events_check", sql`cardinality(${t.events}) >= 1`),
    check("webhook_endpoints_secret_check", sql`${t.secret} LIKE 'whsec_%'`),
  ],
);

/** Every attempt to deliver to an endpoint: its delivery log. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    endpointId: bigint("endpoint_id", { mode: "number" }).notNull(),
    messageId: text("message_id").notNull(),
    eventType: text("event_type").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    outcome: text("outcome", { enum: ["delivered", "retry", "failed"] }).notNull(),
    error: text("error"),
  },
  (t) => [
    check("webhook_attempts_outcome_check", sql`${t.outcome} IN ('delivered', 'retry', 'failed')`),
    foreignKey({
      name: "webhook_attempts_endpoint_id_fkey",
      columns: [t.endpointId],
      foreignColumns: [webhookEndpoints.id],
    }).onDelete("cascade"),
    index("webhook_attempts_endpoint_idx").on(t.endpointId, t.at.desc()),
  ],
);
