// The cpuprofile reader on hand-made profiles: exact samples, durations, lines, and every kind
// of damage a profile file can carry.
import assert from 'node:assert/strict';
import { readCpuprofile } from './readCpuprofile';
import { readTraceProfile } from './readTrace';
import { ProfileInputError } from './profileInputError';
import type { NormalizedProfile } from '../model/types';

interface NodeSpec {
  id: number;
  name: string;
  url?: string;
  line?: number; // 0-based, as in the file
  children?: number[];
  positionTicks?: { line: number; ticks: number }[];
}

function cpuprofile(nodes: NodeSpec[], samples: number[], timeDeltas: number[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    nodes: nodes.map((n) => ({
      id: n.id,
      callFrame: { functionName: n.name, url: n.url ?? '', lineNumber: n.line ?? -1, columnNumber: n.line === undefined ? -1 : 4, scriptId: '1' },
      children: n.children,
      positionTicks: n.positionTicks,
    })),
    startTime: 1000,
    endTime: 1000 + timeDeltas.reduce((a, b) => a + b, 0) + 1000,
    samples,
    timeDeltas,
    ...extra,
  };
}

/** name -> self samples over the whole tree. */
function selfByName(p: NormalizedProfile): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < p.tree.count; i++) {
    if (p.tree.func[i] === -1) continue;
    const name = p.functions[p.tree.func[i]].name;
    out.set(name, (out.get(name) ?? 0) + p.tree.selfSamples[i]);
  }
  return out;
}

function pathOf(p: NormalizedProfile, node: number): string[] {
  const names: string[] = [];
  for (let n = node; n > 0; n = p.tree.parent[n]) names.unshift(p.functions[p.tree.func[n]].name);
  return names;
}

const APP = '/srv/app/main.js';
const basic = (): Record<string, unknown> =>
  cpuprofile(
    [
      { id: 1, name: '(root)', children: [2, 5, 6] },
      { id: 2, name: 'main', url: APP, line: 9, children: [3] },
      { id: 3, name: 'handle', url: APP, line: 19, children: [4], positionTicks: [{ line: 21, ticks: 2 }, { line: 22, ticks: 1 }] },
      { id: 4, name: 'now', url: '' },
      { id: 5, name: '(garbage collector)' },
      { id: 6, name: '(idle)' },
    ],
    [3, 3, 4, 3, 5, 6],
    [100, 1000, 1000, 2000, 1000, 1000],
  );

describe('readCpuprofile', () => {
  it('maps ids to a parent-first tree with 1-based lines and the root as node 0', () => {
    const p = readCpuprofile(basic(), 'basic.cpuprofile');
    assert.equal(p.format, 'cpuprofile');
    assert.equal(p.samples, 6);
    assert.equal(p.tree.func[0], -1);
    for (let i = 1; i < p.tree.count; i++) assert.ok(p.tree.parent[i] < i, `node ${i} after its parent`);
    const handle = p.functions.findIndex((f) => f.name === 'handle');
    assert.deepEqual(p.functions[handle], { name: 'handle', url: APP, line: 20, column: 5, category: 'user' });
    const node = Array.from(p.tree.func).indexOf(handle);
    assert.deepEqual(pathOf(p, node), ['main', 'handle']);
    assert.equal(p.tree.callLine[node], 0, 'cpuprofile does not record call lines');
    assert.equal(p.warnings.length, 0);
  });

  it('counts self samples per node and gives each sample the time to the next one', () => {
    const p = readCpuprofile(basic(), 'basic.cpuprofile');
    assert.deepEqual(Object.fromEntries(selfByName(p)), { main: 0, handle: 3, now: 1, '(garbage collector)': 1, '(idle)': 1 });
    const ms = (name: string): number => {
      let total = 0;
      for (let i = 1; i < p.tree.count; i++) if (p.functions[p.tree.func[i]].name === name) total += p.tree.selfMs[i];
      return total;
    };
    // handle: samples 0, 1, 3 last 1000 + 1000 + 1000 µs; now: sample 2 lasts 2000 µs; the last
    // sample (idle) lasts until endTime (1000 µs).
    assert.equal(ms('handle'), 3);
    assert.equal(ms('now'), 2);
    assert.equal(ms('(idle)'), 1);
    assert.equal(p.durationMs, (6100 + 1000) / 1000);
  });

  it('categorizes VM states, native code, node internals, dependencies and user code', () => {
    const p = readCpuprofile(
      cpuprofile(
        [
          { id: 1, name: '(root)', children: [2, 3, 4, 5, 6] },
          { id: 2, name: '(program)' },
          { id: 3, name: 'normalizeSpawnArguments', url: 'node:child_process', line: 546 },
          { id: 4, name: 'completeMany', url: '/srv/app/node_modules/mongoose/lib/query.js', line: 10 },
          { id: 5, name: 'stringify', url: '' },
          { id: 6, name: 'getTimestamp', url: 'file:///srv/app/models.js', line: 42 },
        ],
        [2, 3, 4, 5, 6],
        [1, 1, 1, 1, 1],
      ),
      'c.cpuprofile',
    );
    const category = Object.fromEntries(p.functions.map((f) => [f.name, f.category]));
    assert.deepEqual(category, {
      '(program)': 'program',
      normalizeSpawnArguments: 'node',
      completeMany: 'dependency',
      stringify: 'native',
      getTimestamp: 'user',
    });
  });

  it('turns positionTicks into per-line samples with a share of the node time', () => {
    const p = readCpuprofile(basic(), 'basic.cpuprofile');
    const lines = p.lineTicks.map((t) => ({ fn: p.functions[p.tree.func[t.node]].name, line: t.line, samples: t.samples, ms: t.ms }));
    lines.sort((a, b) => a.line - b.line);
    assert.deepEqual(lines, [
      { fn: 'handle', line: 21, samples: 2, ms: 2 },
      { fn: 'handle', line: 22, samples: 1, ms: 1 },
    ]);
  });

  it('merges sibling nodes of the same function (one node per parent, function, call line)', () => {
    const p = readCpuprofile(
      cpuprofile(
        [
          { id: 1, name: '(root)', children: [2] },
          { id: 2, name: 'main', url: APP, line: 1, children: [3, 4] },
          { id: 3, name: 'work', url: APP, line: 5 },
          { id: 4, name: 'work', url: APP, line: 5 },
        ],
        [3, 4, 4],
        [1, 1, 1],
      ),
      'm.cpuprofile',
    );
    assert.equal(p.tree.count, 3);
    assert.equal(p.functions.length, 2);
    assert.equal(p.tree.selfSamples[2], 3);
  });

  it('accepts the { profile: {...} } wrapper and falls back to hitCount without samples', () => {
    const wrapped = readCpuprofile({ profile: basic() }, 'w.cpuprofile');
    assert.equal(wrapped.samples, 6);
    const noSamples = basic();
    delete noSamples.samples;
    delete noSamples.timeDeltas;
    (noSamples.nodes as { id: number; hitCount?: number }[]).forEach((n) => (n.hitCount = n.id === 3 ? 4 : 0));
    const p = readCpuprofile(noSamples, 'old.cpuprofile');
    assert.equal(p.samples, 4);
    assert.equal(selfByName(p).get('handle'), 4);
    assert.match(p.warnings.join('\n'), /hitCount/);
  });

  it('clamps negative time deltas to 0 with one warning', () => {
    const p = readCpuprofile(cpuprofile([{ id: 1, name: '(root)', children: [2] }, { id: 2, name: 'f', url: APP, line: 0 }], [2, 2, 2, 2], [10, -500, -20, 1000]), 'neg.cpuprofile');
    assert.equal(p.samples, 4);
    assert.equal(p.warnings.length, 1);
    assert.match(p.warnings[0], /2 negative time delta/);
    for (const ms of p.tree.selfMs) assert.ok(ms >= 0);
  });

  it('skips samples of unknown ids and references to unknown children, with warnings', () => {
    const p = readCpuprofile(cpuprofile([{ id: 1, name: '(root)', children: [2, 99] }, { id: 2, name: 'f', url: APP, line: 0 }], [2, 42, 2], [1, 1, 1]), 'd.cpuprofile');
    assert.equal(p.samples, 2);
    assert.equal(p.warnings.length, 2);
    assert.match(p.warnings.join('\n'), /1 reference\(s\) to unknown node ids/);
    assert.match(p.warnings.join('\n'), /1 sample\(s\) name unknown node ids/);
  });

  it('attaches nodes on a parent cycle to the root instead of looping or losing samples', () => {
    const p = readCpuprofile(
      cpuprofile(
        [
          { id: 1, name: '(root)', children: [] },
          { id: 2, name: 'a', url: APP, line: 1, children: [3] },
          { id: 3, name: 'b', url: APP, line: 2, children: [2] },
        ],
        [2, 3, 3],
        [1, 1, 1],
      ),
      'cycle.cpuprofile',
    );
    assert.equal(p.samples, 3);
    assert.deepEqual(Object.fromEntries(selfByName(p)), { a: 1, b: 2 });
    assert.match(p.warnings.join('\n'), /cycle/);
    for (let i = 1; i < p.tree.count; i++) assert.ok(p.tree.parent[i] < i);
  });

  it('reads a 200,000-deep chain without recursion', () => {
    const depth = 200_000;
    const nodes = [{ id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 }, children: [2] }];
    for (let i = 2; i <= depth + 1; i++) nodes.push({ id: i, callFrame: { functionName: `f${i % 7}`, url: APP, lineNumber: i % 7, columnNumber: 0 }, children: i <= depth ? [i + 1] : [] });
    const p = readCpuprofile({ nodes, startTime: 0, endTime: 10, samples: [depth + 1, 2], timeDeltas: [1, 1] }, 'deep.cpuprofile');
    assert.equal(p.tree.count, depth + 1);
    assert.equal(p.functions.length, 7);
    assert.equal(p.tree.selfSamples[depth], 1);
  });

  it('keeps hostile names as plain text', () => {
    const names = ['<img src=x onerror=alert(1)>', 'x'.repeat(100_000), 'tab\there\u0000nul\u001b[31mred'];
    const p = readCpuprofile(
      cpuprofile(
        [{ id: 1, name: '(root)', children: [2, 3, 4] }, ...names.map((name, i) => ({ id: i + 2, name, url: `/srv/${name.slice(0, 20)}.js`, line: 0 }))],
        [2, 3, 4],
        [1, 1, 1],
      ),
      'h.cpuprofile',
    );
    assert.equal(p.functions.length, names.length);
    p.functions.forEach((f, i) => assert.ok(f.name === names[i], `name ${i} kept verbatim (length ${f.name.length})`));
  });

  it('rejects JSON that is not a CPU profile with one line', () => {
    for (const json of [{}, [], { nodes: [] }, { nodes: 'x' }, null, 42]) {
      assert.throws(
        () => readCpuprofile(json, 'x.json'),
        (e: unknown) => e instanceof ProfileInputError && /^not a CPU profile: x\.json/.test(e.message) && !e.message.includes('\n'),
      );
    }
  });

  it('tolerates some nodes without callFrame or id, refuses a JSON where none has a callFrame', () => {
    assert.throws(() => readCpuprofile({ nodes: [{ id: 1, children: [2] }, { id: 2 }], samples: [2, 2] }, 'bare.json'), /not a CPU profile: bare.json has "nodes" but none with a "callFrame"/);
    const root = { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 };
    const p = readCpuprofile({ nodes: [{ id: 1, callFrame: root, children: [2, 3] }, { id: 2 }, { nope: true }], samples: [2, 2], timeDeltas: [1, 1], startTime: 0, endTime: 5 }, 'bare.cpuprofile');
    assert.equal(p.samples, 2);
    assert.match(p.warnings.join('\n'), /without a unique numeric id/);
    assert.equal(p.functions.some((f) => f.name === '(unknown)'), true);
  });

  it('reads a CPU profile from a DevTools trace (Profile + ProfileChunk events), like the same cpuprofile', () => {
    const frame = (name: string, line: number) => ({ functionName: name, url: name === '(root)' ? '' : APP, lineNumber: line, columnNumber: 4, scriptId: '1' });
    const trace = {
      traceEvents: [
        { name: 'TracingStartedInBrowser', args: { data: {} } },
        { name: 'Profile', id: '0x2', args: { data: { startTime: 1000 } } },
        { name: 'ProfileChunk', id: '0x2', args: { data: { cpuProfile: { nodes: [{ id: 1, callFrame: frame('(root)', -1) }, { id: 2, parent: 1, callFrame: frame('main', 9) }], samples: [2, 2] }, timeDeltas: [100, 1000] } } },
        { name: 'ProfileChunk', id: '0x2', args: { data: { cpuProfile: { nodes: [{ id: 3, parent: 2, callFrame: frame('handle', 19) }], samples: [3] }, timeDeltas: [2000] } } },
        { name: 'Profile', id: '0x9', args: { data: { startTime: 0 } } },
        { name: 'ProfileChunk', id: '0x9', args: { data: { cpuProfile: { nodes: [{ id: 1, callFrame: frame('other', 1) }], samples: [1] }, timeDeltas: [1] } } },
      ],
    };
    const fromTrace = readTraceProfile(trace, 't.json');
    const same = readCpuprofile(
      cpuprofile(
        [
          { id: 1, name: '(root)', children: [2] },
          { id: 2, name: 'main', url: APP, line: 9, children: [3] },
          { id: 3, name: 'handle', url: APP, line: 19 },
        ],
        [2, 2, 3],
        [100, 1000, 2000],
        { startTime: 1000, endTime: 4100 },
      ),
      't.json',
    );
    // Two profiles: the busiest is read, both are listed, and a warning says so (issue 12).
    assert.ok(fromTrace !== undefined);
    const { threads, thread, warnings, ...rest } = fromTrace;
    assert.deepEqual(threads?.map((t) => [t.id, t.samples]), [['profile 0x2', 3], ['profile 0x9', 1]]);
    assert.equal(thread, 'profile 0x2');
    assert.match(warnings[0], /^the trace holds 2 threads with CPU profiles .* choose another with --thread ID$/);
    assert.deepEqual({ ...rest, warnings: warnings.slice(1) }, same);
    assert.equal(readTraceProfile(trace, 't.json', 'profile 0x9')?.samples, 1);
    assert.equal(readTraceProfile({ traceEvents: [{ name: 'X' }] }, 't.json'), undefined);
    assert.equal(readTraceProfile({ nodes: [] }, 't.json'), undefined);
  });
});
