import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { runEvery } from "#server/background/periodic.ts";

/** A promise the test settles itself. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe("work on a timer", () => {
  it("runs one at a time: a run due while one is under way is skipped, not queued", async () => {
    let under = 0;
    let most = 0;
    let runs = 0;
    const held = gate();
    const periodic = runEvery({
      everyMs: 5,
      onError: () => {},
      work: async () => {
        runs++;
        most = Math.max(most, ++under);
        await held.opened;
        under--;
      },
    });
    await vi.waitFor(() => expect(runs).toBe(1));
    // Many intervals pass while the first run is held.
    await sleep(60);
    expect(runs).toBe(1);
    held.open();
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3));
    await periodic.stop();
    expect(most).toBe(1);
  });

  it("reports a run that failed and goes on with the next", async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const periodic = runEvery({
      everyMs: 5,
      onError: (error) => errors.push(error),
      work: () => {
        runs++;
        return runs === 1 ? Promise.reject(new Error("the database is away")) : Promise.resolve();
      },
    });
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(2));
    await periodic.stop();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe("the database is away");
  });

  it("stops only once the run under way has finished, and runs no more", async () => {
    let runs = 0;
    let finished = false;
    const held = gate();
    const periodic = runEvery({
      everyMs: 5,
      first: "now",
      onError: () => {},
      work: async () => {
        runs++;
        await held.opened;
        finished = true;
      },
    });
    await vi.waitFor(() => expect(runs).toBe(1));
    let stopped = false;
    const stopping = periodic.stop().then(() => (stopped = true));
    await sleep(30);
    expect(stopped).toBe(false);
    held.open();
    await stopping;
    expect(finished).toBe(true);
    await sleep(30);
    periodic.runNow();
    expect(runs).toBe(1);
  });

  it("runs at once when asked to, otherwise only after the first interval", async () => {
    let soon = 0;
    let later = 0;
    const now = runEvery({
      everyMs: 60_000,
      first: "now",
      onError: () => {},
      work: () => Promise.resolve(soon++),
    });
    const after = runEvery({
      everyMs: 60_000,
      onError: () => {},
      work: () => Promise.resolve(later++),
    });
    await vi.waitFor(() => expect(soon).toBe(1));
    await sleep(20);
    expect(later).toBe(0);
    await Promise.all([now.stop(), after.stop()]);
  });
});
