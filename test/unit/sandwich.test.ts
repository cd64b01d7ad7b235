// `hotframe profile FILE --function NAME[:file]` on a profile recorded here from a recursive
// workload (test/fixtures/workloads/recursive.js), checked against an aggregation of the raw
// .cpuprofile written in this test: every sample's stack, its duration as DevTools gives it (sample
// i lasts timeDeltas[i + 1]; the last one until endTime), recursion counted once per sample.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { analyzeProfileFile } from '../../server/profile/analysis/report';
import { functionsNamed, SANDWICH_MIN_SHARE, sandwichOf, type SandwichNode } from '../../server/profile/analysis/sandwich';
import { bundles, REPO_ROOT } from './bundles';

interface RawNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface RawProfile {
  nodes: RawNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}
interface Tree {
  name: string;
  selfMs: number;
  totalMs: number;
  children: Tree[];
  callLines?: number[];
}

/** Each sample's stack (root first, names only) and its duration in ms. */
function stacksOf(raw: RawProfile): { stack: string[]; ms: number }[] {
  const parent = new Map<number, number>();
  for (const node of raw.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(raw.nodes.map((n) => [n.id, n]));
  const sum = raw.timeDeltas.reduce((a, b) => a + b, 0);
  return raw.samples.map((id, i) => {
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.unshift(byId.get(at)!.callFrame.functionName || '(anonymous)');
    const us = i + 1 < raw.samples.length ? Math.max(0, raw.timeDeltas[i + 1]) : raw.endTime - raw.startTime - sum;
    return { stack, ms: us / 1000 };
  });
}

describe('hotframe profile --function: callers and callees (a recorded recursive workload)', function () {
  this.timeout(120_000);
  let dir: string;
  let profile: string;
  let raw: RawProfile;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-sandwich-'));
    copyFileSync(join(REPO_ROOT, 'test', 'fixtures', 'workloads', 'recursive.js'), join(dir, 'recursive.js'));
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    // No inlining: leaf stays a frame of its own under fib, where the test looks for it.
    const run = spawnSync(process.execPath, ['--no-turbo-inlining', '--cpu-prof', '--cpu-prof-dir', dir, 'recursive.js'], { cwd: dir, env, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    profile = join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!);
    raw = JSON.parse(readFileSync(profile, 'utf8')) as RawProfile;
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  async function hotframe(...args: string[]) {
    const { cli } = await bundles();
    return spawnSync(process.execPath, [cli, 'profile', profile, '--root', dir, ...args], { cwd: dir, encoding: 'utf8' });
  }

  it('gives fib its total once per sample, the total of the hot functions list, split among its callers as the samples are', async () => {
    const run = await hotframe('--function', 'fib', '--format', 'json', '--top', '50');
    assert.equal(run.status, 0, run.stderr);
    const answer = JSON.parse(run.stdout) as { function: { selfMs: number; totalMs: number; file: string }; callers: Tree; callees: Tree };

    const stacks = stacksOf(raw);
    let total = 0;
    let self = 0;
    const byCaller = new Map<string, number>();
    for (const { stack, ms } of stacks) {
      const first = stack.indexOf('fib');
      if (first === -1) continue;
      total += ms;
      if (stack.at(-1) === 'fib') self += ms;
      byCaller.set(stack[first - 1], (byCaller.get(stack[first - 1]) ?? 0) + ms);
    }
    assert.ok(total > 100, `fib ran ${total} ms`);
    const close = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 0.01, `${what}: ${a} vs ${b}`);
    close(answer.function.totalMs, total, 'total');
    close(answer.function.selfMs, self, 'self');
    close(answer.callers.totalMs, total, 'callers root');
    // The answer lists the callers of at least SANDWICH_MIN_SHARE of the total (a caller seen in one
    // stray sample, such as the module's own code, is under it in some recordings).
    const floor = total * SANDWICH_MIN_SHARE;
    assert.deepEqual(new Set(answer.callers.children.map((c) => c.name)), new Set([...byCaller].filter(([, ms]) => ms >= floor).map(([name]) => name)));
    for (const caller of answer.callers.children) close(caller.totalMs, byCaller.get(caller.name)!, `through ${caller.name}`);
    assert.ok(byCaller.has('viaOnce') && byCaller.has('viaThrice'));

    // The same total as the hot functions list (recursion counted once there too).
    const report = JSON.parse((await hotframe('--format', 'json', '--top', '1000')).stdout) as { functions: { name: string; totalMs: number; selfMs: number }[] };
    const listed = report.functions.find((f) => f.name === 'fib')!;
    close(listed.totalMs, answer.function.totalMs, 'hot functions list total');
    close(listed.selfMs, answer.function.selfMs, 'hot functions list self');

    // Callees: the outermost fib's subtrees merged; what is under them adds up to the total.
    close(answer.callees.totalMs, total, 'callees root');
    const childTotal = answer.callees.children.reduce((a, c) => a + c.totalMs, 0);
    close(answer.callees.selfMs + childTotal, total, 'callees self + children');
    let leafUnder = 0;
    for (const { stack, ms } of stacks) if (stack.includes('fib') && stack.includes('leaf')) leafUnder += ms;
    // fib(20) and fib(19) call fib; leaf is reached only deeper, under the recursive calls: every
    // leaf sample under fib once, wherever the tree holds it.
    // (The CLI cuts its trees at 12 levels; the model's whole tree is checked.)
    assert.deepEqual(answer.callees.children.map((c) => c.name), ['fib']);
    const analyzed = await analyzeProfileFile(profile, { root: dir });
    const whole = sandwichOf(analyzed.profile, analyzed.index, analyzed.shape, new Set(functionsNamed(analyzed.index, 'fib')));
    const leafEverywhere = (node: SandwichNode): number => node.children.reduce((a, c) => a + (c.name === 'leaf' ? c.totalMs : leafEverywhere(c)), 0);
    assert.ok(leafUnder > 0);
    close(leafEverywhere(whole.callees), leafUnder, 'leaf under fib');
  });

  it('prints callers and callees as text, and answers a name it does not know in one line', async () => {
    const text = await hotframe('--function', 'fib:recursive.js');
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^fib \(recursive\.js:\d+, user\): self [\d.]+ (ms|s) \([\d.]+%\), total [\d.]+ (ms|s) \([\d.]+%\); every % is % of CPU time, idle excluded\n/);
    assert.match(text.stdout, /\nCallers: every path to fib, merged;[^\n]*\n[^\n]*\n +[\d.]+ (ms|s) +[\d.]+%  fib  recursive\.js:\d+\n +[\d.]+ (ms|s) +[\d.]+%    via(Once|Thrice)  recursive\.js:\d+ \(calls on line (17|22)\)\n/);
    assert.match(text.stdout, /\nCallees: what fib calls, merged by function\n/);
    const unknown = await hotframe('--function', 'nothingLikeThis');
    assert.equal(unknown.status, 2);
    assert.equal(unknown.stderr, "hotframe: --function nothingLikeThis: no function of that name in the profile\n");
  });
});
