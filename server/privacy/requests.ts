/**
 * Privacy requests (decision 030): access, deletion or correction of what the site holds under an
 * email address.
 *
 * - Asking (the form on /privacy-request) writes the request, its audit row and the mail with its
 *   confirmation link in one transaction. Every address gets the same answer, and the mail reads
 *   the same whether anything is held or not.
 * - The link opens a page that only reads; its button's POST confirms. A confirmed access or
 *   deletion request is carried out at once; a correction waits for an administrator, who sees it
 *   with its deadline on /admin/privacy.
 * - What could not be carried out at once (Firebase or the database away) is retried by the sweep
 *   every minute, which also closes requests never confirmed and removes the sent mails that held
 *   an address or its data.
 * - A completed request keeps its kind, dates and outcome; its address, name and details are
 *   cleared. The audit log names requests by number only.
 */
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { queryRows, type Db } from "#db/client.ts";
import { outbox, privacyRequests } from "#db/schema.ts";
import { AUTOMATIC, recordAudit } from "#server/audit/audit-log.ts";
import type { Env } from "#server/env.ts";
import type { Accounts } from "#server/identity/firebase-admin.ts";
import type { SessionStore } from "#server/identity/session-store.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import {
  renderPrivacyAccess,
  renderPrivacyConfirm,
  renderPrivacyCorrected,
} from "#server/mail/templates/privacy-mails.tsx";
import { secondsUntilTomorrow, takeConfirmationMail } from "#server/outbox/mailbox-quota.ts";
import { enqueue, type EmailInput } from "#server/outbox/outbox.ts";
import { gatherDataHeld, summarizeDataHeld } from "#server/privacy/data-held.ts";
import {
  accessMailKey,
  closeRequest,
  confirmMailKey,
  correctedMailKey,
  eraseAccountRows,
  eraseEverythingUnder,
} from "#server/privacy/erase.ts";
import type { ErasureLedger } from "#server/audit/erasure-ledger.ts";
import { countSubmission } from "#server/http/rate-limit.ts";
import { runEvery, type Periodic } from "#server/background/periodic.ts";
import { hashToken, isWellFormedToken, newToken } from "#server/waitlist/tokens.ts";
import { SECURITY_FACTS } from "#src/content/security-facts.ts";
import { CONTROL_CHARACTER } from "#src/lib/form-text.ts";
import {
  PRIVACY_LINK_DAYS,
  PRIVACY_REQUEST_KINDS,
  type OpenPrivacyRequest,
  type PrivacyRequestField,
  type PrivacyRequestKind,
  type PrivacyRequestsPort,
} from "#src/lib/privacy-requests.ts";

/** How often the sweep runs. */
const SWEEP_MS = 60_000;
/** Failed mails of completed requests stay this long for the deliveries page, then go. */
const FAILED_MAIL_KEPT_DAYS = 7;
const MAX = { name: 200, details: 2000, note: 2000 } as const;

const MESSAGES: Record<PrivacyRequestField, string> = {
  email: "Enter the email address the request is about, such as name@yourfirm.com.",
  name: `Enter your name, in at most ${MAX.name} characters of plain text.`,
  kind: "Choose what you are asking for: a copy of your data, its deletion, or a correction.",
  details: `Keep the details to at most ${MAX.details} characters of plain text.`,
};
/** A correction's details are its point: without them there is nothing to correct. */
const CORRECTION_NEEDS_DETAILS = "For a correction, say what is wrong and what it should say.";

const EmailSchema = z.email().max(254);

/** The form's fields checked; each problem as the sentence shown under its field. */
export function parsePrivacyRequest(input: {
  email: string;
  name: string;
  kind: string;
  details: string;
}):
  | { ok: true; email: string; name: string; kind: PrivacyRequestKind; details: string }
  | { ok: false; errors: Partial<Record<PrivacyRequestField, string>> } {
  const errors: Partial<Record<PrivacyRequestField, string>> = {};
  const email = input.email.trim();
  const name = input.name.trim();
  const details = input.details.trim();
  if (!EmailSchema.safeParse(email).success) errors.email = MESSAGES.email;
  if (name === "" || name.length > MAX.name || CONTROL_CHARACTER.test(name))
    errors.name = MESSAGES.name;
  const kind = PRIVACY_REQUEST_KINDS.find((k) => k === input.kind);
  if (!kind) errors.kind = MESSAGES.kind;
  if (details.length > MAX.details || CONTROL_CHARACTER.test(details))
    errors.details = MESSAGES.details;
  else if (kind === "correction" && details === "") errors.details = CORRECTION_NEEDS_DETAILS;
  if (!kind || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, email, name, kind, details };
}

type Deps = {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  accounts: Pick<Accounts, "findByEmail" | "details" | "deleteAccount">;
  store: Pick<SessionStore, "listForAccount">;
  ledger: ErasureLedger;
};

export type PrivacyRequests = PrivacyRequestsPort & {
  /**
   * Carries out confirmed access and deletion requests still open, closes requests never
   * confirmed whose link has expired, and removes privacy mails no longer needed. Resolves with
   * how many requests it completed.
   */
  sweep: () => Promise<number>;
  /** Runs the sweep now and every minute until stopped. */
  start: () => void;
  stop: () => Promise<void>;
  /** Called after a change put messages in the outbox, so that they go out at once. */
  onEnqueued: (listener: () => void) => void;
};

type OpenRow = { id: number; kind: PrivacyRequestKind; email: string };

export function createPrivacyRequests({
  db,
  env,
  log,
  accounts,
  store,
  ledger,
}: Deps): PrivacyRequests {
  const listeners: (() => void)[] = [];
  const enqueued = () => {
    for (const listener of listeners) listener();
  };
  // Every privacy mail is what its requester asked for: their link, their copy, its outcome.
  const mailTo = (
    key: string,
    email: string,
    mail: Omit<EmailInput, "from" | "to" | "category">,
  ) => ({
    key,
    channel: "email" as const,
    email: {
      category: "requested" as const,
      from: env.mail.from,
      to: { name: undefined, address: email },
      ...mail,
    },
  });

  /** The request while its link works: unconfirmed, unexpired. */
  const liveLink = (token: string) =>
    and(
      eq(privacyRequests.tokenHash, hashToken(token)),
      eq(privacyRequests.state, "unconfirmed"),
      sql`${privacyRequests.tokenExpiresAt} > now()`,
    );

  /** Takes an open request for this transaction; null when another instance has it or it is done. */
  async function lockOpen(tx: Db, id: number): Promise<OpenRow | null> {
    const [row] = await queryRows<OpenRow>(
      tx,
      sql`SELECT id::int AS id, kind, email FROM privacy_requests
          WHERE id = ${id} AND state = 'open' FOR UPDATE SKIP LOCKED`,
    );
    return row ?? null;
  }

  /** An access request: the data gathered now, mailed with its file, the request completed. */
  async function fulfilAccess(request: OpenRow): Promise<boolean> {
    const data = await gatherDataHeld(db, accounts, store, request.email);
    const mail = renderPrivacyAccess({
      data: {
        email: data.email,
        gatheredAt: data.gatheredAt,
        sections: summarizeDataHeld(data),
        file: data,
      },
      siteUrl: env.siteUrl,
    });
    const done = await db.transaction(async (tx) => {
      if (!(await lockOpen(tx, request.id))) return false;
      await enqueue(tx, [
        mailTo(accessMailKey(request.id), request.email, {
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          attachments: [mail.attachment],
        }),
      ]);
      return closeRequest(tx, request.id, "data mailed", {
        adminEmail: null,
        clientAddress: AUTOMATIC,
      });
    });
    if (done) enqueued();
    return done;
  }

  /**
   * A deletion request: the Firebase account of the address first (an account already gone counts
   * as deleted, so a retry finds nothing to do), then, in one transaction, its sessions, the
   * waitlist entry, the entry the account joined through (whatever its address), the
   * subscription, the other requests waiting for confirmation, and every mail that carries the
   * address.
   */
  async function fulfilDeletion(request: OpenRow): Promise<boolean> {
    const uid = await accounts.findByEmail(request.email);
    if (uid) await accounts.deleteAccount(uid);
    /** The addresses of the entries the account joined through, for the ledger. */
    let joined: string[] = [];
    const done = await db.transaction(async (tx) => {
      if (!(await lockOpen(tx, request.id))) return false;
      const erased = await eraseEverythingUnder(tx, request.email, {
        uid,
        requestId: request.id,
        answeredBy: `answered by the deletion of request ${request.id}`,
      });
      if (uid) {
        // An invitation admits its account whatever the account's address is now: the entry it
        // joined through is the account's too.
        joined = (await eraseAccountRows(tx, uid, [])).entries;
        if (joined.length > 0 && !erased.includes("waitlist entry")) erased.push("waitlist entry");
        erased.unshift("account");
      }
      const outcome = erased.length > 0 ? `erased: ${erased.join(", ")}` : "nothing held";
      return closeRequest(tx, request.id, outcome, { adminEmail: null, clientAddress: AUTOMATIC });
    });
    if (done)
      ledger.record([
        { scope: "everything", addresses: [request.email] },
        ...(uid ? [{ scope: "account" as const, uid, addresses: joined }] : []),
      ]);
    return done;
  }

  /** Carries out an open access or deletion request; false when it was not (yet) done. */
  async function fulfil(request: OpenRow): Promise<boolean> {
    try {
      const done =
        request.kind === "access" ? await fulfilAccess(request) : await fulfilDeletion(request);
      log.info(
        { event: "privacy.fulfilled", request: request.id, kind: request.kind, done },
        done ? "privacy request carried out" : "privacy request already taken",
      );
      return done;
    } catch (error) {
      log.error(
        { err: error, event: "privacy.fulfil_failed", request: request.id, kind: request.kind },
        "privacy request not carried out yet: it is retried by the sweep",
      );
      return false;
    }
  }

  async function sweep(): Promise<number> {
    const waiting = await queryRows<OpenRow>(
      db,
      sql`SELECT id::int AS id, kind, email FROM privacy_requests
          WHERE state = 'open' AND kind IN ('access', 'deletion') ORDER BY due_at LIMIT 20`,
    );
    let completed = 0;
    for (const request of waiting) if (await fulfil(request)) completed++;
    await db.transaction(async (tx) => {
      // A link never used: the request ends, and nothing personal of it stays.
      const expired = await tx
        .update(privacyRequests)
        .set({
          state: "completed",
          completedAt: sql`now()`,
          outcome: "never confirmed",
          email: null,
          name: null,
          details: null,
          tokenHash: null,
        })
        .where(
          and(
            eq(privacyRequests.state, "unconfirmed"),
            lt(privacyRequests.tokenExpiresAt, sql`now()`),
          ),
        )
        .returning({ id: privacyRequests.id });
      await tx.delete(outbox).where(
        inArray(
          outbox.key,
          expired.map((r) => confirmMailKey(r.id)),
        ),
      );
      // Privacy mails once sent, or failed a week ago (the admin's deliveries page shows a
      // failure meanwhile): each held an address or data. Judged by the mail's own times, since a
      // mail can fail days after its request closed (the relay or the site down meanwhile).
      await tx.execute(sql`
        DELETE FROM outbox
        WHERE key LIKE 'privacy-%-mail:%'
          AND (status = 'sent' OR (status = 'failed'
               AND failed_at < now() - make_interval(days => ${FAILED_MAIL_KEPT_DAYS})))`);
    });
    return completed;
  }

  let sweeps: Periodic | undefined;

  return {
    onEnqueued(listener) {
      listeners.push(listener);
    },

    async submit(input, meta) {
      try {
        const retryAfterSeconds = await countSubmission(db, log, {
          form: "privacy",
          key: `privacy:${meta.clientKey}`,
          requestId: meta.requestId,
          limitPerMinute: env.waitlistRateLimit,
        });
        if (retryAfterSeconds > 0) return { kind: "rate-limited", retryAfterSeconds };
        const parsed = parsePrivacyRequest(input);
        if (!parsed.ok) return { kind: "invalid", errors: parsed.errors };
        const { email, name, kind, details } = parsed;
        const token = newToken();
        const created = await db.transaction(async (tx) => {
          // A mailbox's confirmation mails from this form are bounded per day (decision 036).
          if (!(await takeConfirmationMail(tx, "privacy", email))) return null;
          const [row] = await tx
            .insert(privacyRequests)
            .values({
              kind,
              email,
              name,
              details: details === "" ? null : details,
              tokenHash: hashToken(token),
              tokenExpiresAt: sql`now() + make_interval(days => ${PRIVACY_LINK_DAYS})`,
            })
            .returning({ id: privacyRequests.id });
          if (!row) throw new Error("the request was not written");
          await recordAudit(tx, [
            {
              adminEmail: null,
              action: "privacy-request",
              entryId: null,
              requestId: row.id,
              outcome: kind,
              clientAddress: meta.clientAddress,
            },
          ]);
          const mail = renderPrivacyConfirm({
            kind,
            confirmUrl: `${env.siteUrl}/privacy-request/confirm?token=${token}`,
            siteUrl: env.siteUrl,
          });
          await enqueue(tx, [mailTo(confirmMailKey(row.id), email, mail)]);
          return row.id;
        });
        log.info(
          {
            event: "privacy.requested",
            reqId: meta.requestId,
            request: created,
            kind,
            email: maskEmail(email),
          },
          created === null
            ? "privacy request not written: the mailbox had its confirmation mails for the day"
            : "privacy request written",
        );
        // Not written, and told so: a request that could never be confirmed is no request.
        if (created === null) return { kind: "paused", retryAfterSeconds: secondsUntilTomorrow() };
        enqueued();
        return { kind: "accepted" };
      } catch (error) {
        log.error(
          { err: error, event: "privacy.unavailable", reqId: meta.requestId },
          "privacy request failed: database unavailable",
        );
        return { kind: "unavailable" };
      }
    },

    async checkLink(token) {
      if (!isWellFormedToken(token)) return null;
      const [row] = await db
        .select({ kind: privacyRequests.kind, email: privacyRequests.email })
        .from(privacyRequests)
        .where(liveLink(token));
      return row?.email ? { request: row.kind, maskedEmail: maskEmail(row.email) ?? "***" } : null;
    },

    async confirm(token, meta) {
      if (!isWellFormedToken(token)) return { kind: "gone" };
      let request: (OpenRow & { dueAt: Date }) | undefined;
      try {
        request = await db.transaction(async (tx) => {
          // One statement takes the link: of two presses at once, only one finds it unused. The
          // deadline counts from when the request was made, the shortest the policy promises.
          const [row] = await tx
            .update(privacyRequests)
            .set({
              state: "open",
              confirmedAt: sql`now()`,
              dueAt: sql`LEAST(
                ${privacyRequests.createdAt} + make_interval(days => ${SECURITY_FACTS.privacyShortestResponseDays}),
                ${privacyRequests.createdAt} + interval '1 month')`,
              tokenHash: null,
            })
            .where(liveLink(token))
            .returning({
              id: privacyRequests.id,
              kind: privacyRequests.kind,
              email: privacyRequests.email,
              dueAt: privacyRequests.dueAt,
            });
          if (!row?.email || !row.dueAt) return undefined;
          await recordAudit(tx, [
            {
              adminEmail: null,
              action: "privacy-confirm",
              entryId: null,
              requestId: row.id,
              outcome: row.kind,
              clientAddress: meta.clientAddress,
            },
          ]);
          return { id: row.id, kind: row.kind, email: row.email, dueAt: row.dueAt };
        });
      } catch (error) {
        log.error(
          { err: error, event: "privacy.unavailable", reqId: meta.requestId },
          "privacy confirmation failed: database unavailable",
        );
        return { kind: "unavailable" };
      }
      log.info(
        { event: "privacy.confirmed", reqId: meta.requestId, request: request?.id ?? null },
        request ? "privacy request confirmed" : "privacy link no longer works",
      );
      if (!request) return { kind: "gone" };
      if (request.kind !== "correction" && (await fulfil(request)))
        return { kind: "done", request: request.kind };
      return { kind: "open", request: request.kind, dueAt: request.dueAt.toISOString() };
    },

    async overview() {
      const open = await db
        .select()
        .from(privacyRequests)
        .where(eq(privacyRequests.state, "open"))
        .orderBy(privacyRequests.dueAt, privacyRequests.id)
        .limit(200);
      const [counts] = await queryRows<{
        unconfirmed: number;
        access: number;
        deletion: number;
        correction: number;
      }>(
        db,
        sql`SELECT
              count(*) FILTER (WHERE state = 'unconfirmed')::int AS unconfirmed,
              count(*) FILTER (WHERE ${recentlyDone} AND kind = 'access')::int AS access,
              count(*) FILTER (WHERE ${recentlyDone} AND kind = 'deletion')::int AS deletion,
              count(*) FILTER (WHERE ${recentlyDone} AND kind = 'correction')::int AS correction
            FROM privacy_requests
            WHERE state = 'unconfirmed' OR completed_at > now() - interval '30 days'`,
      );
      return {
        open: open.flatMap((row): OpenPrivacyRequest[] =>
          row.email && row.confirmedAt && row.dueAt
            ? [
                {
                  id: row.id,
                  kind: row.kind,
                  email: row.email,
                  name: row.name ?? "",
                  details: row.details ?? "",
                  createdAt: row.createdAt.toISOString(),
                  confirmedAt: row.confirmedAt.toISOString(),
                  dueAt: row.dueAt.toISOString(),
                },
              ]
            : [],
        ),
        unconfirmed: counts?.unconfirmed ?? 0,
        completedLately: {
          access: counts?.access ?? 0,
          deletion: counts?.deletion ?? 0,
          correction: counts?.correction ?? 0,
        },
      };
    },

    async complete(id, note, by) {
      const text = note.trim();
      if (text === "" || text.length > MAX.note)
        return {
          kind: "invalid",
          message: `Say what was done, in at most ${MAX.note} characters: the requester receives it.`,
        };
      try {
        const done = await db.transaction(async (tx) => {
          const [row] = await queryRows<OpenRow>(
            tx,
            sql`SELECT id::int AS id, kind, email FROM privacy_requests
                WHERE id = ${id} AND state = 'open' AND kind = 'correction' FOR UPDATE`,
          );
          if (!row) return false;
          const mail = renderPrivacyCorrected({ note: text, siteUrl: env.siteUrl });
          await enqueue(tx, [mailTo(correctedMailKey(id), row.email, mail)]);
          return closeRequest(tx, id, "corrected", by);
        });
        log.info(
          { event: "privacy.corrected", reqId: by.requestId, request: id, done },
          done ? "correction request completed" : "correction request was not open",
        );
        if (!done) return { kind: "not-open" };
        enqueued();
        return { kind: "completed" };
      } catch (error) {
        log.error(
          { err: error, event: "privacy.unavailable", reqId: by.requestId },
          "correction request not completed: database unavailable",
        );
        return { kind: "unavailable" };
      }
    },

    sweep,
    start() {
      sweeps ??= runEvery({
        everyMs: SWEEP_MS,
        first: "now",
        work: sweep,
        onError: (error) =>
          log.error({ err: error, event: "privacy.sweep_failed" }, "privacy sweep failed"),
      });
    },
    async stop() {
      await sweeps?.stop();
    },
  };
}

/** Completed in the last 30 days after a confirmation (requests never confirmed are not counted). */
const recentlyDone = sql.raw(
  "state = 'completed' AND confirmed_at IS NOT NULL AND completed_at > now() - interval '30 days'",
);
