/**
 * The broadcasts' clock (decision 041): five times a second, each broadcast due hands the outbox what
 * BROADCAST_RATE_PER_MINUTE allows since its last turn. Every instance runs one; a broadcast's
 * turn holds its row's lock, and the rate is kept in the row, so together they keep to it.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "#server/env.ts";
import type { Broadcasts } from "#server/broadcasts/broadcasts.ts";

/**
 * Five turns a second: each hands over a fifth of a second's worth (10 mails at 3,000 a minute),
 * so a turn holds the embedded database, which shares the visitors' thread, for a few
 * milliseconds rather than one long stretch a second (decision 042).
 */
const TURN_MS = 200;

export function startBroadcastPump({
  broadcasts,
  env,
  log,
  turnMs = TURN_MS,
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
