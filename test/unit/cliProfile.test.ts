// `hotframe profile` and `hotframe diff` as processes, over the recorded fixtures and over
// profiles recorded here (GC pressure with a tiny vs a large semi-space).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { printable, profileText } from '../../server/cli/profileText';
import type { ProfileDiff } from '../../server/profile/analysis/diff';
import { CATEGORIES, type ProfileReport } from '../../server/profile/model/types';
import { bundles, REPO_ROOT } from './bundles';
import { tempFolders } from './tempFolders';

// Removed after every file has run: one folder is made while this file loads.
const temp = tempFolders();
after(() => temp.removeAll());

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');
const PROFILES = join(FIXTURES, 'profiles');
const WORKLOADS = join(FIXTURES, 'workloads');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

async function hotframe(...args: string[]): Promise<Run> {
  const { cli } = await bundles();
  const run = spawnSync(process.execPath, [cli, ...args], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function profileJson(file: string, ...args: string[]): Promise<ProfileReport> {
  const run = await hotframe('profile', file, '--root', WORKLOADS, '--format', 'json', ...args);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '');
  return JSON.parse(run.stdout) as ProfileReport;
}

function assertOneLineError(run: Run, pattern: RegExp): void {
  assert.equal(run.status, 2);
  assert.equal(run.stdout, '');
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
}

describe('hotframe profile', () => {
  it('prints the report as JSON: categories, functions by self samples, lines, call sites, insights', async () => {
    const report = await profileJson(join(PROFILES, 'service.cpuprofile'), '--top', '5');
    // unit and notes say what the figures measure (issue 16: allocation profiles and pprof).
    assert.deepEqual(Object.keys(report), ['format', 'unit', 'notes', 'samples', 'durationMs', 'cpuMs', 'shareOf', 'shareBasis', 'categories', 'functions', 'lines', 'callSites', 'callLines', 'insights', 'unresolvedFiles', 'dependencySources', 'warnings']);
    assert.equal(report.format, 'cpuprofile');
    assert.deepEqual(Object.keys(report.categories).sort(), ['dependency', 'gc', 'idle', 'kernel', 'native', 'node', 'program', 'user']);
    const categorized = Object.values(report.categories).reduce((sum, c) => sum + c.samples, 0);
    assert.equal(categorized, report.samples);
    assert.equal(report.functions.length, 5);
    assert.deepEqual(Object.keys(report.functions[0]), ['name', 'file', 'line', 'column', 'selfSamples', 'totalSamples', 'selfMs', 'totalMs', 'selfPercent', 'totalPercent', 'category']);
    for (let i = 1; i < report.functions.length; i++) assert.ok(report.functions[i - 1].selfSamples >= report.functions[i].selfSamples);
    for (const f of report.functions) assert.ok(f.totalSamples <= report.samples && f.selfSamples <= f.totalSamples, f.name);
    assert.ok(report.lines.length <= 5 && report.callSites.length <= 5 && report.callLines.length <= 5);
    assert.deepEqual(report.unresolvedFiles, []);
  });

  it('finds normalizeSpawnArguments under collectStats and the Date.now line in clock.js (cpuprofile)', async () => {
    const report = await profileJson(join(PROFILES, 'service.cpuprofile'));
    const spawn = report.insights.find((i) => i.id === 'spawn-env-walk');
    // collectStats is declared on line 35; a cpuprofile has no call lines.
    assert.deepEqual(spawn?.location, { file: join(WORKLOADS, 'service.js'), line: 35 });
    assert.ok((spawn?.percent ?? 0) > 5, `spawn share ${spawn?.percent}`);
    const stats = report.callSites.find((s) => s.function === 'collectStats');
    assert.ok(stats?.libraries.some((l) => l.name === 'normalizeSpawnArguments' && l.category === 'node'));
    const clock = report.insights.find((i) => i.id === 'date-now-hot');
    assert.deepEqual(clock?.location, { file: join(WORKLOADS, 'clock.js'), line: 4 });
    const clockLine = report.lines.find((l) => l.file === join(WORKLOADS, 'clock.js') && l.line === 4);
    assert.equal(clock?.samples, clockLine?.selfSamples);
    // Recursion: fib's total never exceeds the profile.
    const fib = report.functions.find((f) => f.name === 'fib');
    assert.ok(fib !== undefined && fib.totalSamples < report.samples && fib.totalSamples >= fib.selfSamples);
  });

  it('reads a V8 log whose scripts are outside --root from dist/cli.js alone, which holds no Babel; with them inside, its function spans from cli-spans.js, not the whole engine', async () => {
    const { cli } = await bundles();
    // Which of our bundles the run loaded: the ones in the CLI's folder that require.cache holds at exit.
    const dir = temp.make('hotframe-cli-loads-');
    const preload = join(dir, 'loads.cjs');
    const listed = join(dir, 'loaded.json');
    writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(listed)}, JSON.stringify(Object.keys(require.cache))));`);
    const loaded = (root: string): string[] => {
      const run = spawnSync(process.execPath, ['--require', preload, cli, 'profile', join(PROFILES, 'service.v8.log'), '--root', root, '--format', 'json'], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      assert.equal(run.status, 0, run.stderr);
      const files = JSON.parse(readFileSync(listed, 'utf8')) as string[];
      return files.filter((f) => dirname(f) === dirname(cli)).map((f) => basename(f)).sort();
    };
    // The scripts are not under the root: no source is read, no parser is needed.
    assert.deepEqual(loaded(dir), ['cli.js']);
    assert.doesNotMatch(readFileSync(cli, 'utf8'), /node_modules\/@babel\//);
    // Under the root, the report reads their functions' spans: Babel's parser, apart from the static engine.
    assert.deepEqual(loaded(WORKLOADS), ['cli-spans.js', 'cli.js']);
  });

  it('charges the clock read to the call site in onMessages at its call line (raw V8 log)', async () => {
    const report = await profileJson(join(PROFILES, 'service.v8.log'));
    assert.equal(report.format, 'v8log');
    // getTimestamp and handleMessage are inlined into onMessages' loop on line 20; the log's
    // inlining table gives them back as frames, so the clock read is charged where the
    // cpuprofile charges it: getTimestamp's `Date.now()` in clock.js:4 (Date.now's
    // clock_gettime runs in the vDSO).
    const site = report.callSites.find((s) => s.function === 'getTimestamp');
    assert.equal(site?.line, 4);
    assert.equal(site?.file, join(WORKLOADS, 'clock.js'));
    const vdso = site?.libraries.find((l) => l.name === '[vdso]');
    assert.ok(vdso !== undefined && vdso.samples > 0);
    const clock = report.insights.find((i) => i.id === 'date-now-hot');
    assert.deepEqual(clock?.location, { file: join(WORKLOADS, 'clock.js'), line: 4 });
    const spawn = report.insights.find((i) => i.id === 'spawn-env-walk');
    // The V8 log records the call line: the execSync call on line 38.
    assert.deepEqual(spawn?.location, { file: join(WORKLOADS, 'service.js'), line: 38 });
    const preprocessed = await profileJson(join(PROFILES, 'service.preprocessed.json.gz'));
    assert.equal(preprocessed.format, 'v8log-preprocessed');
    assert.deepEqual(
      preprocessed.insights.map((i) => [i.id, i.location]),
      report.insights.map((i) => [i.id, i.location]),
    );
  });

  it('maps container paths by suffix and compiled JavaScript back to TypeScript', async () => {
    const local = await profileJson(join(PROFILES, 'service.cpuprofile'));
    const container = await profileJson(join(PROFILES, 'service.container.cpuprofile'));
    assert.deepEqual(container.functions, local.functions);
    assert.deepEqual(container.unresolvedFiles, []);
    const typed = await profileJson(join(PROFILES, 'typed.cpuprofile'));
    const settle = typed.functions.find((f) => f.name === 'settle');
    assert.deepEqual([settle?.file, settle?.line], [join(WORKLOADS, 'typed.ts'), 14]);
    const priceOf = typed.functions.find((f) => f.name === 'priceOf');
    assert.deepEqual([priceOf?.file, priceOf?.line], [join(WORKLOADS, 'typed.ts'), 8]);
    assert.ok(typed.lines.some((l) => l.file === join(WORKLOADS, 'typed.ts') && l.line === 10 && l.selfSamples > 0));
    // Without --root under the workloads, the container paths cannot be found: listed, not dropped.
    const empty = temp.make('hotframe-cli-empty-root-');
    const run = await hotframe('profile', join(PROFILES, 'service.container.cpuprofile'), '--root', empty, '--format', 'json');
    const unmapped = JSON.parse(run.stdout) as ProfileReport;
    assert.ok(unmapped.unresolvedFiles.includes('/usr/src/app/service.js'), unmapped.unresolvedFiles.join(','));
  });

  it('prints text like --prof-process, with categories, call sites and the seeds advice', async () => {
    const run = await hotframe('profile', join(PROFILES, 'service.cpuprofile'), '--root', WORKLOADS, '--top', '3');
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^service\.cpuprofile: cpuprofile, \d+ samples, /);
    assert.match(run.stdout, /\nSummary by category\n/);
    assert.match(run.stdout, /\nTop 3 by self time\n/);
    assert.match(run.stdout, /\nUser call sites .*\n.*collectStats {2}service\.js:35\n/);
    assert.match(run.stdout, /\[spawn-env-walk\] normalizeSpawnArguments copies process\.env on every spawn {2}service\.js:35\n/);
  });

  it('exits 2 with one line for bad input and usage', async () => {
    const dir = temp.make('hotframe-cli-profile-');
    const broken = join(dir, 'broken.cpuprofile');
    writeFileSync(broken, '{"nodes": [');
    assertOneLineError(await hotframe('profile', broken), /^hotframe: .*broken\.cpuprofile/);
    assertOneLineError(await hotframe('profile', join(dir, 'missing.cpuprofile')), /^hotframe: .*missing\.cpuprofile: no such file$/);
    // A folder is the profiles of one capture, merged: a broken one is named; an empty folder is said so.
    assertOneLineError(await hotframe('profile', dir), /^hotframe: .*broken\.cpuprofile: truncated JSON/);
    const empty = temp.make('hotframe-cli-profile-empty-');
    assertOneLineError(await hotframe('profile', empty), /^hotframe: .*: no \.cpuprofile or \.heapprofile in this folder$/);
    assertOneLineError(await hotframe('profile'), /^hotframe: profile: expected a profile FILE \(or several, or a folder\), got none/);
    assertOneLineError(await hotframe('profile', broken, '--top', '0'), /^hotframe: --top 0: expected a whole number of at least 1$/);
    assertOneLineError(await hotframe('profile', broken, '--format', 'xml'), /^hotframe: --format xml: expected text or json$/);
    assertOneLineError(await hotframe('profile', broken, '--root', join(dir, 'nope')), /^hotframe: --root .*nope: not a directory$/);
    assertOneLineError(await hotframe('profile', broken, '--bogus'), /^hotframe: unknown option --bogus$/);
    assertOneLineError(await hotframe('diff', broken), /^hotframe: diff: expected BEFORE and AFTER profiles, got 1/);
  });
});

describe('profile text', () => {
  it('escapes control characters from the profile, so a function name cannot drive the terminal', () => {
    assert.equal(printable('evil\u001b[2Jname\nnext'), 'evil\\x1b[2Jname\\x0anext');
    const report: ProfileReport = {
      format: 'cpuprofile',
      unit: 'ms',
      notes: [],
      samples: 4,
      durationMs: 4,
      cpuMs: 4,
      shareOf: '% of CPU time, idle excluded',
      shareBasis: { unit: 'ms' },
      categories: {
        user: { samples: 4, ms: 4, percent: 100 },
        dependency: { samples: 0, ms: 0, percent: 0 },
        node: { samples: 0, ms: 0, percent: 0 },
        native: { samples: 0, ms: 0, percent: 0 },
        kernel: { samples: 0, ms: 0, percent: 0 },
        gc: { samples: 0, ms: 0, percent: 0 },
        program: { samples: 0, ms: 0, percent: 0 },
        idle: { samples: 0, ms: 0, percent: null },
      },
      functions: [
        { name: '\u001b[31mred', file: '/root/app.js', line: 3, column: 1, selfSamples: 4, totalSamples: 4, selfMs: 4, totalMs: 4, selfPercent: 100, totalPercent: 100, category: 'user' },
      ],
      lines: [],
      callLines: [],
      callSites: [],
      insights: [],
      unresolvedFiles: [],
      dependencySources: [],
      warnings: [],
    };
    const text = profileText('p.cpuprofile', report, 5, '/root');
    // eslint-disable-next-line no-control-regex -- the raw ESC character is what must not reach the terminal
    assert.doesNotMatch(text, /\u001b/);
    assert.ok(text.includes('\n     4.00 ms    100%    4.00 ms    100%  \\x1b[31mred (user)  app.js:3\n'), text);
  });
});

describe('hotframe profile and diff on recorded GC pressure', () => {
  const dir = temp.make('hotframe-cli-gc-');
  const script = join(dir, 'churn.js');
  writeFileSync(
    script,
    [
      "'use strict';",
      'function churn() {',
      '  let keep = [];',
      '  for (let round = 0; round < 400; round++) {',
      '    for (let i = 0; i < 1000; i++) keep.push({ i, s: "v" + i, a: [i, i + 1] });',
      '    if (keep.length > 20000) keep = [];',
      '  }',
      '  return keep.length;',
      '}',
      'let total = 0;',
      'for (let r = 0; r < 4; r++) total += churn();',
      'process.stdout.write(String(total));',
      '',
    ].join('\n'),
  );
  /** Records churn.js with the given semi-space (MB) and returns the .cpuprofile path. */
  function record(semiSpaceMb: number): string {
    const out = join(dir, `semi-${semiSpaceMb}`);
    const run = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${out}`, `--max-semi-space-size=${semiSpaceMb}`, script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return join(out, readdirSync(out)[0]);
  }
  let small = '';
  let large = '';
  before(() => {
    small = record(1);
    large = record(64);
  });

  it('advises --max-semi-space-size=64 when GC takes 10% of CPU or more', async () => {
    const run = await hotframe('profile', small, '--root', dir, '--format', 'json');
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout) as ProfileReport;
    // A share of CPU time: GC's ms over every category's ms but idle's (the report's cpuMs).
    const cpuMs = CATEGORIES.filter((c) => c !== 'idle').reduce((sum, c) => sum + report.categories[c].ms, 0);
    assert.ok(Math.abs(cpuMs - report.cpuMs) < 0.01, `cpuMs ${report.cpuMs} vs ${cpuMs}`);
    const gcShare = (report.categories.gc.ms / cpuMs) * 100;
    assert.ok(gcShare >= 10, `GC share ${gcShare.toFixed(1)}% with a 1 MB semi-space`);
    const gc = report.insights.find((i) => i.id === 'gc-pressure');
    assert.ok(Math.abs((gc?.percent ?? 0) - gcShare) < 1e-3, `${gc?.percent} vs ${gcShare}`);
    assert.equal(gc?.percent, report.categories.gc.percent);
    assert.match(gc?.message ?? '', /--max-semi-space-size=64/);
  });

  it('shows the GC time saved by the larger semi-space as a negative rate change', async () => {
    const run = await hotframe('diff', small, large, '--root', dir, '--format', 'json', '--top', '50');
    assert.equal(run.status, 0, run.stderr);
    const diff = JSON.parse(run.stdout) as ProfileDiff;
    assert.equal(diff.unit, 'ms/s');
    const gc = diff.functions.find((f) => f.name === '(garbage collector)');
    assert.ok(gc !== undefined && gc.selfDelta < 0, `GC delta ${gc?.selfDelta}`);
    for (let i = 1; i < diff.functions.length; i++) assert.ok(Math.abs(diff.functions[i - 1].selfDelta) >= Math.abs(diff.functions[i].selfDelta));
    const text = await hotframe('diff', small, large, '--root', dir);
    assert.match(text.stdout, /^before: .*\.cpuprofile \(cpuprofile, \d+ samples, .*\)\nafter: {2}/);
    assert.match(text.stdout, /ms of CPU per second of profile/);
  });
});
