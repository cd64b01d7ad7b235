import * as assert from 'node:assert/strict';
import { profileSummary } from '../../test/unit/profileSummary';
import type { FileHeat } from '../../server/protocol/wire';
import { bucketColors, callLineNote, callNote, functionNote, heatBucket, joinNotes, lineNote, MAX_NOTE_CHARS, planHeat } from './heat';

const summary = profileSummary();

describe('heat (client/presentation/heat.ts)', () => {
  it('scales heat by the square root of the share, in 8 buckets', () => {
    assert.deepEqual([0, -1, Number.NaN, 0.01, 1, 1.6, 25, 100, 250].map(heatBucket), [0, 0, 0, 1, 1, 2, 4, 8, 8]);
  });

  it('plans backgrounds, hot-line notes above the threshold and function notes', () => {
    const heat: FileHeat = {
      profile: summary,
      lines: [
        { line: 3, selfMs: 340, selfSamples: 34, percent: 12.3 },
        { line: 4, selfMs: 2, selfSamples: 1, percent: 0.5 },
        { line: 99, selfMs: 500, selfSamples: 50, percent: 20 }, // past the end of the file: ignored
      ],
      functions: [
        { name: 'getTimestamp', line: 3, column: 1, selfMs: 340, totalMs: 1200, percent: 12 },
        { name: 'idle', line: 6, column: 1, selfMs: 0, totalMs: 0, percent: 0 },
      ],
      callSites: [],
      callLines: [
        { line: 5, callee: 'execSync', ms: 1200, percent: 14, found: 'fromSource' },
        { line: 12, callee: 'far', ms: 9, percent: 1, found: 'exactLine' }, // past the end of the file: ignored
      ],
    };
    assert.deepEqual(planHeat(heat, 1, 10), {
      lines: [
        { line: 3, bucket: 3 },
        { line: 4, bucket: 1 },
      ],
      // A call line has its own heat (sqrt(14%) of 8 buckets) and note.
      callLines: [{ line: 5, bucket: 3 }],
      notes: [
        { line: 3, text: 'getTimestamp: self 340 ms · total 1.20 s · 12.0% CPU  |  +1 more (hover)' },
        { line: 5, text: 'this call (execSync): 1.20 s · 14.0% CPU' },
      ],
    });
    assert.deepEqual(planHeat(heat, 0.1, 10).notes.map((n) => n.line), [3, 4, 5]);
    assert.equal(planHeat(heat, 0.1, 10).notes[1]!.text, '2.00 ms · 0.50% CPU');
  });

  it("notes a route registration line with its route's CPU time, when the route ran", () => {
    const plan = planHeat({
      profile: summary, lines: [], functions: [], callSites: [], callLines: [],
      routes: [
        { line: 4, route: 'GET /v1/tasks', ms: 289, percent: 3.74 },
        { line: 5, route: 'GET /healthz', ms: 0, percent: 0 },
        { line: 40, route: 'GET /far', ms: 3, percent: 1 },
      ],
    }, 1, 10);
    assert.deepEqual(plan.notes, [{ line: 4, text: 'GET /v1/tasks: 289 ms · 3.74% CPU' }]);
  });

  it("notes a line that stalled the event loop with the stall report's figures and routes", () => {
    const stallLine = (line: number, count: number, longestMs: number, totalMs: number, routes: string[]) => ({
      file: '/srv/app/stats.js', line, function: 'collectStats', call: 'execSync', found: 'exactLine' as const, count, longestMs, totalMs, routes,
    });
    const plan = planHeat({
      profile: summary, lines: [], functions: [], callSites: [], callLines: [],
      stalls: { thresholdMs: 50, lines: [stallLine(4, 2, 212.4, 405, ['GET /report']), stallLine(7, 1, 151, 151, []), stallLine(40, 1, 99, 99, [])] },
    }, 1, 10);
    assert.deepEqual(plan.notes, [
      { line: 4, text: '2 stalls over 50.0 ms, longest 212 ms, 405 ms in all · GET /report' },
      { line: 7, text: '1 stall over 50.0 ms, longest 151 ms, 151 ms in all' },
    ]);
  });

  it('notes at most 10 hot lines per file, the hottest', () => {
    const lines = Array.from({ length: 12 }, (_, i) => ({ line: i + 1, selfMs: i + 1, selfSamples: i + 1, percent: i + 1 }));
    const plan = planHeat({ profile: summary, lines, functions: [], callSites: [], callLines: [] }, 1, 20);
    assert.equal(plan.lines.length, 12);
    assert.deepEqual(plan.notes.map((n) => n.line), [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('draws nothing on a file the profile does not measure', () => {
    assert.deepEqual(planHeat({ profile: null, lines: [], functions: [], callSites: [], callLines: [] }, 1, 10), { lines: [], callLines: [], notes: [] });
  });

  it('writes an allocation profile in its unit, never as time', () => {
    assert.equal(lineNote(4.2, 1024 * 1024 * 1.2, { unit: 'bytes' }), 'allocates 1.20 MiB · 4.20% of bytes');
    assert.equal(callNote('parse', 7.2, 3 * 1024 * 1024, { unit: 'bytes' }), 'this call (parse): allocates 3.00 MiB · 7.20% of bytes');
    assert.equal(callNote('', 7.2, 933, { unit: 'ms' }), 'this call ((anonymous)): 933 ms · 7.20% CPU');
    assert.equal(functionNote(300 * 1024 * 1024, 366 * 1024 * 1024, 37, { unit: 'bytes' }, true), 'allocates 366 MiB · 37.0% of bytes (self 300 MiB) · placed by name (no URL in the profile)');
    assert.equal(functionNote(1.2, 42, 4.2, { unit: 'ms' }), 'self 1.20 ms · total 42.0 ms · 4.20% CPU');
  });

  it('gives each call on a line its own figure, and says "calls on this line" when the profile cannot tell them apart', () => {
    // messages.js:40 of the demo: parseEvents, getTimestamp and tally called from one line (933 ms together).
    const calls = [
      { callee: 'parseEvents', samples: 295, ms: 696, percent: 9.02 },
      { callee: 'getTimestamp', samples: 58, ms: 151, percent: 1.95 },
      { callee: 'tally', samples: 28, ms: 86.7, percent: 1.12 },
    ];
    assert.equal(callLineNote({ callee: 'parseEvents', ms: 933, percent: 12.1, calls }, { unit: 'ms' }), 'parseEvents(): 696 ms · 9.02% CPU, getTimestamp(): 151 ms · 1.95% CPU, +1 more call');
    // One callee measured for more calls written on the line: the figure is the line's calls, not one.
    assert.equal(callLineNote({ callee: 'execSync', ms: 616, percent: 6.44, calls: [{ callee: 'execSync', samples: 9, ms: 616, percent: 6.44 }], untold: true }, { unit: 'ms' }), 'calls on this line (execSync…): 616 ms · 6.44% CPU');
    assert.equal(callLineNote({ callee: 'parse', ms: 10, percent: 1, calls: [{ callee: 'parse', samples: 1, ms: 10, percent: 1 }] }, { unit: 'ms' }), 'this call (parse): 10.0 ms · 1.00% CPU');
    assert.equal(callLineNote({ callee: 'a', ms: 3 * 1024 * 1024, percent: 7.2, calls: [{ callee: 'a', samples: 1, ms: 2 * 1024 * 1024, percent: 4.8 }, { callee: 'b', samples: 1, ms: 1024 * 1024, percent: 2.4 }] }, { unit: 'bytes' }), 'a(): allocates 2.00 MiB · 4.80% of bytes, b(): allocates 1.00 MiB · 2.40% of bytes');
  });

  it('keeps a line\'s note short: its largest figure and how many more the hover has, not every note joined', () => {
    // One line of a route file that declares a function, is hot itself, makes calls and registers a route.
    const plan = planHeat({
      profile: summary,
      lines: [{ line: 2, selfMs: 120, selfSamples: 12, percent: 4.1 }],
      functions: [{ name: 'handleRequestWithAVeryDescriptiveName', line: 2, column: 1, selfMs: 120, totalMs: 480, percent: 16.4 }],
      callSites: [],
      callLines: [{ line: 2, callee: 'parseEvents', ms: 933, percent: 31.9, found: 'exactLine', calls: [
        { callee: 'parseEvents', samples: 70, ms: 696, percent: 23.8 },
        { callee: 'getTimestamp', samples: 15, ms: 151, percent: 5.16 },
        { callee: 'tally', samples: 9, ms: 86, percent: 2.94 },
      ] }],
      routes: [{ line: 2, route: 'GET /v1/tasks', ms: 289, percent: 9.9 }],
    }, 1, 10);
    assert.deepEqual(plan.notes, [{ line: 2, text: 'parseEvents(): 696 ms · 23.8% CPU, getTimestamp(): 151 ms · 5.16% CPU, +1 more call  |  +3 more (hover)' }]);
    assert.equal(joinNotes([{ text: 'a', amount: 1 }, { text: 'b', amount: 3 }, { text: 'c', amount: 2 }]), 'b  |  +2 more (hover)');
    assert.equal(joinNotes([{ text: 'only', amount: 0 }]), 'only');
    assert.equal(joinNotes([]), '');
    // A stall leads the note even beside a larger CPU figure: it is wall time the loop was blocked.
    assert.equal(joinNotes([{ text: 'this call (execSync): 413 ms', amount: 413 }, { text: '2 stalls over 50.0 ms', amount: 300, leads: true }]), '2 stalls over 50.0 ms  |  +1 more (hover)');
    // A name from the profile cannot make the note long.
    assert.equal(joinNotes([{ text: 'y'.repeat(500), amount: 1 }]).length, MAX_NOTE_CHARS);
  });

  it('colours a hotter bucket more strongly', () => {
    assert.deepEqual(bucketColors(8), { background: 'rgba(255, 90, 20, 0.500)', ruler: 'rgba(255, 90, 20, 1.000)', callBar: 'rgba(200, 40, 160, 1.000)', callRuler: 'rgba(200, 40, 160, 1.000)' });
    assert.deepEqual(bucketColors(1), { background: 'rgba(255, 90, 20, 0.063)', ruler: 'rgba(255, 90, 20, 0.125)', callBar: 'rgba(200, 40, 160, 0.344)', callRuler: 'rgba(200, 40, 160, 0.125)' });
  });
});
