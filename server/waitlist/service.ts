import { randomBytes } from "node:crypto";
import { enqueueWebhookEvents, entryData } from "#server/webhooks/events.ts";
import { and, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "#db/client.ts";
import { waitlistEntries, waitlistTokens, type WaitlistRow } from "#db/schema.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import { renderWaitlistConfirm } from "#server/mail/templates/waitlist-confirm.tsx";
import { setConsent } from "#server/waitlist/consent.ts";
import type { Env } from "#server/env.ts";
import { takeConfirmationMails } from "#server/outbox/mailbox-quota.ts";
import { enqueue, type OutboxMessage } from "#server/outbox/outbox.ts";
import { slackText } from "#server/outbox/webhooks.ts";
import { createAdminActions } from "#server/waitlist/admin-actions.ts";
import { createAnswerTimes } from "#server/http/answer-time.ts";
import { listPage, selectWithForwarding } from "#server/waitlist/admin-list.ts";
import { mailToEntry, siteLink } from "#server/waitlist/entry-mail.ts";
import type { AnswersService } from "#server/waitlist/answers.ts";
import { createAudiences } from "#server/waitlist/audiences.ts";
import type { ErasureLedger } from "#server/audit/erasure-ledger.ts";
import {
  confirmMailKey,
  confirmTokensIssued,
  eraseEntry,
  forwardKey,
  slackKey,
} from "#server/waitlist/erasure.ts";
import { createInsertBatcher, type Written } from "#server/waitlist/insert-batcher.ts";
import {
  checkInvitation,
  join,
  type JoinRequest,
  type Membership,
} from "#server/waitlist/invitations.ts";
import { lifecycleOf } from "#server/waitlist/lifecycle-of.ts";
import {
  hashToken,
  isWellFormedToken,
  newToken,
  storeTokens,
  tokenRow,
  type TokenPurpose,
  type TokenRow,
} from "#server/waitlist/tokens.ts";
import { countSubmission } from "#server/http/rate-limit.ts";
import { transition } from "#src/features/waitlist/lifecycle.ts";
import {
  DISPOSABLE_MESSAGE,
  HONEYPOT_FIELD,
  parseEntryDetails,
  parseWaitlistEntry,
} from "#src/features/waitlist/schema.ts";
import { isDisposableEmail } from "#server/waitlist/disposable.ts";
import { shareLinkOf } from "#src/features/waitlist/referral.ts";
import type {
  AdminEntry,
  LinkPurpose,
  LinkResult,
  SubmitMeta,
  SubmitResult,
  WaitlistPort,
} from "#src/features/waitlist/types.ts";

type ForwardStatus = AdminEntry["forwardStatus"];

/** An entry with the state of its forwarding, read from the outbox (none: never forwarded). */
type ExportRow = WaitlistRow & {
  forwardStatus: ForwardStatus;
  forwardAttempts: number;
  forwardLastError: string | null;
  /** The address of the entry whose link brought this one (decision 045). */
  referredByEmail: string | null;
  /** How many entries this one's link brought. */
  referrals: number;
};

export type WaitlistService = WaitlistPort & {
  allForExport: () => Promise<ExportRow[]>;
  /**
   * An account's first session: joins its entry when an invitation (or, as a fallback, its
   * verified address) allows it (decision 024).
   */
  join: (request: JoinRequest) => Promise<Membership>;
  /**
   * Called after a change put messages in the outbox (a new entry, a confirmation, an admin's
   * invitation), so that they go out at once.
   */
  onEnqueued: (listener: () => void) => void;
};

/**
 * The entry's n-th confirmation mail (decisions 023, 036), with a fresh confirm link and a fresh
 * removal link, whose tokens' hashes `tokens` receives, to be stored in the same transaction.
 */
export function confirmationMail(
  row: { id: number; email: string },
  env: Env,
  tokens: TokenRow[],
  n: number,
): OutboxMessage {
  const confirm = newToken();
  tokens.push(tokenRow(row.id, "confirm", confirm));
  // To the bare address: its owner has not confirmed, so the typed name stays out of the mail.
  return mailToEntry(
    env,
    { id: row.id, email: row.email },
    confirmMailKey(row.id, n),
    "requested",
    (footer) =>
      renderWaitlistConfirm({
        ...footer,
        confirmUrl: siteLink(env, `/waitlist/confirm?token=${confirm}`),
      }),
    tokens,
  );
}

/**
 * What a new entry causes (decisions 022, 023): the confirmation mail, unless mail to its mailbox
 * is paused for the day, and the collector's copy (the collector gets every new entry).
 */
function messagesFor(
  row: WaitlistRow,
  env: Env,
  tokens: TokenRow[],
  mailAllowed: boolean,
): OutboxMessage[] {
  const messages: OutboxMessage[] = [];
  // Paused, the entry is kept unconfirmed and mailed nothing now; a submission on a later day
  // finds it with no link that works and mails it then (resends).
  if (mailAllowed) messages.push(confirmationMail(row, env, tokens, 1));
  if (env.waitlistForward)
    messages.push({
      key: forwardKey(row.id),
      channel: "forward",
      payload: { name: row.name, email: row.email, company: row.company, message: row.message },
    });
  return messages;
}

/**
 * A repeat submission's confirmation mails (decision 036): for each address already on the list
 * whose entry is still waiting, never confirmed, and has no confirm link that still works (its mail
 * was lost, its link expired, or mail was paused when it was made), a fresh confirmation mail. An
 * entry with a live link, or confirmed, or past waiting, gets nothing. Entries are locked first, so
 * two submissions at once (on two instances) send one mail.
 */
async function resends(
  tx: Db,
  env: Env,
  addresses: string[],
  tokens: TokenRow[],
): Promise<OutboxMessage[]> {
  if (addresses.length === 0) return [];
  const waiting = await tx
    .select({ id: waitlistEntries.id, email: waitlistEntries.email })
    .from(waitlistEntries)
    .where(
      and(
        inArray(sql`lower(${waitlistEntries.email})`, addresses),
        eq(waitlistEntries.state, "waiting"),
        isNull(waitlistEntries.confirmedAt),
      ),
    )
    .orderBy(waitlistEntries.id)
    .for("update");
  if (waiting.length === 0) return [];
  // Read after the lock, in a statement of its own: it sees a link another instance just wrote.
  const live = new Set(
    (
      await tx
        .selectDistinct({ entryId: waitlistTokens.entryId })
        .from(waitlistTokens)
        .where(
          and(
            inArray(
              waitlistTokens.entryId,
              waiting.map((row) => row.id),
            ),
            eq(waitlistTokens.purpose, "confirm"),
            isNull(waitlistTokens.usedAt),
            gt(waitlistTokens.expiresAt, sql`now()`),
          ),
        )
    ).map((row) => row.entryId),
  );
  const unlinked = waiting.filter((row) => !live.has(row.id));
  const issued = await confirmTokensIssued(
    tx,
    unlinked.map((row) => row.id),
  );
  return unlinked.map((row) => confirmationMail(row, env, tokens, (issued.get(row.id) ?? 0) + 1));
}

/** What a confirmation causes: the operator's Slack notice, when Slack is configured. */
function messagesOnConfirm(row: WaitlistRow, env: Env): OutboxMessage[] {
  if (!env.slackWebhookUrl) return [];
  const who = `${row.name} <${row.email}>${row.company ? `, ${row.company}` : ""}`;
  return [
    {
      key: slackKey(row.id),
      channel: "slack",
      payload: { text: `Waitlist entry confirmed: ${slackText(who)}` },
    },
  ];
}

export function createWaitlistService({
  db,
  env,
  log,
  ledger,
  answers,
}: {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  /** Where erasures are recorded for a restore to carry out again (decision 032). */
  ledger: ErasureLedger;
  /** The qualifying answers behind their links (decision 043). */
  answers: AnswersService;
}): WaitlistService {
  const answerTimes = createAnswerTimes();
  const listeners: (() => void)[] = [];
  const enqueued = () => {
    for (const listener of listeners) listener();
  };
  const insertEntry = createInsertBatcher(db, async (tx, batch, created) => {
    // Every submission counts against the waitlist's window for its mailbox, new address or not,
    // before anything is known of the address: whether mail is paused never tells whether an
    // address is on the list (decision 036).
    const allowed = await takeConfirmationMails(
      tx,
      "waitlist",
      batch.map((entry) => entry.email),
    );
    const tokens: TokenRow[] = [];
    const messages: OutboxMessage[] = [];
    const fresh = new Map(created.map((row) => [row.email.toLowerCase(), row]));
    const createdHere = new Set(fresh.keys());
    const repeats = new Set<string>();
    batch.forEach((entry, i) => {
      const address = entry.email.toLowerCase();
      const row = fresh.get(address);
      if (row) {
        // The first submission of a new address in the batch is the one that created it.
        fresh.delete(address);
        messages.push(...messagesFor(row, env, tokens, allowed[i] === true));
      } else if (allowed[i] && !createdHere.has(address)) repeats.add(address);
    });
    messages.push(...(await resends(tx, env, [...repeats], tokens)));
    await storeTokens(tx, tokens);
    await enqueue(tx, messages);
    await enqueueWebhookEvents(
      tx,
      created.map((row) => ({ type: "entry.created" as const, data: entryData(row) })),
    );
    return allowed.map((mayMail) => !mayMail);
  });

  /** The token's entry while its link still works (unused, unexpired); null otherwise. */
  function liveToken(purpose: TokenPurpose, token: string) {
    return and(
      eq(waitlistTokens.tokenHash, hashToken(token)),
      eq(waitlistTokens.purpose, purpose),
      isNull(waitlistTokens.usedAt),
      gt(waitlistTokens.expiresAt, sql`now()`),
    );
  }

  /** Whose link this is while it works (see WaitlistPort.checkLink); reads only. */
  async function checkLink(purpose: LinkPurpose, token: string) {
    if (!isWellFormedToken(token)) return null;
    const [row] = await db
      .select({
        email: waitlistEntries.email,
        state: waitlistEntries.state,
        name: waitlistEntries.name,
        company: waitlistEntries.company,
      })
      .from(waitlistTokens)
      .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistTokens.entryId))
      .where(liveToken(purpose, token));
    if (!row) return null;
    const link = { maskedEmail: maskEmail(row.email) ?? "***", joined: row.state === "joined" };
    // Only behind a confirm link, which was mailed to the address: the page shows the owner what
    // was typed in their name, to correct it before anything else uses it (decision 036).
    return purpose === "confirm"
      ? { ...link, details: { name: row.name, company: row.company } }
      : link;
  }

  const act = createAdminActions({ db, env, log, ledger, enqueued });

  return {
    onEnqueued(listener) {
      listeners.push(listener);
    },

    async submit(input: unknown, meta: SubmitMeta): Promise<SubmitResult> {
      try {
        const retryAfterSeconds = await countSubmission(db, log, {
          form: "waitlist",
          key: `waitlist:${meta.clientKey}`,
          requestId: meta.requestId,
          limitPerMinute: env.waitlistRateLimit,
        });
        if (retryAfterSeconds > 0) return { kind: "rate-limited", retryAfterSeconds };

        const honeypot =
          typeof input === "object" && input !== null
            ? (input as Record<string, unknown>)[HONEYPOT_FIELD]
            : undefined;
        if (typeof honeypot === "string" && honeypot.trim() !== "") {
          log.info({ event: "waitlist.honeypot", reqId: meta.requestId }, "waitlist bot ignored");
          // A link like any other, naming nobody: the bot learns nothing from it.
          return {
            kind: "ignored",
            shareUrl: shareLinkOf(env.siteUrl, randomBytes(8).toString("hex")),
          };
        }

        const parsed = parseWaitlistEntry(input);
        if (!parsed.ok) {
          // Which fields were wrong, never what was in them.
          log.info(
            {
              event: "waitlist.invalid",
              reqId: meta.requestId,
              fields: Object.keys(parsed.fieldErrors),
              formErrors: parsed.formErrors.length,
            },
            "waitlist submission refused: invalid",
          );
          return {
            kind: "invalid",
            fieldErrors: parsed.fieldErrors,
            formErrors: parsed.formErrors,
          };
        }
        const { entry } = parsed;
        // The list of throwaway domains is a megabyte: checked here, not in the browser's schema.
        if (isDisposableEmail(entry.email)) {
          log.info(
            { event: "waitlist.disposable", reqId: meta.requestId },
            "waitlist submission refused: throwaway address",
          );
          return { kind: "invalid", fieldErrors: { email: DISPOSABLE_MESSAGE }, formErrors: [] };
        }
        // Success is answered only after this row has committed (group commit, see insert-batcher),
        // and a known address no sooner than a new one (server/http/answer-time.ts).
        let written: Written = { created: false, paused: false, referralCode: null };
        await answerTimes.submit(async () => {
          written = await insertEntry({
            name: entry.name,
            email: entry.email,
            company: entry.company,
            message: entry.message,
            utmSource: entry.utm_source,
            utmMedium: entry.utm_medium,
            utmCampaign: entry.utm_campaign,
            utmTerm: entry.utm_term,
            utmContent: entry.utm_content,
            referrer: entry.referrer,
            landingPath: entry.landing_path,
            referral: entry.ref,
          });
          // Only a new address's full write (its row, tokens and mail) sets the pace: anything
          // else, a repeat or a paused one, answers no sooner than such a write takes.
          return written.created && !written.paused;
        });
        enqueued();
        const shareUrl = written.referralCode && shareLinkOf(env.siteUrl, written.referralCode);
        // Paused is told whether the address is new or not: the window alone decides it.
        if (written.paused) return { kind: "paused", shareUrl };
        return { kind: written.created ? "created" : "exists", shareUrl };
      } catch (error) {
        log.error(
          { err: error, event: "waitlist.unavailable", reqId: meta.requestId },
          "waitlist submission failed: database unavailable",
        );
        return { kind: "unavailable" };
      }
    },

    checkLink,

    async useLink(purpose, token, meta, corrections, consent): Promise<LinkResult> {
      if (!isWellFormedToken(token)) return { kind: "gone" };
      // The owner's corrections, checked before anything is taken: refused, the link still works.
      const details = purpose === "confirm" && corrections ? parseEntryDetails(corrections) : null;
      if (details && !details.ok) {
        const live = await checkLink(purpose, token).catch(() => undefined);
        if (live === undefined) return { kind: "unavailable" };
        if (!live) return { kind: "gone" };
        return {
          kind: "invalid",
          maskedEmail: live.maskedEmail,
          values: corrections!,
          fieldErrors: details.fieldErrors,
        };
      }
      try {
        let notices = 0;
        let member = false;
        let erased: string | null = null;
        let answersToken: string | undefined;
        let referralCode: string | undefined;
        const done = await db.transaction(async (tx) => {
          // One statement takes the token: of two presses at once, only one finds it unused.
          const [used] = await tx
            .update(waitlistTokens)
            .set({ usedAt: sql`now()` })
            .where(liveToken(purpose, token))
            .returning({ entryId: waitlistTokens.entryId });
          if (!used) return false;
          if (purpose === "confirm") {
            const [entry] = await tx
              .select()
              .from(waitlistEntries)
              .where(eq(waitlistEntries.id, used.entryId))
              .for("update");
            // The owner's corrections go with the confirmation, in its transaction, before anything
            // reads the name: the Slack notice below, and later the invitation. A joined entry
            // belongs to its account, which keeps its own.
            if (entry && details?.ok && entry.state !== "joined")
              await tx
                .update(waitlistEntries)
                .set(details.details)
                .where(eq(waitlistEntries.id, entry.id));
            // Product news, asked for on this page, recorded with the confirmation (decision 041).
            if (entry && consent?.productNews)
              await setConsent(tx, {
                entryId: entry.id,
                kind: "product-news",
                given: true,
                place: "confirmation",
              });
            // An entry past waiting (an admin invited or declined it) stays where it is.
            let confirmed: typeof entry | undefined;
            if (entry && transition(lifecycleOf(entry), { type: "confirm" }).ok) {
              [confirmed] = await tx
                .update(waitlistEntries)
                .set({ state: "confirmed", confirmedAt: sql`now()` })
                .where(eq(waitlistEntries.id, entry.id))
                .returning();
              // Committed with the confirmation, under one key per entry: never a second notice.
              if (confirmed)
                notices =
                  (await enqueue(tx, messagesOnConfirm(confirmed, env))) +
                  (await enqueueWebhookEvents(tx, [
                    { type: "entry.confirmed", data: entryData(confirmed) },
                  ]));
            }
            // The questions after confirming, for an entry that may answer them: a confirmed
            // address still on its way in (decision 043).
            const now = confirmed ?? entry;
            referralCode = now?.referralCode;
            if (now?.confirmedAt && (now.state === "confirmed" || now.state === "invited"))
              answersToken = answers.tokenFor(now);
          } else {
            const [entry] = await tx
              .select({ state: waitlistEntries.state })
              .from(waitlistEntries)
              .where(eq(waitlistEntries.id, used.entryId))
              .for("update");
            // A joined entry belongs to its account now: erasing it would shut the member out
            // (invite-only admits by entry). The account page downloads or deletes it. The link
            // did nothing, so it is not spent: pressed again, it says the same.
            if (entry?.state === "joined") {
              member = true;
              await tx
                .update(waitlistTokens)
                .set({ usedAt: null })
                .where(eq(waitlistTokens.tokenHash, hashToken(token)));
            } else erased = await eraseEntry(tx, used.entryId);
          }
          return true;
        });
        if (notices > 0) enqueued();
        if (erased !== null) ledger.record([{ scope: "waitlist entry", addresses: [erased] }]);
        log.info(
          { event: `waitlist.link_${purpose}`, reqId: meta.requestId, done },
          done ? "waitlist link used" : "waitlist link no longer works",
        );
        if (!done) return { kind: "gone" };
        if (member) return { kind: "member" };
        if (purpose === "confirm")
          return {
            kind: "confirmed",
            ...(answersToken ? { answersToken } : {}),
            ...(referralCode ? { shareUrl: shareLinkOf(env.siteUrl, referralCode) } : {}),
          };
        return { kind: "removed" };
      } catch (error) {
        log.error(
          { err: error, event: "waitlist.unavailable", reqId: meta.requestId },
          "waitlist link failed: database unavailable",
        );
        return { kind: "unavailable" };
      }
    },

    list(query) {
      return listPage(db, query);
    },

    checkAnswers: (token) => answers.check(token),

    async saveAnswers(token, given) {
      try {
        return await answers.save(token, given);
      } catch (error) {
        log.error(
          { err: error, event: "waitlist.unavailable" },
          "qualifying answers not saved: database unavailable",
        );
        return "unavailable";
      }
    },

    act,
    audiences: createAudiences({ db, act }),

    checkInvitation(token) {
      return checkInvitation(db, token);
    },

    join(request) {
      return join(db, request);
    },

    allForExport() {
      return selectWithForwarding(db).orderBy(
        desc(waitlistEntries.createdAt),
        desc(waitlistEntries.id),
      );
    },
  };
}
