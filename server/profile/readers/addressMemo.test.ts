// The address memo against a Map under random stores, range forgets and clears: addresses near
// 2^47 like a 64-bit process's, clustered in a few pages, and the negative ones wide addresses get.
import assert from 'node:assert/strict';
import { AddressMemo } from './addressMemo';

/** Deterministic pseudo-random numbers (xorshift32), so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('AddressMemo', () => {
  it('agrees with a Map under random stores, forgets of ranges small and large, and clears', () => {
    for (const seed of [1, 7, 42, 2026]) {
      const next = random(seed);
      const memo = new AddressMemo();
      const model = new Map<number, number>();
      const base = 0x7f3a_0000_0000;
      const address = (): number => {
        const r = next();
        if (r < 0.05) return -1 - Math.floor(next() * 8);
        if (r < 0.1) return Math.floor(next() * 2 ** 20);
        return base + Math.floor(next() * 64) * 4096 + Math.floor(next() * 4096);
      };
      for (let op = 0; op < 20_000; op++) {
        const r = next();
        if (r < 0.6) {
          const a = address();
          const expected = model.get(a) ?? -1;
          assert.equal(memo.get(a), expected, `get(${a}) at op ${op}, seed ${seed}`);
          if (expected === -1) {
            memo.set(a, op);
            model.set(a, op);
          }
        } else if (r < 0.995) {
          const from = address();
          const length = next() < 0.9 ? Math.floor(next() * 8192) : Math.floor(next() * 2 ** 30);
          memo.forget(from, from + length);
          for (const a of [...model.keys()]) if (a >= from && a < from + length) model.delete(a);
        } else {
          memo.clear();
          model.clear();
        }
        assert.equal(memo.size, model.size, `size at op ${op}, seed ${seed}`);
      }
      for (const [a, slot] of model) assert.equal(memo.get(a), slot);
    }
  });

  it('forgets nothing for an empty or reversed range', () => {
    const memo = new AddressMemo();
    memo.set(0x1000, 3);
    memo.forget(0x1000, 0x1000);
    memo.forget(0x2000, 0x1000);
    memo.forget(NaN, NaN);
    assert.equal(memo.get(0x1000), 3);
  });
});
