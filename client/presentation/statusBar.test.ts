import * as assert from 'node:assert/strict';
import { profileSummary } from '../../test/unit/profileSummary';
import { statusText, statusTooltip } from './statusBar';

const summary = profileSummary();

describe('status bar (client/presentation/statusBar.ts)', () => {
  it('formats the status bar text with the shared formatter (GC as a share of CPU time)', () => {
    assert.equal(statusText(summary), '$(flame) before.cpuprofile · 12.3 s · GC 8.04% CPU');
    assert.equal(statusText({ ...summary, durationMs: 850, gcPercent: 27.4 }), '$(flame) before.cpuprofile · 850 ms · GC 27.4% CPU');
    assert.equal(statusText({ ...summary, gcPercent: 0.44 }), '$(flame) before.cpuprofile · 12.3 s · GC 0.44% CPU');
  });

  it('names a merged capture by its parts, or the one kept, and says in the tooltip what every % is of', () => {
    const threads = [{ id: '10:0', name: 'a', samples: 5 }, { id: '11:0', name: 'b', samples: 5 }, { id: '11:1', name: 'c', samples: 5 }];
    const ids = threads.map((t) => t.id);
    const capture = { ...summary, capture: true as const, threads, shareOf: '% of CPU time, all processes and threads, idle excluded', shareBasis: { unit: 'ms' as const, processes: { kept: ids, of: 3 } } };
    assert.equal(statusText(capture), '$(flame) 3 processes and threads · 12.3 s · GC 8.04% CPU, all processes');
    assert.equal(statusText({ ...capture, thread: '11:1', shareBasis: { unit: 'ms', processes: { kept: ['11:1'], of: 3 } } }), '$(flame) 11:1 of 3 · 12.3 s · GC 8.04% CPU, 1 of 3 processes');
    assert.match(statusTooltip(capture, null), /\nGC: 8\.04% of CPU time, all processes and threads, idle excluded\n/);
    assert.match(statusTooltip(capture, null), /\nEvery % is % of CPU time, all processes and threads, idle excluded\n/);
  });

  it('shows what an allocation profile allocated instead of a duration', () => {
    assert.equal(statusText({ ...summary, name: 'heap.pb.gz', unit: 'bytes', cpuMs: 3 * 1024 * 1024 }), '$(flame) heap.pb.gz · 3.00 MiB allocated');
  });

  it('names the file, its figures, the comparison and the files not found in the tooltip', () => {
    assert.equal(
      statusTooltip(summary, null),
      ['Hotframe: /p/before.cpuprofile', '9000 samples, cpuprofile, 12.3 s recorded, 9.00 s CPU time (idle excluded)', 'GC: 8.04% of CPU time, idle excluded', 'Click to show the flame graph'].join('\n'),
    );
    const after = { ...summary, name: 'after.cpuprofile', path: '/p/after.cpuprofile', unresolvedFiles: ['/srv/a.js', '/srv/b.js'], unresolvedCount: 2 };
    const lines = statusTooltip(after, summary).split('\n');
    assert.deepEqual(lines.slice(3), ['Comparing: before.cpuprofile (before) → after.cpuprofile (after)', '2 files not found locally', 'Click to show the flame graph']);
    const heap = statusTooltip({ ...summary, unit: 'bytes', cpuMs: 2048, format: 'heapprofile', notes: ['collected objects kept'] }, null);
    assert.deepEqual(heap.split('\n').slice(1), ['heapprofile, 2.00 KiB allocated (sampled)', 'collected objects kept', 'Click to show the flame graph']);
  });

  it('names an allocation profile joined to the CPU profile', () => {
    const allocation = { ...summary, name: 'garbage.heapprofile', unit: 'bytes' as const, cpuMs: 3 * 1024 * 1024, format: 'heapprofile' as const };
    assert.deepEqual(statusTooltip(summary, null, allocation).split('\n').slice(3), ['Allocations: garbage.heapprofile (3.00 MiB allocated, sampled): the GC insight names who makes the garbage', 'Click to show the flame graph']);
    // The status text stays the CPU profile's: heat and flame graph are its.
    assert.equal(statusTooltip(summary, null, null), statusTooltip(summary, null));
  });
});
