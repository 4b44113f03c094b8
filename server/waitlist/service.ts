import {
  and,
  desc,
  eq,
  getTableColumns,
  gt,
  ilike,
  inArray,
  isNull,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "#db/client.ts";
import { outbox, waitlistEntries, waitlistTokens, type WaitlistRow } from "#db/schema.ts";
import { maskEmail } from "#server/log-safety.ts";
import { renderWaitlistConfirm } from "#server/mail/templates/waitlist-confirm.tsx";
import type { Env } from "#server/env.ts";
import { enqueue, type OutboxMessage } from "#server/outbox/outbox.ts";
import { slackText } from "#server/outbox/webhooks.ts";
import { createInsertBatcher } from "#server/waitlist/insert-batcher.ts";
import {
  hashToken,
  isWellFormedToken,
  newToken,
  tokenRow,
  type TokenPurpose,
} from "#server/waitlist/tokens.ts";
import { hitRateLimit, pruneRateLimits } from "#server/waitlist/rate-limit.ts";
import {
  DISPOSABLE_MESSAGE,
  HONEYPOT_FIELD,
  parseWaitlistEntry,
  searchableText,
} from "#src/features/waitlist/schema.ts";
import { isDisposableEmail } from "#server/waitlist/disposable.ts";
import type {
  AdminEntry,
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
};

export type WaitlistService = WaitlistPort & {
  allForExport: () => Promise<ExportRow[]>;
  /**
   * Called after a change put messages in the outbox (a new entry, a confirmation), so that they
   * go out at once.
   */
  onEnqueued: (listener: () => void) => void;
};

/** The outbox key of an entry's post to the collector: one per entry, whatever is retried. */
const forwardKey = (id: number) => `waitlist-forward:${id}`;
/** The outbox key of the Slack notice that an entry was confirmed: one per entry. */
const slackKey = (id: number) => `waitlist-slack:${id}`;

/** Every outbox key that names an entry: what erasing the entry erases with it (decision 023). */
const entryKeys = (id: number) => [forwardKey(id), slackKey(id), `waitlist-confirm-mail:${id}`];

/**
 * Erases an entry inside the caller's transaction: the outbox rows that carry its name and
 * address, then the entry (its tokens go with it, ON DELETE CASCADE). Used by the remove link and
 * by account deletion (server/account.ts).
 */
export async function eraseEntry(tx: Pick<Db, "delete">, id: number): Promise<void> {
  await tx.delete(outbox).where(inArray(outbox.key, entryKeys(id)));
  await tx.delete(waitlistEntries).where(eq(waitlistEntries.id, id));
}

/** The links of a mail: built from SITE_URL, never from the request that caused it. */
const linkTo = (env: Env, page: "confirm" | "remove", token: string) =>
  `${env.siteUrl}/waitlist/${page}?token=${token}`;

/**
 * What a new entry causes (decisions 022, 023): the confirmation mail and the collector's copy
 * (the collector gets every new entry). The mail's links carry tokens whose hashes `tokens`
 * receives, to be stored in the same transaction.
 */
function messagesFor(
  row: WaitlistRow,
  env: Env,
  tokens: ReturnType<typeof tokenRow>[],
): OutboxMessage[] {
  const confirm = newToken();
  const remove = newToken();
  tokens.push(tokenRow(row.id, "confirm", confirm), tokenRow(row.id, "remove", remove));
  const removeUrl = linkTo(env, "remove", remove);
  const mail = renderWaitlistConfirm({
    name: row.name,
    confirmUrl: linkTo(env, "confirm", confirm),
    removeUrl,
    siteUrl: env.siteUrl,
  });
  const messages: OutboxMessage[] = [
    {
      key: `waitlist-confirm-mail:${row.id}`,
      channel: "email",
      email: {
        from: env.mail.from,
        to: { name: row.name, address: row.email },
        ...mail,
        // RFC 2369 and RFC 8058: the mail client's own unsubscribe, one POST to the same page.
        headers: {
          "List-Unsubscribe": `<${removeUrl}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      },
    },
  ];
  if (env.waitlistForward)
    messages.push({
      key: forwardKey(row.id),
      channel: "forward",
      payload: { name: row.name, email: row.email, company: row.company, message: row.message },
    });
  return messages;
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

/** The entries with their forwarding state, joined on the outbox row that carries it. */
function selectWithForwarding(db: Db) {
  return db
    .select({
      ...getTableColumns(waitlistEntries),
      forwardStatus: sql<ForwardStatus>`coalesce(${outbox.status}, 'none')`,
      forwardAttempts: sql<number>`coalesce(${outbox.attempts}, 0)::int`,
      forwardLastError: outbox.lastError,
    })
    .from(waitlistEntries)
    .leftJoin(outbox, eq(outbox.key, sql`'waitlist-forward:' || ${waitlistEntries.id}`));
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function sourceOf(row: WaitlistRow): string | null {
  const utm = [row.utmSource, row.utmMedium, row.utmCampaign].filter(Boolean).join(" / ");
  return utm || row.referrer || null;
}

export function createWaitlistService({
  db,
  env,
  log,
}: {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
}): WaitlistService {
  const listeners: (() => void)[] = [];
  const enqueued = () => {
    for (const listener of listeners) listener();
  };
  const insertEntry = createInsertBatcher(db, async (tx, created) => {
    const tokens: ReturnType<typeof tokenRow>[] = [];
    const messages = created.flatMap((row) => messagesFor(row, env, tokens));
    await tx.insert(waitlistTokens).values(tokens);
    await enqueue(tx, messages);
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
  let submissions = 0;

  return {
    onEnqueued(listener) {
      listeners.push(listener);
    },

    async submit(input: unknown, meta: SubmitMeta): Promise<SubmitResult> {
      try {
        const retryAfterSeconds = await hitRateLimit(db, meta.clientKey, env.waitlistRateLimit);
        if (retryAfterSeconds > 0) {
          log.warn(
            { event: "waitlist.rate_limited", reqId: meta.requestId, retryAfterSeconds },
            "waitlist submission refused: rate limit",
          );
          return { kind: "rate-limited", retryAfterSeconds };
        }
        if (++submissions % 500 === 0) void pruneRateLimits(db).catch(() => {});

        const honeypot =
          typeof input === "object" && input !== null
            ? (input as Record<string, unknown>)[HONEYPOT_FIELD]
            : undefined;
        if (typeof honeypot === "string" && honeypot.trim() !== "") {
          log.info({ event: "waitlist.honeypot", reqId: meta.requestId }, "waitlist bot ignored");
          return { kind: "ignored" };
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
        // Success is answered only after this row has committed (group commit, see insert-batcher).
        const created = await insertEntry({
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
        });
        if (!created) return { kind: "exists" };
        enqueued();
        return { kind: "created" };
      } catch (error) {
        log.error(
          { err: error, event: "waitlist.unavailable", reqId: meta.requestId },
          "waitlist submission failed: database unavailable",
        );
        return { kind: "unavailable" };
      }
    },

    async checkLink(purpose, token) {
      if (!isWellFormedToken(token)) return null;
      const [row] = await db
        .select({ email: waitlistEntries.email })
        .from(waitlistTokens)
        .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistTokens.entryId))
        .where(liveToken(purpose, token));
      return row ? { maskedEmail: maskEmail(row.email) ?? "***" } : null;
    },

    async useLink(purpose, token, meta): Promise<LinkResult> {
      if (!isWellFormedToken(token)) return { kind: "gone" };
      try {
        let notices = 0;
        const done = await db.transaction(async (tx) => {
          // One statement takes the token: of two presses at once, only one finds it unused.
          const [used] = await tx
            .update(waitlistTokens)
            .set({ usedAt: sql`now()` })
            .where(liveToken(purpose, token))
            .returning({ entryId: waitlistTokens.entryId });
          if (!used) return false;
          if (purpose === "confirm") {
            const [confirmed] = await tx
              .update(waitlistEntries)
              .set({ state: "confirmed", confirmedAt: sql`now()` })
              .where(
                and(eq(waitlistEntries.id, used.entryId), eq(waitlistEntries.state, "waiting")),
              )
              .returning();
            // Committed with the confirmation, under one key per entry: never a second notice.
            if (confirmed) notices = await enqueue(tx, messagesOnConfirm(confirmed, env));
          } else {
            await eraseEntry(tx, used.entryId);
          }
          return true;
        });
        if (notices > 0) enqueued();
        log.info(
          { event: `waitlist.link_${purpose}`, reqId: meta.requestId, done },
          done ? "waitlist link used" : "waitlist link no longer works",
        );
        return done ? { kind: purpose === "confirm" ? "confirmed" : "removed" } : { kind: "gone" };
      } catch (error) {
        log.error(
          { err: error, event: "waitlist.unavailable", reqId: meta.requestId },
          "waitlist link failed: database unavailable",
        );
        return { kind: "unavailable" };
      }
    },

    async list({ query, limit }) {
      // A NUL or broken UTF-8 in a search is a search for nothing, not an outage (a test in
      // tests/e2e/hostile-sessions.spec.ts).
      const q = searchableText(query);
      const where: SQL | undefined = q
        ? or(
            ilike(waitlistEntries.name, `%${escapeLike(q)}%`),
            ilike(waitlistEntries.email, `%${escapeLike(q)}%`),
            ilike(waitlistEntries.company, `%${escapeLike(q)}%`),
          )
        : undefined;
      const [rows, [totals], [matches]] = await Promise.all([
        selectWithForwarding(db)
          .where(where)
          .orderBy(desc(waitlistEntries.createdAt), desc(waitlistEntries.id))
          .limit(limit),
        db.select({ n: sql<number>`count(*)::int` }).from(waitlistEntries),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(waitlistEntries)
          .where(where),
      ]);
      const entries: AdminEntry[] = rows.map((row) => ({
        id: row.id,
        createdAt: row.createdAt.toISOString(),
        name: row.name,
        email: row.email,
        company: row.company,
        message: row.message,
        source: sourceOf(row),
        state: row.state,
        forwardStatus: row.forwardStatus,
        forwardAttempts: row.forwardAttempts,
        forwardLastError: row.forwardLastError,
      }));
      return { entries, total: totals?.n ?? 0, matching: matches?.n ?? 0 };
    },

    allForExport() {
      return selectWithForwarding(db).orderBy(
        desc(waitlistEntries.createdAt),
        desc(waitlistEntries.id),
      );
    },
  };
}
