import assert from 'node:assert/strict';

import type { FunctionCost, LineCost, ProfileReport } from '../model/types';
import { seededRandom } from '../../shared/seededRandom';
import { bootstrapDifference } from './bootstrap';
import { DEFAULT_GATE_OPTIONS, runGate } from './gate';

/** Where each function of these tests is declared: its time is on the line below. */
const DECLARED: Record<string, number> = { parse: 10, hash: 20, tiny: 30, old: 40, gzip: 50, a: 60, b: 70, c: 80 };

/** A report of a 1 s profile whose user functions spent `selfMs` each, all on the line after their declaration. */
function run(selfMs: Record<string, number>, unit: ProfileReport['unit'] = 'ms', msPerSample = 1): ProfileReport {
  const functions: FunctionCost[] = Object.entries(selfMs).map(([name, ms]) => ({
    name,
    file: '/app/service.js',
    line: DECLARED[name],
    column: 1,
    selfSamples: Math.round(ms / msPerSample),
    totalSamples: Math.round(ms / msPerSample),
    selfMs: ms,
    totalMs: ms,
    selfPercent: null,
    totalPercent: null,
    category: 'user',
  }));
  const lines: LineCost[] = functions.map((f) => ({ file: f.file, line: f.line + 1, selfSamples: f.selfSamples, selfMs: f.selfMs, percent: 0 }));
  const cpuMs = functions.reduce((sum, f) => sum + f.selfMs, 0);
  const samples = functions.reduce((sum, f) => sum + f.selfSamples, 0);
  return { unit, durationMs: 1000, cpuMs, samples, categories: { idle: { samples: 0, ms: 0, percent: null } }, functions, lines } as unknown as ProfileReport;
}

/** `n` runs around `means`, each function jittered by up to ±`jitter` of itself (deterministic). */
function runs(n: number, means: Record<string, number>, jitter: number, seed: number): ProfileReport[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => run(Object.fromEntries(Object.entries(means).map(([name, ms]) => [name, ms * (1 + jitter * (2 * random() - 1))]))));
}

describe('the gate (bootstrap over runs, thresholds, adjusted confidence)', () => {
  it('passes runs of the same code that vary within their noise', () => {
    const result = runGate(runs(5, { parse: 100, hash: 300 }, 0.05, 1), runs(5, { parse: 100, hash: 300 }, 0.05, 2));
    assert.equal(result.failed, false);
    assert.deepEqual(result.regressions, []);
  });

  it('fails on a function 30% slower in every run, on its function and its line, with an interval that excludes 0', () => {
    const result = runGate(runs(8, { parse: 100, hash: 300 }, 0.05, 3), runs(8, { parse: 100, hash: 390 }, 0.05, 4));
    assert.equal(result.failed, true);
    assert.deepEqual(new Set(result.regressions.map((r) => `${r.kind}:${r.line}`)), new Set(['function:20', 'line:21']));
    for (const r of result.regressions) {
      assert.ok(r.interval.low > 0 && r.interval.low < r.delta && r.delta < r.interval.high, `${r.interval.low} < ${r.delta} < ${r.interval.high}`);
      assert.ok(Math.abs(r.delta - 90) < 20 && r.relative !== null && Math.abs(r.relative - 0.3) < 0.07);
    }
  });

  it('does not fail on a real change under the relative threshold, nor under --min-ms', () => {
    const before = runs(8, { hash: 300, tiny: 10 }, 0.01, 5);
    const after = runs(8, { hash: 315, tiny: 14 }, 0.01, 6); // +5% of hash; +4 ms/s of tiny (+40%)
    assert.equal(runGate(before, after).failed, false);
    // Lower both bars: both changes are real, and both fail.
    const lowered = runGate(before, after, { ...DEFAULT_GATE_OPTIONS, threshold: 0.02, minMs: 1 });
    assert.deepEqual(new Set(lowered.regressions.map((r) => r.line)), new Set([20, 21, 30, 31]));
  });

  it('does not fail where the runs disagree as much as the change (noise)', () => {
    const before = [run({ hash: 100 }), run({ hash: 300 }), run({ hash: 150 })];
    const after = [run({ hash: 320 }), run({ hash: 120 }), run({ hash: 260 })];
    const result = runGate(before, after);
    assert.equal(result.candidates, 1); // hash's function passed the thresholds, and was tested; its line is tested only if it changed
    assert.equal(result.lineCandidates, 0);
    assert.equal(result.failed, false);
  });

  it('names new code (0 before) with no relative change, and reports improvements without failing', () => {
    const result = runGate(runs(8, { hash: 300, old: 50 }, 0.02, 7), runs(8, { hash: 300, gzip: 40 }, 0.02, 8));
    assert.equal(result.failed, true);
    const gzip = result.regressions.find((r) => r.kind === 'function' && r.name === 'gzip');
    assert.ok(gzip !== undefined && gzip.relative === null && gzip.before === 0);
    assert.ok(result.improvements.some((r) => r.kind === 'function' && r.name === 'old' && r.delta < -45));
    assert.ok(!result.regressions.some((r) => r.name === 'old'));
  });

  it('widens each interval for the number of changes tested (Bonferroni)', () => {
    // Three new functions; parse and hash did not change: the rest of each run the others are
    // measured against. (Three functions 50% slower beside an unchanged one look, against the rest
    // of the run, the same as the one function 33% faster: the gate names the largest relative
    // change first, so new code is unambiguous where a uniform growth is not.)
    const before = runs(8, { parse: 300, hash: 200 }, 0.05, 9);
    const after = runs(8, { a: 50, b: 50, c: 50, parse: 300, hash: 200 }, 0.05, 10);
    const result = runGate(before, after);
    assert.equal(result.candidates, 3);
    const alpha = 1 - DEFAULT_GATE_OPTIONS.confidence;
    assert.ok(Math.abs(result.adjustedConfidence - (1 - alpha / 3)) < 1e-12);
    // Then the lines of the three functions found changed, sharing the same confidence among them.
    assert.equal(result.lineCandidates, 3);
    const lines = result.regressions.filter((r) => r.kind === 'line');
    assert.deepEqual(lines.map((r) => r.line).sort(), [61, 71, 81]);
    assert.ok(lines.every((r) => Math.abs(r.confidence - (1 - alpha / 3)) < 1e-12));
  });

  it('cancels what the machine does to a whole run: identical code on a machine twice as slow in some runs passes', () => {
    // Every function of a run costs more ms together (neighbours, a lower clock): plain ms/s would
    // see parse and hash "slower" on the after side; against the rest of each run they are not.
    const before = runs(5, { parse: 100, hash: 300, a: 200 }, 0.02, 21);
    const after = runs(5, { parse: 100, hash: 300, a: 200 }, 0.02, 22).map((r, i) => run(Object.fromEntries(r.functions.map((f) => [f.name, f.selfMs * (1.6 + 0.1 * i)])), 'ms', 1.6 + 0.1 * i));
    const result = runGate(before, after);
    assert.equal(result.failed, false, JSON.stringify(result.regressions));
    assert.ok(result.candidates === 0 || result.regressions.length === 0);
  });

  it('names the function made 20% slower, not the others whose share of the run fell, on a machine whose speed varies', () => {
    const speeds = [1, 1.4, 0.8, 1.2, 1.7, 0.9, 1.5, 1.1];
    const at = (means: Record<string, number>, seed: number): ProfileReport[] =>
      runs(8, means, 0.02, seed).map((r, i) => run(Object.fromEntries(r.functions.map((f) => [f.name, f.selfMs * speeds[i]])), 'ms', speeds[i]));
    const result = runGate(at({ parse: 200, hash: 300, a: 250, b: 250 }, 23), at({ parse: 200, hash: 360, a: 250, b: 250 }, 24));
    assert.equal(result.failed, true);
    assert.deepEqual(new Set(result.regressions.map((r) => `${r.kind}:${r.line}`)), new Set(['function:20', 'line:21']));
    assert.deepEqual(result.improvements, []);
    const hash = result.regressions.find((r) => r.kind === 'function')!;
    // Put back at the baseline's pace: about 300 → 360 ms/s at the mean speed of the runs before (1.2).
    assert.ok(hash.paced && Math.abs(hash.relative! - 0.2) < 0.05, JSON.stringify(hash));
  });

  it('does not report lines whose share of an unchanged function moved (how V8 spread its samples), and finds the line of a changed one', () => {
    // hash's time is the same in every run, but its samples fall on its lines 21 and 22 in proportions
    // that differ between the sides, as V8's line attribution does from one compilation to the next.
    const spread = (reports: ProfileReport[], first: number): ProfileReport[] =>
      reports.map((r) => {
        const hash = r.functions.find((f) => f.name === 'hash')!;
        const other = r.lines.filter((l) => l.line !== 21);
        const a = Math.round(hash.selfSamples * first);
        return { ...r, lines: [...other, { file: hash.file, line: 21, selfSamples: a, selfMs: a, percent: 0 }, { file: hash.file, line: 22, selfSamples: hash.selfSamples - a, selfMs: hash.selfSamples - a, percent: 0 }] };
      });
    const before = spread(runs(6, { parse: 200, hash: 300 }, 0.02, 31), 0.5);
    const after = spread(runs(6, { parse: 200, hash: 300 }, 0.02, 32), 0.7);
    const unchanged = runGate(before, after);
    assert.equal(unchanged.failed, false, JSON.stringify(unchanged.regressions));
    // The same spread in a function made 30% slower: the function, and its line that took the time.
    const slower = spread(runs(6, { parse: 200, hash: 390 }, 0.02, 33), 0.7);
    const changed = runGate(before, slower);
    assert.deepEqual(new Set(changed.regressions.map((r) => `${r.kind}:${r.line}`)), new Set(['function:20', 'line:21']));
  });

  it('gives the same intervals for the same inputs and seed', () => {
    const before = runs(4, { hash: 300 }, 0.1, 11);
    const after = runs(4, { hash: 380 }, 0.1, 12);
    assert.deepEqual(runGate(before, after), runGate(before, after));
  });

  it('refuses fewer than two runs a side, and allocation profiles', () => {
    assert.throws(() => bootstrapDifference([1], [1, 2], 0.95, 100, seededRandom(1)), /at least two runs/);
    assert.throws(() => runGate([run({ a: 1 }, 'bytes'), run({ a: 1 }, 'bytes')], [run({ a: 1 }, 'bytes'), run({ a: 1 }, 'bytes')]), /CPU profiles/);
  });

  it('covers the true difference about as often as its confidence says (few runs, noisy)', () => {
    // Normal-ish noise, 4 runs a side, true difference 0: a 90% interval should exclude 0 about 10%
    // of the time; the percentile bootstrap (widened by sqrt(n / (n - 1))) excluded it in 16% of these trials.
    const random = seededRandom(13);
    const noise = (): number => (random() + random() + random() + random() - 2) * 50;
    let excluded = 0;
    const trials = 400;
    for (let t = 0; t < trials; t++) {
      const before = Array.from({ length: 4 }, () => 300 + noise());
      const after = Array.from({ length: 4 }, () => 300 + noise());
      const interval = bootstrapDifference(before, after, 0.9, 2000, random);
      if (interval.low > 0 || interval.high < 0) excluded++;
    }
    assert.ok(excluded / trials > 0.04 && excluded / trials < 0.14, `a 90% interval excluded the true difference in ${excluded} of ${trials} trials`);
  });
});
