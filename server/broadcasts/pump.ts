/**
 * The broadcasts' clock (decision 041): every two seconds to five times a second (`turnMsFor`), each
 * broadcast due hands the outbox what BROADCAST_RATE_PER_MINUTE allows since its last turn. Every instance runs one; a broadcast's
 * turn holds its row's lock, and the rate is kept in the row, so together they keep to it.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "#server/env.ts";
import type { Broadcasts } from "#server/broadcasts/broadcasts.ts";
import { runEvery } from "#server/background/periodic.ts";

/**
 * How often a turn comes: as often as about ten mails need, so that a turn's own queries (the
 * same for one mail as for ten) are paid once for ten mails (decisions 042 and 053); at most five
 * times a second, so a fast rate spreads its statements out, and at least every two seconds. At
 * the default 300 a minute, every two seconds with ten mails.
 */
export function turnMsFor(ratePerMinute: number): number {
  const tenMailsMs = (10 * 60_000) / ratePerMinute;
  return Math.round(Math.min(2_000, Math.max(200, tenMailsMs)));
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
  const { stop } = runEvery({
    everyMs: turnMs,
    work: () => broadcasts.pump(env.broadcastRatePerMinute),
    onError: (error) =>
      log.error({ err: error, event: "broadcast.pump_failed" }, "broadcast turn failed"),
  });
  /** Lets the turn under way finish, then takes no more. */
  return { stop };
}
