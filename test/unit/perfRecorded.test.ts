// Seed 003 seen through Linux perf: an HTTP service running execSync per request, recorded with
// `perf record -g` and `node --perf-basic-prof` at test time where perf can record (else the stored
// recording of the same workload, test/fixtures/profiles/perf-exec-per-request.txt.gz), then read
// by `hotframe analyze --profile`. The findings on the execSync line must carry the whole time
// under that call — the kernel's fork/exec/wait included — as counted from the perf text by the
// aggregation below, not by Hotframe.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { analyze } from './analyzeFixture';
import { REPO_ROOT } from './bundles';

interface JsonFinding {
  ruleId: string;
  line: number;
  cost: { totalMs: number; basis?: string } | null;
}

/** Samples whose handler frame (server.js, line 12) called execSync directly: their ms (cpu-clock period), and those whose leaf is in the kernel. */
function underExecSync(perfText: string): { samples: number; ms: number; kernelSamples: number } {
  const out = { samples: 0, ms: 0, kernelSamples: 0 };
  for (const block of perfText.split(/\n[ \t]*\n/)) {
    const lines = block.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
    const period = /\s(\d+) cpu-clock/.exec(lines[0] ?? '');
    if (period === null) continue;
    const handler = lines.findIndex((l) => /server\.js:12:\d+/.test(l));
    if (handler < 2 || !/ JS:[~^+*]?execSync node:child_process:/.test(lines[handler - 1])) continue;
    out.samples++;
    out.ms += Number(period[1]) / 1e6;
    if (lines[1].endsWith('([kernel.kallsyms])')) out.kernelSamples++;
  }
  return out;
}

describe('a perf recording of execSync per request: the kernel time under the call is charged to its line', function () {
  this.timeout(180_000);
  let dir: string;
  let app: string;
  const recordings: { label: string; path: string; text: string }[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-perf-rec-'));
    app = join(dir, 'app');
    mkdirSync(app);
    // Copied out of test/fixtures (which the rules treat as tooling) into a project of its own.
    copyFileSync(join(REPO_ROOT, 'test', 'fixtures', 'workloads', 'execPerRequest.js'), join(app, 'server.js'));
    const stored = join(REPO_ROOT, 'test', 'fixtures', 'profiles', 'perf-exec-per-request.txt.gz');
    recordings.push({ label: 'stored recording', path: stored, text: gunzipSync(readFileSync(stored)).toString('utf8') });
    const fresh = join(dir, 'perf.txt');
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'test', 'fixtures', 'recordPerf.mjs'), fresh, join(app, 'server.js'), '40'], { encoding: 'utf8', timeout: 90_000 });
    if (run.status === 0) recordings.push({ label: 'recorded now', path: fresh, text: readFileSync(fresh, 'utf8') });
    else console.log(`      (perf cannot record here, the stored recording only: ${run.stderr.trim()})`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('both findings on the execSync line cost exactly the samples under that call, kernel ones included', async () => {
    for (const { label, path, text } of recordings) {
      const expected = underExecSync(text);
      assert.ok(expected.samples > 0 && expected.kernelSamples > 0, `${label}: ${JSON.stringify(expected)}`);
      const run = await analyze(app, '.', '--profile', path, '--root', app, '--format', 'json');
      assert.equal(run.status, 1, run.stderr);
      const findings = (JSON.parse(run.stdout) as { findings: JsonFinding[] }).findings.filter((f) => f.line === 13);
      assert.deepEqual(findings.map((f) => f.ruleId).sort(), ['blocking-sync-call', 'spawn-without-env'], label);
      for (const f of findings) {
        assert.equal(f.cost?.basis, 'callLine', `${label}: ${f.ruleId}`);
        assert.ok(Math.abs((f.cost?.totalMs ?? 0) - expected.ms) < 0.01, `${label}: ${f.ruleId} ${f.cost?.totalMs} ms, counted ${expected.ms} ms`);
      }
    }
  });
});
