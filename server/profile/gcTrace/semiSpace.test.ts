// The semi-space sweep end to end: `hotframe record --semi-space` runs a real allocation-heavy
// workload at three small sizes, and its figures are checked against a count made here from the
// raw --trace-gc text it saved (not through gcTrace.ts).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { compareSemiSpaceRuns, parseSemiSpaceSizes, type SemiSpaceRun } from './semiSpace';
import type { GcTraceSummary } from './gcTrace';

const CLI = resolve(__dirname, '../../../dist/cli.js');

function summary(collections: number, pauseMs: number, isolates = 1): GcTraceSummary {
  return {
    collections, spanMs: 1000, totalPauseMs: pauseMs, incrementalMs: 0, pausePercent: 0, meanPauseMs: pauseMs / collections, p99PauseMs: 0, maxPauseMs: 0,
    byKind: [{ kind: 'Scavenge', count: collections, totalPauseMs: pauseMs, meanPauseMs: pauseMs / collections, p99PauseMs: 0, maxPauseMs: 0 }],
    lastFullGc: null, isolates: Array.from({ length: isolates }, (_, i) => `1:0x${i}`),
  };
}
const run = (sizeMb: number, gcMs: number): SemiSpaceRun => ({ sizeMb, wallMs: 1000, exitCode: 0, gc: summary(10, gcMs), cpuProfileGcPercent: null });

describe('semi-space sweep', () => {
  it('reads the sizes, and refuses anything else in one line', () => {
    assert.deepEqual(parseSemiSpaceSizes('64, 16,32,16'), [16, 32, 64]);
    for (const bad of ['16', '16,abc', '0,16', '16,99999', '16;32', '-1,2']) assert.ok('error' in (parseSemiSpaceSizes(bad) as object), bad);
  });

  it("names seed 001's size: the smallest that no larger size beats by 2 points", () => {
    // 16: 27.5%, 64: 7.14%, 128: 6.71%, 256: 5.99% of wall time.
    const c = compareSemiSpaceRuns([run(128, 67.1), run(16, 275), run(256, 59.9), run(64, 71.4)]);
    assert.deepEqual(c.rows.map((r) => r.sizeMb), [16, 64, 128, 256]);
    assert.equal(c.enoughMb, 64);
    // A noisy step up does not stop the search when a larger size still helps.
    assert.equal(compareSemiSpaceRuns([run(1, 50), run(2, 60), run(4, 20), run(8, 19)]).enoughMb, 4);
    // Still improving at the largest size: none named.
    assert.equal(compareSemiSpaceRuns([run(1, 50), run(2, 30)]).enoughMb, null);
  });

  it('runs a real workload once per size and agrees with the raw trace', function () {
    this.timeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'hotframe-semispace-'));
    try {
      // Short-lived small objects, with a window of them kept alive: Scavenges by the hundred at 1 MB.
      writeFileSync(join(dir, 'alloc.js'), "let keep = []; let s = 0;\nfor (let i = 0; i < 1e6; i++) { const o = { a: i, b: [i, i + 1], c: 'x' + i }; keep.push(o); if (keep.length > 2000) keep = []; s += o.b.length; }\nconsole.log('done', s);\n");
      const out = execFileSync(process.execPath, [CLI, 'record', '--semi-space', '1,4,16', '--format', 'json', '--out', 'p', '--', process.execPath, 'alloc.js'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const json = JSON.parse(out) as { runs: { sizeMb: number; exitCode: number; scavenges: number; collections: number; gcMs: number; maxPauseMs: number; wallMs: number; gcPercent: number; cpuProfileGcPercent: number | null; files: string[] }[] };
      assert.deepEqual(json.runs.map((r) => r.sizeMb), [1, 4, 16]);
      for (const r of json.runs) {
        assert.equal(r.exitCode, 0);
        const log = r.files.find((f) => f.endsWith('.log'));
        assert.ok(log !== undefined && r.files.some((f) => f.endsWith('.cpuprofile')), `the trace beside the CPU profile: ${JSON.stringify(r)}`);
        const text = readFileSync(join(dir, log), 'utf8');
        assert.match(text, /^done /m, "the workload's own output is in the saved stdout");
        // The count made here: every line naming a collection, its pause the first "N / M ms" figure.
        const lines = text.split('\n').filter((l) => / ms: (Scavenge|Mark-Compact|Minor Mark-Compact)/.test(l));
        const pauses = lines.map((l) => Number(/MB, ([\d.]+) \//.exec(l)![1]));
        assert.equal(r.collections, lines.length);
        assert.equal(r.scavenges, lines.filter((l) => l.includes(' ms: Scavenge ')).length);
        assert.ok(Math.abs(r.maxPauseMs - Math.max(...pauses)) < 1e-6);
        const incremental = lines.map((l) => Number(/\(\+ ([\d.]+) ms in \d+ steps/.exec(l)?.[1] ?? 0)).reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(r.gcMs - (pauses.reduce((a, b) => a + b, 0) + incremental)) < 1e-3 * Math.max(1, lines.length), `${r.gcMs} vs ${pauses.reduce((a, b) => a + b, 0)} + ${incremental}`);
        assert.ok(Math.abs(r.gcPercent - (r.gcMs / r.wallMs) * 100) < 1e-3);
        assert.ok(r.cpuProfileGcPercent !== null && r.cpuProfileGcPercent > 0);
      }
      // A larger young generation fills up less often: fewer Scavenges (a count, not a timing).
      assert.ok(json.runs[0].scavenges > json.runs[1].scavenges && json.runs[1].scavenges > json.runs[2].scavenges, json.runs.map((r) => r.scavenges).join(' > '));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
