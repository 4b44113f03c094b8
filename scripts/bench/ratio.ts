/**
 * How much slower one side of a side-by-side bench is than the other, read from every pair of
 * their runs (decision 058): the Hodges–Lehmann estimate of the ratio, that is the median of all
 * n × m ratios of a run of one side over a run of the other, with the interval the Mann–Whitney
 * ranks give it. Where a ratio of two medians turns on the few runs in the middle of each side, this
 * reads every run, so it moves less from one bench to the next at the same cost (decision 058).
 */
export type PairwiseRatio = {
  /** The median of every run of `slower` over every run of `faster`. */
  ratio: number;
  /** A 90% interval for it. */
  low: number;
  high: number;
};

/** The normal quantile for a two-sided 90% interval. */
const Z_90 = 1.6449;

const medianOfSorted = (sorted: number[]): number => {
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1
    ? sorted[Math.floor(middle)]!
    : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The middle value, or the mean of the middle two. */
export const median = (values: number[]): number =>
  medianOfSorted([...values].sort((a, b) => a - b));

export function pairwiseRatio(slower: number[], faster: number[]): PairwiseRatio {
  if (slower.length === 0 || faster.length === 0)
    throw new Error("pairwise ratio: each side needs at least one run");
  if ([...slower, ...faster].some((time) => !(time > 0) || !Number.isFinite(time)))
    throw new Error("pairwise ratio: every run must be a positive, finite time");
  // In logarithms, so a ratio and its inverse sit the same distance either side of 1.
  const logs: number[] = [];
  for (const a of slower) for (const b of faster) logs.push(Math.log(a / b));
  logs.sort((x, y) => x - y);
  const n = slower.length;
  const m = faster.length;
  // The interval runs from the c-th smallest pairwise ratio to the c-th largest, c from the
  // Mann–Whitney statistic's distribution (its normal approximation, close enough from about ten
  // runs a side); with too few runs for any, it is every ratio there is.
  const c = Math.max(1, Math.floor((n * m) / 2 - Z_90 * Math.sqrt((n * m * (n + m + 1)) / 12)));
  return {
    ratio: Math.exp(medianOfSorted(logs)),
    low: Math.exp(logs[c - 1]!),
    high: Math.exp(logs[logs.length - c]!),
  };
}
