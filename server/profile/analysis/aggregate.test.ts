import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { profileOf, type FrameSpec } from '../model/constructedProfiles.test';
import { buildReport } from './report';
import { tempFolders } from '../../../test/unit/tempFolders';

// Removed after every file has run: the folders are made while this file loads.
const temp = tempFolders();
after(() => temp.removeAll());

const root = temp.make('hotframe-aggregate-');
mkdirSync(join(root, 'src'));
writeFileSync(join(root, 'src', 'rec.js'), '// a\n');
const A: FrameSpec = { name: 'A', url: join(root, 'src', 'rec.js'), line: 1, column: 1 };
const B: FrameSpec = { name: 'B', url: join(root, 'src', 'rec.js'), line: 5, column: 1 };

describe('aggregate', () => {
  it('counts each sample once per function under recursion (A->B->A->B)', () => {
    const profile = profileOf(
      [
        { frames: [A], samples: 1 },
        { frames: [A, B], samples: 2 },
        { frames: [A, B, A], samples: 3 },
        { frames: [A, B, A, B], samples: 4 },
      ],
      { msPerSample: 2 },
    );
    const { report } = buildReport(profile, { root });
    const a = report.functions.find((f) => f.name === 'A');
    const b = report.functions.find((f) => f.name === 'B');
    assert.ok(a && b);
    // Per-nesting-level counting would give A 10+7=17 samples in a 10-sample profile.
    assert.deepEqual([a.selfSamples, a.totalSamples, a.selfMs, a.totalMs], [4, 10, 8, 20]);
    assert.deepEqual([b.selfSamples, b.totalSamples, b.selfMs, b.totalMs], [6, 9, 12, 18]);
    // Sorted by self samples.
    assert.deepEqual(
      report.functions.map((f) => f.name),
      ['B', 'A'],
    );
    assert.equal(a.file, join(root, 'src', 'rec.js'));
    assert.equal(a.category, 'user');
  });

  it('sums self samples per category, root samples as program', () => {
    const profile = profileOf([
      { frames: [A], samples: 5 },
      { frames: [{ name: '(garbage collector)' }], samples: 3 },
      { frames: [{ name: '(idle)' }], samples: 10 },
      { frames: [{ name: '(program)' }], samples: 1 },
      { frames: [A, { name: 'readFileSync', url: 'node:fs', line: 400 }], samples: 2 },
      { frames: [A, { name: 'get', url: '/app/node_modules/lodash/get.js', line: 3 }], samples: 4 },
      { frames: [A, { name: 'now' }], samples: 6 },
    ]);
    const { report } = buildReport(profile, { root });
    assert.equal(report.samples, 31);
    // Shares are of CPU time: 31 ms minus 10 ms idle; idle itself has none.
    assert.equal(report.cpuMs, 21);
    const cpu = (ms: number): number => (ms / 21) * 100;
    assert.deepEqual(report.categories, {
      user: { samples: 5, ms: 5, percent: cpu(5) },
      dependency: { samples: 4, ms: 4, percent: cpu(4) },
      node: { samples: 2, ms: 2, percent: cpu(2) },
      native: { samples: 6, ms: 6, percent: cpu(6) },
      kernel: { samples: 0, ms: 0, percent: cpu(0) },
      gc: { samples: 3, ms: 3, percent: cpu(3) },
      program: { samples: 1, ms: 1, percent: cpu(1) },
      idle: { samples: 10, ms: 10, percent: null },
    });
    assert.equal(report.functions.find((f) => f.name === 'A')?.totalSamples, 17);
    // A dependency that is not on disk is listed, never dropped silently; natives and node: urls are not files.
    assert.deepEqual(report.unresolvedFiles, ['/app/node_modules/lodash/get.js']);
  });

  it("keeps only local files in the cost table the language server receives (the heat of node: internals and missing files names no document)", () => {
    const missing = '/app/node_modules/lodash/get.js';
    const profile = profileOf([
      { frames: [A], samples: 5, line: 2 },
      { frames: [A, { name: 'readFileSync', url: 'node:fs', line: 400 }], samples: 2, line: 401 },
      { frames: [A, { name: 'get', url: missing, line: 3 }], samples: 4, line: 4 },
    ]);
    const analyzed = buildReport(profile, { root });
    // The report itself still measures every file, as before.
    assert.deepEqual([...new Set(analyzed.report.lines.map((l) => l.file))].sort(), [missing, join(root, 'src', 'rec.js'), 'node:fs'].sort());
    assert.deepEqual(Object.keys(analyzed.costTable().files), [join(root, 'src', 'rec.js')]);
    assert.deepEqual(analyzed.heatOf(missing).lines.map((l) => l.line), [4]);
  });

  it('sums lines per file and line across nodes, most expensive first', () => {
    const profile = profileOf([
      { frames: [A], samples: 2, line: 2 },
      { frames: [A, B, A], samples: 3, line: 2 },
      { frames: [A, B], samples: 4, line: 6 },
      { frames: [B], samples: 1, line: 7 },
    ]);
    const { report } = buildReport(profile, { root });
    const file = join(root, 'src', 'rec.js');
    assert.deepEqual(report.lines, [
      { file, line: 2, selfSamples: 5, selfMs: 5, percent: 50 },
      { file, line: 6, selfSamples: 4, selfMs: 4, percent: 40 },
      { file, line: 7, selfSamples: 1, selfMs: 1, percent: 10 },
    ]);
  });

  it('keeps an empty profile valid', () => {
    const { report } = buildReport(profileOf([]), { root });
    assert.equal(report.samples, 0);
    assert.deepEqual(report.functions, []);
    assert.deepEqual(report.callSites, []);
    assert.deepEqual(report.insights, []);
  });
});
