// The confidence interval of a change between two groups of repeated measurements (runs of a
// workload, or windows of one long profile), by the studentized bootstrap ("bootstrap-t"):
// resample each group's runs with replacement, and read the interval off the distribution of the
// resampled difference of means divided by its own standard error. It assumes nothing about the
// runs' distribution, which for CPU time on a shared machine is skewed (a run that lost the core to
// a neighbour is slow, never fast), and unlike the plain percentile bootstrap it keeps its coverage
// with the few runs a gate has (3 to 10 a side): with 4 runs a side, the percentile method's 90%
// interval (even widened by sqrt(n / (n - 1))) missed the true difference in 16% of gate.test.ts's
// trials, where this one stays near the 10% it promises.
// Seeded, so the same inputs give the same interval on every machine and every run.

export function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return values.length === 0 ? 0 : sum / values.length;
}

/** The squared standard error of a mean: the sample variance (n - 1) over n. */
function squaredError(values: ArrayLike<number>, center: number): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += (values[i] - center) ** 2;
  return sum / (values.length - 1) / values.length;
}

/** Draws `from.length` values from `from` with replacement into `into`. */
function resample(from: readonly number[], into: Float64Array, random: () => number): void {
  for (let i = 0; i < into.length; i++) into[i] = from[Math.floor(random() * from.length)];
}

export interface Interval {
  low: number;
  high: number;
}

/**
 * The two-sided `confidence` interval of mean(after) - mean(before), from `resamples` bootstrap
 * resamples. Both groups need at least two runs: one run says nothing about how much runs vary.
 * Where every run of both sides measured the same value there is no spread to resample: the
 * interval is that difference alone.
 */
export function bootstrapDifference(before: readonly number[], after: readonly number[], confidence: number, resamples: number, random: () => number): Interval {
  if (before.length < 2 || after.length < 2) throw new RangeError('the bootstrap needs at least two runs on each side');
  const difference = mean(after) - mean(before);
  const standardError = Math.sqrt(squaredError(before, mean(before)) + squaredError(after, mean(after)));
  if (standardError === 0) return { low: difference, high: difference };
  const b = new Float64Array(before.length);
  const a = new Float64Array(after.length);
  const drawn = new Float64Array(resamples);
  let count = 0;
  for (let i = 0; i < resamples; i++) {
    resample(before, b, random);
    resample(after, a, random);
    const [meanB, meanA] = [mean(b), mean(a)];
    const error = Math.sqrt(squaredError(b, meanB) + squaredError(a, meanA));
    // A resample that drew one run over and over on both sides (or on the only side that varies:
    // new code is 0 in every run before) has no spread and no t; it is left out. With 4 runs a
    // side that is 1 resample in 64, more than the tails of an adjusted 95% interval.
    if (error > 0) drawn[count++] = (meanA - meanB - difference) / error;
  }
  const studentized = drawn.subarray(0, count).sort();
  const tail = (1 - confidence) / 2;
  const at = (q: number): number => studentized[Math.min(count - 1, Math.max(0, Math.round(q * (count - 1))))];
  return { low: difference - at(1 - tail) * standardError, high: difference - at(tail) * standardError };
}
