/**
 * What the database keeps of administrators' credentials (db/migrations/0017, decision 039):
 * passkeys, recovery codes, the challenges of ceremonies in progress, failed verifications and
 * locks, and export tokens. Secrets are kept only as hashes: recovery codes and export tokens by
 * SHA-256 (each is 120 or 256 random bits: nothing to guess), a mailed code by a keyed hash (six
 * digits could be guessed from a plain one). Administrators are named by their address in lower
 * case, as ADMIN_EMAILS lists it.
 */
import { createHash, randomBytes, randomInt } from "node:crypto";
import { and, asc, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";
import {
  adminChallenges,
  adminExportTokens,
  adminLocks,
  adminPasskeys,
  adminRecoveryCodes,
  adminVerificationFailures,
  type ADMIN_CEREMONIES,
  type PASSKEY_DEVICE_TYPES,
} from "#db/schema.ts";

export type Ceremony = (typeof ADMIN_CEREMONIES)[number];

/** A ceremony's challenge lasts this long. */
export const CHALLENGE_MS = 5 * 60_000;
/** A mailed code lasts this long. */
export const MAILBOX_CODE_MS = 10 * 60_000;
/** Failed verifications in this window... */
const FAILURE_WINDOW_MS = 15 * 60_000;
/** ...this many of them lock the administrator... */
export const FAILURES_TO_LOCK = 5;
/** ...for this long. */
export const LOCK_MS = 15 * 60_000;
const RECOVERY_CODE_COUNT = 10;
/** An export token lasts at most this many days. */
export const EXPORT_TOKEN_MAX_DAYS = 90;
/** The longest name of a passkey or label of an export token. */
export const CREDENTIAL_NAME_MAX = 60;

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");

/** Crockford's base32: no I, L, O or U, so a code read aloud or typed is not misread. */
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** Characters in a recovery code: 24 of Crockford base32 hold 120 random bits. */
const RECOVERY_CODE_CHARS = 24;

/**
 * A recovery code: 120 random bits as 24 characters of Crockford base32, in groups of four. At
 * 112 bits or more a plain SHA-256 may keep it (ASVS 5.0 V6.5.2); fewer would need a salted
 * password hash. Exported for tests of its shape.
 */
export function newRecoveryCode(): string {
  const bytes = randomBytes(15);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let out = "";
  for (let i = RECOVERY_CODE_CHARS - 1; i >= 0; i--)
    out += CROCKFORD[Number((bits >> BigInt(i * 5)) & 31n)];
  return out.match(/.{4}/g)!.join("-");
}

/**
 * A typed recovery code as stored: upper case, without spaces or dashes, with the letters a
 * reader confuses read as the digits they look like. Null when it cannot be a code.
 */
export function canonicalRecoveryCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, "").replace(/[IL]/g, "1").replace(/O/g, "0");
  return code.length === RECOVERY_CODE_CHARS && /^[0-9A-HJKMNP-TV-Z]+$/.test(code) ? code : null;
}

/** An export token: a prefix that says what it is (and lets secret scanners spot it), 256 bits. */
export function newExportToken(): string {
  return `tieout_export_${randomBytes(32).toString("base64url")}`;
}

const EXPORT_TOKEN = /^tieout_export_[A-Za-z0-9_-]{43}$/;

/** A six-digit code for the mailbox, leading zeros kept. */
export function newMailboxCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

export type StoredPasskey = {
  credentialId: string;
  adminEmail: string;
  userHandle: string;
  publicKey: string;
  counter: number;
  transports: string[];
  backedUp: boolean;
  deviceType: (typeof PASSKEY_DEVICE_TYPES)[number];
  aaguid: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
};

export type ExportTokenRow = {
  id: number;
  adminEmail: string;
  label: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedFrom: string | null;
};

export function createAdminCredentials(db: Db) {
  return {
    passkeys: {
      list(email: string): Promise<StoredPasskey[]> {
        return db
          .select()
          .from(adminPasskeys)
          .where(eq(adminPasskeys.adminEmail, email))
          .orderBy(asc(adminPasskeys.createdAt));
      },
      async count(email: string): Promise<number> {
        const [row] = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(adminPasskeys)
          .where(eq(adminPasskeys.adminEmail, email));
        return row?.n ?? 0;
      },
      async find(credentialId: string): Promise<StoredPasskey | null> {
        const rows = await db
          .select()
          .from(adminPasskeys)
          .where(eq(adminPasskeys.credentialId, credentialId))
          .limit(1);
        return rows[0] ?? null;
      },
      /** The WebAuthn user handle an administrator's passkeys share; a new one for the first. */
      async userHandle(email: string): Promise<string> {
        const rows = await db
          .select({ handle: adminPasskeys.userHandle })
          .from(adminPasskeys)
          .where(eq(adminPasskeys.adminEmail, email))
          .limit(1);
        return rows[0]?.handle ?? randomBytes(32).toString("base64url");
      },
      async add(tx: Db, passkey: Omit<StoredPasskey, "createdAt" | "lastUsedAt">): Promise<void> {
        await tx.insert(adminPasskeys).values(passkey);
      },
      async recordUse(credentialId: string, counter: number, backedUp: boolean): Promise<void> {
        await db
          .update(adminPasskeys)
          .set({ counter, backedUp, lastUsedAt: new Date() })
          .where(eq(adminPasskeys.credentialId, credentialId));
      },
      async rename(tx: Db, email: string, credentialId: string, name: string): Promise<boolean> {
        const rows = await tx
          .update(adminPasskeys)
          .set({ name })
          .where(
            and(eq(adminPasskeys.adminEmail, email), eq(adminPasskeys.credentialId, credentialId)),
          )
          .returning({ id: adminPasskeys.credentialId });
        return rows.length === 1;
      },
      /**
       * Removes one of an administrator's passkeys unless it is their last: "removed", "last" or
       * "unknown". One statement, so two removals at once cannot leave none.
       */
      async remove(
        tx: Db,
        email: string,
        credentialId: string,
      ): Promise<"removed" | "last" | "unknown"> {
        const rows = await queryRows<{ name: string }>(
          tx,
          sql`DELETE FROM admin_passkeys
              WHERE admin_email = ${email} AND credential_id = ${credentialId}
                AND (SELECT count(*) FROM admin_passkeys WHERE admin_email = ${email}) > 1
              RETURNING name`,
        );
        if (rows.length === 1) return "removed";
        const still = await tx
          .select({ id: adminPasskeys.credentialId })
          .from(adminPasskeys)
          .where(
            and(eq(adminPasskeys.adminEmail, email), eq(adminPasskeys.credentialId, credentialId)),
          );
        return still.length === 1 ? "last" : "unknown";
      },
      /** Removes every passkey and recovery code of an administrator; how many passkeys. */
      async removeAll(tx: Db, email: string): Promise<number> {
        await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminEmail, email));
        const gone = await tx
          .delete(adminPasskeys)
          .where(eq(adminPasskeys.adminEmail, email))
          .returning({ id: adminPasskeys.credentialId });
        return gone.length;
      },
    },

    recoveryCodes: {
      /** New codes for an administrator, replacing any they had; the codes, shown once. */
      async replace(tx: Db, email: string): Promise<string[]> {
        const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
        await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminEmail, email));
        await tx.insert(adminRecoveryCodes).values(
          codes.map((code) => ({
            adminEmail: email,
            codeHash: sha256(canonicalRecoveryCode(code)!),
          })),
        );
        return codes;
      },
      /** Spends a code of this administrator: true once, false for any code not theirs or spent. */
      async use(tx: Db, email: string, typed: string): Promise<boolean> {
        const code = canonicalRecoveryCode(typed);
        if (!code) return false;
        const rows = await tx
          .update(adminRecoveryCodes)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(adminRecoveryCodes.codeHash, sha256(code)),
              eq(adminRecoveryCodes.adminEmail, email),
              isNull(adminRecoveryCodes.usedAt),
            ),
          )
          .returning({ hash: adminRecoveryCodes.codeHash });
        return rows.length === 1;
      },
      async left(email: string): Promise<number> {
        const [row] = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(adminRecoveryCodes)
          .where(and(eq(adminRecoveryCodes.adminEmail, email), isNull(adminRecoveryCodes.usedAt)));
        return row?.n ?? 0;
      },
    },

    challenges: {
      /** Starts a ceremony for a session row: any earlier challenge of that ceremony ends. */
      async put(
        tx: Db,
        sessionRow: string,
        ceremony: Ceremony,
        secret: string,
        lifetimeMs: number,
      ): Promise<void> {
        const expiresAt = new Date(Date.now() + lifetimeMs);
        await tx
          .insert(adminChallenges)
          .values({ sessionId: sessionRow, ceremony, secret, expiresAt })
          .onConflictDoUpdate({
            target: [adminChallenges.sessionId, adminChallenges.ceremony],
            set: { secret, expiresAt, createdAt: new Date() },
          });
      },
      /**
       * Takes the challenge of a ceremony for a session row if it is `secret` and live: it is
       * deleted whatever the answer, so a challenge is tried once.
       */
      async take(sessionRow: string, ceremony: Ceremony, secret: string): Promise<boolean> {
        const rows = await db
          .delete(adminChallenges)
          .where(
            and(eq(adminChallenges.sessionId, sessionRow), eq(adminChallenges.ceremony, ceremony)),
          )
          .returning({ secret: adminChallenges.secret, expiresAt: adminChallenges.expiresAt });
        const row = rows[0];
        return !!row && row.secret === secret && row.expiresAt > new Date();
      },
      /**
       * Takes the challenge of a ceremony for a session row only if it is `secret` and live (a
       * mailed code): a wrong guess leaves it, and counts as a failure where the caller says so.
       */
      async takeMatching(sessionRow: string, ceremony: Ceremony, secret: string): Promise<boolean> {
        const rows = await db
          .delete(adminChallenges)
          .where(
            and(
              eq(adminChallenges.sessionId, sessionRow),
              eq(adminChallenges.ceremony, ceremony),
              eq(adminChallenges.secret, secret),
              gt(adminChallenges.expiresAt, new Date()),
            ),
          )
          .returning({ at: adminChallenges.expiresAt });
        return rows.length === 1;
      },
      /** Whether a session row has a live challenge of a ceremony (a code was mailed). */
      async live(sessionRow: string, ceremony: Ceremony): Promise<boolean> {
        const rows = await db
          .select({ at: adminChallenges.expiresAt })
          .from(adminChallenges)
          .where(
            and(
              eq(adminChallenges.sessionId, sessionRow),
              eq(adminChallenges.ceremony, ceremony),
              gt(adminChallenges.expiresAt, new Date()),
            ),
          );
        return rows.length === 1;
      },
      /** Deletes expired challenges (housekeeping); how many. */
      async sweep(): Promise<number> {
        const rows = await db
          .delete(adminChallenges)
          .where(lt(adminChallenges.expiresAt, new Date()))
          .returning({ at: adminChallenges.expiresAt });
        return rows.length;
      },
    },

    locks: {
      /** Until when an administrator is locked out of verification, or null. */
      async lockedUntil(email: string): Promise<Date | null> {
        const rows = await db
          .select({ until: adminLocks.lockedUntil })
          .from(adminLocks)
          .where(and(eq(adminLocks.adminEmail, email), gt(adminLocks.lockedUntil, new Date())));
        return rows[0]?.until ?? null;
      },
      /**
       * Counts a failed verification. When it is the fifth in 15 minutes since any lock ended,
       * the administrator is locked for 15 minutes: the time it ends, else null.
       */
      async fail(tx: Db, email: string, reason: string): Promise<Date | null> {
        await tx.insert(adminVerificationFailures).values({ adminEmail: email, reason });
        const [row] = await queryRows<{ failures: number }>(
          tx,
          sql`SELECT count(*)::int AS failures FROM admin_verification_failures
              WHERE admin_email = ${email}
                AND at > now() - make_interval(secs => ${FAILURE_WINDOW_MS / 1000})
                AND at > COALESCE((SELECT locked_until FROM admin_locks
                                   WHERE admin_email = ${email}), '-infinity')`,
        );
        if ((row?.failures ?? 0) < FAILURES_TO_LOCK) return null;
        const until = new Date(Date.now() + LOCK_MS);
        await tx
          .insert(adminLocks)
          .values({ adminEmail: email, lockedUntil: until })
          .onConflictDoUpdate({ target: adminLocks.adminEmail, set: { lockedUntil: until } });
        return until;
      },
    },

    exportTokens: {
      /** A new token for an administrator: the token, to be shown once, and its row. */
      async create(
        tx: Db,
        email: string,
        label: string,
        days: number,
      ): Promise<{ token: string; id: number; expiresAt: Date }> {
        const token = newExportToken();
        const expiresAt = new Date(Date.now() + days * 24 * 60 * 60_000);
        const [row] = await tx
          .insert(adminExportTokens)
          .values({ adminEmail: email, tokenHash: sha256(token), label, expiresAt })
          .returning({ id: adminExportTokens.id });
        return { token, id: row!.id, expiresAt };
      },
      /** Every administrator's tokens, live first, newest first. */
      list(): Promise<ExportTokenRow[]> {
        return db
          .select({
            id: adminExportTokens.id,
            adminEmail: adminExportTokens.adminEmail,
            label: adminExportTokens.label,
            createdAt: adminExportTokens.createdAt,
            expiresAt: adminExportTokens.expiresAt,
            revokedAt: adminExportTokens.revokedAt,
            lastUsedAt: adminExportTokens.lastUsedAt,
            lastUsedFrom: adminExportTokens.lastUsedFrom,
          })
          .from(adminExportTokens)
          .orderBy(
            sql`${adminExportTokens.revokedAt} IS NULL AND ${adminExportTokens.expiresAt} > now() DESC`,
            desc(adminExportTokens.createdAt),
          )
          .limit(200);
      },
      /** Revokes a live token: its label, or null when there is no such live token. */
      async revoke(tx: Db, id: number): Promise<{ label: string; adminEmail: string } | null> {
        const rows = await tx
          .update(adminExportTokens)
          .set({ revokedAt: new Date() })
          .where(and(eq(adminExportTokens.id, id), isNull(adminExportTokens.revokedAt)))
          .returning({ label: adminExportTokens.label, adminEmail: adminExportTokens.adminEmail });
        return rows[0] ?? null;
      },
      /**
       * The administrator a presented token belongs to while it is live (not revoked, not
       * expired), noting its use; null for anything else.
       */
      async use(presented: string, from: string): Promise<{ adminEmail: string } | null> {
        if (!EXPORT_TOKEN.test(presented)) return null;
        const rows = await db
          .update(adminExportTokens)
          .set({ lastUsedAt: new Date(), lastUsedFrom: from })
          .where(
            and(
              eq(adminExportTokens.tokenHash, sha256(presented)),
              isNull(adminExportTokens.revokedAt),
              gt(adminExportTokens.expiresAt, new Date()),
            ),
          )
          .returning({ adminEmail: adminExportTokens.adminEmail });
        return rows[0] ?? null;
      },
    },
  };
}

export type AdminCredentials = ReturnType<typeof createAdminCredentials>;
