import { strict as assert } from 'node:assert';
import { join } from 'node:path';

import { loadProfile } from '../readers/load';
import { splitByTime, unsplittable } from './timeWindows';
import type { NormalizedProfile } from './types';

const FIXTURES = join(__dirname, '../../../test/fixtures/profiles');

/** Root -> a (node 1), root -> b (node 2); a runs for the first 40 ms, b for the last 60 ms, 10 ms a sample. */
function twoPhases(): NormalizedProfile {
  const at = Array.from({ length: 10 }, (_, i) => i * 10);
  return {
    format: 'cpuprofile',
    samples: 10,
    durationMs: 100,
    functions: [
      { name: 'a', url: '/app/a.js', line: 1, column: 1, category: 'user' },
      { name: 'b', url: '/app/b.js', line: 1, column: 1, category: 'user' },
    ],
    tree: {
      count: 3,
      parent: Int32Array.from([-1, 0, 0]),
      func: Int32Array.from([-1, 0, 1]),
      callLine: new Int32Array(3),
      selfSamples: Float64Array.from([0, 4, 6]),
      selfMs: Float64Array.from([0, 40, 60]),
    },
    lineTicks: [
      { node: 1, line: 2, samples: 3, ms: 30 },
      { node: 1, line: 3, samples: 1, ms: 10 },
      { node: 2, line: 5, samples: 6, ms: 60 },
    ],
    warnings: [],
    timeline: { node: Int32Array.from(at.map((ms) => (ms < 40 ? 1 : 2))), atMs: Float64Array.from(at), endMs: 100 },
  };
}

describe('splitByTime (one profile as windows of equal duration)', () => {
  it('gives each window the samples taken in it, and shares a node\'s lines by its time in each', () => {
    const [first, second] = splitByTime(twoPhases(), 2);
    assert.deepEqual([first.durationMs, second.durationMs], [50, 50]);
    assert.deepEqual([first.samples, second.samples], [5, 5]);
    assert.deepEqual([...first.tree.selfMs], [0, 40, 10]);
    assert.deepEqual([...second.tree.selfMs], [0, 0, 50]);
    assert.deepEqual([...second.tree.selfSamples], [0, 0, 5]);
    // a ran only in the first window: all its lines are there; b's line is split 10 : 50.
    assert.deepEqual(first.lineTicks.map((t) => [t.node, t.line, t.ms]), [[1, 2, 30], [1, 3, 10], [2, 5, 10]]);
    assert.deepEqual(second.lineTicks.map((t) => [t.node, t.line, t.ms]), [[2, 5, 50]]);
    // Each window's timeline starts at its own 0 and ends at its width.
    assert.deepEqual([...second.timeline!.atMs], [0, 10, 20, 30, 40]);
    assert.equal(second.timeline!.endMs, 50);
  });

  for (const file of ['service.cpuprofile', 'service.v8.log']) {
    it(`adds up to the whole profile, node by node and line by line (${file}, recorded)`, async () => {
      const whole = await loadProfile(join(FIXTURES, file), { nativeSymbols: false });
      const windows = splitByTime(whole, 7);
      assert.equal(windows.length, 7);
      assert.equal(windows.reduce((sum, w) => sum + w.samples, 0), whole.timeline!.node.length);
      for (let n = 0; n < whole.tree.count; n++) {
        const sum = windows.reduce((total, w) => total + w.tree.selfMs[n], 0);
        assert.ok(Math.abs(sum - whole.tree.selfMs[n]) < 1e-6, `node ${n}: ${sum} vs ${whole.tree.selfMs[n]}`);
      }
      const byLine = (profiles: NormalizedProfile[]): Map<string, number> => {
        const sums = new Map<string, number>();
        for (const p of profiles) for (const t of p.lineTicks) sums.set(`${t.node}:${t.line}`, (sums.get(`${t.node}:${t.line}`) ?? 0) + t.ms);
        return sums;
      };
      const split = byLine(windows);
      for (const [key, ms] of byLine([whole])) assert.ok(ms === 0 || Math.abs((split.get(key) ?? 0) - ms) < 1e-6, `${key}: ${split.get(key)} vs ${ms}`);
      // The windows follow each other and are not all alike (the recording did different things over time).
      assert.ok(windows.some((w, i) => i > 0 && w.samples !== windows[0].samples));
    });
  }

  it('refuses a profile that keeps no sample order, in one line', () => {
    const { timeline: _, ...unordered } = twoPhases();
    assert.equal(unsplittable(unordered), 'a cpuprofile profile keeps no sample order');
    assert.throws(() => splitByTime(unordered, 3), /^RangeError: a cpuprofile profile keeps no sample order$/);
    assert.equal(unsplittable({ ...twoPhases(), unit: 'bytes' }), 'an allocation profile has no time to split');
    assert.throws(() => splitByTime(twoPhases(), 0), /cannot split a profile into 0 windows/);
  });
});
