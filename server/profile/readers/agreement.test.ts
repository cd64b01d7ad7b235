// The readers against independent counts on recorded profiles (test/fixtures/record.mjs):
// raw V8 logs against `node --prof-process` itself, the preprocessed JSON against the raw log,
// and cpuprofiles against a walk of the raw JSON written here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProfile } from './load';
import type { NormalizedProfile } from '../model/types';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures');
const PROFILES = join(FIXTURES, 'profiles');
/** Functions with at least this many ticks are compared (all of them, exactly). */
const MIN_TICKS = 1;

/** Self ticks per JS function location ("url:line:column"), tiers merged, from prof-process's flat [JavaScript] list. */
function profProcessJsTicks(log: string): Map<string, number> {
  const run = spawnSync(process.execPath, ['--prof-process', log], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(run.status, 0, run.stderr);
  const section = run.stdout.split('\n [JavaScript]:\n')[1].split('\n\n')[0];
  const ticks = new Map<string, number>();
  for (const row of section.split('\n').slice(1)) {
    // "     45    4.5%    5.0%  JS: *fib /app/service.js:10:13"
    const m = /^\s*(\d+)\s+[\d.]+%\s+[\d.]+%\s+(\w+): [~*^+]?.*?(\S+:\d+:\d+)$/.exec(row);
    if (m === null || m[2] === 'Builtin' || m[2] === 'RegExp') continue;
    ticks.set(m[3], (ticks.get(m[3]) ?? 0) + Number(m[1]));
  }
  return ticks;
}

/** Self samples per JS function location in a normalized profile. */
function jsSelf(p: NormalizedProfile): Map<string, number> {
  const self = new Map<string, number>();
  for (let i = 1; i < p.tree.count; i++) {
    const f = p.functions[p.tree.func[i]];
    if (f.url === '' || p.tree.selfSamples[i] === 0) continue;
    const key = `${f.url}:${f.line}:${f.column}`;
    self.set(key, (self.get(key) ?? 0) + p.tree.selfSamples[i]);
  }
  return self;
}

const atLeast = (m: Map<string, number>, n: number): Record<string, number> =>
  Object.fromEntries([...m].filter(([, v]) => v >= n).sort(([a], [b]) => a.localeCompare(b)));

describe('reader agreement on recorded profiles', function () {
  this.timeout(120_000);

  for (const name of ['service', 'typed']) {
    it(`${name}.v8.log: self ticks per JS function equal node --prof-process`, async () => {
      const log = join(PROFILES, `${name}.v8.log`);
      const expected = atLeast(profProcessJsTicks(log), MIN_TICKS);
      // prof-process charges inlined code to the function whose code it is: compare in that view.
      const actual = atLeast(jsSelf(await loadProfile(log, { inlinedFrames: false })), MIN_TICKS);
      assert.ok(Object.keys(expected).length >= 2, 'the fixture has JS functions with ticks');
      assert.deepEqual(actual, expected);
    });

    it(`${name}.preprocessed.json.gz reads like the raw log it came from`, async () => {
      const raw = await loadProfile(join(PROFILES, `${name}.v8.log`));
      const pre = await loadProfile(join(PROFILES, `${name}.preprocessed.json.gz`));
      assert.equal(pre.samples, raw.samples);
      assert.equal(pre.durationMs, raw.durationMs);
      assert.deepEqual(atLeast(jsSelf(pre), 1), atLeast(jsSelf(raw), 1));
      const lines = (p: NormalizedProfile): string[] =>
        p.lineTicks
          .filter((t) => p.functions[p.tree.func[t.node]].url !== '')
          .map((t) => `${p.functions[p.tree.func[t.node]].url}:${t.line}=${t.samples}`)
          .sort();
      assert.deepEqual(lines(pre), lines(raw));
    });
  }

  it('service.v8.log: recursion and call lines come from return addresses', async () => {
    const p = await loadProfile(join(PROFILES, 'service.v8.log'));
    const source = readFileSync(join(FIXTURES, 'workloads', 'service.js'), 'utf8').split('\n');
    const lineOf = (text: string): number => source.findIndex((l) => l.includes(text)) + 1;
    const fib = p.functions.findIndex((f) => f.name === 'fib' && f.url.endsWith('/service.js'));
    // The url is where the fixture was recorded (a developer's checkout), not this clone's path.
    assert.ok(p.functions[fib].url.endsWith('/test/fixtures/workloads/service.js'), p.functions[fib].url);
    assert.deepEqual({ ...p.functions[fib], url: '' }, { name: 'fib', url: '', line: lineOf('function fib('), column: 13, category: 'user' });
    // Sparkplug (baseline, '^') code is logged without source positions: its lines are 0
    // (unknown). Every known call line must be the right one.
    let recursive = 0;
    let outer = 0;
    let unknown = 0;
    for (let i = 1; i < p.tree.count; i++) {
      if (p.tree.func[i] !== fib) continue;
      if (p.tree.callLine[i] === 0) unknown++;
      else if (p.tree.func[p.tree.parent[i]] === fib) {
        recursive++;
        assert.equal(p.tree.callLine[i], lineOf('fib(n - 1) + fib(n - 2)'), 'fib calls itself from its return line');
      } else {
        outer++;
        assert.equal(p.tree.callLine[i], lineOf('results[0] += fib(34)'), 'the loop calls fib');
      }
    }
    assert.ok(recursive > 5 && outer >= 1 && unknown < recursive, `fib nested (${recursive}) and called from the loop (${outer}), ${unknown} unknown`);
    // Self time of fib falls on its body line (one-line body: the return statement).
    const fibLines = new Set(p.lineTicks.filter((t) => p.tree.func[t.node] === fib).map((t) => t.line));
    for (const line of fibLines) assert.ok(line === lineOf('function fib(') || line === lineOf('fib(n - 1) + fib(n - 2)'), `fib line ${line}`);
  });

  for (const name of ['service', 'service.container', 'typed']) {
    it(`${name}.cpuprofile: self and total samples per function equal a walk of the raw JSON`, async () => {
      const path = join(PROFILES, `${name}.cpuprofile`);
      const raw = JSON.parse(readFileSync(path, 'utf8')) as {
        nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[]; positionTicks?: { line: number; ticks: number }[] }[];
        samples: number[];
      };
      // Independent count: parent links from `children`, stacks walked per sample.
      const byId = new Map(raw.nodes.map((n) => [n.id, n]));
      const parent = new Map<number, number>();
      for (const n of raw.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      const keyOf = (id: number): string => {
        const f = byId.get(id)!.callFrame;
        return `${f.functionName || '(anonymous)'}@${f.url}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
      };
      const expectedSelf = new Map<string, number>();
      const expectedTotal = new Map<string, number>();
      let nested = 0;
      for (const id of raw.samples) {
        expectedSelf.set(keyOf(id), (expectedSelf.get(keyOf(id)) ?? 0) + 1);
        const seen = new Set<string>();
        for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
          if (byId.get(n)!.callFrame.functionName === '(root)') continue;
          if (seen.has(keyOf(n))) nested++;
          seen.add(keyOf(n));
        }
        for (const k of seen) expectedTotal.set(k, (expectedTotal.get(k) ?? 0) + 1);
      }
      if (name !== 'typed') assert.ok(nested > 0, 'the profile has recursion (a function twice on one stack)');

      const p = await loadProfile(path);
      assert.equal(p.samples, raw.samples.length);
      const fkey = (f: number): string => {
        const fn = p.functions[f];
        return `${fn.name}@${fn.url}:${fn.line}:${fn.column}`;
      };
      const self = new Map<string, number>();
      const total = new Map<string, number>();
      for (let i = 1; i < p.tree.count; i++) {
        const s = p.tree.selfSamples[i];
        if (s === 0) continue;
        self.set(fkey(p.tree.func[i]), (self.get(fkey(p.tree.func[i])) ?? 0) + s);
        const seen = new Set<number>();
        for (let n = i; n > 0; n = p.tree.parent[n]) seen.add(p.tree.func[n]);
        for (const f of seen) total.set(fkey(f), (total.get(fkey(f)) ?? 0) + s);
      }
      assert.deepEqual(atLeast(self, 1), atLeast(expectedSelf, 1));
      assert.deepEqual(atLeast(total, 1), atLeast(expectedTotal, 1));

      // Per-line self samples equal the positionTicks summed per function and line.
      const expectedLines = new Map<string, number>();
      for (const n of raw.nodes) for (const t of n.positionTicks ?? []) expectedLines.set(`${keyOf(n.id)}#${t.line}`, (expectedLines.get(`${keyOf(n.id)}#${t.line}`) ?? 0) + t.ticks);
      const lines = new Map<string, number>();
      for (const t of p.lineTicks) lines.set(`${fkey(p.tree.func[t.node])}#${t.line}`, (lines.get(`${fkey(p.tree.func[t.node])}#${t.line}`) ?? 0) + t.samples);
      assert.deepEqual(atLeast(lines, 1), atLeast(expectedLines, 1));
    });
  }

  it('service.container.cpuprofile keeps the container paths as recorded', async () => {
    const p = await loadProfile(join(PROFILES, 'service.container.cpuprofile'));
    const user = p.functions.filter((f) => f.category === 'user' || f.category === 'dependency');
    assert.ok(user.length > 3);
    for (const f of user) assert.match(f.url, /^file:\/\/\/usr\/src\/app\//);
    assert.ok(p.functions.some((f) => f.name === 'hashRow' && f.category === 'dependency'));
  });

  it("service.v8.log: with this machine's node binary, the env walk of incident 003 has C++ names under normalizeSpawnArguments", async function () {
    const p = await loadProfile(join(PROFILES, 'service.v8.log'));
    // Symbol names only appear when the binary here is the one that recorded (nativeSymbols.ts).
    if (!p.functions.some((f) => f.name.includes('::'))) this.skip();
    let underSpawn = 0;
    let envSamples = 0;
    for (let i = 1; i < p.tree.count; i++) {
      if (!/^node::Env(Query|Getter)/.test(p.functions[p.tree.func[i]].name)) continue;
      envSamples += p.tree.selfSamples[i];
      for (let n = p.tree.parent[i]; n > 0; n = p.tree.parent[n]) {
        if (p.functions[p.tree.func[n]].name === 'normalizeSpawnArguments') {
          underSpawn += p.tree.selfSamples[i];
          break;
        }
      }
    }
    assert.ok(envSamples > 50, `env lookups sampled (${envSamples})`);
    assert.equal(underSpawn, envSamples, 'every env lookup sits under normalizeSpawnArguments');
  });
});
