/**
 * Sessions at rest (migration 0016, decision 035): a row keeps the SHA-256 of its session's id,
 * never the id a cookie carries, so what a backup holds cannot open a session; rows written before
 * the migration are hashed the same way and keep working.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { createSessionStore } from "#server/identity/session-store.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

const database = databaseForThisFile();

const session = {
  uid: "uid-at-rest",
  email: "pat@firm.example",
  emailVerified: true,
  expiresAt: new Date(Date.now() + 86_400_000),
  signedInAt: new Date(),
};

test("a session's row holds the hash of its id, and only the id opens it", async () => {
  const { db } = database();
  const store = createSessionStore(db);
  const id = await store.create(session);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM sessions WHERE uid = ${session.uid}`,
  );
  expect(rows).toEqual([{ id: createHash("sha256").update(id).digest("hex") }]);
  expect(JSON.stringify(rows)).not.toContain(id);
  expect(await store.find(id)).toMatchObject({ uid: session.uid });
  // What a backup holds is not a session id: as a cookie's id, it opens nothing.
  expect(await store.find(rows[0]!.id)).toBeNull();
  await store.markChecked(id, { email: "pat@firm.example", emailVerified: true });
  await store.revoke(id);
  expect(await store.find(id)).toBeNull();
});

test("a session written before migration 0016 is hashed by it and still opens with its cookie's id", async () => {
  const { db } = database();
  const raw = "pre0016SessionIdOf24Chr";
  await db.execute(
    sql`INSERT INTO sessions (id, uid, expires_at) VALUES (${raw}, 'uid-old', now() + interval '1 day')`,
  );
  const migration = readFileSync(
    path.join(import.meta.dirname, "../../db/migrations/0016_sessions_hashed_at_rest.sql"),
    "utf8",
  );
  // The migration again, on this one row (the others are hashed already).
  await db.execute(sql.raw(migration.replace(/;\s*$/, "").concat(` WHERE id = '${raw}'`)));
  expect(await createSessionStore(db).find(raw)).toMatchObject({ uid: "uid-old" });
});

test("a verification ends the session's row and makes a new one: the old id opens nothing after it", async () => {
  const { db } = database();
  const store = createSessionStore(db);
  const before = await store.create({ ...session, uid: "uid-admin" });
  expect((await store.find(before))?.admin).toMatchObject({ verifiedAt: null, verifiedBy: null });
  const after = await store.verifyAdmin(before, "passkey");
  expect(after).not.toBeNull();
  expect(after).not.toBe(before);
  expect(await store.find(before)).toBeNull();
  const verified = (await store.find(after!))!;
  expect(verified).toMatchObject({ uid: "uid-admin", email: session.email });
  expect(verified.admin.verifiedBy).toBe("passkey");
  expect(verified.admin.stepUpAt).not.toBeNull();
  // A step-up keeps the first verification's time (the 12 hours run from it)...
  await db.execute(
    sql`UPDATE sessions SET admin_verified_at = admin_verified_at - interval '2 hours',
                            admin_seen_at = now()
        WHERE uid = 'uid-admin' AND revoked_at IS NULL`,
  );
  const first = (await store.find(after!))!.admin.verifiedAt!;
  const stepped = await store.verifyAdmin(after!, "passkey");
  expect((await store.find(stepped!))!.admin.verifiedAt).toEqual(first);
  // ...a lapsed one starts them again.
  await db.execute(
    sql`UPDATE sessions SET admin_seen_at = now() - interval '2 hours'
        WHERE uid = 'uid-admin' AND revoked_at IS NULL`,
  );
  const again = await store.verifyAdmin(stepped!, "passkey");
  expect((await store.find(again!))!.admin.verifiedAt!.getTime()).toBeGreaterThan(first.getTime());
  // A recovery code verifies without stepping up.
  const recovered = await store.verifyAdmin(again!, "recovery");
  expect((await store.find(recovered!))!.admin).toMatchObject({
    verifiedBy: "recovery",
    stepUpAt: null,
  });
  // An ended session cannot be verified.
  await store.revoke(recovered!);
  expect(await store.verifyAdmin(recovered!, "passkey")).toBeNull();
});
