// The address memo against a Map under random stores, range forgets and clears: addresses near
// 2^47 like a 64-bit process's, clustered in a few pages, and the negative ones wide addresses get.
import assert from 'node:assert/strict';
import { seededRandom as random } from '../../shared/seededRandom';
import { AddressMemo } from './addressMemo';

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
          const found = memo.get(a);
          // Never a slot the model does not hold; an address may be forgotten with more than its range (a bounded forget clears).
          if (found !== -1) assert.equal(found, model.get(a), `get(${a}) at op ${op}, seed ${seed}`);
          else {
            model.delete(a);
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
        assert.ok(memo.size <= model.size, `size at op ${op}, seed ${seed}`);
      }
      for (const [a, slot] of model) assert.ok([-1, slot].includes(memo.get(a)));
    }
  });

  it('keeps the addresses outside a small range, and forgets everything for a range over many pages', () => {
    const memo = new AddressMemo();
    const base = 0x7f3a_0000_0000;
    for (let k = 0; k < 100; k++) memo.set(base + k * 1000, k);
    memo.forget(base + 10_000, base + 20_000);
    for (let k = 0; k < 100; k++) assert.equal(memo.get(base + k * 1000), k >= 10 && k < 20 ? -1 : k, `address ${k}`);
    memo.forget(base + 95_000, base + 95_000 + 4096 * 1000);
    assert.equal(memo.size, 0);
    memo.set(base, 7);
    assert.equal(memo.get(base), 7);
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
