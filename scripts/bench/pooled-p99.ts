/**
 * The p99 of every answer of one side's rounds over the other's, with how far that ratio could
 * have come out otherwise (decision 059): the rounds are drawn again, with replacement, each
 * round's two sides together (they ran one after the other, on the machine as it was then), and
 * the ratio read again each time. A round that met a hiccup of the machine counts as often as
 * chance draws it, so the interval shows how much one such round moves the figure.
 */

export type PooledP99Ratio = {
  /** The p99 of every answer of `slower`'s rounds over that of `faster`'s. */
  ratio: number;
  /** A 90% interval for it, from the rounds drawn again. */
  low: number;
  high: number;
};

/** Answers are counted in bins this wide (ms) up to MAX_MS; past it, in one bin of their own. */
const BIN_MS = 0.01;
const MAX_MS = 200;
const BINS = Math.ceil(MAX_MS / BIN_MS) + 1;
/** How many times the rounds are drawn again. */
const DRAWS = 2_000;

/** A round's answer times (ms) as counts per bin. */
function histogram(times: readonly number[]): Uint32Array {
  const counts = new Uint32Array(BINS);
  for (const time of times) counts[Math.min(BINS - 1, Math.floor(time / BIN_MS))]! += 1;
  return counts;
}

/** The rank, counted from the fastest, of the answer 99 in 100 took at most, as the bench reads a side's sorted times. */
const rankOf = (answers: number) => Math.max(1, Math.ceil(answers * 0.99));

/**
 * One side's rounds, ready to be drawn again. Whatever rounds are drawn, their pooled p99 lies
 * between the lowest and the highest of the rounds' own p99s (at least 1% of every round is at or
 * above the lowest, at most 1% above the highest), so only the bins between are kept apart.
 */
function side(times: readonly (readonly number[])[]) {
  const rounds = times.map(histogram);
  const sizes = times.map((round) => round.length);
  const ownP99 = rounds.map((counts, i) => {
    const rank = rankOf(sizes[i]!);
    let seen = 0;
    for (let bin = 0; bin < BINS; bin++) if ((seen += counts[bin]!) >= rank) return bin;
    return BINS - 1;
  });
  const low = Math.min(...ownP99);
  const high = Math.max(...ownP99);
  const below = rounds.map((counts) => counts.subarray(0, low).reduce((sum, n) => sum + n, 0));
  const between = rounds.map((counts) => counts.slice(low, high + 1));
  /** The pooled p99 (ms, to a bin's width) of the rounds drawn, round i counted `drawn[i]` times. */
  return (drawn: readonly number[]): number => {
    let answers = 0;
    let seen = 0;
    for (let i = 0; i < drawn.length; i++) {
      answers += drawn[i]! * sizes[i]!;
      seen += drawn[i]! * below[i]!;
    }
    const rank = rankOf(answers);
    for (let bin = 0; bin <= high - low; bin++) {
      for (let i = 0; i < drawn.length; i++) if (drawn[i]) seen += drawn[i]! * between[i]![bin]!;
      if (seen >= rank) return (low + bin + 1) * BIN_MS;
    }
    return (high + 1) * BIN_MS;
  };
}

/** A small seeded generator (mulberry32), so that a run's interval can be read again. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * `slower[i]` and `faster[i]` are round i's answer times (ms) on each side. The ratio is read from
 * all rounds; the interval from the 5th and 95th percentiles of DRAWS ratios of rounds drawn again.
 */
export function pooledP99Ratio(
  slower: readonly (readonly number[])[],
  faster: readonly (readonly number[])[],
  seed = 1,
): PooledP99Ratio {
  if (slower.length === 0 || slower.length !== faster.length)
    throw new Error("pooled p99: each side needs the same rounds, at least one");
  if ([...slower, ...faster].some((round) => round.length === 0))
    throw new Error("pooled p99: a round with no answers has no p99");
  const a = side(slower);
  const b = side(faster);
  const every = slower.map(() => 1);
  const ratio = a(every) / b(every);
  const random = seeded(seed);
  const ratios: number[] = [];
  for (let draw = 0; draw < DRAWS; draw++) {
    const drawn = every.map(() => 0);
    for (let n = 0; n < every.length; n++) drawn[Math.floor(random() * every.length)]! += 1;
    ratios.push(a(drawn) / b(drawn));
  }
  ratios.sort((x, y) => x - y);
  return {
    ratio,
    low: ratios[Math.floor(DRAWS * 0.05)]!,
    high: ratios[Math.ceil(DRAWS * 0.95) - 1]!,
  };
}
