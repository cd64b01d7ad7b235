// The Linux perf reader (perf script output and folded stacks) on recordings other people made
// (Brendan Gregg's FlameGraph test inputs, test/fixtures/peers/) and on one recorded here of a
// Node service (test/fixtures/recordPerf.mjs), each checked against an aggregation written below
// from the text itself, never through the reader; then frame names of both V8 generations, and
// malformed input refused in one line.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { loadProfile } from './load';
import { classifyPerfFrame } from './perfFrames';
import { ProfileInputError } from './profileInputError';
import { sniffPerfText } from './readPerfScript';
import type { NormalizedProfile } from '../model/types';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures');
const PEERS = join(FIXTURES, 'peers');

function text(path: string): string {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

interface Expected {
  samples: number;
  /** Leaf symbol (offset and object dropped) -> samples whose leaf it is. */
  leaves: Map<string, number>;
  /** Samples whose leaf frame lives in the kernel: a vmlinux or an object in brackets other than [unknown] and [vdso] (user-mode code the kernel maps). */
  kernel: number;
}

/** perf script text, aggregated independently: samples split at blank lines, the first event type only, leaf = first frame. */
function aggregateScript(source: string): Expected {
  const out: Expected = { samples: 0, leaves: new Map(), kernel: 0 };
  let firstEvent: string | undefined;
  for (const block of source.split(/\n[ \t]*\n/)) {
    const lines = block.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
    if (lines.length === 0) continue;
    const event = /([\w-]+)(:[\w]*)?:\s*$/.exec(lines[0])?.[1];
    firstEvent ??= event;
    if (event !== firstEvent) continue;
    out.samples++;
    const leaf = lines[1];
    if (leaf === undefined) continue;
    const open = leaf.lastIndexOf(' (');
    const object = leaf.slice(open + 2, -1);
    let symbol = leaf.slice(0, open).trim().replace(/^[0-9a-f]+\s+/, '').replace(/\+0x[0-9a-f]+$/, '');
    // As stackcollapse-perf.pl: an unknown symbol is named by its object.
    if (symbol === '[unknown]') symbol = `[${object === '[unknown]' ? 'unknown' : object.split('/').pop()}]`;
    if (object.endsWith('vmlinux') || (object.startsWith('[') && object !== '[unknown]' && object !== '[vdso]')) out.kernel++;
    else out.leaves.set(symbol, (out.leaves.get(symbol) ?? 0) + 1);
  }
  return out;
}

/** Folded text, aggregated independently: the count after the last space, the leaf after the last ';'. */
function aggregateFolded(source: string): Expected {
  const out: Expected = { samples: 0, leaves: new Map(), kernel: 0 };
  for (const line of source.split('\n')) {
    if (line.trim() === '') continue;
    const space = line.lastIndexOf(' ');
    const count = Number(line.slice(space + 1));
    const leaf = line.slice(0, space).split(';').pop() as string;
    out.samples += count;
    if (leaf.endsWith('_[k]')) out.kernel += count;
    else out.leaves.set(leaf.replace(/_\[[ji]\]$/, ''), (out.leaves.get(leaf.replace(/_\[[ji]\]$/, '')) ?? 0) + count);
  }
  return out;
}

/** Self samples per function name and the kernel's self samples, from the normalized profile. */
function selfByName(profile: NormalizedProfile): { names: Map<string, number>; kernel: number } {
  const names = new Map<string, number>();
  let kernel = 0;
  for (let node = 1; node < profile.tree.count; node++) {
    const samples = profile.tree.selfSamples[node];
    if (samples === 0) continue;
    const f = profile.functions[profile.tree.func[node]];
    if (f.category === 'kernel') kernel += samples;
    else names.set(f.name, (names.get(f.name) ?? 0) + samples);
  }
  return { names, kernel };
}

/** The function name of a perf-PID.map JavaScript symbol ("JS:*f /a.js:1:2", "LazyCompile:~f /a.js:1"): kind, tier and script dropped. */
function jsName(symbol: string): string {
  const m = /^(?:JS|LazyCompile|Function|Script|Eval):[~^+*]?(.*?) ?\S+:\d+(?::\d+)?$/.exec(symbol);
  return m === null ? symbol : m[1] === '' ? '(anonymous)' : m[1];
}

function checkAgainst(profile: NormalizedProfile, expected: Expected, sameNames: (name: string) => string = jsName): void {
  assert.equal(profile.samples, expected.samples);
  const got = selfByName(profile);
  assert.equal(got.kernel, expected.kernel, 'kernel samples');
  for (const [symbol, samples] of expected.leaves) {
    const name = sameNames(symbol);
    assert.equal(got.names.get(name), samples, `${symbol} (as ${name})`);
  }
}

describe('perf script and folded stacks (readPerfScript)', () => {
  it('FlameGraph perf-iperf-stacks-pidtid-01 (cpu-clock, pid/tid, kernel stacks, gzipped): every leaf and the kernel share as counted from the text', async () => {
    const path = join(PEERS, 'flamegraph-perf-iperf-stacks-pidtid-01.txt.gz');
    const profile = await loadProfile(path);
    assert.equal(profile.format, 'perf-script');
    const expected = aggregateScript(text(path));
    assert.ok(expected.kernel > 100, `${expected.kernel} kernel samples`);
    checkAgainst(profile, expected);
    // No period in this recording: each sample weighs the median gap of one CPU, said in a note.
    assert.ok(profile.notes?.some((n) => /sampling interval/.test(n)), JSON.stringify(profile.notes));
  });

  it('the same recording folded by stackcollapse-perf.pl --all: the same kernel share, counts summed', async () => {
    const path = join(PEERS, 'flamegraph-perf-iperf-stacks-pidtid-01-collapsed-all.txt.gz');
    const profile = await loadProfile(path);
    assert.equal(profile.format, 'folded');
    const expected = aggregateFolded(text(path));
    checkAgainst(profile, expected);
    const script = await loadProfile(join(PEERS, 'flamegraph-perf-iperf-stacks-pidtid-01.txt.gz'));
    // stackcollapse-perf.pl leaves out one sample of the script and marks [vdso] as kernel (_[k]),
    // where the script reader keeps vdso native (user-mode code): one sample of each.
    assert.equal(profile.samples, script.samples - 1);
    assert.equal(selfByName(profile).kernel, selfByName(script).kernel + 1);
    assert.ok(profile.notes?.some((n) => /1 sample is shown as 1 ms/.test(n)));
  });

  it('FlameGraph perf-cycles-instructions-01 (header comments, two events): the first event only, as stackcollapse-perf.pl', async () => {
    const path = join(PEERS, 'flamegraph-perf-cycles-instructions-01.txt.gz');
    const profile = await loadProfile(path);
    checkAgainst(profile, aggregateScript(text(path)));
    assert.ok(profile.warnings.some((w) => /events other than/.test(w)), JSON.stringify(profile.warnings));
  });

  it('FlameGraph perf-java-faults-01 (page faults): counted as events, not time', async () => {
    const path = join(PEERS, 'flamegraph-perf-java-faults-01.txt');
    const profile = await loadProfile(path);
    checkAgainst(profile, aggregateScript(text(path)));
    assert.ok(profile.notes?.some((n) => /count events, not time/.test(n)), JSON.stringify(profile.notes));
  });

  it('FlameGraph perf-js-stacks-01 (Node 0.11, LazyCompile: names, RegExp symbols with parentheses, no timestamps)', async () => {
    const path = join(PEERS, 'flamegraph-perf-js-stacks-01.txt');
    const profile = await loadProfile(path);
    checkAgainst(profile, aggregateScript(text(path)));
    const js = profile.functions.find((f) => f.name === 'Async$consumeFunctionBuffer');
    assert.deepEqual(js && { url: js.url, line: js.line, category: js.category }, { url: '/apps/node/webapp/node_modules/xxxxx/js/main/async.js', line: 39, category: 'dependency' });
  });

  it('a Node 20 service recorded with perf here (execSync per request): JavaScript frames placed, kernel frames under the handler', async () => {
    const path = join(FIXTURES, 'profiles', 'perf-exec-per-request.txt.gz');
    const profile = await loadProfile(path);
    checkAgainst(profile, aggregateScript(text(path)));
    const handler = profile.functions.findIndex((f) => f.url.endsWith('/server.js') && f.line === 12);
    assert.ok(handler >= 0, 'the request handler, server.js:12, named from perf-PID.map');
    // Kernel samples with the handler on their stack, counted from the tree and from the text.
    let underHandler = 0;
    for (let node = 1; node < profile.tree.count; node++) {
      if (profile.functions[profile.tree.func[node]].category !== 'kernel' || profile.tree.selfSamples[node] === 0) continue;
      for (let p = profile.tree.parent[node]; p > 0; p = profile.tree.parent[p]) {
        if (profile.tree.func[p] === handler) {
          underHandler += profile.tree.selfSamples[node];
          break;
        }
      }
    }
    const fromText = text(path)
      .split(/\n[ \t]*\n/)
      .filter((block) => /server\.js:12:\d+/.test(block) && /\(\[kernel\.kallsyms\]\)$/.test(block.split('\n').filter((l) => l.trim() !== '')[1] ?? '')).length;
    assert.ok(fromText > 0);
    assert.equal(underHandler, fromText);
  });
});

describe('perf frame names (perfFrames)', () => {
  const cases: [symbol: string, dso: string, expected: ReturnType<typeof classifyPerfFrame>][] = [
    // Node 20+ (V8 11): JS:<tier><name> <url>:<line>:<column>
    ['JS:*handler /srv/app/server.js:12:3', '/tmp/perf-1.map', { name: 'handler', url: '/srv/app/server.js', line: 12, column: 3, kind: 'js' }],
    ['JS:^ file:///srv/app/main.mjs:4:21+0x4f', '/tmp/perf-1.map', { name: '(anonymous)', url: 'file:///srv/app/main.mjs', line: 4, column: 21, kind: 'js' }],
    ['JS:~connect node:net:227:17', '/tmp/perf-1.map', { name: 'connect', url: 'node:net', line: 227, column: 17, kind: 'js' }],
    // Node ≤ 18: LazyCompile:<tier><name> <url>:<line>
    ['LazyCompile:*handler /srv/app/server.js:12', '/tmp/perf-1.map', { name: 'handler', url: '/srv/app/server.js', line: 12, column: 0, kind: 'js' }],
    ['Function:~Module._load node:internal/modules/cjs/loader:757', '', { name: 'Module._load', url: 'node:internal/modules/cjs/loader', line: 757, column: 0, kind: 'js' }],
    // V8's generated code and node's C++ are native; the kernel by its object.
    ['Builtin:ArrayPrototypeMap', '/tmp/perf-1.map', { name: 'Builtin:ArrayPrototypeMap', url: '', line: 0, column: 0, kind: 'native' }],
    ['Builtins_JSEntry+0x83', '/usr/bin/node', { name: 'Builtins_JSEntry', url: '', line: 0, column: 0, kind: 'native' }],
    ['tcp_v4_connect+0x47a', '[kernel.kallsyms]', { name: 'tcp_v4_connect', url: '', line: 0, column: 0, kind: 'kernel' }],
    ['[unknown]', '/usr/lib/x86_64-linux-gnu/libc.so.6', { name: '[libc.so.6]', url: '', line: 0, column: 0, kind: 'native' }],
    ['__vdso_clock_gettime', '[vdso]', { name: '__vdso_clock_gettime', url: '', line: 0, column: 0, kind: 'native' }],
  ];
  for (const [symbol, dso, expected] of cases) {
    it(`${symbol} (${dso || 'no object'}) -> ${expected.kind} ${expected.name}`, () => {
      assert.deepEqual(classifyPerfFrame(symbol, dso), expected);
    });
  }
  it('the folded annotation _[k] marks the kernel', () => {
    assert.equal(classifyPerfFrame('tcp_v4_connect', '', 'k').kind, 'kernel');
  });
});

describe('perf input refused in one line', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-perf-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const header = 'node 4242 [001] 100.000001:    1000000 cpu-clock:pppH: \n';
  const frame = '\t    7f00 JS:*handler /srv/app/server.js:12:3+0x10 (/tmp/perf-4242.map)\n';
  const cases: [name: string, content: string, message: RegExp][] = [
    ['a line that is neither header nor frame', `${header}${frame}\nthis is not perf\n`, /line 4: neither a sample header .*; not perf script output$/],
    ['a garbage line inside a sample', `${header}${frame}  not a frame at all\n`, /line 3: not a stack frame/],
    ['a folded line without a count', 'node;main;handler 3\nnode;main;handler\n', /line 2: not "frame;frame;… count"; not folded stacks$/],
    ['a stack deeper than the bound', `${header}${frame.repeat(4097)}\n`, /a stack deeper than 4096 frames/],
    ['headers without a single sample of the first event', '# ========\n# captured on: now\n', /neither JSON, a V8 log, perf script output/],
  ];
  for (const [name, content, message] of cases) {
    it(name, async () => {
      const path = join(dir, `${name.replace(/\W+/g, '-')}.txt`);
      writeFileSync(path, content);
      await assert.rejects(loadProfile(path), (error: Error) => {
        assert.ok(error instanceof ProfileInputError, String(error));
        assert.doesNotMatch(error.message, /\n/);
        assert.match(error.message, message);
        return true;
      });
    });
  }

  it('is recognised from its first lines, and nothing else is', () => {
    assert.equal(sniffPerfText(`# ========\n# cmdline : perf record -g\n#\n${header}${frame}`), 'perf-script');
    assert.equal(sniffPerfText('java 19983 cycles:\n\t  7f00 foo (/x)\n'), 'perf-script');
    assert.equal(sniffPerfText('node;main;handler 3\nnode;main 1\n'), 'folded');
    assert.equal(sniffPerfText('hello world 3\n'), null);
    assert.equal(sniffPerfText('{"nodes": []}\n'), null);
  });
});
