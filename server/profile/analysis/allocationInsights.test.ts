// Insights of an allocation profile, recorded in this run from a workload using the real mongoose
// (documents hydrated as a query without .lean() does) with the inspector's sampling heap profiler:
// every figure is in bytes, every share of the allocated bytes, and insights that speak of time
// (blocking sync calls, the clock, GC's share) are not shown.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { overviewRow } from '../../../client/presentation/overview';
import { profileText } from '../../cli/profileText';
import { analyzeProfileFile, type AnalyzedProfile } from './report';

const REPO = join(__dirname, '..', '..', '..');
const WORKLOAD = join(REPO, 'test', 'fixtures', 'workloads', 'hydrate.js');

describe('insights of an allocation profile (recorded: real mongoose hydrating documents)', function () {
  this.timeout(120_000);
  let dir: string;
  let analyzed: AnalyzedProfile;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-alloc-insights-'));
    // The inspector's sampling with collected objects kept (the recorder the allocation tests share).
    const script = `import(${JSON.stringify(pathToFileURL(join(REPO, 'test', 'fixtures', 'recordWith.mjs')).href)}).then((m) => m.recordSampledAllocations(${JSON.stringify(WORKLOAD)}, 600, ${JSON.stringify(join(dir, 'hydrate.heapprofile'))}, ${JSON.stringify(REPO)}))`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 90_000 });
    assert.equal(run.status, 0, run.stderr);
    analyzed = await analyzeProfileFile(join(dir, 'hydrate.heapprofile'), { root: REPO });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('says what hydration allocated, in bytes and % of allocated bytes, never in seconds or of CPU time', () => {
    const { report } = analyzed;
    assert.equal(report.unit, 'bytes');
    const hydration = report.insights.find((i) => i.id === 'mongoose-hydration');
    assert.ok(hydration, `no hydration insight: ${JSON.stringify(report.insights.map((i) => i.id))}`);
    assert.equal(hydration.unit, 'bytes');
    assert.match(hydration.message, /allocated \d[\d.]* (KiB|MiB|GiB) \(\d[\d.]*% of allocated bytes\)/);
    assert.doesNotMatch(hydration.message, /\d s\b|\bms\b|CPU time|took/);
    // The share is of everything the profile allocated, as every other share of this report.
    assert.ok(Math.abs(hydration.percent - (hydration.ms / report.cpuMs) * 100) < 1e-9);
  });

  it('shows no insight that means time (the workload reads a file synchronously and the clock in a loop)', () => {
    const ids = analyzed.report.insights.map((i) => i.id);
    for (const timeOnly of ['blocking-sync-io', 'date-now-hot', 'gc-pressure']) assert.ok(!ids.includes(timeOnly as never), `${timeOnly} shown for an allocation profile`);
    // The workload's sync read did allocate: it is the insight that was withheld, not the cost.
    assert.ok(analyzed.report.functions.some((f) => f.name === 'readFileSync' && f.totalMs > 0));
  });

  it('the CLI text and the Hotframe view row read the same bytes', () => {
    const hydration = analyzed.report.insights.find((i) => i.id === 'mongoose-hydration');
    assert.ok(hydration);
    const text = profileText('hydrate.heapprofile', analyzed.report, 5, REPO);
    assert.ok(text.includes(hydration.message), 'CLI prints the insight message');
    const summary = { cpuMs: analyzed.report.cpuMs, unit: 'bytes' as const };
    const row = overviewRow({ kind: 'insight', value: hydration }, { profile: summary, insights: [hydration], functions: [], callSites: [] } as never);
    assert.match(String(row.description), /^\d[\d.]* (KiB|MiB|GiB) · \d[\d.]*% of bytes$/);
    assert.match(String(row.tooltip), /% of allocated bytes\)/);
    assert.doesNotMatch(`${String(row.description)} ${String(row.tooltip)}`, /CPU|\d s\b/);
  });
});
