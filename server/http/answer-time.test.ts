import { describe, expect, it } from "vitest";
import { createAnswerTimes, MAX_WAIT_MS } from "#server/http/answer-time.ts";

/** A "random" source that returns the given draws in turn. */
function draws(...values: number[]) {
  let i = 0;
  return () => values[i++ % values.length]!;
}

describe("how long a known address waits before it answers", () => {
  it("waits until its own time reaches a new address's time drawn from the recent ones", () => {
    const times = createAnswerTimes(draws(0, 0.5, 0.99));
    times.created(9);
    times.created(4);
    times.created(12);
    // Three recent times: draws pick the first, the second, the third.
    expect(times.repeatWait(1)).toBe(8);
    expect(times.repeatWait(1)).toBe(3);
    expect(times.repeatWait(1)).toBe(11);
  });

  it("does not wait when it already took as long", () => {
    const times = createAnswerTimes(draws(0));
    times.created(5);
    expect(times.repeatWait(5)).toBe(0);
    expect(times.repeatWait(40)).toBe(0);
  });

  it("waits in whole milliseconds, rounded, as timers count", () => {
    const times = createAnswerTimes(draws(0));
    times.created(6.8);
    expect(times.repeatWait(1.1)).toBe(6);
    expect(times.repeatWait(0.9)).toBe(6);
    expect(times.repeatWait(0.7)).toBe(6);
    expect(times.repeatWait(0.2)).toBe(7);
  });

  it("before any new address since the start, waits ten milliseconds", () => {
    const times = createAnswerTimes(draws(0.3));
    expect(times.repeatWait(2)).toBe(8);
  });

  it("never waits longer than the cap, whatever a flood made new addresses take", () => {
    const times = createAnswerTimes(draws(0));
    times.created(5_000);
    expect(times.repeatWait(1)).toBe(MAX_WAIT_MS);
  });

  it("draws only from the last 64 new addresses", () => {
    const times = createAnswerTimes(draws(0, 0.999));
    times.created(200);
    for (let i = 0; i < 64; i++) times.created(3);
    // The 200 ms one was the oldest and is gone: every draw finds 3 ms.
    expect(times.repeatWait(0)).toBe(3);
    expect(times.repeatWait(0)).toBe(3);
  });
});
