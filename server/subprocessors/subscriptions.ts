/**
 * The email subscription to sub-processor changes (decision 025), double opt-in as the waitlist's
 * (decision 023): a new address gets one confirmation mail and a repeat none, with the same answer
 * for both; the links in every mail open a page whose GET only reads; only its POST (or a mail
 * client's one-click unsubscribe) confirms or erases.
 *
 * Notices: each change of src/content/subprocessors.ts not yet in effect is mailed once to each
 * confirmed subscriber, under the outbox key `subprocessor-notice:<change id>:<subscriber id>`
 * (decision 022). Start-up enqueues what is missing (announce); confirming a subscription
 * enqueues the changes still pending for that subscriber, in the same transaction.
 */
import { and, eq, gt, isNull, like, or, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { queryRows, type Db } from "#db/client.ts";
import { outbox, subprocessorSubscribers, subprocessorTokens } from "#db/schema.ts";
import { createAnswerTimes } from "#server/http/answer-time.ts";
import type { Env } from "#server/env.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import type { MailCategory } from "#server/mail/suppression-policy.ts";
import {
  renderSubprocessorNotice,
  renderSubscriptionConfirm,
} from "#server/mail/templates/subprocessor-mails.tsx";
import { secondsUntilTomorrow, takeConfirmationMail } from "#server/outbox/mailbox-quota.ts";
import type { ErasureLedger } from "#server/audit/erasure-ledger.ts";
import { enqueue, type OutboxMessage } from "#server/outbox/outbox.ts";
import { isDisposableEmail } from "#server/waitlist/disposable.ts";
import { countSubmission } from "#server/http/rate-limit.ts";
import { hashToken, isWellFormedToken, newToken } from "#server/waitlist/tokens.ts";
import { daysBetween, type IsoDate } from "#src/content/dates.ts";
import {
  SUBPROCESSOR_CHANGES,
  SUBPROCESSOR_NOTICE_DAYS,
  SUBPROCESSORS,
  type Subprocessor,
  type SubprocessorChange,
} from "#src/content/subprocessors.ts";
import type {
  SubscribeResult,
  SubscriptionLinkPurpose,
  SubscriptionLinkResult,
  SubscriptionsPort,
} from "#src/lib/subprocessor-subscriptions.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A confirmation is asked for now; an unsubscribe link must work as long as a mail is kept. */
const TOKEN_LIFETIME_MS: Record<SubscriptionLinkPurpose, number> = {
  confirm: 14 * DAY_MS,
  unsubscribe: 365 * DAY_MS,
};
/** Serialises announcements when several instances start at once (one PostgreSQL server). */
const ANNOUNCE_LOCK_ID = 7_284_025;
/** Subscribers whose notices one transaction writes. */
const ANNOUNCE_BATCH = 200;

const EMAIL_MESSAGE = "Enter your email address, such as name@yourfirm.com.";
const DISPOSABLE_MESSAGE =
  "Please use a permanent address: throwaway addresses cannot receive our notices.";
const EmailSchema = z.email().max(254);

/** The outbox key of one subscriber's notice of one change: at most one, however often announced. */
const noticeKey = (changeId: string, subscriberId: number) =>
  `subprocessor-notice:${changeId}:${subscriberId}`;
const confirmKey = (subscriberId: number) => `subprocessor-confirm-mail:${subscriberId}`;

/** Every outbox row that carries a subscriber's address: what erasing the subscriber erases. */
const subscriberMail = (subscriberId: number) =>
  or(
    eq(outbox.key, confirmKey(subscriberId)),
    like(outbox.key, `subprocessor-notice:%:${subscriberId}`),
  );

/**
 * Erases the subscription of `email`, whatever its state, inside the caller's transaction: the
 * mail that carries the address, then the subscriber (its tokens go with it). Resolves true when
 * there was one. A confirmed privacy deletion request erases through here (decision 030).
 */
export async function eraseSubscriberOf(tx: Db, email: string): Promise<boolean> {
  const found = await tx
    .select({ id: subprocessorSubscribers.id })
    .from(subprocessorSubscribers)
    .where(sql`lower(${subprocessorSubscribers.email}) = lower(${email})`)
    .for("update");
  for (const { id } of found) {
    await tx.delete(outbox).where(subscriberMail(id));
    await tx.delete(subprocessorSubscribers).where(eq(subprocessorSubscribers.id, id));
  }
  return found.length > 0;
}

/**
 * Erases up to `limit` subscriptions never confirmed whose confirm link has expired (it works 14
 * days, and a subscription is never mailed a second one), with their tokens and mail, in one
 * transaction; rows are taken `SKIP LOCKED`, so instances sweeping at once share the work.
 * Resolves with how many it erased; housekeeping (server/operations/housekeeping.ts) calls it every pass.
 */
export async function eraseUnconfirmedSubscribers(db: Db, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const stale = await queryRows<{ id: number }>(
      tx,
      sql`SELECT id::int AS id FROM subprocessor_subscribers
          WHERE state = 'waiting'
            AND created_at < now() - make_interval(secs => ${TOKEN_LIFETIME_MS.confirm / 1000})
          ORDER BY id LIMIT ${limit}
          FOR UPDATE SKIP LOCKED`,
    );
    for (const { id } of stale) {
      await tx.delete(outbox).where(subscriberMail(id));
      await tx.delete(subprocessorSubscribers).where(eq(subprocessorSubscribers.id, id));
    }
    return stale.length;
  });
}

type Subscriber = { id: number; email: string };
type TokenRow = typeof subprocessorTokens.$inferInsert;

/** Today's date in UTC, as the content writes dates. */
export function todayUtc(now = new Date()): IsoDate {
  return now.toISOString().slice(0, 10) as IsoDate;
}

export type SubprocessorSubscriptions = SubscriptionsPort & {
  /**
   * Enqueues the notice of every change not yet in effect on `today` for every confirmed
   * subscriber who has not had it; resolves with how many were enqueued.
   */
  announce: (today?: IsoDate) => Promise<number>;
  /** Called after a change put messages in the outbox, so that they go out at once. */
  onEnqueued: (listener: () => void) => void;
};

export function createSubprocessorSubscriptions({
  db,
  env,
  log,
  ledger,
  list = SUBPROCESSORS,
  changes = SUBPROCESSOR_CHANGES,
}: {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  ledger: ErasureLedger;
  /** The published list and its changes; tests pass their own. */
  list?: readonly Subprocessor[];
  changes?: readonly SubprocessorChange[];
}): SubprocessorSubscriptions {
  const answerTimes = createAnswerTimes();
  const listeners: (() => void)[] = [];
  const enqueued = () => {
    for (const listener of listeners) listener();
  };
  const linkTo = (purpose: SubscriptionLinkPurpose, token: string) =>
    `${env.siteUrl}/subprocessors/${purpose}?token=${token}`;

  /** A fresh token of `purpose` for `subscriberId`: its row to store and the link that carries it. */
  function issue(subscriberId: number, purpose: SubscriptionLinkPurpose, rows: TokenRow[]) {
    const token = newToken();
    rows.push({
      tokenHash: hashToken(token),
      subscriberId,
      purpose,
      expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS[purpose]),
    });
    return linkTo(purpose, token);
  }

  /** One mail to one subscriber, with RFC 2369 and RFC 8058 one-click unsubscribe. */
  function mailTo(
    key: string,
    /** `requested` for the confirmation of a subscription just made; `notice` for a change. */
    category: MailCategory,
    subscriber: Subscriber,
    unsubscribeUrl: string,
    mail: { subject: string; html: string; text: string },
  ): OutboxMessage {
    return {
      key,
      channel: "email",
      email: {
        category,
        from: env.mail.from,
        to: { name: undefined, address: subscriber.email },
        ...mail,
        headers: {
          "List-Unsubscribe": `<${unsubscribeUrl}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      },
    };
  }

  /** The notices of `change` to `subscribers`, each with its own unsubscribe link. */
  function notices(change: SubprocessorChange, subscribers: Subscriber[], rows: TokenRow[]) {
    return subscribers.map((subscriber) => {
      const unsubscribeUrl = issue(subscriber.id, "unsubscribe", rows);
      const mail = renderSubprocessorNotice({
        change,
        list,
        siteUrl: env.siteUrl,
        unsubscribeUrl,
      });
      return mailTo(
        noticeKey(change.id, subscriber.id),
        "notice",
        subscriber,
        unsubscribeUrl,
        mail,
      );
    });
  }

  /** Changes whose notice is still worth sending: those not yet in effect. */
  const pending = (today: IsoDate) => changes.filter((c) => daysBetween(today, c.effective) > 0);

  /** The token's subscriber while its link still works (unused, unexpired). */
  function liveToken(purpose: SubscriptionLinkPurpose, token: string) {
    return and(
      eq(subprocessorTokens.tokenHash, hashToken(token)),
      eq(subprocessorTokens.purpose, purpose),
      isNull(subprocessorTokens.usedAt),
      gt(subprocessorTokens.expiresAt, sql`now()`),
    );
  }

  return {
    onEnqueued(listener) {
      listeners.push(listener);
    },

    async subscribe(input, meta): Promise<SubscribeResult> {
      try {
        const retryAfterSeconds = await countSubmission(db, log, {
          form: "subprocessors",
          key: `subprocessors:${meta.clientKey}`,
          requestId: meta.requestId,
          limitPerMinute: env.waitlistRateLimit,
        });
        if (retryAfterSeconds > 0) return { kind: "rate-limited", retryAfterSeconds };
        const parsed = EmailSchema.safeParse(input.trim());
        if (!parsed.success) return { kind: "invalid", message: EMAIL_MESSAGE };
        const email = parsed.data;
        if (isDisposableEmail(email)) return { kind: "invalid", message: DISPOSABLE_MESSAGE };

        // A known address answers no sooner than a new one (server/http/answer-time.ts).
        let paused = false;
        const created = await answerTimes.submit(() =>
          db.transaction(async (tx) => {
            // Every submission counts against this form's window for the mailbox, before the
            // address is looked up: paused or not never tells who subscribes (decision 036).
            if (!(await takeConfirmationMail(tx, "subprocessors", email))) {
              paused = true;
              return false;
            }
            // A subscription never confirmed within its link's lifetime is as good as none: a new
            // request replaces it (and its unsent mail), so the address can still subscribe.
            const stale = await tx
              .delete(subprocessorSubscribers)
              .where(
                and(
                  sql`lower(${subprocessorSubscribers.email}) = lower(${email})`,
                  eq(subprocessorSubscribers.state, "waiting"),
                  sql`${subprocessorSubscribers.createdAt} < now() - make_interval(secs => ${TOKEN_LIFETIME_MS.confirm / 1000})`,
                ),
              )
              .returning({ id: subprocessorSubscribers.id });
            for (const { id } of stale) await tx.delete(outbox).where(subscriberMail(id));
            const [row] = await tx
              .insert(subprocessorSubscribers)
              .values({ email })
              .onConflictDoNothing()
              .returning({ id: subprocessorSubscribers.id, email: subprocessorSubscribers.email });
            if (!row) return false;
            const tokens: TokenRow[] = [];
            const confirmUrl = issue(row.id, "confirm", tokens);
            const unsubscribeUrl = issue(row.id, "unsubscribe", tokens);
            await tx.insert(subprocessorTokens).values(tokens);
            const mail = renderSubscriptionConfirm({
              confirmUrl,
              unsubscribeUrl,
              siteUrl: env.siteUrl,
            });
            await enqueue(tx, [mailTo(confirmKey(row.id), "requested", row, unsubscribeUrl, mail)]);
            return true;
          }),
        );
        log.info(
          { event: "subprocessors.subscribe", reqId: meta.requestId, created, paused },
          paused
            ? "subscription not written: the mailbox had its confirmation mails for the day"
            : "subscription to sub-processor changes requested",
        );
        if (paused) return { kind: "paused", retryAfterSeconds: secondsUntilTomorrow() };
        if (created) enqueued();
        return { kind: "accepted" };
      } catch (error) {
        log.error(
          { err: error, event: "subprocessors.unavailable", reqId: meta.requestId },
          "subscription failed: database unavailable",
        );
        return { kind: "unavailable" };
      }
    },

    async checkLink(purpose, token) {
      if (!isWellFormedToken(token)) return null;
      const [row] = await db
        .select({ email: subprocessorSubscribers.email })
        .from(subprocessorTokens)
        .innerJoin(
          subprocessorSubscribers,
          eq(subprocessorSubscribers.id, subprocessorTokens.subscriberId),
        )
        .where(liveToken(purpose, token));
      return row ? { maskedEmail: maskEmail(row.email) ?? "***" } : null;
    },

    async useLink(purpose, token, meta): Promise<SubscriptionLinkResult> {
      if (!isWellFormedToken(token)) return { kind: "gone" };
      try {
        let mailed = 0;
        let erased: string | null = null;
        const done = await db.transaction(async (tx) => {
          // One statement takes the token: of two presses at once, only one finds it unused.
          const [used] = await tx
            .update(subprocessorTokens)
            .set({ usedAt: sql`now()` })
            .where(liveToken(purpose, token))
            .returning({ subscriberId: subprocessorTokens.subscriberId });
          if (!used) return false;
          if (purpose === "confirm") {
            const [confirmed] = await tx
              .update(subprocessorSubscribers)
              .set({ state: "confirmed", confirmedAt: sql`now()` })
              .where(
                and(
                  eq(subprocessorSubscribers.id, used.subscriberId),
                  eq(subprocessorSubscribers.state, "waiting"),
                ),
              )
              .returning({ id: subprocessorSubscribers.id, email: subprocessorSubscribers.email });
            // A new subscriber hears at once of the changes still ahead, once each (the keys).
            if (confirmed) {
              const tokens: TokenRow[] = [];
              const messages = pending(todayUtc()).flatMap((change) =>
                notices(change, [confirmed], tokens),
              );
              if (tokens.length > 0) await tx.insert(subprocessorTokens).values(tokens);
              mailed = await enqueue(tx, messages);
            }
          } else {
            // Erasure: the mail that carries the address, then the subscriber (tokens go with it).
            await tx.delete(outbox).where(subscriberMail(used.subscriberId));
            const [gone] = await tx
              .delete(subprocessorSubscribers)
              .where(eq(subprocessorSubscribers.id, used.subscriberId))
              .returning({ email: subprocessorSubscribers.email });
            if (gone) erased = gone.email;
          }
          return true;
        });
        if (mailed > 0) enqueued();
        if (erased !== null) ledger.record([{ scope: "subscription", addresses: [erased] }]);
        log.info(
          { event: `subprocessors.link_${purpose}`, reqId: meta.requestId, done },
          done ? "subscription link used" : "subscription link no longer works",
        );
        if (!done) return { kind: "gone" };
        return { kind: purpose === "confirm" ? "confirmed" : "unsubscribed" };
      } catch (error) {
        log.error(
          { err: error, event: "subprocessors.unavailable", reqId: meta.requestId },
          "subscription link failed: database unavailable",
        );
        return { kind: "unavailable" };
      }
    },

    async announce(today = todayUtc()) {
      let total = 0;
      for (const change of pending(today)) {
        const left = daysBetween(today, change.effective);
        let announced = 0;
        for (;;) {
          const batch = await db.transaction(async (tx) => {
            // One instance at a time: the others then find every notice already written.
            await tx.execute(sql`SELECT pg_advisory_xact_lock(${ANNOUNCE_LOCK_ID})`);
            const subscribers = await queryRows<Subscriber>(
              tx,
              sql`
              SELECT s.id::int AS id, s.email FROM subprocessor_subscribers s
              WHERE s.state = 'confirmed' AND NOT EXISTS (
                SELECT 1 FROM outbox o WHERE o.key = ${`subprocessor-notice:${change.id}:`} || s.id)
              ORDER BY s.id LIMIT ${ANNOUNCE_BATCH}`,
            );
            if (subscribers.length === 0) return { seen: 0, written: 0 };
            const tokens: TokenRow[] = [];
            const messages = notices(change, subscribers, tokens);
            await tx.insert(subprocessorTokens).values(tokens);
            return { seen: subscribers.length, written: await enqueue(tx, messages) };
          });
          announced += batch.written;
          if (batch.seen < ANNOUNCE_BATCH) break;
        }
        if (announced > 0) {
          total += announced;
          const fields = { event: "subprocessors.announced", change: change.id, announced, left };
          // The build refuses a change with less than the DPA's notice, but it cannot tell when
          // the change is deployed: a late deploy shortens the notice, and the operator should know.
          if (left < SUBPROCESSOR_NOTICE_DAYS)
            log.warn(fields, "sub-processor change announced with less notice than the DPA's");
          else log.info(fields, "sub-processor change announced");
        }
      }
      if (total > 0) enqueued();
      return total;
    },
  };
}
