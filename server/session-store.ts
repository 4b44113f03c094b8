/**
 * The rows behind session cookies (db/migrations/0002_sessions.sql). A cookie is honoured only
 * while its row exists, has not expired and has not been revoked: signing out ends a session for
 * good, including any copy of its cookie.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { sessions } from "#db/schema.ts";

export type SessionStore = {
  /** A new session for this account; returns its id (random, 144 bits). */
  create: (uid: string, expiresAt: Date) => Promise<string>;
  revoke: (id: string) => Promise<void>;
  isActive: (id: string) => Promise<boolean>;
};

export function createSessionStore(db: Db): SessionStore {
  let created = 0;
  return {
    async create(uid, expiresAt) {
      const id = randomBytes(18).toString("base64url");
      await db.insert(sessions).values({ id, uid, expiresAt });
      // Expired rows are of no use to anyone: sweep them now and then.
      if (++created % 200 === 0) {
        const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000);
        void db
          .delete(sessions)
          .where(lt(sessions.expiresAt, dayAgo))
          .catch(() => {});
      }
      return id;
    },
    async revoke(id) {
      await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
    },
    async isActive(id) {
      const rows = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(
          and(eq(sessions.id, id), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())),
        )
        .limit(1);
      return rows.length === 1;
    },
  };
}
