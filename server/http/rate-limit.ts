import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { queryRows, type Db } from "#db/client.ts";
import { clientNetwork } from "#server/http/client-network.ts";

const WINDOW_SECONDS = 60;

/**
 * Keys of windows a day long (`countToday`) start so; housekeeping keeps them past their day
 * (server/operations/housekeeping.ts), the minute windows only minutes.
 */
export const DAILY_KEY_PREFIX = "daily:";

/** Seconds until the current minute's window closes, as SQL. */
const SECONDS_LEFT = sql`ceil(extract(epoch FROM date_trunc('minute', now()) + interval '${sql.raw(String(WINDOW_SECONDS))} seconds' - now()))::int`;

/**
 * A fixed one-minute window per client, counted in the database so every server instance shares
 * it. Returns the seconds to wait when over the limit, or 0.
 */
export async function hitRateLimit(db: Db, key: string, limitPerMinute: number): Promise<number> {
  if (limitPerMinute <= 0) return 0;
  const [row] = await queryRows<{ hits: number; retry_after: number }>(
    db,
    sql`
    INSERT INTO rate_limit_windows (key, window_start, hits)
    VALUES (${key}, date_trunc('minute', now()), 1)
    ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
    RETURNING hits, ${SECONDS_LEFT} AS retry_after
  `,
  );
  if (!row || row.hits <= limitPerMinute) return 0;
  return Math.max(1, row.retry_after);
}

/**
 * Counts `n` more under each key's window for this calendar day (UTC), in one statement, and returns
 * each key's count before and after. Inside a transaction, the counts commit or roll back with
 * what they allowed.
 */
export async function countToday(
  db: Db,
  counts: ReadonlyMap<string, number>,
): Promise<Map<string, { before: number; after: number }>> {
  if (counts.size === 0) return new Map();
  const values = sql.join(
    [...counts].map(
      ([key, n]) => sql`(${DAILY_KEY_PREFIX + key}, date_trunc('day', now()), ${n}::int)`,
    ),
    sql`, `,
  );
  const rows = await queryRows<{ key: string; hits: number }>(
    db,
    sql`
    INSERT INTO rate_limit_windows (key, window_start, hits) VALUES ${values}
    ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_windows.hits + excluded.hits
    RETURNING key, hits
  `,
  );
  return new Map(
    rows.map((row) => {
      const key = row.key.slice(DAILY_KEY_PREFIX.length);
      const n = counts.get(key) ?? 0;
      return [key, { before: row.hits - n, after: row.hits }];
    }),
  );
}

/**
 * The seconds to wait if `key`'s window is already full, without counting anything: for a check
 * that a request must not be able to move (a claim not yet verified). 0 when there is room.
 */
export async function rateLimitReached(
  db: Db,
  key: string,
  limitPerMinute: number,
): Promise<number> {
  if (limitPerMinute <= 0) return 0;
  const [row] = await queryRows<{ retry_after: number }>(
    db,
    sql`
    SELECT ${SECONDS_LEFT} AS retry_after
    FROM rate_limit_windows
    WHERE key = ${key} AND window_start = date_trunc('minute', now()) AND hits >= ${limitPerMinute}
  `,
  );
  return row ? Math.max(1, row.retry_after) : 0;
}

/**
 * A form's submission counted against its client's window. Over the limit, one warning line says
 * so (`<form>.rate_limited`, with the request id) and the seconds to wait come back; otherwise 0.
 */
export async function countSubmission(
  db: Db,
  log: FastifyBaseLogger,
  submission: { form: string; key: string; requestId: string | undefined; limitPerMinute: number },
): Promise<number> {
  const { form, key, requestId, limitPerMinute } = submission;
  const retryAfterSeconds = await hitRateLimit(db, key, limitPerMinute);
  if (retryAfterSeconds > 0)
    log.warn(
      { event: `${form}.rate_limited`, reqId: requestId, retryAfterSeconds },
      `${form} submission refused: rate limit`,
    );
  return retryAfterSeconds;
}

/**
 * Whose window a submission counts against: the client's network (IPv4 address or IPv6 /64) as
 * TRUST_PROXY says. Each form counts it under its own name (`waitlist:…`, `privacy:…`).
 */
export function clientKey(req: { ip: string }): string {
  return clientNetwork(req.ip);
}
