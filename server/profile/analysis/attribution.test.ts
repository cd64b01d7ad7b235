import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { profileOf, type FrameSpec, type StackSpec } from '../model/constructedProfiles.test';
import { buildReport } from './report';
import type { ProfileFormat } from '../model/types';
import { tempFolders } from '../../../test/unit/tempFolders';

// Removed after every file has run: the folders are made while this file loads.
const temp = tempFolders();
after(() => temp.removeAll());

const root = temp.make('hotframe-attribution-');
mkdirSync(join(root, 'node_modules', 'mongoose', 'lib'), { recursive: true });
writeFileSync(join(root, 'handler.js'), '');
writeFileSync(join(root, 'node_modules', 'mongoose', 'lib', 'query.js'), '');
const handlerJs = join(root, 'handler.js');
const queryJs = join(root, 'node_modules', 'mongoose', 'lib', 'query.js');

const handler: FrameSpec = { name: 'handler', url: handlerJs, line: 10 };
const getTimestamp = (callLine: number): FrameSpec => ({ name: 'getTimestamp', url: handlerJs, line: 3, callLine });
const find = (callLine: number): FrameSpec => ({ name: 'Query.exec', url: queryJs, line: 100, callLine });
const completeMany: FrameSpec = { name: 'completeMany', url: queryJs, line: 200 };
const now = (callLine: number): FrameSpec => ({ name: 'now', callLine });
const execSync = (callLine: number): FrameSpec => ({ name: 'execSync', url: 'node:child_process', line: 880, callLine });
const normalizeSpawnArguments: FrameSpec = { name: 'normalizeSpawnArguments', url: 'node:child_process', line: 540 };

/** A request handler that queries mongoose (line 12), reads the clock via getTimestamp (line 14) and spawns (line 20). */
function workload(format: ProfileFormat): StackSpec[] {
  const at = (line: number): number => (format === 'v8log' ? line : 0);
  return [
    { frames: [handler, find(at(12)), completeMany], samples: 6 },
    { frames: [handler, find(at(12))], samples: 2 },
    { frames: [handler, getTimestamp(at(14)), now(at(4))], samples: 5 },
    { frames: [handler], samples: 1 },
    { frames: [handler, execSync(at(20)), normalizeSpawnArguments], samples: 4 },
    { frames: [{ name: '(idle)' }], samples: 2 },
  ];
}

describe('attribution', () => {
  it('charges library time to the nearest user frame at the recorded call line (V8 log)', () => {
    const { report } = buildReport(profileOf(workload('v8log')), { root });
    assert.deepEqual(
      report.callSites.map((s) => [s.function, s.file, s.line, s.exactLine, s.samples, s.ms]),
      [
        ['handler', handlerJs, 12, true, 8, 8],
        ['getTimestamp', handlerJs, 4, true, 5, 5],
        ['handler', handlerJs, 20, true, 4, 4],
      ],
    );
    const [mongoose, clock, spawn] = report.callSites;
    // A share of CPU time: 20 ms of samples minus 2 ms idle.
    assert.equal(mongoose.percent, (8 / 18) * 100);
    // Each library function on the path, once: exec holds all 8, completeMany the 6 below it.
    assert.deepEqual(
      mongoose.libraries.map((l) => [l.name, l.samples, l.category]),
      [
        ['Query.exec', 8, 'dependency'],
        ['completeMany', 6, 'dependency'],
      ],
    );
    assert.deepEqual(
      clock.libraries.map((l) => [l.name, l.samples, l.category]),
      [['now', 5, 'native']],
    );
    assert.deepEqual(
      spawn.libraries.map((l) => [l.name, l.samples]),
      [
        ['execSync', 4],
        ['normalizeSpawnArguments', 4],
      ],
    );
  });

  it("falls back to the user function's line when the format has no call lines (cpuprofile)", () => {
    const { report } = buildReport(profileOf(workload('cpuprofile'), { format: 'cpuprofile' }), { root });
    assert.deepEqual(
      report.callSites.map((s) => [s.function, s.line, s.exactLine, s.samples]),
      [
        // exec and execSync are both charged to handler's own line 10.
        ['handler', 10, false, 12],
        ['getTimestamp', 3, false, 5],
      ],
    );
  });

  it('does not charge library frames that have no user frame above them', () => {
    const { report } = buildReport(profileOf([{ frames: [{ name: 'processTicksAndRejections', url: 'node:internal/process/task_queues', line: 60 }, now(0)], samples: 3 }]), { root });
    assert.deepEqual(report.callSites, []);
  });
});

describe('insights', () => {
  it('fire for Date.now, mongoose hydration and normalizeSpawnArguments with share, ms and the user call site', () => {
    const { report } = buildReport(profileOf(workload('v8log'), { msPerSample: 10 }), { root });
    const byId = new Map(report.insights.map((i) => [i.id, i]));
    // execSync on the handler's path is also synchronous work while serving.
    assert.deepEqual([...byId.keys()].sort(), ['blocking-sync-io', 'date-now-hot', 'mongoose-hydration', 'spawn-env-walk']);
    assert.deepEqual(byId.get('blocking-sync-io')?.location, { file: handlerJs, line: 20 });
    // Shares are of CPU: 20 samples minus 2 idle.
    const hydration = byId.get('mongoose-hydration');
    assert.deepEqual([hydration?.samples, hydration?.ms, hydration?.percent], [6, 60, (6 / 18) * 100]);
    assert.deepEqual(hydration?.location, { file: handlerJs, line: 12 });
    assert.match(hydration?.message ?? '', /\.lean\(\)/);
    assert.match(hydration?.message ?? '', /60\.0 ms \(33\.3% of CPU time, idle excluded\)/);
    const clock = byId.get('date-now-hot');
    assert.deepEqual(clock?.location, { file: handlerJs, line: 4 });
    assert.match(clock?.message ?? '', /^Reading the clock \(Date\.now\(\), new Date\(\)\) took .*setInterval/);
    const spawn = byId.get('spawn-env-walk');
    assert.deepEqual([spawn?.samples, spawn?.location?.line], [4, 20]);
    assert.match(spawn?.message ?? '', /^Copying process\.env for child processes \(normalizeSpawnArguments\) took .* Pass a small env/);
    assert.equal(byId.get('gc-pressure'), undefined);
  });

  it('advise --max-semi-space-size from 10% GC of CPU, not below', () => {
    const stacks = (gc: number): StackSpec[] => [
      { frames: [handler], samples: 100 - gc },
      { frames: [{ name: '(garbage collector)' }], samples: gc },
      { frames: [{ name: '(idle)' }], samples: 500 },
    ];
    const high = buildReport(profileOf(stacks(10)), { root }).report.insights;
    assert.deepEqual(
      high.map((i) => [i.id, i.seed, i.percent, i.location]),
      [['gc-pressure', '001', 10, null]],
    );
    assert.match(high[0].message, /^GC took .*--max-semi-space-size=64/);
    assert.deepEqual(buildReport(profileOf(stacks(9)), { root }).report.insights, []);
  });

  it('stay quiet below 1% of CPU', () => {
    const { report } = buildReport(profileOf([{ frames: [handler], samples: 1000 }, { frames: [handler, getTimestamp(14), now(4)], samples: 9 }]), { root });
    assert.deepEqual(report.insights, []);
  });
});
