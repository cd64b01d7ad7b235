// `hotframe gate` on CPU profiles recorded here, from real runs of a service at a fixed load
// (test/fixtures/workloads/gateService.js): the same code against itself (A/A), the same service
// with one function made 20% slower, and with a new synchronous gzip per request.
//
// What the issue asks is a rate over trials: same-code pairs fail in at most 1% of trials, a 20%
// slowdown of one function is caught in at least 95%, on the right lines. Recording hundreds of
// runs would take many minutes, so the test records a pool of runs of each kind once and draws
// each trial's runs from the pool, 4 a side, without repeating a run within a trial: every trial
// is real profiles of real runs, and the trials share runs as any two CI builds share a machine.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { analyzeProfileFile } from '../../server/profile/analysis/report';
import { seededRandom } from '../../server/profile/gate/bootstrap';
import { runGate } from '../../server/profile/gate/gate';
import type { ProfileReport } from '../../server/profile/model/types';
import { bundles, REPO_ROOT } from './bundles';

const WORKLOAD = join(REPO_ROOT, 'test', 'fixtures', 'workloads', 'gateService.js');
const RUNS_PER_SIDE = 4;
const TRIALS = 200;

// Run from the editor's extension host, ELECTRON_RUN_AS_NODE is inherited; the children are plain node.
const childEnv = { ...process.env };
delete childEnv.ELECTRON_RUN_AS_NODE;

/** Lines of the service (as copied into the project) that hold its hashing, the function made slower. */
function linesOf(source: string, from: RegExp, to: RegExp): { first: number; last: number } {
  const lines = source.split('\n');
  const first = lines.findIndex((l) => from.test(l)) + 1;
  const last = lines.findIndex((l, i) => i >= first && to.test(l)) + 1;
  assert.ok(first > 0 && last > first);
  return { first, last };
}

describe('hotframe gate on recorded runs (a service at a fixed load)', function () {
  this.timeout(600_000);
  let project: string;
  const pool: Record<'same' | 'slower' | 'gzip', string[]> = { same: [], slower: [], gzip: [] };
  const reports: Record<'same' | 'slower', ProfileReport[]> = { same: [], slower: [] };
  let hashing: { first: number; last: number };
  let gzipLine: number;

  before(async () => {
    project = mkdtempSync(join(tmpdir(), 'hotframe-gate-'));
    const service = join(project, 'service.js');
    copyFileSync(WORKLOAD, service);
    const source = readFileSync(service, 'utf8');
    hashing = linesOf(source, /^function hashBatch/, /^}/);
    gzipLine = source.split('\n').findIndex((l) => l.includes('zlib.gzipSync(')) + 1;
    // As root, every thread of a run (the sampler's too) takes the CPU before the machine's other
    // work, so neighbours add less noise; the kinds of runs alternate, so that what noise is left
    // falls on every kind alike (as a gate's recipe should run its sides: docs/cli.md).
    const preload = join(project, 'priority.cjs');
    writeFileSync(preload, "try { for (const tid of require('node:fs').readdirSync('/proc/self/task')) require('node:os').setPriority(Number(tid), -20); } catch {}\n");
    const kinds = { same: { count: 10, env: {} }, slower: { count: 6, env: { HOTFRAME_GATE_SLOW: '1.2' } }, gzip: { count: 3, env: { HOTFRAME_GATE_GZIP: '1' } } };
    for (const kind of Object.keys(kinds) as (keyof typeof kinds)[]) mkdirSync(join(project, 'profiles', kind), { recursive: true });
    for (let i = 0; i < kinds.same.count; i++) {
      for (const kind of Object.keys(kinds) as (keyof typeof kinds)[]) {
        if (i >= kinds[kind].count) continue;
        const dir = join(project, 'profiles', kind);
        const run = spawnSync(process.execPath, ['--require', preload, '--cpu-prof', '--cpu-prof-interval', '250', '--cpu-prof-dir', dir, '--cpu-prof-name', `run-${i}.cpuprofile`, service], {
          cwd: project,
          env: { ...childEnv, ...kinds[kind].env },
          encoding: 'utf8',
        });
        assert.equal(run.status, 0, run.stderr);
      }
    }
    for (const kind of Object.keys(kinds) as (keyof typeof kinds)[]) pool[kind] = readdirSync(join(project, 'profiles', kind)).map((name) => join(project, 'profiles', kind, name)).sort();
    for (const kind of ['same', 'slower'] as const) {
      for (const file of pool[kind]) reports[kind].push((await analyzeProfileFile(file, { root: project })).report);
    }
  });

  after(() => rmSync(project, { recursive: true, force: true }));

  /** `count` distinct runs of `from`, not in `taken`. */
  function draw(from: ProfileReport[], count: number, random: () => number, taken: Set<ProfileReport> = new Set()): ProfileReport[] {
    const free = from.filter((r) => !taken.has(r));
    const out: ProfileReport[] = [];
    for (let i = 0; i < count; i++) out.push(free.splice(Math.floor(random() * free.length), 1)[0]);
    return out;
  }

  it('fails in at most 1% of trials where both sides run the same code', () => {
    const random = seededRandom(2024);
    const failures: string[] = [];
    for (let t = 0; t < TRIALS; t++) {
      const before = draw(reports.same, RUNS_PER_SIDE, random);
      const after = draw(reports.same, RUNS_PER_SIDE, random, new Set(before));
      const result = runGate(before, after);
      if (result.failed) failures.push(result.regressions.map((r) => `${r.name ?? ''} ${r.file}:${r.line} ${r.before.toFixed(1)} -> ${r.after.toFixed(1)}`).join('; '));
    }
    assert.ok(failures.length <= TRIALS * 0.01, `${failures.length} of ${TRIALS} same-code trials failed, e.g. ${failures.slice(0, 3).join(' | ')}`);
  });

  it('catches a 20% slowdown of one function in at least 95% of trials, on that function and its lines', () => {
    const random = seededRandom(7);
    let caught = 0;
    const misplaced: string[] = [];
    for (let t = 0; t < TRIALS; t++) {
      const result = runGate(draw(reports.same, RUNS_PER_SIDE, random), draw(reports.slower, RUNS_PER_SIDE, random));
      if (!result.failed) continue;
      caught++;
      const top = result.regressions[0];
      const inHashing = top.kind === 'function' ? top.name === 'hashBatch' : top.line >= hashing.first && top.line <= hashing.last;
      if (!inHashing) misplaced.push(`${top.name ?? ''} ${top.file}:${top.line}`);
    }
    assert.ok(caught >= TRIALS * 0.95, `caught ${caught} of ${TRIALS}`);
    assert.deepEqual(misplaced, [], 'the biggest regression is hashBatch or one of its lines');
  });

  async function gate(...args: string[]) {
    const { cli } = await bundles();
    return spawnSync(process.execPath, [cli, 'gate', ...args], { cwd: project, encoding: 'utf8' });
  }

  it('puts a new synchronous call while serving on its line, naming the finding there (SARIF, Markdown, JSON), and exits 1', async () => {
    const before = ['--before', ...pool.same.slice(0, RUNS_PER_SIDE).flatMap((f, i) => (i === 0 ? [f] : ['--before', f]))];
    const sarifRun = await gate(...before, '--after', join(project, 'profiles', 'gzip'), '--format', 'sarif');
    assert.equal(sarifRun.status, 1, sarifRun.stderr);
    const sarif = JSON.parse(sarifRun.stdout);
    const atGzip = sarif.runs[0].results.filter((r: { locations: { physicalLocation: { region: { startLine: number } } }[] }) => r.locations[0].physicalLocation.region.startLine === gzipLine);
    assert.equal(atGzip.length, 1, sarifRun.stdout);
    assert.equal(atGzip[0].locations[0].physicalLocation.artifactLocation.uri, 'service.js');
    assert.match(atGzip[0].message.text, /^Line \d+ got slower: \+[\d.]+ ms\/s \(new: 0\.00 → [\d.]+ ms\/s\), [\d.]+% interval \+[\d.]+ to \+[\d.]+\. Finding there: blocking-sync-call: /);
    assert.deepEqual(atGzip[0].properties.findings, ['blocking-sync-call']);

    const markdown = await gate(...before, '--after', join(project, 'profiles', 'gzip'), '--format', 'markdown');
    assert.equal(markdown.status, 1);
    assert.match(markdown.stdout, /^### Hotframe gate: ❌ \d+ regressions?/);
    assert.match(markdown.stdout, new RegExp(`\\| \`service\\.js:${gzipLine}\` \\| \\+[\\d.]+ \\(new\\) \\|.*\\| \`blocking-sync-call\` \\|`));

    const json = await gate(...before, '--after', join(project, 'profiles', 'gzip'), '--format', 'json');
    const parsed = JSON.parse(json.stdout);
    assert.equal(parsed.failed, true);
    const line = parsed.regressions.find((r: { kind: string; line: number }) => r.kind === 'line' && r.line === gzipLine);
    assert.equal(line.file, 'service.js');
    assert.equal(line.before, 0);
    assert.ok(line.interval.low > 0 && line.interval.low <= line.delta && line.delta <= line.interval.high);
  });

  it('gives the model\'s verdict on the command line, from folders, with exit 0 on a pass', async () => {
    const run = await gate('--before', join(project, 'profiles', 'same'), '--after', join(project, 'profiles', 'same'), '--format', 'json');
    // The same runs on both sides: no change at all, nothing to test.
    assert.equal(run.status, 0, run.stderr);
    const parsed = JSON.parse(run.stdout);
    assert.deepEqual([parsed.failed, parsed.candidates, parsed.runs], [false, 0, { before: 10, after: 10 }]);
    const text = await gate('--before', join(project, 'profiles', 'same'), '--after', join(project, 'profiles', 'same'));
    assert.match(text.stdout, /\nPASS: no significant regression\n/);
  });

  it('answers usage and input errors in one line, exit 2', async () => {
    const one = await gate('--before', pool.same[0], '--after', pool.slower[0]);
    assert.equal(one.status, 2);
    assert.match(one.stderr, /^hotframe: gate: needs at least two profiles on each side to tell a change from noise, got 1 before and 1 after/);
    assert.equal(one.stderr.trim().split('\n').length, 1);
    for (const [args, message] of [
      [['--before', join(project, 'profiles', 'same'), '--after', join(project, 'profiles', 'same'), '--threshold', 'ten'], /--threshold ten: expected a percentage/],
      [['--before', join(project, 'profiles', 'same'), '--after', join(project, 'profiles', 'same'), '--format', 'html'], /--format html: expected text, json, markdown, sarif/],
      [['--before', join(project, 'nowhere'), '--after', join(project, 'profiles', 'same')], /--before .*nowhere: no such file or folder/],
      [['--before', project, '--after', join(project, 'profiles', 'same')], /the folder holds no profile/],
      [[pool.same[0], '--after', join(project, 'profiles', 'same')], /gate: unexpected /],
    ] as const) {
      const run = await gate(...args);
      assert.equal(run.status, 2, `${args.join(' ')}: ${run.stdout}`);
      assert.match(run.stderr, message);
      assert.equal(run.stderr.trim().split('\n').length, 1);
    }
  });
});
