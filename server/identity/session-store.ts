/**
 * The rows behind session cookies (db/migrations/0002_sessions.sql). A cookie is honoured only
 * while its row exists, has not expired and has not been revoked: signing out ends a session for
 * good, including any copy of its cookie.
 *
 * A row holds the SHA-256 of its session's id, never the id (migration 0016): the cookie carries
 * the id, so a copy of the database (a backup) and the cookie secret together still cannot make a
 * cookie that opens a session. Every read and write goes through `atRest`, here alone.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, ne, notInArray, sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";
import { type ADMIN_VERIFIED_BY, sessions } from "#db/schema.ts";
import { hitRateLimit, rateLimitReached } from "#server/http/rate-limit.ts";
import { ADMIN_IDLE_MAX_MS, ADMIN_VERIFIED_MAX_MS } from "#server/identity/admin-level.ts";

/** Live sessions one account may hold; a new one ends the oldest beyond this (decision 013). */
const MAX_SESSIONS_PER_USER = 10;

export type SessionStore = {
  /**
   * A new session for this account; returns its id (random, 144 bits). Past
   * MAX_SESSIONS_PER_USER live sessions, the oldest end.
   */
  create: (session: {
    uid: string;
    email: string | null;
    emailVerified: boolean;
    expiresAt: Date;
    signedInAt: Date;
    /** The browser's User-Agent, shown back to its owner in "Download my data". */
    userAgent?: string | null;
  }) => Promise<string>;
  revoke: (id: string) => Promise<void>;
  /** Ends every session of an account (it was deleted, disabled or revoked at Firebase). */
  revokeAll: (uid: string) => Promise<void>;
  /** Notes that the account behind this session was just found in good standing. */
  markChecked: (
    id: string,
    account: { email: string | null; emailVerified: boolean },
  ) => Promise<void>;
  /**
   * Counts a sign-in against a window (`account:<uid>` or `refused:<network>`); seconds to wait
   * when past `perMinute`, else 0.
   */
  hitSignInLimit: (window: string, perMinute: number) => Promise<number>;
  /** Seconds to wait if a window is already full, counting nothing; else 0. */
  signInLimitReached: (window: string, perMinute: number) => Promise<number>;
  /** The session if it is live (not expired, not revoked), else null. */
  find: (id: string) => Promise<LiveSession | null>;
  /**
   * A passkey assertion (or a recovery code) verified this session for the admin: a new row, with
   * a new id, takes its place, and the old one ends, so a cookie seen before the verification opens
   * nothing after it. The 12 hours run from the first verification, which a step-up keeps. Null
   * when the session is no longer live.
   */
  verifyAdmin: (id: string, by: AdminVerifiedBy) => Promise<string | null>;
  /** An admin request of this verified session: its hour without one starts again. */
  touchAdmin: (id: string) => Promise<void>;
  /** The mailed code was entered on this session: its first passkey may be registered. */
  proveMailbox: (id: string) => Promise<void>;
  /** Ends every session under an administrator's address (their passkeys were reset). */
  endSessionsOf: (email: string) => Promise<number>;
  /** Every session row of an account, live or ended, newest first: what its owner may download. */
  listForAccount: (uid: string) => Promise<SessionRecord[]>;
};

/** A session as its owner sees it: no id, nothing that could open it. */
type SessionRecord = {
  createdAt: Date;
  /** The last time a request of this session had its account checked (every few minutes). */
  lastSeenAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  userAgent: string | null;
};

/** What a row keeps of a session id: its SHA-256 in hex (migration 0016 did the same in SQL). */
export const atRest = (id: string) => createHash("sha256").update(id, "utf8").digest("hex");

/** The longest User-Agent kept; anything longer is cut. */
const MAX_USER_AGENT_LENGTH = 512;

type AdminVerifiedBy = (typeof ADMIN_VERIFIED_BY)[number];

/** What a session row says of its admin levels (decision 039); all null for a member's session. */
export type AdminSessionState = {
  verifiedAt: Date | null;
  verifiedBy: AdminVerifiedBy | null;
  stepUpAt: Date | null;
  seenAt: Date | null;
  mailboxProvenAt: Date | null;
};

type LiveSession = {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  /** When the password was typed (Firebase's auth_time); the session's start for older rows. */
  signedInAt: Date;
  accountCheckedAt: Date;
  admin: AdminSessionState;
};

export function createSessionStore(db: Db): SessionStore {
  return {
    async create({ uid, email, emailVerified, expiresAt, signedInAt, userAgent }) {
      const sessionId = randomBytes(18).toString("base64url");
      const id = atRest(sessionId);
      await db.insert(sessions).values({
        id,
        uid,
        email,
        emailVerified,
        expiresAt,
        signedInAt,
        userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT_LENGTH) : null,
      });
      // One token replayed a thousand times must not make a thousand sessions: keep the newest.
      const newest = db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.uid, uid), isNull(sessions.revokedAt)))
        .orderBy(desc(sessions.createdAt), desc(sessions.id))
        .limit(MAX_SESSIONS_PER_USER);
      await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(sessions.uid, uid),
            isNull(sessions.revokedAt),
            ne(sessions.id, id),
            notInArray(sessions.id, newest),
          ),
        );
      // Expired rows are deleted by server/operations/housekeeping.ts.
      return sessionId;
    },
    hitSignInLimit(window, perMinute) {
      return hitRateLimit(db, `session:${window}`, perMinute);
    },
    signInLimitReached(window, perMinute) {
      return rateLimitReached(db, `session:${window}`, perMinute);
    },
    async revoke(id) {
      await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.id, atRest(id)), isNull(sessions.revokedAt)));
    },
    async revokeAll(uid) {
      await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.uid, uid), isNull(sessions.revokedAt)));
    },
    async markChecked(id, { email, emailVerified }) {
      await db
        .update(sessions)
        .set({ accountCheckedAt: new Date(), email, emailVerified })
        .where(eq(sessions.id, atRest(id)));
    },
    listForAccount(uid) {
      return db
        .select({
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.accountCheckedAt,
          expiresAt: sessions.expiresAt,
          endedAt: sessions.revokedAt,
          userAgent: sessions.userAgent,
        })
        .from(sessions)
        .where(eq(sessions.uid, uid))
        .orderBy(desc(sessions.createdAt));
    },
    async find(id) {
      const rows = await db
        .select({
          uid: sessions.uid,
          email: sessions.email,
          emailVerified: sessions.emailVerified,
          createdAt: sessions.createdAt,
          signedInAt: sessions.signedInAt,
          accountCheckedAt: sessions.accountCheckedAt,
          adminVerifiedAt: sessions.adminVerifiedAt,
          adminVerifiedBy: sessions.adminVerifiedBy,
          adminStepUpAt: sessions.adminStepUpAt,
          adminSeenAt: sessions.adminSeenAt,
          adminMailboxProvenAt: sessions.adminMailboxProvenAt,
        })
        .from(sessions)
        .where(
          and(
            eq(sessions.id, atRest(id)),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, new Date()),
          ),
        )
        .limit(1);
      const row = rows[0];
      if (!row) return null;
      return {
        uid: row.uid,
        email: row.email,
        emailVerified: row.emailVerified,
        signedInAt: row.signedInAt ?? row.createdAt,
        accountCheckedAt: row.accountCheckedAt,
        admin: {
          verifiedAt: row.adminVerifiedAt,
          verifiedBy: row.adminVerifiedBy,
          stepUpAt: row.adminStepUpAt,
          seenAt: row.adminSeenAt,
          mailboxProvenAt: row.adminMailboxProvenAt,
        },
      };
    },
    async verifyAdmin(id, by) {
      const newId = randomBytes(18).toString("base64url");
      const old = atRest(id);
      // One statement: the old row ends and the new one begins together, or neither does. A
      // recovery code verifies without a passkey assertion, so it is no step-up.
      const stepUp = by === "passkey" ? sql`now()` : sql`NULL`;
      const rows = await queryRows<{ id: string }>(
        db,
        sql`
        WITH ended AS (
          UPDATE sessions SET revoked_at = now()
          WHERE id = ${old} AND revoked_at IS NULL AND expires_at > now()
          RETURNING *
        )
        INSERT INTO sessions (id, uid, created_at, expires_at, signed_in_at, account_checked_at,
                              email, email_verified, user_agent, admin_verified_at,
                              admin_verified_by, admin_step_up_at, admin_seen_at,
                              admin_mailbox_proven_at)
        SELECT ${atRest(newId)}, uid, now(), expires_at, signed_in_at, account_checked_at, email,
               email_verified, user_agent,
               -- A step-up keeps the 12 hours of a verification still current; a lapsed one, or
               -- a recovery's, starts them again.
               CASE WHEN admin_verified_by = 'passkey'
                     AND admin_verified_at > now() - make_interval(secs => ${ADMIN_VERIFIED_MAX_MS / 1000})
                     AND COALESCE(admin_seen_at, admin_verified_at)
                         > now() - make_interval(secs => ${ADMIN_IDLE_MAX_MS / 1000})
                    THEN admin_verified_at ELSE now() END,
               ${by}, ${stepUp},
               now(), admin_mailbox_proven_at
        FROM ended
        RETURNING id
      `,
      );
      return rows.length === 1 ? newId : null;
    },
    async touchAdmin(id) {
      await db
        .update(sessions)
        .set({ adminSeenAt: new Date() })
        .where(eq(sessions.id, atRest(id)));
    },
    async proveMailbox(id) {
      await db
        .update(sessions)
        .set({ adminMailboxProvenAt: new Date() })
        .where(eq(sessions.id, atRest(id)));
    },
    async endSessionsOf(email) {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(
          and(sql`lower(${sessions.email}) = ${email.toLowerCase()}`, isNull(sessions.revokedAt)),
        )
        .returning({ id: sessions.id });
      return rows.length;
    },
  };
}
