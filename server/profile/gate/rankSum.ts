// The rank-sum (Wilcoxon-Mann-Whitney) test of two groups of runs, exact: its p-value is the share
// of all ways to split the pooled runs into groups of these sizes whose rank sum lies at least as
// far from its expectation as the observed one. Runs of the same code are exchangeable (which run
// lands on which side is chance, or the order they were recorded in, interleaved), and then the
// test's false-alarm rate is at most its level whatever the runs' distribution: skewed, bimodal
// (V8 compiled a function differently in some runs) or drifting with the machine's load. The
// bootstrap's interval (bootstrap.ts) sizes a change; this test decides whether there is one.
//
// The price of exactness: with n runs a side no split is rarer than 1 in C(2n, n), so a few runs
// cannot show anything at a strict level (3 a side: p >= 0.1). `smallestP` says so up front.

/** The pooled values' ranks, ties given their mean rank, doubled so that every rank is an integer. */
function doubledRanks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1]] === values[order[i]]) j++;
    // Ranks i+1 … j+1 share their mean, (i + j + 2) / 2: doubled, i + j + 2.
    for (let k = i; k <= j; k++) ranks[order[k]] = i + j + 2;
    i = j + 1;
  }
  return ranks;
}

/** Above this many runs in all, the exact count is replaced by the normal approximation (tie-corrected), which is close by then. */
const EXACT_UP_TO = 60;

/** The normal distribution's upper tail, P(Z >= z), by the complementary error function (Abramowitz-Stegun 7.1.26, error < 1.5e-7). */
function upperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/** Two-sided p-value of the rank-sum test that `after` and `before` come from one distribution. */
export function rankSumP(before: readonly number[], after: readonly number[]): number {
  const pooled = [...before, ...after];
  const total = pooled.length;
  const n = after.length;
  if (before.length === 0 || n === 0) return 1;
  const ranks = doubledRanks(pooled);
  let observed = 0;
  for (let i = before.length; i < total; i++) observed += ranks[i];
  const expected = n * (total + 1);
  if (total > EXACT_UP_TO) {
    // Variance of the (doubled) rank sum with ties: 4 · n·m/(N(N-1)) · Σ(r - mean)², over the undoubled ranks.
    let squares = 0;
    for (const r of ranks) squares += (r / 2 - (total + 1) / 2) ** 2;
    const variance = (4 * n * before.length * squares) / (total * (total - 1));
    if (variance === 0) return 1;
    return Math.min(1, 2 * upperTail(Math.abs(observed - expected) / Math.sqrt(variance)));
  }
  // ways[k][s]: how many k-run subsets of the runs seen so far have doubled rank sum s.
  const largest = ranks.reduce((sum, r) => sum + r, 0);
  const ways = Array.from({ length: n + 1 }, () => new Float64Array(largest + 1));
  ways[0][0] = 1;
  for (let i = 0; i < total; i++) {
    for (let k = Math.min(i + 1, n); k >= 1; k--) {
      const row = ways[k];
      const previous = ways[k - 1];
      for (let s = largest; s >= ranks[i]; s--) row[s] += previous[s - ranks[i]];
    }
  }
  const distance = Math.abs(observed - expected);
  let all = 0;
  let asFar = 0;
  ways[n].forEach((count, sum) => {
    all += count;
    if (Math.abs(sum - expected) >= distance) asFar += count;
  });
  return asFar / all;
}

/** The smallest two-sided p-value the exact test can give with these many runs a side: 2 / C(n + m, n). */
export function smallestP(before: number, after: number): number {
  let splits = 1;
  for (let i = 1; i <= after; i++) splits = (splits * (before + i)) / i;
  return Math.min(1, 2 / splits);
}

/** The fewest runs a side (the same on both) with which the exact test can show one change at `confidence`. */
export function runsNeeded(confidence: number): number {
  let n = 2;
  while (smallestP(n, n) > 1 - confidence) n++;
  return n;
}
