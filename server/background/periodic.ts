/**
 * Background work on a timer (the broadcast pump, the VACUUM, housekeeping, the privacy sweep),
 * with the same three rules for each:
 *
 * - one run at a time: a run still under way when the next is due makes that one skip, so a slow
 *   run never has a queue of runs behind it;
 * - a run that fails is reported, and the next one comes as usual;
 * - `stop` runs no more and resolves once the run under way has finished, so nothing is still
 *   writing when the database closes.
 *
 * The timer does not keep the process alive.
 */
export type Periodic = {
  /** Starts a run now, unless one is under way or the work was stopped. */
  runNow: () => void;
  /** Runs no more; resolves when the run under way (if any) has finished. */
  stop: () => Promise<void>;
};

export function runEvery({
  everyMs,
  work,
  onError,
  first = "after an interval",
}: {
  everyMs: number;
  work: () => Promise<unknown>;
  /** Told of a run that failed (it is logged there); the next run comes as usual. */
  onError: (error: unknown) => void;
  /** The first run: at once, or only when the first interval has passed. */
  first?: "now" | "after an interval";
}): Periodic {
  let stopped = false;
  let running: Promise<void> | null = null;
  const runNow = () => {
    if (stopped || running) return;
    running = Promise.resolve()
      .then(work)
      .then(() => undefined, onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(runNow, everyMs);
  timer.unref();
  if (first === "now") runNow();
  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
