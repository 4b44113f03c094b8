import { describe, expect, test } from "vitest";
import { pooledP99Ratio } from "./pooled-p99.ts";

/** Answer times (ms) of `rounds` rounds: a body around 3 ms and a tail to about 12 ms, reproducibly. */
function rounds(count: number, answers: number, seed: number, scale = 1): number[][] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return Array.from({ length: count }, () =>
    Array.from(
      { length: answers },
      () => scale * (2 + 2 * next() + (next() < 0.03 ? 8 * next() : 0)),
    ),
  );
}

describe("the p99 of every answer, one side's rounds over the other's", () => {
  test("two sides alike read about 1, and the interval holds 1", () => {
    const { ratio, low, high } = pooledP99Ratio(rounds(20, 4_000, 7), rounds(20, 4_000, 99));
    expect(ratio).toBeGreaterThan(0.95);
    expect(ratio).toBeLessThan(1.05);
    expect(low).toBeLessThanOrEqual(1);
    expect(high).toBeGreaterThanOrEqual(1);
  });

  test("a side a quarter slower in every answer reads 1.25, its interval clear of 1.1", () => {
    const { ratio, low, high } = pooledP99Ratio(rounds(20, 4_000, 7, 1.25), rounds(20, 4_000, 7));
    expect(ratio).toBeCloseTo(1.25, 2);
    expect(low).toBeGreaterThan(1.1);
    expect(high).toBeLessThan(1.4);
  });

  test("one round that met a hiccup moves the ratio, and the interval shows how far", () => {
    const calm = pooledP99Ratio(rounds(20, 4_000, 7), rounds(20, 4_000, 99));
    const hiccup = rounds(20, 4_000, 7);
    hiccup[3] = hiccup[3]!.map((time) => time * 4);
    const jolted = pooledP99Ratio(hiccup, rounds(20, 4_000, 99));
    expect(jolted.ratio).toBeGreaterThan(calm.ratio + 0.1);
    expect(jolted.high - jolted.low).toBeGreaterThan(2 * (calm.high - calm.low));
    expect(jolted.low).toBeLessThan(calm.high);
  });

  test("the same rounds and seed read the same interval", () => {
    const a = rounds(9, 2_000, 3);
    const b = rounds(9, 2_000, 4);
    expect(pooledP99Ratio(a, b, 5)).toEqual(pooledP99Ratio(a, b, 5));
  });

  test("sides of different rounds, no rounds, or a round with no answers are refused", () => {
    expect(() => pooledP99Ratio(rounds(3, 10, 1), rounds(2, 10, 1))).toThrow(/same rounds/);
    expect(() => pooledP99Ratio([], [])).toThrow(/same rounds/);
    expect(() => pooledP99Ratio([[1], []], [[1], [2]])).toThrow(/no answers/);
  });
});
