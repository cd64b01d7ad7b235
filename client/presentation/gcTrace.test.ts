import * as assert from 'node:assert/strict';

import type { GcTraceView } from '../../server/protocol/wire';
import { profileSummary } from '../../test/unit/profileSummary';
import { overviewChildren, overviewRow } from './overview';
import { gcTraceHeading, gcTraceRows, PAIRING_RULE } from './gcTrace';

const view: GcTraceView = {
  name: 'gc.log',
  path: '/srv/run/gc.log',
  summary: {
    collections: 3,
    spanMs: 2000,
    totalPauseMs: 30,
    incrementalMs: 10,
    pausePercent: 2,
    meanPauseMs: 10,
    p99PauseMs: 18,
    maxPauseMs: 18,
    byKind: [
      { kind: 'Scavenge', count: 2, totalPauseMs: 12, meanPauseMs: 6, p99PauseMs: 7, maxPauseMs: 7 },
      { kind: 'Mark-Compact', count: 1, totalPauseMs: 18, meanPauseMs: 18, p99PauseMs: 18, maxPauseMs: 18 },
    ],
    lastFullGc: { heapBeforeMb: 32.6, heapAfterMb: 9.3 },
    isolates: ['4242:0x1'],
  },
  cpuProfile: null,
};

describe('GC trace rows in the view (client/presentation/gcTrace.ts)', () => {
  it('shows the figures of `hotframe profile gc.log`, written by format.ts', () => {
    assert.deepEqual(gcTraceHeading(view), { label: 'GC trace: gc.log', description: '3 collections over 2.00 s', tooltip: '/srv/run/gc.log\n--trace-gc output, 3 collections over 2.00 s' });
    const rows = gcTraceRows(view, null);
    assert.deepEqual(rows.map((r) => [r.label, r.description]), [
      ['GC share of wall time', '2.00% · 40.0 ms'],
      ['Pauses', 'mean 10.0 ms · p99 18.0 ms · max 18.0 ms'],
      ['Scavenge', '2 · total 12.0 ms · mean 6.00 ms · p99 7.00 ms · max 7.00 ms'],
      ['Mark-Compact', '1 · total 18.0 ms · mean 18.0 ms · p99 18.0 ms · max 18.0 ms'],
      ['Heap at the last full GC', '32.6 MB → 9.30 MB'],
    ]);
    assert.match(rows[0].tooltip, /^GC paused the main thread 30\.0 ms and marked incrementally 10\.0 ms: 2\.00% of the wall time/);
  });

  it('sets the CPU profile of the same run beside it, and says when the loaded one is of another run', () => {
    const cpu = profileSummary({ samples: 10, durationMs: 100, gcPercent: 7.14, cpuMs: 90 });
    const paired = gcTraceRows({ ...view, cpuProfile: { name: 'CPU.20261128.093000.4242.0.001.cpuprofile', gcPercent: 7.14 } }, cpu).at(-1)!;
    assert.equal(paired.label, 'CPU profile of this run: GC share');
    assert.equal(paired.description, '7.14% of CPU time · CPU.20261128.093000.4242.0.001.cpuprofile');
    const other = gcTraceRows(view, cpu).at(-1)!;
    assert.equal(other.label, 'The loaded CPU profile is of another run');
    assert.ok(other.tooltip.endsWith(PAIRING_RULE));
  });

  it('is a section of the view beside a profile, and the only one without a profile', () => {
    const profile = profileSummary({ samples: 10, durationMs: 100, gcPercent: 2, cpuMs: 90 });
    const withProfile = { profile, baseline: null, allocation: null, hotFunctions: [], callSites: [], insights: [], gcTrace: view };
    const sections = overviewChildren(withProfile);
    const section = sections.at(-1)!;
    assert.deepEqual(overviewRow(section, withProfile), { label: 'GC trace: gc.log', description: '3 collections over 2.00 s', tooltip: '/srv/run/gc.log\n--trace-gc output, 3 collections over 2.00 s', collapsible: 'expanded' });
    assert.equal(overviewChildren(withProfile, section).length, 6);
    const alone = { ...withProfile, profile: null };
    assert.deepEqual(overviewChildren(alone).map((n) => overviewRow(n, alone).label), ['GC trace: gc.log']);
    assert.deepEqual(overviewRow(overviewChildren(alone, overviewChildren(alone)[0])[2], alone), {
      label: 'Scavenge', description: '2 · total 12.0 ms · mean 6.00 ms · p99 7.00 ms · max 7.00 ms', tooltip: '2 collections of this kind, pauses: total 12.0 ms, mean 6.00 ms, p99 7.00 ms, max 7.00 ms', icon: 'trash', collapsible: 'none',
    });
  });
});
