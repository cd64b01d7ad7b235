// The stall model on timelines written by hand: which samples end a span, how long it lasts, which
// line names it, and what the per-line summary sums. (A real server's stalls are measured in
// test/unit/stallsMeasured.test.ts.)
import { strict as assert } from 'node:assert';

import { analyzeStalls, findStallSpans, LoopState, type SampleSite } from './stalls';
import type { SampleTimeline } from '../model/types';

// Nodes of a made-up tree: 0 idle/loop, 1 busy at line 10, 2 busy at line 20, 3 GC (no stack), 4 busy with no user line,
// 5 busy at line 10 under the main module's run.
const STATE: Record<number, LoopState> = { 0: LoopState.Loop, 1: LoopState.Busy, 2: LoopState.Busy, 3: LoopState.Neutral, 4: LoopState.Busy, 5: LoopState.Busy };
const SITES: Record<number, SampleSite | null> = {
  0: null,
  1: { key: 'a.js:10', file: 'a.js', line: 10, function: 'handler', call: 'execSync', found: 'fromSource' },
  2: { key: 'a.js:20', file: 'a.js', line: 20, function: 'other', call: '', found: 'selfLine' },
  3: null,
  4: null,
  5: { key: 'a.js:10', file: 'a.js', line: 10, function: 'handler', call: 'execSync', found: 'fromSource' },
};

/** One sample per entry, each `step` ms long. */
function timeline(nodes: number[], step = 1): SampleTimeline {
  return { node: Int32Array.from(nodes), atMs: Float64Array.from(nodes, (_, i) => i * step), endMs: nodes.length * step };
}

const inputs = (t: SampleTimeline, thresholdMs: number, loader: number[] = []) => ({
  timeline: t,
  stateOf: (n: number) => STATE[n]!,
  siteOf: (n: number) => SITES[n]!,
  startupOf: (n: number) => loader.includes(n),
  thresholdMs,
});

describe('stalls', () => {
  it('a span runs from its first busy sample to the next sample back in the loop, and must exceed the threshold', () => {
    const t = timeline([0, 1, 1, 1, 0, 2, 2, 0, 1, 1, 1, 1, 1, 1]);
    const spans = findStallSpans(t, (n) => STATE[n]!, 2.5);
    assert.deepEqual(
      spans.map((s) => [s.first, s.end, s.startMs, s.durationMs]),
      [
        [1, 4, 1, 3],
        [8, 14, 8, 6],
      ],
    );
    assert.equal(findStallSpans(t, (n) => STATE[n]!, 3).length, 1, 'exactly the threshold is not a stall');
  });

  it('garbage collection without a stack neither starts nor ends a stall', () => {
    const t = timeline([0, 3, 3, 3, 0, 1, 3, 3, 1, 3, 3, 0]);
    const spans = findStallSpans(t, (n) => STATE[n]!, 0);
    assert.deepEqual(
      spans.map((s) => [s.first, s.end, s.durationMs]),
      [[5, 9, 4]],
      'inside the span it counts; after its last busy sample it does not',
    );
  });

  it('uses the samples timestamps, not their count', () => {
    const t: SampleTimeline = { node: Int32Array.from([0, 1, 1, 0]), atMs: Float64Array.from([0, 10, 11, 95]), endMs: 100 };
    assert.deepEqual(
      findStallSpans(t, (n) => STATE[n]!, 50).map((s) => s.durationMs),
      [85],
    );
  });

  it('names a stall by the line holding at least half of its time, else leaves it unnamed', () => {
    const named = analyzeStalls(inputs(timeline([0, 1, 1, 1, 2, 0]), 1));
    assert.equal(named.stalls.length, 1);
    assert.equal(named.stalls[0]!.at?.line, 10);
    assert.equal(named.stalls[0]!.atMs, 3);
    const mixed = analyzeStalls(inputs(timeline([0, 1, 1, 2, 2, 4, 4, 0]), 1));
    assert.equal(mixed.stalls[0]!.at, null, 'no line holds half of 6 ms');
    assert.equal(mixed.stalls[0]!.mostly?.line, 10);
    assert.equal(mixed.stalls[0]!.mostly?.ms, 2);
    assert.equal(mixed.unnamedCount, 1);
    assert.deepEqual(mixed.lines, []);
  });

  it('sums count, longest and total per line, and keeps the main module\'s run apart as start-up', () => {
    const report = analyzeStalls(inputs(timeline([5, 5, 5, 5, 0, 1, 1, 0, 1, 1, 1, 0, 2, 2, 0]), 1, [5]));
    assert.deepEqual(
      report.stalls.map((s) => [s.startMs, s.durationMs, s.at?.line, s.startup === true]),
      [
        [0, 4, 10, true],
        [5, 2, 10, false],
        [8, 3, 10, false],
        [12, 2, 20, false],
      ],
    );
    assert.equal(report.startupCount, 1);
    assert.equal(report.totalMs, 7);
    assert.deepEqual(
      report.lines.map((l) => [l.line, l.count, l.longestMs, l.totalMs]),
      [
        [10, 2, 3, 5],
        [20, 1, 2, 2],
      ],
    );
  });

});
