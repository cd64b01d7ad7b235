// One set of numbers: every percentage Hotframe reports is `ms / D * 100` with one D per profile,
// its CPU time (idle excluded). Checked on every entry that carries both, for recorded profiles
// of every format, in the analysis and in the CLI's rounded JSON.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { analyzeProfileFile } from '../../server/profile/analysis/report';
import { CATEGORIES, type ProfileReport } from '../../server/profile/model/types';
import { formatPercent, formatMs, formatQuantity, formatBytes, roundedPercent, shareOfText } from '../../server/shared/format';
import { bundles, REPO_ROOT } from './bundles';

const PROFILES = join(REPO_ROOT, 'test', 'fixtures', 'profiles');
const WORKLOADS = join(REPO_ROOT, 'test', 'fixtures', 'workloads');
const DEMO = join(REPO_ROOT, 'examples', 'demo-app');

const RECORDED: { file: string; root: string }[] = [
  ...['service.cpuprofile', 'service.container.cpuprofile', 'service.v8.log', 'service.preprocessed.json.gz', 'typed.cpuprofile', 'typed.v8.log'].map((name) => ({
    file: join(PROFILES, name),
    root: WORKLOADS,
  })),
  ...['before.cpuprofile', 'after.cpuprofile', 'before.v8.log.gz'].map((name) => ({ file: join(DEMO, 'profiles', name), root: DEMO })),
];

/** [what, ms, percent, idle] for every entry of a report that carries both. */
function entries(report: ProfileReport): [string, number, number | null, boolean][] {
  const out: [string, number, number | null, boolean][] = [];
  for (const c of CATEGORIES) out.push([`category ${c}`, report.categories[c].ms, report.categories[c].percent, c === 'idle']);
  for (const f of report.functions) {
    out.push([`function ${f.name} self`, f.selfMs, f.selfPercent, f.category === 'idle']);
    out.push([`function ${f.name} total`, f.totalMs, f.totalPercent, f.category === 'idle']);
  }
  for (const l of report.lines) out.push([`line ${l.file}:${l.line}`, l.selfMs, l.percent, false]);
  for (const s of report.callSites) out.push([`call site ${s.function} ${s.file}:${s.line}`, s.ms, s.percent, false]);
  for (const i of report.insights) out.push([`insight ${i.id}`, i.ms, i.percent, false]);
  return out;
}

/** Checks percent × D / 100 == ms for every entry; `tolerance` in ms. Returns how many were checked. */
function assertOneDenominator(report: ProfileReport, tolerance: (ms: number) => number): number {
  const cpuMs = CATEGORIES.filter((c) => c !== 'idle').reduce((sum, c) => sum + report.categories[c].ms, 0);
  assert.ok(Math.abs(report.cpuMs - cpuMs) <= tolerance(cpuMs) * CATEGORIES.length, `cpuMs ${report.cpuMs} is not the non-idle ms ${cpuMs}`);
  assert.equal(report.shareOf, shareOfText({ unit: 'ms' }));
  let checked = 0;
  for (const [what, ms, percent, idle] of entries(report)) {
    if (idle) {
      assert.equal(percent, null, `${what}: idle is not CPU time and has no share`);
      continue;
    }
    assert.notEqual(percent, null, `${what}: no percent`);
    const back = ((percent as number) * report.cpuMs) / 100;
    assert.ok(Math.abs(back - ms) <= tolerance(ms), `${what}: ${percent}% of ${report.cpuMs} ms is ${back} ms, not ${ms} ms`);
    checked++;
  }
  return checked;
}

describe('one set of numbers', () => {
  for (const { file, root } of RECORDED) {
    it(`${file.slice(REPO_ROOT.length + 1)}: every percent is ms over the CPU time (idle excluded)`, async () => {
      const { report } = await analyzeProfileFile(file, { root });
      const checked = assertOneDenominator(report, (ms) => 1e-9 * Math.max(1, ms));
      assert.ok(checked > 20, `only ${checked} entries checked`);
      assert.ok(report.cpuMs > 0 && report.cpuMs <= report.categories.idle.ms + report.cpuMs);
      // Rankings follow the time shown, never sample counts.
      for (let i = 1; i < report.functions.length; i++) assert.ok(report.functions[i - 1].selfMs >= report.functions[i].selfMs, 'functions not sorted by selfMs');
      for (let i = 1; i < report.callSites.length; i++) assert.ok(report.callSites[i - 1].ms >= report.callSites[i].ms, 'call sites not sorted by ms');
      for (let i = 1; i < report.lines.length; i++) assert.ok(report.lines[i - 1].selfMs >= report.lines[i].selfMs, 'lines not sorted by selfMs');
    });
  }

  it('holds in the CLI JSON too (ms rounded to the microsecond)', async () => {
    const { cli } = await bundles();
    const run = spawnSync(process.execPath, [cli, 'profile', join(DEMO, 'profiles', 'before.cpuprofile'), '--root', DEMO, '--format', 'json', '--top', '1000'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout) as ProfileReport;
    assert.ok(assertOneDenominator(report, () => 0.002) > 20);
  });

  it('formats with one rounding: three significant digits, ms and bytes', () => {
    assert.deepEqual([0.123, 12.34, 494, 999.4, 1234, 47_700].map(formatMs), ['0.12 ms', '12.3 ms', '494 ms', '999 ms', '1.23 s', '47.7 s']);
    assert.deepEqual([0, 0.001, 0.44, 8.04, 27.4, 100].map(formatPercent), ['0.00%', '<0.01%', '0.44%', '8.04%', '27.4%', '100%']);
    assert.deepEqual([512, 4300, 44_040_192].map(formatBytes), ['512 B', '4.20 KiB', '42.0 MiB']);
    assert.equal(formatQuantity(4300, 'bytes'), '4.20 KiB');
    assert.equal(formatQuantity(4300, 'ms'), '4.30 s');
    assert.equal(roundedPercent(12.345), 12.3);
  });
});
