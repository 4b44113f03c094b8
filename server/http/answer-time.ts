/**
 * A known address must not answer sooner than a new one (decisions 023 and 033). A new waitlist
 * entry or sub-processor subscription writes its tokens and its confirmation mail in the
 * transaction that creates it; a repeat writes nothing, and answered 3 to 5 ms sooner on an idle
 * site: a stopwatch told whether an address was already on the list, although the answer itself
 * was the same.
 *
 * So each form makes its write through `submit`, which times it. A new address's time goes into a short ring
 * of recent ones; a repeat then waits until its own time reaches one drawn from that ring, so the
 * two are answered in the same spread of times. A probe learns from its first try only (that try
 * puts a new address on the list), so it has one draw to read, not a distribution.
 *
 * The ring holds times and nothing else, the same for everyone, a fixed number of them: a flood
 * of new addresses makes repeats wait as long as new ones take then, and never longer than
 * `MAX_WAIT_MS`.
 */

import { setTimeout as sleep } from "node:timers/promises";

/** How many recent new-entry times a repeat's wait is drawn from. */
const RING_SIZE = 64;
/** Before any new entry since the start (the ring is empty), a repeat waits for this long. */
const FIRST_WAIT_MS = 10;
/** No repeat waits longer than this, whatever the ring holds. */
export const MAX_WAIT_MS = 250;

export type AnswerTimes = {
  /**
   * Runs a submission's write (true: it created a new row), then answers: at once for a new
   * address, no sooner than a drawn new address's time for a repeat.
   */
  submit: (write: () => Promise<boolean>) => Promise<boolean>;
  /** A new address's write took `ms`. */
  created: (ms: number) => void;
  /**
   * How much longer a repeat whose write took `ms` waits before it answers: 0 or more, in whole
   * milliseconds, as Node's timers count (a fraction would be cut off, and repeats would answer
   * half a millisecond early on average).
   */
  repeatWait: (ms: number) => number;
};

/** `random` returns a number in [0, 1), as Math.random does (a test passes its own). */
export function createAnswerTimes(random: () => number = Math.random): AnswerTimes {
  const ring: number[] = [];
  let next = 0;
  const times: AnswerTimes = {
    async submit(write) {
      const started = performance.now();
      const created = await write();
      const took = performance.now() - started;
      if (created) times.created(took);
      else {
        const wait = times.repeatWait(took);
        if (wait > 0) await sleep(wait);
      }
      return created;
    },
    created(ms) {
      ring[next] = ms;
      next = (next + 1) % RING_SIZE;
    },
    repeatWait(ms) {
      const drawn =
        ring.length === 0 ? FIRST_WAIT_MS : (ring[Math.floor(random() * ring.length)] ?? 0);
      return Math.min(MAX_WAIT_MS, Math.max(0, Math.round(drawn - ms)));
    },
  };
  return times;
}
