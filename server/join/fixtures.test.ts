// The analysis over the profiles recorded by test/fixtures/record.mjs (real Node runs of
// test/fixtures/workloads): what the unit specs check on constructed profiles must hold there.
import { strict as assert } from 'node:assert';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadCostIndex } from './costIndex';
import { loadProfile } from '../profile/readers/load';
import { buildReport } from '../profile/analysis/report';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures');
const PROFILES = join(FIXTURES, 'profiles');
const WORKLOADS = join(FIXTURES, 'workloads');

describe('analysis of recorded profiles', () => {
  it('maps the TypeScript workload back to typed.ts from a raw V8 log', async () => {
    const { report } = buildReport(await loadProfile(join(PROFILES, 'typed.v8.log')), { root: WORKLOADS });
    const settle = report.functions.find((f) => f.name === 'settle');
    assert.deepEqual([settle?.file, settle?.line, settle?.category], [join(WORKLOADS, 'typed.ts'), 14, 'user']);
    // TurboFan inlines priceOf into settle: its loop `for (const item of order.items) total += ...`
    // (typed.ts:10) is the hottest line, no longer settle's call `sum += priceOf(order)` (16).
    const hottest = report.lines.find((l) => l.file === join(WORKLOADS, 'typed.ts'));
    assert.equal(hottest?.line, 10);
    assert.deepEqual(report.unresolvedFiles, []);
  });

  it('keeps every total within the profile, recursion included', async () => {
    for (const name of ['service.cpuprofile', 'service.v8.log']) {
      const { report } = buildReport(await loadProfile(join(PROFILES, name)), { root: WORKLOADS });
      const fib = report.functions.find((f) => f.name === 'fib');
      assert.ok(fib !== undefined, `${name}: fib`);
      assert.ok(fib.totalSamples >= fib.selfSamples && fib.totalSamples <= report.samples, `${name}: fib ${fib.selfSamples}/${fib.totalSamples}`);
      for (const f of report.functions) assert.ok(f.totalSamples <= report.samples, `${name}: ${f.name} ${f.totalSamples} > ${report.samples}`);
      const categorized = Object.values(report.categories).reduce((sum, c) => sum + c.samples, 0);
      assert.equal(categorized, report.samples, name);
    }
  });

  it('charges fake-lib time to buildReport, the user function that calls it', async () => {
    const { report } = buildReport(await loadProfile(join(PROFILES, 'service.cpuprofile')), { root: WORKLOADS });
    const site = report.callSites.find((s) => s.function === 'buildReport');
    assert.equal(site?.file, join(WORKLOADS, 'service.js'));
    assert.equal(site?.libraries[0].name, 'summarize');
    assert.equal(site?.libraries[0].category, 'dependency');
    const summarize = report.functions.find((f) => f.name === 'summarize');
    assert.equal(site?.libraries[0].samples, summarize?.totalSamples);
  });

  it('gives a Date.now() finding in clock.js the cost of its line (loadCostIndex, as analyze --profile uses it)', async () => {
    const index = await loadCostIndex(join(PROFILES, 'service.container.cpuprofile'), { root: WORKLOADS });
    const finding = {
      ruleId: 'date-now-hot-path' as const,
      range: { start: 0, end: 0, loc: { start: { line: 4, column: 9 }, end: { line: 4, column: 19 } } },
      enclosingFunction: { name: 'getTimestamp', line: 3, column: 0 },
    };
    const cost = index.costOf(join(WORKLOADS, 'clock.js'), finding);
    assert.ok(cost !== null && cost.percent > 1 && cost.selfMs > 0 && cost.totalMs >= cost.selfMs, JSON.stringify(cost));
    const { report } = buildReport(await loadProfile(join(PROFILES, 'service.cpuprofile')), { root: WORKLOADS });
    const line = report.lines.find((l) => l.file === join(WORKLOADS, 'clock.js') && l.line === 4);
    // From time, over CPU time (idle excluded): the same percent the report gives the line.
    assert.equal(cost?.percent, ((line?.selfMs ?? 0) / report.cpuMs) * 100);
    assert.equal(cost?.percent, line?.percent);
    // Module-level code of a file the profile never ran: nothing to say.
    assert.equal(index.costOf(join(WORKLOADS, 'typed.ts'), { ...finding, enclosingFunction: null }), null);
  });
});
