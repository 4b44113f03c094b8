/**
 * The broadcasts' clock (decision 041): once a second to five times a second (`turnMsFor`), each
 * broadcast due hands the outbox what BROADCAST_RATE_PER_MINUTE allows since its last turn. Every instance runs one; a broadcast's
 * turn holds its row's lock, and the rate is kept in the row, so together they keep to it.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "#server/env.ts";
import type { Broadcasts } from "#server/broadcasts/broadcasts.ts";

/**
 * How often a turn comes: often enough that a turn hands over about ten mails, so a fast rate
 * holds the embedded database, which shares the visitors' thread, for a few milliseconds at a time
 * rather than one long stretch a second (decision 042); at most five times a second, and at least
 * once. At the default 300 a minute, once a second with five mails: a turn's own queries cost the
 * same for one mail as for ten, so fewer turns hold the thread for less in all.
 */
export function turnMsFor(ratePerMinute: number): number {
  const tenMailsMs = (10 * 60_000) / ratePerMinute;
  return Math.round(Math.min(1_000, Math.max(200, tenMailsMs)));
}

export function startBroadcastPump({
  broadcasts,
  env,
  log,
  turnMs = turnMsFor(env.broadcastRatePerMinute),
}: {
  broadcasts: Pick<Broadcasts, "pump">;
  env: Pick<Env, "broadcastRatePerMinute">;
  log: FastifyBaseLogger;
  turnMs?: number;
}) {
  let stopped = false;
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (stopped || running) return;
    running = broadcasts
      .pump(env.broadcastRatePerMinute)
      .catch((error: unknown) =>
        log.error({ err: error, event: "broadcast.pump_failed" }, "broadcast turn failed"),
      )
      .finally(() => {
        running = null;
      });
  }, turnMs);
  timer.unref();
  return {
    /** Lets the turn under way finish, then takes no more. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
