/**
 * The outbox as the admin's deliveries page shows it (src/lib/deliveries.ts): counts by status,
 * the latest failures with the reason each was given up, and the oldest messages still waiting.
 * For a collector post or a Slack notice only the channel is shown, never the lead it carries.
 */
import { asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { outbox } from "#db/schema.ts";
import type { DeliveriesPort } from "#src/lib/deliveries.ts";

/** An email's To addresses, comma-separated; null for the other channels. */
const recipient = sql<string | null>`CASE WHEN ${outbox.channel} = 'email' THEN
  (SELECT string_agg(box->>'address', ', ') FROM jsonb_array_elements(${outbox.payload}->'to') AS box)
  END`;

const common = {
  id: outbox.id,
  channel: outbox.channel,
  recipient,
  attempts: outbox.attempts,
  createdAt: outbox.createdAt,
};

export function createDeliveries(db: Db): DeliveriesPort {
  return {
    async overview(limits) {
      const [byStatus, failed, waiting] = await Promise.all([
        db
          .select({ status: outbox.status, n: sql<number>`count(*)::int` })
          .from(outbox)
          .groupBy(outbox.status),
        db
          .select({ ...common, failedAt: outbox.failedAt, reason: outbox.lastError })
          .from(outbox)
          .where(eq(outbox.status, "failed"))
          .orderBy(sql`${outbox.failedAt} DESC NULLS LAST`, desc(outbox.id))
          .limit(limits.failed),
        db
          .select({ ...common, nextAttemptAt: outbox.nextAttemptAt, lastError: outbox.lastError })
          .from(outbox)
          .where(eq(outbox.status, "pending"))
          .orderBy(asc(outbox.createdAt), asc(outbox.id))
          .limit(limits.waiting),
      ]);
      const counts = { pending: 0, sent: 0, failed: 0, suppressed: 0 };
      for (const row of byStatus) counts[row.status] = Number(row.n);
      return {
        counts,
        failed: failed.map((row) => ({
          ...row,
          createdAt: row.createdAt.toISOString(),
          failedAt: row.failedAt?.toISOString() ?? null,
        })),
        waiting: waiting.map((row) => ({
          ...row,
          createdAt: row.createdAt.toISOString(),
          nextAttemptAt: row.nextAttemptAt.toISOString(),
        })),
      };
    },
  };
}
