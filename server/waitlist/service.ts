import { desc, eq, getTableColumns, ilike, or, sql, type SQL } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "#db/client.ts";
import { outbox, waitlistEntries, type WaitlistRow } from "#db/schema.ts";
import type { Env } from "#server/env.ts";
import { enqueue, type OutboxMessage } from "#server/outbox/outbox.ts";
import { slackText } from "#server/outbox/webhooks.ts";
import { createInsertBatcher } from "#server/waitlist/insert-batcher.ts";
import { hitRateLimit, pruneRateLimits } from "#server/waitlist/rate-limit.ts";
import {
  HONEYPOT_FIELD,
  parseWaitlistEntry,
  searchableText,
} from "#src/features/waitlist/schema.ts";
import type {
  AdminEntry,
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
  /** Called after a new entry that put messages in the outbox, so they go out at once. */
  onCreated: (listener: () => void) => void;
};

/** The outbox key of an entry's post to the collector: one per entry, whatever is retried. */
const forwardKey = (id: number) => `waitlist-forward:${id}`;

/** What a new entry causes (decision 022): the collector's copy and the operator's Slack notice. */
function messagesFor(row: WaitlistRow, env: Env): OutboxMessage[] {
  const messages: OutboxMessage[] = [];
  if (env.waitlistForward)
    messages.push({
      key: forwardKey(row.id),
      channel: "forward",
      payload: { name: row.name, email: row.email, company: row.company, message: row.message },
    });
  if (env.slackWebhookUrl) {
    const who = `${row.name} <${row.email}>${row.company ? `, ${row.company}` : ""}`;
    messages.push({
      key: `waitlist-slack:${row.id}`,
      channel: "slack",
      payload: { text: `New waitlist entry: ${slackText(who)}` },
    });
  }
  return messages;
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
  const insertEntry = createInsertBatcher(db, async (tx, created) => {
    await enqueue(
      tx,
      created.flatMap((row) => messagesFor(row, env)),
    );
  });
  const notifies = env.waitlistForward !== undefined || env.slackWebhookUrl !== undefined;
  let submissions = 0;

  return {
    onCreated(listener) {
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
        if (notifies) for (const listener of listeners) listener();
        return { kind: "created" };
      } catch (error) {
        log.error(
          { err: error, event: "waitlist.unavailable", reqId: meta.requestId },
          "waitlist submission failed: database unavailable",
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
