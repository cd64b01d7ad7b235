import assert from 'node:assert/strict';

import { seededRandom } from '../../shared/seededRandom';
import { rankSumP, runsNeeded, smallestP } from './rankSum';

/** The same p-value, estimated independently: the share of random splits of the pooled runs whose rank sum is as far from its mean. */
function permutationP(before: readonly number[], after: readonly number[], splits: number, random: () => number): number {
  const pooled = [...before, ...after];
  const rank = (values: readonly number[]): number[] => values.map((v) => values.filter((w) => w < v).length + (values.filter((w) => w === v).length + 1) / 2);
  const ranks = rank(pooled);
  const sumOf = (indices: readonly number[]): number => indices.reduce((sum, i) => sum + ranks[i], 0);
  const expected = (after.length * (pooled.length + 1)) / 2;
  const observed = Math.abs(sumOf(after.map((_, i) => before.length + i)) - expected);
  let asFar = 0;
  const order = pooled.map((_, i) => i);
  for (let s = 0; s < splits; s++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    if (Math.abs(sumOf(order.slice(0, after.length)) - expected) >= observed - 1e-9) asFar++;
  }
  return asFar / splits;
}

describe('the exact rank-sum test of the gate', () => {
  it('gives the exact p-value of small groups, ties included', () => {
    // Fully separated, 3 a side: 2 of the C(6, 3) = 20 splits are as extreme.
    assert.equal(rankSumP([1, 2, 3], [4, 5, 6]), 0.1);
    assert.equal(smallestP(3, 3), 0.1);
    // Ranks 2, 4, 6, 8 of 8: sum 20 against 18 expected; 22 of the 70 splits sum to 17, 18 or 19.
    assert.ok(Math.abs(rankSumP([1, 2, 3, 4], [1.5, 2.5, 3.5, 4.5]) - 48 / 70) < 1e-12);
    assert.equal(rankSumP([5, 5, 5], [5, 5, 5]), 1);
    assert.equal(rankSumP([0, 0, 0, 0], [0, 0, 0, 0]), 1);
  });

  it('agrees with an independent count of random splits, exact (ties) and by the normal approximation (many runs)', () => {
    const random = seededRandom(5);
    // New code: 0 in every run before; the after side's values tie with some of them.
    const tied = { before: [0, 0, 0, 0, 0, 0, 3, 4, 0, 0], after: [0, 2, 5, 6, 0, 7, 8, 3, 9, 0] };
    const many = {
      before: Array.from({ length: 35 }, () => 100 + 20 * random()),
      after: Array.from({ length: 35 }, () => 104 + 20 * random()),
    };
    for (const { before, after } of [tied, many]) {
      const p = rankSumP(before, after);
      const estimated = permutationP(before, after, 20_000, random);
      assert.ok(Math.abs(p - estimated) < 0.01, `${p} against ${estimated} from random splits`);
    }
  });

  it('rejects runs of one distribution at most as often as its level, however skewed or bimodal', () => {
    // Runs where V8 compiled a function one way or another (two modes), and one run in ten lost the core.
    const random = seededRandom(9);
    const run = (): number => (random() < 0.3 ? 160 : 100) + 10 * random() + (random() < 0.1 ? 80 : 0);
    const trials = 1000;
    let rejected = 0;
    for (let t = 0; t < trials; t++) {
      const before = Array.from({ length: 10 }, run);
      const after = Array.from({ length: 10 }, run);
      if (rankSumP(before, after) <= 0.05) rejected++;
    }
    // At most 5% (the binomial spread of 1000 trials is about ±1.4%).
    assert.ok(rejected / trials <= 0.065, `rejected ${rejected} of ${trials}`);
  });

  it('says how many runs a side a level needs', () => {
    assert.equal(runsNeeded(0.95), 4); // 2 / C(8, 4) = 0.029
    assert.equal(runsNeeded(0.99), 5); // 2 / C(10, 5) = 0.0079
    assert.ok(smallestP(10, 10) < 1e-4);
  });
});
