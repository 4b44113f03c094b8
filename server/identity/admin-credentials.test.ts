import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { queryRows, type Db } from "#db/client.ts";
import {
  canonicalRecoveryCode,
  createAdminCredentials,
  FAILURES_TO_LOCK,
  LOCK_MS,
  newExportToken,
  newMailboxCode,
  newRecoveryCode,
} from "#server/identity/admin-credentials.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

const database = databaseForThisFile();
const credentials = () => createAdminCredentials(database().db);
const inTx = <T>(work: (tx: Db) => Promise<T>) =>
  database().db.transaction((tx) => work(tx as unknown as Db));

describe("secrets", () => {
  test("a recovery code is 120 random bits of Crockford base32 in six groups", () => {
    const codes = new Set(Array.from({ length: 200 }, newRecoveryCode));
    expect(codes.size).toBe(200);
    for (const code of codes)
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){5}$/);
  });

  test("a typed recovery code is read as meant: case, spaces, dashes and look-alike letters", () => {
    const code = "ABCD-EFGH-JKMN-PQRS-TVWX-YZ01";
    expect(canonicalRecoveryCode(" abcd efgh-jkmn pqrs-tvwx-yzoi ")).toBe(code.replace(/-/g, ""));
    expect(canonicalRecoveryCode("ABCD-EFGH")).toBeNull();
    expect(canonicalRecoveryCode("ABCD-EFGH-JKMN-PQRS-TVWX-YZ0U")).toBeNull();
  });

  test("an export token says what it is and holds 256 bits; a mailed code is six digits", () => {
    expect(newExportToken()).toMatch(/^tieout_export_[A-Za-z0-9_-]{43}$/);
    for (let i = 0; i < 50; i++) expect(newMailboxCode()).toMatch(/^\d{6}$/);
  });
});

describe("in the database", () => {
  test("recovery codes: each works once, for its own administrator only, and only its hash is kept", async () => {
    const c = credentials();
    const codes = await inTx((tx) => c.recoveryCodes.replace(tx, "a@example.com"));
    expect(codes).toHaveLength(10);
    const stored = await queryRows<{ code_hash: string }>(
      database().db,
      sql`SELECT code_hash FROM admin_recovery_codes WHERE admin_email = 'a@example.com'`,
    );
    expect(stored.map((r) => r.code_hash).join()).not.toContain(codes[0]!.replace(/-/g, ""));
    expect(await inTx((tx) => c.recoveryCodes.use(tx, "b@example.com", codes[0]!))).toBe(false);
    expect(
      await inTx((tx) => c.recoveryCodes.use(tx, "a@example.com", codes[0]!.toLowerCase())),
    ).toBe(true);
    expect(await inTx((tx) => c.recoveryCodes.use(tx, "a@example.com", codes[0]!))).toBe(false);
    expect(await c.recoveryCodes.left("a@example.com")).toBe(9);
    // New codes replace every earlier one.
    await inTx((tx) => c.recoveryCodes.replace(tx, "a@example.com"));
    expect(await inTx((tx) => c.recoveryCodes.use(tx, "a@example.com", codes[1]!))).toBe(false);
  });

  test("a challenge is taken once, by its own session and ceremony, while it lives", async () => {
    const c = credentials();
    await c.challenges.put(database().db, "session-1", "authenticate", "challenge-1", 60_000);
    expect(await c.challenges.take("session-2", "authenticate", "challenge-1")).toBe(false);
    expect(await c.challenges.take("session-1", "register", "challenge-1")).toBe(false);
    expect(await c.challenges.take("session-1", "authenticate", "challenge-1")).toBe(true);
    expect(await c.challenges.take("session-1", "authenticate", "challenge-1")).toBe(false);
    // A wrong answer spends it too.
    await c.challenges.put(database().db, "session-1", "authenticate", "challenge-2", 60_000);
    expect(await c.challenges.take("session-1", "authenticate", "another")).toBe(false);
    expect(await c.challenges.take("session-1", "authenticate", "challenge-2")).toBe(false);
    // An expired one is refused.
    await c.challenges.put(database().db, "session-1", "authenticate", "challenge-3", -1);
    expect(await c.challenges.take("session-1", "authenticate", "challenge-3")).toBe(false);
  });

  test("a mailed code survives a wrong guess, is taken when right, and not after 10 minutes", async () => {
    const c = credentials();
    await c.challenges.put(database().db, "session-3", "mailbox", "hash-of-code", 10 * 60_000);
    expect(await c.challenges.live("session-3", "mailbox")).toBe(true);
    expect(await c.challenges.takeMatching("session-3", "mailbox", "wrong")).toBe(false);
    expect(await c.challenges.takeMatching("session-3", "mailbox", "hash-of-code")).toBe(true);
    expect(await c.challenges.live("session-3", "mailbox")).toBe(false);
    await c.challenges.put(database().db, "session-3", "mailbox", "hash-of-code", -1);
    expect(await c.challenges.takeMatching("session-3", "mailbox", "hash-of-code")).toBe(false);
  });

  test("the fifth failure in 15 minutes locks for 15 minutes; counting starts again after a lock", async () => {
    const c = credentials();
    const email = "locked@example.com";
    for (let i = 1; i < FAILURES_TO_LOCK; i++)
      expect(await inTx((tx) => c.locks.fail(tx, email, "code-wrong"))).toBeNull();
    expect(await c.locks.lockedUntil(email)).toBeNull();
    const until = await inTx((tx) => c.locks.fail(tx, email, "code-wrong"));
    expect(until).not.toBeNull();
    expect(until!.getTime() - Date.now()).toBeGreaterThan(LOCK_MS - 5_000);
    expect((await c.locks.lockedUntil(email))?.getTime()).toBe(until!.getTime());
    // Failures older than 15 minutes do not count.
    await database().db.execute(
      sql`UPDATE admin_verification_failures SET at = at - interval '16 minutes' WHERE admin_email = ${email}`,
    );
    await database().db.execute(
      sql`UPDATE admin_locks SET locked_until = now() - interval '1 second'`,
    );
    expect(await c.locks.lockedUntil(email)).toBeNull();
    expect(await inTx((tx) => c.locks.fail(tx, email, "code-wrong"))).toBeNull();
  });

  test("export tokens work while live, note their use, and stop when revoked or expired", async () => {
    const c = credentials();
    const made = await inTx((tx) => c.exportTokens.create(tx, "a@example.com", "Nightly", 1));
    expect(await c.exportTokens.use(made.token, "192.0.2.7")).toEqual({
      adminEmail: "a@example.com",
    });
    expect(await c.exportTokens.use(`${made.token.slice(0, -1)}x`, "192.0.2.7")).toBeNull();
    const listed = (await c.exportTokens.list()).find((t) => t.id === made.id)!;
    expect(listed.lastUsedFrom).toBe("192.0.2.7");
    expect(JSON.stringify(listed)).not.toContain(made.token);
    expect(await inTx((tx) => c.exportTokens.revoke(tx, made.id))).toEqual({
      label: "Nightly",
      adminEmail: "a@example.com",
    });
    expect(await c.exportTokens.use(made.token, "192.0.2.7")).toBeNull();
    const old = await inTx((tx) => c.exportTokens.create(tx, "a@example.com", "Old", 1));
    await database().db.execute(
      sql`UPDATE admin_export_tokens SET expires_at = now() - interval '1 second' WHERE id = ${old.id}`,
    );
    expect(await c.exportTokens.use(old.token, "192.0.2.7")).toBeNull();
  });

  test("a passkey is never removed when it is its administrator's last", async () => {
    const c = credentials();
    const passkey = (id: string) => ({
      credentialId: id,
      adminEmail: "keys@example.com",
      userHandle: "handle",
      publicKey: "key",
      counter: 0,
      transports: ["internal"],
      backedUp: false,
      deviceType: "singleDevice" as const,
      aaguid: "00000000-0000-0000-0000-000000000000",
      name: `Key ${id}`,
    });
    await inTx((tx) => c.passkeys.add(tx, passkey("one")));
    expect(await inTx((tx) => c.passkeys.remove(tx, "keys@example.com", "one"))).toBe("last");
    await inTx((tx) => c.passkeys.add(tx, passkey("two")));
    expect(await inTx((tx) => c.passkeys.remove(tx, "other@example.com", "one"))).toBe("unknown");
    expect(await inTx((tx) => c.passkeys.remove(tx, "keys@example.com", "one"))).toBe("removed");
    expect(await inTx((tx) => c.passkeys.remove(tx, "keys@example.com", "two"))).toBe("last");
    expect((await c.passkeys.list("keys@example.com")).map((p) => p.credentialId)).toEqual(["two"]);
  });
});
