// stallStripModel (webview/stallStrip.ts): the flame panel's stall strip placed from the stall report.
import assert from 'node:assert/strict';
import { stallStripModel } from '../../webview/stallStrip';
import type { Stall, StallStrip } from '../../server/protocol/wire';

const site = (file: string, line: number, call = 'execSync') => ({ file, line, function: 'collectStats', call, found: 'exactLine' as const });

function strip(stalls: Stall[], extra: Partial<StallStrip> = {}): StallStrip {
  const serving = stalls.filter((s) => s.startup !== true);
  return {
    thresholdMs: 50,
    runMs: 2000,
    count: stalls.length,
    startupCount: stalls.length - serving.length,
    totalMs: serving.reduce((sum, s) => sum + s.durationMs, 0),
    unnamedCount: serving.filter((s) => s.at === null).length,
    stalls,
    ...extra,
  };
}

describe('stall strip model', () => {
  it('places each stall at its start with its duration as width, in % of the run, keeping its index', () => {
    const model = stallStripModel(
      strip([
        { startMs: 500, durationMs: 200, samples: 160, at: site('/srv/app/stats.js', 14), atMs: 200, route: 'GET /stats' },
        { startMs: 1500, durationMs: 100, samples: 80, at: site('/srv/app/other.js', 3), atMs: 100 },
      ]),
      (file) => file === '/srv/app/stats.js',
    );
    assert.deepEqual(
      model.marks.map((m) => [m.index, m.leftPercent, m.widthPercent, m.openable]),
      [
        [0, 25, 10, true],
        [1, 75, 5, false],
      ],
    );
    assert.equal(model.marks[0]!.label, 'Stall of 200 ms at 500 ms: collectStats \u2192 execSync (stats.js:14) \u00b7 GET /stats \u00b7 click to open the line');
    assert.equal(model.marks[1]!.label, 'Stall of 100 ms at 1.50 s: collectStats \u2192 execSync (other.js:3)');
    assert.equal(model.summary, '2 event-loop stalls over 50.0 ms while serving, 300 ms in all');
  });

  it('says what the CLI says of start-up stalls, unnamed stalls and a list cut to the longest', () => {
    const model = stallStripModel(
      strip(
        [
          { startMs: 0, durationMs: 120, samples: 90, at: site('/srv/app/server.js', 1, ''), atMs: 120, startup: true },
          { startMs: 900, durationMs: 80, samples: 60, at: null, atMs: 0, mostly: { ...site('/srv/app/a.js', 7), ms: 30 } },
        ],
        { count: 5, startupCount: 1, totalMs: 400 },
      ),
      () => true,
    );
    assert.equal(model.summary, '4 event-loop stalls over 50.0 ms while serving, 400 ms in all; 1 at start-up (the 2 longest drawn)');
    assert.match(model.marks[0]!.label, /start-up/);
    assert.equal(model.marks[0]!.startup, true);
    assert.equal(model.marks[1]!.openable, false, 'a stall no one line holds opens nothing');
    assert.match(model.marks[1]!.label, /no one line holds half of it; most: collectStats → execSync \(a\.js:7\) 30\.0 ms/);
  });

  it('keeps marks on the strip and leaves out stalls it cannot place', () => {
    const model = stallStripModel(
      strip([
        { startMs: 1950, durationMs: 300, samples: 1, at: null, atMs: 0 },
        { startMs: Number.NaN, durationMs: 100, samples: 1, at: null, atMs: 0 },
        { startMs: 10, durationMs: -5, samples: 1, at: null, atMs: 0 },
        { startMs: -100, durationMs: 60, samples: 1, at: null, atMs: 0 },
      ]),
      () => true,
    );
    assert.deepEqual(
      model.marks.map((m) => [m.index, m.leftPercent, m.widthPercent]),
      [
        [0, 97.5, 2.5],
        [3, 0, 3],
      ],
    );
    assert.deepEqual(stallStripModel(strip([{ startMs: 1, durationMs: 60, samples: 1, at: null, atMs: 0 }], { runMs: 0 }), () => true).marks, []);
  });

  it('says so when there are no stalls', () => {
    const model = stallStripModel(strip([]), () => true);
    assert.equal(model.summary, '0 event-loop stalls over 50.0 ms while serving, 0.00 ms in all');
    assert.deepEqual(model.marks, []);
  });
});
