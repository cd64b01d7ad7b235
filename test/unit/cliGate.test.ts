// `hotframe gate` as a process: on runs of a service at a fixed load recorded here
// (test/fixtures/workloads/gateService.js), and on bad input.
//
// The gate's statistics are tested on constructed runs in server/profile/gate/gate.test.ts, and its
// error rates on real recordings in gateRates.test.ts.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { bundles, REPO_ROOT } from './bundles';

const WORKLOAD = join(REPO_ROOT, 'test', 'fixtures', 'workloads', 'gateService.js');

// Run from the editor's extension host, ELECTRON_RUN_AS_NODE is inherited; the children are plain node.
const childEnv = { ...process.env };
delete childEnv.ELECTRON_RUN_AS_NODE;

describe('hotframe gate as a process', function () {
  this.timeout(300_000);
  let project: string;
  const pool: { same: string[]; base: string; head: string } = { same: [], base: '', head: '' };

  before(() => {
    project = mkdtempSync(join(tmpdir(), 'hotframe-gate-'));
    const service = join(project, 'service.js');
    copyFileSync(WORKLOAD, service);
    const dir = join(project, 'profiles', 'same');
    mkdirSync(dir, { recursive: true });
    // Six runs: the fewest with which the exact test can show a change at the default confidence.
    for (let i = 0; i < 6; i++) {
      const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-interval', '250', '--cpu-prof-dir', dir, '--cpu-prof-name', `run-${i}.cpuprofile`, service], { cwd: project, env: childEnv, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
    }
    pool.same = readdirSync(dir).map((name) => join(dir, name)).sort();
    // One recording of 3 s a side; the change triples the hashing work (HOTFRAME_GATE_SLOW=3), far
    // past the noise of this machine, so the verdict does not depend on its load.
    const record = (name: string, slow: string): string => {
      const long = join(project, 'profiles', 'long');
      const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-interval', '250', '--cpu-prof-dir', long, '--cpu-prof-name', name, service], { cwd: project, env: { ...childEnv, HOTFRAME_GATE_MS: '3000', HOTFRAME_GATE_SLOW: slow }, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      return join(long, name);
    };
    pool.base = record('base.cpuprofile', '1');
    pool.head = record('head.cpuprofile', '3');
  });

  after(() => rmSync(project, { recursive: true, force: true }));

  async function gate(...args: string[]) {
    const { cli } = await bundles();
    return spawnSync(process.execPath, [cli, 'gate', ...args], { cwd: project, encoding: 'utf8' });
  }

  it('formats the verdict as SARIF, Markdown and JSON, its intervals consistent with it', async () => {
    // At 0.95 (the default is 0.99): what is tested here is the cutting into windows; windows of one
    // process on a loaded machine vary more than separate runs (gateRates.test.ts measures the default).
    const sides = ['--before', pool.base, '--after', pool.head, '--windows', '6', '--confidence', '0.95'];
    const json = await gate(...sides, '--format', 'json');
    const parsed = JSON.parse(json.stdout) as { failed: boolean; regressions: { kind: string; file: string; line: number; delta: number; interval: { low: number; high: number }; p: number }[]; improvements: { delta: number; interval: { high: number }; p: number }[] };
    assert.equal(json.status, 1, json.stderr);
    for (const r of parsed.regressions) assert.ok(r.interval.low > 0 && r.interval.low <= r.delta && r.delta <= r.interval.high && r.p <= 0.05, JSON.stringify(r));
    for (const r of parsed.improvements) assert.ok(r.interval.high < 0 && r.delta <= 0 && r.p <= 0.05);
    const sarif = JSON.parse((await gate(...sides, '--format', 'sarif')).stdout);
    const located = parsed.regressions.filter((r) => r.file !== '' && !r.file.startsWith('node:') && !r.file.startsWith('/') && !r.file.startsWith('..'));
    assert.ok(located.length > 0);
    assert.equal(sarif.runs[0].results.length, located.length);
    const markdown = await gate(...sides, '--format', 'markdown');
    assert.match(markdown.stdout, /^### Hotframe gate: ❌ \d+ regressions?/);
    assert.match(markdown.stdout, /\*\*Slower\*\*\n\n\| where \| change \(ms\/s\) \| before → after \| interval \| finding there \|/);
  });

  it('gives the model\'s verdict on the command line, from folders, with exit 0 on a pass', async () => {
    const run = await gate('--before', join(project, 'profiles', 'same'), '--after', join(project, 'profiles', 'same'), '--format', 'json');
    // The same runs on both sides: no change at all, nothing to test.
    assert.equal(run.status, 0, run.stderr);
    const parsed = JSON.parse(run.stdout);
    assert.deepEqual([parsed.failed, parsed.candidates, parsed.runs], [false, 0, { before: 6, after: 6 }]);
    const text = await gate('--before', join(project, 'profiles', 'same'), '--after', join(project, 'profiles', 'same'));
    assert.match(text.stdout, /\nPASS: no significant regression\n/);
  });

  it('cuts one long recording a side into windows, each a run, and catches a slowdown on its line (--windows)', async () => {
    const [base, head, service] = [pool.base, pool.head, join(project, 'service.js')];
    // At 0.95 (the default is 0.99): what is tested here is the cutting into windows; windows of one
    // process on a loaded machine vary more than separate runs (gateRates.test.ts measures the default).
    const run = await gate('--before', base, '--after', head, '--windows', '6', '--confidence', '0.95', '--format', 'json');
    const parsed = JSON.parse(run.stdout) as { failed: boolean; runs: { before: number; after: number }; regressions: { kind: string; name?: string; file: string; line: number }[] };
    assert.equal(run.status, 1, run.stderr);
    assert.deepEqual(parsed.runs, { before: 6, after: 6 });
    assert.ok(parsed.regressions.some((r) => r.kind === 'function' && r.name === 'hashBatch'), JSON.stringify(parsed.regressions));
    const hashLines = readFileSync(service, 'utf8').split('\n').flatMap((text, i) => (/Math\.imul|for \(let (r|i) = 0/.test(text) ? [i + 1] : []));
    assert.ok(parsed.regressions.some((r) => r.kind === 'line' && r.file === 'service.js' && hashLines.includes(r.line)), JSON.stringify(parsed.regressions));
    // Without --windows, one profile a side is too few to tell a change from noise.
    const single = await gate('--before', base, '--after', head);
    assert.equal(single.status, 2);
  });

  it('answers usage and input errors in one line, exit 2', async () => {
    const one = await gate('--before', pool.same[0], '--after', pool.same[1]);
    assert.equal(one.status, 2);
    assert.match(one.stderr, /^hotframe: gate: needs at least two profiles \(or --windows\) on each side to tell a change from noise, got 1 before and 1 after/);
    assert.equal(one.stderr.trim().split('\n').length, 1);
    // Four runs a side: no split of 8 runs is rarer than 2 in 70, so nothing could pass the exact test at 0.995.
    const four = [...pool.same.slice(0, 4).flatMap((f) => ['--before', f]), ...pool.same.slice(2).flatMap((f) => ['--after', f])];
    const few = await gate(...four);
    assert.equal(few.status, 2);
    assert.match(few.stderr, /^hotframe: gate: 4 runs before and 4 after cannot show any change at confidence 0.995 \(the rank test's smallest p-value with them is 0.029\): record more runs a side \(6 a side suffice for one function\) or lower --confidence\n$/);
    assert.equal((await gate(...four, '--confidence', '0.95', '--format', 'json')).status, 0);
    for (const [args, message] of [
      [['--before', join(project, 'profiles', 'same'), '--after', join(project, 'profiles', 'same'), '--threshold', 'ten'], /--threshold ten: expected a percentage/],
      [['--before', join(project, 'profiles', 'same'), '--after', join(project, 'profiles', 'same'), '--format', 'html'], /--format html: expected text, json, markdown, sarif/],
      [['--before', join(project, 'nowhere'), '--after', join(project, 'profiles', 'same')], /--before .*nowhere: no such file or folder/],
      [['--before', project, '--after', join(project, 'profiles', 'same')], /the folder holds no profile/],
      [[pool.same[0], '--after', join(project, 'profiles', 'same')], /gate: unexpected /],
      [['--before', pool.same[0], '--after', pool.same[1], '--windows', '0'], /--windows 0: expected a whole number from 1 to 100/],
    ] as const) {
      const run = await gate(...args);
      assert.equal(run.status, 2, `${args.join(' ')}: ${run.stdout}`);
      assert.match(run.stderr, message);
      assert.equal(run.stderr.trim().split('\n').length, 1);
    }
  });
});
