import { describe, expect, it } from "vitest";
import { pairwiseRatio } from "./ratio.ts";

describe("pairwiseRatio", () => {
  it("reads 1 for two sides that are the same runs", () => {
    const runs = [190, 210, 230, 250, 330];
    const { ratio, low, high } = pairwiseRatio(runs, [...runs].reverse());
    expect(ratio).toBeCloseTo(1, 10);
    expect(low).toBeLessThan(1);
    expect(high).toBeGreaterThan(1);
  });

  it("reads the factor when one side is the other slowed by it", () => {
    const faster = [180, 200, 205, 240, 260, 310, 350];
    const { ratio, low, high } = pairwiseRatio(
      faster.map((t) => t * 1.2),
      faster,
    );
    expect(ratio).toBeCloseTo(1.2, 10);
    expect(low).toBeLessThanOrEqual(1.2);
    expect(high).toBeGreaterThanOrEqual(1.2);
  });

  it("takes the median of all n × m ratios, between the middle two when their count is even", () => {
    // Ratios: 100/100, 100/200, 300/100, 300/200 = 1, 0.5, 3, 1.5; the middle two 1 and 1.5.
    expect(pairwiseRatio([100, 300], [100, 200]).ratio).toBeCloseTo(Math.sqrt(1.5), 10);
  });

  it("counts a run far out on one side as no more than a run just past the others", () => {
    const faster = [200, 205, 210, 215, 220, 225, 230, 235, 240, 245, 250];
    const slower = faster.map((t) => t * 1.05).slice(1);
    const justPast = pairwiseRatio([...slower, 300], faster).ratio;
    expect(pairwiseRatio([...slower, 5_000], faster).ratio).toBe(justPast);
    expect(pairwiseRatio(slower, [...faster, 5_000]).ratio).toBe(
      pairwiseRatio(slower, [...faster, 300]).ratio,
    );
  });

  it("narrows its interval as runs are added", () => {
    const spread = (n: number) => Array.from({ length: n }, (_, i) => 180 + ((i * 37) % 150));
    const few = pairwiseRatio(spread(7), spread(7));
    const many = pairwiseRatio(spread(31), spread(31));
    expect(many.high / many.low).toBeLessThan(few.high / few.low);
  });

  it("gives, with one run a side, every ratio there is as its interval", () => {
    expect(pairwiseRatio([120], [100])).toEqual({ ratio: 1.2, low: 1.2, high: 1.2 });
    const { low, high } = pairwiseRatio([100, 200], [100]);
    expect([low, high]).toEqual([1, 2]);
  });

  it("leaves out of its interval as many ratios at each end as the Mann–Whitney ranks say", () => {
    // 10 runs a side: 100 ratios, c = floor(50 - 1.6449 × √(100 × 21 / 12)) = 28, so the interval
    // runs from the 28th smallest ratio to the 28th largest.
    const faster = Array.from({ length: 10 }, (_, i) => 100 + i);
    const slower = Array.from({ length: 10 }, (_, i) => 150 + 7 * i);
    const all = slower.flatMap((a) => faster.map((b) => a / b)).sort((x, y) => x - y);
    const { low, high } = pairwiseRatio(slower, faster);
    expect(low).toBeCloseTo(all[27]!, 12);
    expect(high).toBeCloseTo(all[100 - 28]!, 12);
  });

  it("refuses an empty side or a time that is not a positive number", () => {
    expect(() => pairwiseRatio([], [1])).toThrow("each side needs at least one run");
    expect(() => pairwiseRatio([1, 0], [1])).toThrow("positive, finite time");
    expect(() => pairwiseRatio([1], [Number.NaN])).toThrow("positive, finite time");
  });
});
