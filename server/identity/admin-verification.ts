/**
 * The ceremonies that take an administrator's session from signed in to verified (decision 039):
 * the mailed code and the first passkey, a passkey assertion (which is also the step-up), a
 * recovery code, and the management of one's own passkeys, recovery codes and export tokens.
 *
 * The relying party is SITE_URL, never a request header: its host is the RP id and its origin the
 * only origin accepted. User verification is required. Every challenge is 256 random bits, kept in
 * the database bound to one session row and one ceremony, for 5 minutes, and taken once. Every
 * refusal logs one `admin.verify_refused` line with its reason and changes nothing but the count
 * of failures, which locks the administrator for 15 minutes at the fifth in 15 minutes.
 */
import { createHmac, randomBytes } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "#db/client.ts";
import { recordAudit, type AuditRecord } from "#server/audit/audit-log.ts";
import type { Env } from "#server/env.ts";
import type { Accounts } from "#server/identity/firebase-admin.ts";
import {
  CHALLENGE_MS,
  CREDENTIAL_NAME_MAX,
  EXPORT_TOKEN_MAX_DAYS,
  LOCK_MS,
  MAILBOX_CODE_MS,
  newMailboxCode,
  type AdminCredentials,
  type StoredPasskey,
} from "#server/identity/admin-credentials.ts";
import { adminLevel, passwordIsFresh, type AdminLevel } from "#server/identity/admin-level.ts";
import { atRest, type SessionStore } from "#server/identity/session-store.ts";
import type { CookieSession } from "#server/identity/session.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import { hitRateLimit } from "#server/http/rate-limit.ts";
import {
  renderAdminCode,
  renderAdminNotice,
  type AdminNotice,
} from "#server/mail/templates/admin-mails.tsx";
import { enqueue } from "#server/outbox/outbox.ts";
import { SITE } from "#src/content/site.ts";

/** Mailed codes one administrator may ask for in a minute. */
const CODES_PER_MINUTE = 2;

/** The session of a signed-in administrator, as the guard found it. */
export type AdminSession = {
  sessionId: string;
  email: string;
  signedInAt: Date;
  admin: Parameters<typeof adminLevel>[0];
};

/** The administrator's session a ceremony is for, from the cookie's session. */
export function adminSessionOf(user: CookieSession): AdminSession {
  return {
    sessionId: user.sessionId,
    email: (user.email ?? "").toLowerCase(),
    signedInAt: user.signedInAt,
    admin: user.admin,
  };
}

/** Why a ceremony was refused: the status, what the page says, and the log's reason. */
export class VerificationRefused extends Error {
  override name = "VerificationRefused";
  constructor(
    readonly status: 400 | 401 | 403 | 409 | 423 | 429,
    message: string,
    readonly reason: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

const refused = (
  status: VerificationRefused["status"],
  message: string,
  reason: string,
  retryAfterSeconds?: number,
) => new VerificationRefused(status, message, reason, retryAfterSeconds);

const STEP_UP_MESSAGE = "Confirm it's you: use your passkey again to do this.";

/** A passkey's name as given: one line, trimmed, at most 60 characters; else null. */
function passkeyName(value: unknown): string | null {
  if (typeof value !== "string") return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  const name = value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();
  return name.length >= 1 && name.length <= CREDENTIAL_NAME_MAX ? name : null;
}

/** The challenge a WebAuthn response answers, read from its client data; null if unreadable. */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | null {
  const encoded = response.response?.clientDataJSON;
  if (typeof encoded !== "string" || encoded.length > 4096) return null;
  try {
    const data: unknown = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === "string" && challenge.length <= 256 ? challenge : null;
  } catch {
    return null;
  }
}

/** A name for a new passkey when none is given: the kind of authenticator and the date. */
function defaultName(deviceType: string, now: Date): string {
  const kind = deviceType === "multiDevice" ? "Synced passkey" : "Security key or device";
  return `${kind}, ${now.toISOString().slice(0, 10)}`;
}

export function createAdminVerification(deps: {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  credentials: AdminCredentials;
  store: SessionStore;
  /** The secret that keys the hash of a mailed code (the newest session secret). */
  codeKey: string;
  /** Called after a mail was written to the outbox, to wake its worker. */
  onEnqueued: () => void;
  /** Firebase, asked whether an export token's administrator still is one. */
  accounts: Pick<Accounts, "findByEmail" | "lookup">;
}) {
  const { db, env, log, credentials, store, codeKey } = deps;
  const site = new URL(env.siteUrl);
  const rpID = site.hostname;
  const expectedOrigin = site.origin;
  const mailbox = (code: string, sessionRow: string) =>
    createHmac("sha256", codeKey)
      .update(`admin mailbox code\n${sessionRow}\n${code}`)
      .digest("hex");

  const notify = (email: string, event: AdminNotice, key: string) => ({
    key: `admin-notice:${key}`,
    channel: "email" as const,
    email: {
      category: "security" as const,
      from: env.mail.from,
      to: { name: undefined, address: email },
      ...renderAdminNotice(env.siteUrl, event),
    },
  });

  /** Writes audit rows and notices together, or neither. */
  async function record(rows: AuditRecord[], notices: Parameters<typeof notify>[]) {
    await db.transaction(async (tx) => {
      await recordAudit(tx, rows);
      await enqueue(
        tx,
        notices.map((args) => notify(...args)),
      );
    });
    deps.onEnqueued();
  }

  /** Refuses while the administrator is locked out. */
  async function notLocked(email: string) {
    const until = await credentials.locks.lockedUntil(email);
    if (until) {
      const wait = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
      throw refused(
        423,
        `Too many failed attempts: verification is locked for ${Math.ceil(wait / 60)} more ${Math.ceil(wait / 60) === 1 ? "minute" : "minutes"}.`,
        "locked",
        wait,
      );
    }
  }

  /** Counts a failure (and locks at the fifth, with its mail and Activity row), then refuses. */
  async function failed(
    session: AdminSession,
    clientAddress: string,
    status: VerificationRefused["status"],
    message: string,
    reason: string,
  ): Promise<never> {
    const lockedUntil = await db.transaction(async (tx) => {
      const until = await credentials.locks.fail(tx, session.email, reason);
      if (until) {
        await recordAudit(tx, [
          {
            adminEmail: session.email,
            action: "admin-lock",
            entryId: null,
            outcome: `locked for ${LOCK_MS / 60_000} minutes`,
            clientAddress,
          },
        ]);
        await enqueue(tx, [
          notify(
            session.email,
            { kind: "locked", minutes: LOCK_MS / 60_000 },
            `lock:${session.email}:${until.toISOString()}`,
          ),
        ]);
      }
      return until;
    });
    if (lockedUntil) {
      deps.onEnqueued();
      log.warn(
        { event: "admin.locked", email: maskEmail(session.email) },
        "administrator locked after five failed verifications",
      );
    }
    throw refused(status, message, reason);
  }

  /** What may register a passkey on this session now, if anything. */
  async function mayRegister(
    session: AdminSession,
    level: AdminLevel,
  ): Promise<"first" | "recovery" | "more" | null> {
    if (level.kind === "recovering") return "recovery";
    if (level.kind === "verified") return level.stepUpUntil ? "more" : null;
    const count = await credentials.passkeys.count(session.email);
    if (count > 0) return null;
    const proven = session.admin.mailboxProvenAt;
    return proven && Date.now() - proven.getTime() < MAILBOX_CODE_MS ? "first" : null;
  }

  /** The session after a verification: the new row's id for the cookie. */
  async function verifiedSession(session: AdminSession, by: "passkey" | "recovery") {
    const id = await store.verifyAdmin(session.sessionId, by);
    if (!id) throw refused(401, "Your session ended. Sign in again.", "session-ended");
    return id;
  }

  /** Refuses unless this session stepped up in the last 15 minutes. */
  function requireStepUp(session: AdminSession) {
    const level = adminLevel(session.admin, new Date());
    if (level.kind !== "verified" || !level.stepUpUntil)
      throw refused(401, STEP_UP_MESSAGE, "step-up-required");
  }

  return {
    rpID,
    expectedOrigin,

    /** What the verify page shows for this session. */
    async status(session: AdminSession) {
      const level = adminLevel(session.admin, new Date());
      const sessionRow = atRest(session.sessionId);
      const [passkeys, lockedUntil, codeSent] = await Promise.all([
        credentials.passkeys.count(session.email),
        credentials.locks.lockedUntil(session.email),
        credentials.challenges.live(sessionRow, "mailbox"),
      ]);
      return {
        email: session.email,
        level,
        passkeys,
        lockedUntil,
        codeSent,
        mailboxProven: (await mayRegister(session, level)) === "first",
        passwordFresh: passwordIsFresh(session.signedInAt, new Date()),
      };
    },

    /** Mails a code that proves the mailbox, for an administrator without a passkey. */
    async sendMailboxCode(session: AdminSession): Promise<void> {
      await notLocked(session.email);
      if ((await credentials.passkeys.count(session.email)) > 0)
        throw refused(409, "You already have a passkey: use it to verify.", "has-passkey");
      if (!passwordIsFresh(session.signedInAt, new Date()))
        throw refused(
          401,
          "Sign in with your password again first: a first passkey needs a password typed in the last 5 minutes.",
          "password-not-fresh",
        );
      const wait = await hitRateLimit(db, `admin-mailbox:${session.email}`, CODES_PER_MINUTE);
      if (wait > 0)
        throw refused(
          429,
          "A code was just sent. Please wait a minute before asking again.",
          "code-rate-limited",
          wait,
        );
      const code = newMailboxCode();
      const sessionRow = atRest(session.sessionId);
      await db.transaction(async (tx) => {
        await credentials.challenges.put(
          tx,
          sessionRow,
          "mailbox",
          mailbox(code, sessionRow),
          MAILBOX_CODE_MS,
        );
        await enqueue(tx, [
          {
            key: `admin-code:${randomBytes(12).toString("base64url")}`,
            channel: "email",
            email: {
              category: "requested",
              from: env.mail.from,
              to: { name: undefined, address: session.email },
              ...renderAdminCode({ code, minutes: MAILBOX_CODE_MS / 60_000, siteUrl: env.siteUrl }),
            },
          },
        ]);
      });
      deps.onEnqueued();
      log.info({ event: "admin.code_sent", email: maskEmail(session.email) }, "admin code mailed");
    },

    /** Checks a mailed code; the session may then register its first passkey. */
    async proveMailbox(
      session: AdminSession,
      typed: unknown,
      clientAddress: string,
    ): Promise<void> {
      await notLocked(session.email);
      const code = typeof typed === "string" ? typed.replace(/\s/g, "") : "";
      if (!/^\d{6}$/.test(code))
        throw refused(400, "Enter the six digits of the code we mailed you.", "code-malformed");
      const sessionRow = atRest(session.sessionId);
      const ok = await credentials.challenges.takeMatching(
        sessionRow,
        "mailbox",
        mailbox(code, sessionRow),
      );
      if (!ok)
        await failed(
          session,
          clientAddress,
          401,
          "That code is not right, or it has expired. Check the latest mail, or send a new code.",
          "code-wrong",
        );
      await store.proveMailbox(session.sessionId);
      log.info(
        { event: "admin.mailbox_proven", email: maskEmail(session.email) },
        "admin mailbox proven",
      );
    },

    /** Options for registering a passkey, when this session may. */
    async registrationOptions(session: AdminSession) {
      const level = adminLevel(session.admin, new Date());
      const may = await mayRegister(session, level);
      if (!may)
        throw level.kind === "verified"
          ? refused(401, STEP_UP_MESSAGE, "step-up-required")
          : refused(
              401,
              "Verify first: enter the code we mailed you, or use a passkey.",
              "not-allowed-to-register",
            );
      const existing = await credentials.passkeys.list(session.email);
      const handle =
        existing[0]?.userHandle ?? (await credentials.passkeys.userHandle(session.email));
      const options = await generateRegistrationOptions({
        rpName: `${SITE.name} admin`,
        rpID,
        userName: session.email,
        userDisplayName: session.email,
        userID: Buffer.from(handle, "base64url"),
        challenge: randomBytes(32),
        attestationType: "none",
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
        authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
        timeout: CHALLENGE_MS,
      });
      await credentials.challenges.put(
        db,
        atRest(session.sessionId),
        "register",
        options.challenge,
        CHALLENGE_MS,
      );
      // The handle travels with the challenge: the same one is stored with the passkey.
      return options;
    },

    /**
     * Registers a passkey from the browser's response. The first one comes with recovery codes,
     * shown once; the session is then verified (a new id for the cookie).
     */
    async register(
      session: AdminSession,
      body: { response?: unknown; name?: unknown },
      clientAddress: string,
    ): Promise<{ sessionId: string; recoveryCodes: string[] | null; name: string }> {
      const level = adminLevel(session.admin, new Date());
      const may = await mayRegister(session, level);
      if (!may)
        throw refused(
          401,
          level.kind === "verified" ? STEP_UP_MESSAGE : "Verify first.",
          "not-allowed-to-register",
        );
      const response = body.response as RegistrationResponseJSON | undefined;
      const challenge = response && typeof response === "object" ? challengeOf(response) : null;
      if (!response || !challenge)
        throw refused(
          400,
          "The passkey's answer could not be read. Please try again.",
          "malformed",
        );
      if (!(await credentials.challenges.take(atRest(session.sessionId), "register", challenge)))
        throw refused(
          400,
          "This passkey request has expired or was already used. Please try again.",
          "challenge-unknown",
        );
      let verification;
      try {
        verification = await verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch (error) {
        throw refused(
          400,
          "The passkey could not be checked. Please try again.",
          `registration-invalid: ${(error as Error).message.slice(0, 120)}`,
        );
      }
      if (!verification.verified)
        throw refused(
          400,
          "The passkey could not be checked. Please try again.",
          "registration-unverified",
        );
      const info = verification.registrationInfo;
      if (await credentials.passkeys.find(info.credential.id))
        throw refused(409, "This passkey is already registered.", "credential-exists");
      const name = passkeyName(body.name) ?? defaultName(info.credentialDeviceType, new Date());
      const handle = await credentials.passkeys.userHandle(session.email);
      const first = (await credentials.passkeys.count(session.email)) === 0;
      const codes = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        await credentials.passkeys.add(t, {
          credentialId: info.credential.id,
          adminEmail: session.email,
          userHandle: handle,
          publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
          counter: info.credential.counter,
          transports: info.credential.transports ?? [],
          backedUp: info.credentialBackedUp,
          deviceType: info.credentialDeviceType,
          aaguid: info.aaguid,
          name,
        });
        const made = first ? await credentials.recoveryCodes.replace(t, session.email) : null;
        await recordAudit(t, [
          {
            adminEmail: session.email,
            action: "passkey-add",
            entryId: null,
            outcome: `added "${name}"`,
            clientAddress,
          },
          ...(made
            ? [
                {
                  adminEmail: session.email,
                  action: "recovery-codes" as const,
                  entryId: null,
                  outcome: `${made.length} codes made`,
                  clientAddress,
                },
              ]
            : []),
        ]);
        await enqueue(t, [
          notify(
            session.email,
            { kind: "passkey-added", name },
            `passkey-added:${info.credential.id}`,
          ),
        ]);
        return made;
      });
      deps.onEnqueued();
      log.info(
        { event: "admin.passkey_added", email: maskEmail(session.email) },
        "passkey registered",
      );
      const sessionId = await verifiedSession(session, "passkey");
      return { sessionId, recoveryCodes: codes, name };
    },

    /** Options for a passkey assertion: verification, or a step-up. */
    async authenticationOptions(session: AdminSession) {
      await notLocked(session.email);
      const passkeys = await credentials.passkeys.list(session.email);
      if (passkeys.length === 0)
        throw refused(409, "You have no passkey yet: set one up with a mailed code.", "no-passkey");
      const options = await generateAuthenticationOptions({
        rpID,
        challenge: randomBytes(32),
        allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
        userVerification: "required",
        timeout: CHALLENGE_MS,
      });
      await credentials.challenges.put(
        db,
        atRest(session.sessionId),
        "authenticate",
        options.challenge,
        CHALLENGE_MS,
      );
      return options;
    },

    /** Checks a passkey assertion; the session is verified and stepped up (a new id). */
    async authenticate(
      session: AdminSession,
      body: { response?: unknown },
      clientAddress: string,
    ): Promise<{ sessionId: string }> {
      await notLocked(session.email);
      const response = body.response as AuthenticationResponseJSON | undefined;
      const challenge = response && typeof response === "object" ? challengeOf(response) : null;
      const fail = (status: VerificationRefused["status"], message: string, reason: string) =>
        failed(session, clientAddress, status, message, reason);
      if (!response || !challenge || typeof response.id !== "string")
        return fail(400, "The passkey's answer could not be read. Please try again.", "malformed");
      if (
        !(await credentials.challenges.take(atRest(session.sessionId), "authenticate", challenge))
      )
        return fail(
          400,
          "This passkey request has expired, was already used, or belongs to another sign-in. Please try again.",
          "challenge-unknown",
        );
      const passkey: StoredPasskey | null = await credentials.passkeys.find(response.id);
      if (!passkey)
        return fail(401, "This passkey is not registered for the admin.", "credential-unknown");
      if (passkey.adminEmail !== session.email)
        return fail(
          401,
          "This passkey belongs to another account.",
          "credential-of-another-account",
        );
      let verification;
      try {
        verification = await verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin,
          expectedRPID: rpID,
          // The counter is compared below, where going backwards is logged and not refused.
          credential: {
            id: passkey.credentialId,
            publicKey: Buffer.from(passkey.publicKey, "base64url"),
            counter: 0,
            transports: passkey.transports,
          },
          requireUserVerification: true,
        });
      } catch (error) {
        const message = (error as Error).message;
        const reason = /user verification/i.test(message)
          ? "user-verification-missing"
          : /origin/i.test(message)
            ? "wrong-origin"
            : /rp ?id/i.test(message)
              ? "wrong-rp-id"
              : "assertion-invalid";
        return fail(
          401,
          reason === "user-verification-missing"
            ? "Your passkey did not verify you (no PIN, fingerprint or face). Please try again."
            : "The passkey could not be checked. Please try again.",
          reason,
        );
      }
      if (!verification.verified)
        return fail(
          401,
          "The passkey could not be checked. Please try again.",
          "assertion-unverified",
        );
      const { newCounter, credentialBackedUp } = verification.authenticationInfo;
      if (passkey.counter > 0 && newCounter <= passkey.counter)
        log.warn(
          {
            event: "admin.passkey_counter_regressed",
            email: maskEmail(session.email),
            stored: passkey.counter,
            presented: newCounter,
          },
          "a passkey's signature counter went backwards (a cloned authenticator, or a synced one)",
        );
      await credentials.passkeys.recordUse(
        passkey.credentialId,
        Math.max(newCounter, passkey.counter),
        credentialBackedUp,
      );
      const sessionId = await verifiedSession(session, "passkey");
      log.info(
        { event: "admin.verified", email: maskEmail(session.email) },
        "admin verified with a passkey",
      );
      return { sessionId };
    },

    /** Spends a recovery code: the session is verified for one thing, a new passkey. */
    async useRecoveryCode(
      session: AdminSession,
      typed: unknown,
      clientAddress: string,
    ): Promise<{ sessionId: string }> {
      await notLocked(session.email);
      if (typeof typed !== "string" || typed.length > 64)
        throw refused(400, "Enter one of your recovery codes.", "recovery-malformed");
      const ok = await db.transaction((tx) =>
        credentials.recoveryCodes.use(tx as unknown as Db, session.email, typed),
      );
      if (!ok)
        return failed(
          session,
          clientAddress,
          401,
          "That recovery code is not right, or it was already used.",
          "recovery-wrong",
        );
      const left = await credentials.recoveryCodes.left(session.email);
      await record(
        [
          {
            adminEmail: session.email,
            action: "recovery-use",
            entryId: null,
            outcome: `${left} left`,
            clientAddress,
          },
        ],
        [
          [
            session.email,
            { kind: "recovery-used", left },
            `recovery-used:${session.email}:${left}:${Date.now()}`,
          ],
        ],
      );
      log.warn(
        { event: "admin.recovery_used", email: maskEmail(session.email) },
        "a recovery code was used",
      );
      return { sessionId: await verifiedSession(session, "recovery") };
    },

    requireStepUp,

    /** An administrator's own passkeys, for /account. */
    passkeys: (email: string) => credentials.passkeys.list(email),
    recoveryCodesLeft: (email: string) => credentials.recoveryCodes.left(email),

    async renamePasskey(session: AdminSession, id: unknown, name: unknown, clientAddress: string) {
      requireStepUp(session);
      const clean = passkeyName(name);
      if (typeof id !== "string" || !clean)
        throw refused(
          400,
          `Give the passkey a name of 1 to ${CREDENTIAL_NAME_MAX} characters.`,
          "name-invalid",
        );
      const done = await db.transaction(async (tx) => {
        const ok = await credentials.passkeys.rename(tx, session.email, id, clean);
        if (ok)
          await recordAudit(tx, [
            {
              adminEmail: session.email,
              action: "passkey-rename",
              entryId: null,
              outcome: `renamed "${clean}"`,
              clientAddress,
            },
          ]);
        return ok;
      });
      if (!done) throw refused(400, "That passkey is not one of yours.", "credential-unknown");
    },

    async removePasskey(session: AdminSession, id: unknown, clientAddress: string) {
      requireStepUp(session);
      if (typeof id !== "string")
        throw refused(400, "That passkey is not one of yours.", "credential-unknown");
      const passkey = await credentials.passkeys.find(id);
      const outcome = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const result = await credentials.passkeys.remove(t, session.email, id);
        if (result === "removed" && passkey) {
          await recordAudit(t, [
            {
              adminEmail: session.email,
              action: "passkey-remove",
              entryId: null,
              outcome: `removed "${passkey.name}"`,
              clientAddress,
            },
          ]);
          await enqueue(t, [
            notify(
              session.email,
              { kind: "passkey-removed", name: passkey.name },
              `passkey-removed:${id}`,
            ),
          ]);
        }
        return result;
      });
      if (outcome === "last")
        throw refused(
          409,
          "This is your only passkey: add another before you remove it.",
          "last-passkey",
        );
      if (outcome === "unknown")
        throw refused(400, "That passkey is not one of yours.", "credential-unknown");
      deps.onEnqueued();
    },

    async regenerateRecoveryCodes(session: AdminSession, clientAddress: string): Promise<string[]> {
      requireStepUp(session);
      const codes = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const made = await credentials.recoveryCodes.replace(t, session.email);
        await recordAudit(t, [
          {
            adminEmail: session.email,
            action: "recovery-codes",
            entryId: null,
            outcome: `${made.length} codes made`,
            clientAddress,
          },
        ]);
        await enqueue(t, [
          notify(
            session.email,
            { kind: "recovery-codes", count: made.length },
            `recovery-codes:${session.email}:${Date.now()}`,
          ),
        ]);
        return made;
      });
      deps.onEnqueued();
      return codes;
    },

    /**
     * Removes every passkey and recovery code of an administrator and ends their sessions: by
     * another administrator after a step-up, or by the operator's command (`by` names who).
     */
    async resetPasskeys(
      target: string,
      by: { adminEmail: string | null; label: string; clientAddress: string },
    ) {
      const email = target.trim().toLowerCase();
      if (!env.adminEmails.includes(email))
        throw refused(400, "That address is not an administrator's.", "not-an-admin");
      const removed = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const n = await credentials.passkeys.removeAll(t, email);
        await recordAudit(t, [
          {
            adminEmail: by.adminEmail,
            action: "passkeys-reset",
            entryId: null,
            outcome: `${email}: ${n} ${n === 1 ? "passkey" : "passkeys"} removed`,
            clientAddress: by.clientAddress,
          },
        ]);
        await enqueue(t, [
          notify(email, { kind: "reset", by: by.label }, `reset:${email}:${Date.now()}`),
        ]);
        return n;
      });
      await store.endSessionsOf(email);
      deps.onEnqueued();
      log.warn(
        { event: "admin.passkeys_reset", email: maskEmail(email) },
        "an administrator's passkeys were reset",
      );
      return removed;
    },

    /** A new export token: the token, shown once. */
    async createExportToken(
      owner: string,
      label: unknown,
      days: unknown,
      by: { adminEmail: string | null; label: string; clientAddress: string },
    ) {
      const email = owner.trim().toLowerCase();
      if (!env.adminEmails.includes(email))
        throw refused(400, "That address is not an administrator's.", "not-an-admin");
      const name = passkeyName(label);
      if (!name)
        throw refused(
          400,
          `Give the token a label of 1 to ${CREDENTIAL_NAME_MAX} characters.`,
          "label-invalid",
        );
      const n =
        typeof days === "number"
          ? days
          : typeof days === "string" && /^\d{1,3}$/.test(days)
            ? Number(days)
            : NaN;
      if (!Number.isInteger(n) || n < 1 || n > EXPORT_TOKEN_MAX_DAYS)
        throw refused(400, `A token lasts 1 to ${EXPORT_TOKEN_MAX_DAYS} days.`, "days-invalid");
      const made = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const token = await credentials.exportTokens.create(t, email, name, n);
        await recordAudit(t, [
          {
            adminEmail: by.adminEmail,
            action: "export-token-create",
            entryId: null,
            outcome: `"${name}" for ${email}, ${n} days`,
            clientAddress: by.clientAddress,
          },
        ]);
        await enqueue(t, [
          notify(
            email,
            { kind: "export-token", label: name, days: n, by: by.label },
            `export-token:${token.id}`,
          ),
        ]);
        return token;
      });
      deps.onEnqueued();
      return made;
    },

    async revokeExportToken(id: unknown, by: { adminEmail: string; clientAddress: string }) {
      const n =
        typeof id === "number"
          ? id
          : typeof id === "string" && /^\d{1,15}$/.test(id)
            ? Number(id)
            : NaN;
      if (!Number.isSafeInteger(n)) throw refused(400, "No such token.", "token-unknown");
      const done = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const row = await credentials.exportTokens.revoke(t, n);
        if (row)
          await recordAudit(t, [
            {
              adminEmail: by.adminEmail,
              action: "export-token-revoke",
              entryId: null,
              outcome: `"${row.label}" of ${row.adminEmail}`,
              clientAddress: by.clientAddress,
            },
          ]);
        return row;
      });
      if (!done) throw refused(400, "No such live token.", "token-unknown");
    },

    exportTokens: () => credentials.exportTokens.list(),
    /**
     * The administrator a presented export token acts for, while the token is live and they are
     * still an administrator: their address in ADMIN_EMAILS, their Firebase account there, enabled
     * and verified. A disabled administrator's tokens stop at once, as their sessions do.
     */
    async useExportToken(token: string, from: string): Promise<{ adminEmail: string } | null> {
      const owner = await credentials.exportTokens.use(token, from);
      if (!owner) return null;
      const uid = env.adminEmails.includes(owner.adminEmail)
        ? await deps.accounts.findByEmail(owner.adminEmail)
        : null;
      const account = uid ? await deps.accounts.lookup(uid) : null;
      if (account && !account.disabled && account.emailVerified) return owner;
      log.warn(
        { event: "admin.export_token_owner_refused", email: maskEmail(owner.adminEmail) },
        "export refused: the token's administrator is no longer one",
      );
      return null;
    },
  };
}

export type AdminVerification = ReturnType<typeof createAdminVerification>;
