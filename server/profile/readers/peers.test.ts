// Profiles other tools recorded (test/fixtures/peers, see its README for origin and licence),
// each checked against an aggregation written here, independently of the readers.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { loadProfile } from './load';
import type { NormalizedProfile } from '../model/types';

const PEERS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'peers');

/** Self samples per function name, from the normalized tree. */
function selfByName(p: NormalizedProfile): Map<string, number> {
  const out = new Map<string, number>();
  for (let n = 1; n < p.tree.count; n++) {
    if (p.tree.selfSamples[n] === 0) continue;
    const name = p.functions[p.tree.func[n]]?.name ?? '(root)';
    out.set(name, (out.get(name) ?? 0) + p.tree.selfSamples[n]);
  }
  return out;
}

/** Samples per function name of a `nodes` profile, counted from its samples array. */
function countNodesProfile(cpu: { nodes: { id: number; callFrame: { functionName: string; url: string } }[]; samples: number[] }): Map<string, number> {
  const nameOf = new Map(cpu.nodes.map((n) => [n.id, displayName(n.callFrame.functionName, n.callFrame.url)]));
  const out = new Map<string, number>();
  for (const id of cpu.samples) out.set(nameOf.get(id) as string, (out.get(nameOf.get(id) as string) ?? 0) + 1);
  return out;
}

/** Hotframe's names for nameless frames: '(anonymous)' with a url, '(unknown)' without. */
const displayName = (name: string, url: string): string => name || (url ? '(anonymous)' : '(unknown)');

const sorted = (m: Map<string, number>): [string, number][] => [...m].filter(([, v]) => v > 0).sort(([a], [b]) => a.localeCompare(b));

describe('profiles recorded by other tools', () => {
  it('a Node 8.5 --prof log keeps all 93 ticks (a tos above 2^53 is not "malformed"), GC ticks as logged', async () => {
    const text = gunzipSync(readFileSync(join(PEERS, 'speedscope-node-8.5.0-isolate-v8.log.gz'))).toString('latin1');
    const ticks = text.split('\n').filter((l) => l.startsWith('tick,'));
    // vm_state is the 6th field; 1 = GC.
    const gcTicks = ticks.filter((l) => l.split(',')[5] === '1').length;
    const p = await loadProfile(join(PEERS, 'speedscope-node-8.5.0-isolate-v8.log.gz'), { nativeSymbols: false });
    assert.equal(ticks.length, 93);
    assert.equal(p.samples, ticks.length);
    assert.deepEqual(p.warnings.filter((w) => w.includes('malformed')), []);
    assert.equal(selfByName(p).get('(garbage collector)') ?? 0, gcTicks);
    let self = 0;
    for (let n = 0; n < p.tree.count; n++) self += p.tree.selfSamples[n];
    assert.equal(self, 93);
  });

  it('the legacy head-tree .cpuprofile (Node 10, v8-profiler) reads like the same program in the nodes shape', async () => {
    const legacy = JSON.parse(readFileSync(join(PEERS, 'speedscope-node-10.11.0-example.cpuprofile'), 'utf8'));
    // Independent: walk the head tree, name each node, count the samples array.
    const nameOf = new Map<number, string>();
    const stack = [legacy.head];
    while (stack.length > 0) {
      const node = stack.pop();
      nameOf.set(node.id, displayName(node.functionName, node.url));
      stack.push(...node.children);
    }
    const expected = new Map<string, number>();
    for (const id of legacy.samples as number[]) expected.set(nameOf.get(id) as string, (expected.get(nameOf.get(id) as string) ?? 0) + 1);
    const p = await loadProfile(join(PEERS, 'speedscope-node-10.11.0-example.cpuprofile'));
    assert.equal(p.format, 'cpuprofile');
    assert.equal(p.samples, legacy.samples.length);
    assert.deepEqual(sorted(selfByName(p)), sorted(expected));
    // Time from the timestamps (µs): first to last.
    const stamps = legacy.timestamps as number[];
    assert.ok(Math.abs(p.durationMs - (stamps[stamps.length - 1] - stamps[0]) / 1000) < 1e-6);
    // The same program recorded by Chrome 65 in the nodes shape: the same functions carry the time.
    const modern = await loadProfile(join(PEERS, 'speedscope-chrome-65-simple.cpuprofile'));
    const modernJson = JSON.parse(readFileSync(join(PEERS, 'speedscope-chrome-65-simple.cpuprofile'), 'utf8'));
    assert.deepEqual(sorted(selfByName(modern)), sorted(countNodesProfile(modernJson)));
    assert.deepEqual([...selfByName(p).keys()].filter((k) => k !== '(root)').sort(), [...selfByName(modern).keys()].filter((k) => k !== '(root)').sort());
  });

  it('a 2018 DevTools trace with one CpuProfile event per thread: every thread listed, each readable', async () => {
    const path = join(PEERS, 'speedscope-chrome-66-worker.cpuprofile-events.json.gz');
    const events = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as { name: string; pid: number; tid: number; args: { name?: string; data?: { cpuProfile: never } } }[];
    const profiles = events.filter((e) => e.name === 'CpuProfile');
    assert.equal(profiles.length, 2);
    const busiest = await loadProfile(path);
    assert.equal(busiest.threads?.length, 2);
    assert.ok(busiest.warnings.some((w) => w.includes('2 threads') && w.includes('--thread')));
    for (const event of profiles) {
      const name = events.find((e) => e.name === 'thread_name' && e.tid === event.tid)?.args.name;
      const p = await loadProfile(path, { thread: `${event.pid}:${event.tid}` });
      assert.equal(p.thread, `${event.pid}:${event.tid}`);
      assert.equal(p.threads?.find((t) => t.id === p.thread)?.name, name);
      const cpu = event.args.data?.cpuProfile as unknown as Parameters<typeof countNodesProfile>[0];
      const expected = countNodesProfile(cpu);
      // The trace names the root '(root)'; the tree keeps it as node 0, without a function.
      expected.delete('(root)');
      assert.equal(p.samples, cpu.samples.length);
      assert.deepEqual(sorted(selfByName(p)).filter(([k]) => k !== '(root)'), sorted(expected));
    }
    // The busiest is the main thread (more samples), and a thread can be named by its name.
    assert.equal(busiest.samples, Math.max(...profiles.map((e) => (e.args.data?.cpuProfile as unknown as { samples: number[] }).samples.length)));
    const worker = await loadProfile(path, { thread: 'DedicatedWorker thread' });
    assert.equal(worker.threads?.find((t) => t.id === worker.thread)?.name, 'DedicatedWorker thread');
    await assert.rejects(loadProfile(path, { thread: 'nope' }), /no thread "nope" with a CPU profile; threads: /);
  });

  describe('constructed at test time', () => {
    let dir = '';
    before(() => (dir = mkdtempSync(join(tmpdir(), 'hotframe-peers-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('refuses a JSON whose nodes have no callFrame, in one line', async () => {
      const path = join(dir, 'not-a-profile.json');
      writeFileSync(path, JSON.stringify({ nodes: [{ id: 1, children: [2] }, { id: 2 }], samples: [1, 2] }));
      await assert.rejects(loadProfile(path), (e: Error) => /^not a CPU profile: .* none with a "callFrame"$/.test(e.message) && !e.message.includes('\n'));
    });

    it('keeps ticks whose addresses exceed 2^53, exactly: a kernel library mapped that high names them', async () => {
      // A kernel mapping above 2^53 and one just below it whose addresses a double would round together.
      const log = [
        'v8-version,11,3,244,8,0,0',
        'shared-library,/usr/bin/node,0x400000,0x800000,0',
        'shared-library,[kernel],0xffffffff81000000,0xffffffff81000100,0',
        'code-creation,Builtin,2,100,0x500000,100,DateNow',
        'tick,0xffffffff81000010,1000,0,0x0,0',
        'tick,0xffffffff810000ff,2000,0,0x0,0',
        // The mapping's end, which a double cannot tell from the addresses inside it.
        'tick,0xffffffff81000100,3000,0,0x0,0',
        'tick,0x500010,4000,0,0xfff0000000000001,0,0xffffffff81000020',
      ].join('\n');
      const path = join(dir, 'wide.v8.log');
      writeFileSync(path, log + '\n');
      const p = await loadProfile(path, { nativeSymbols: false });
      assert.equal(p.samples, 4);
      const self = selfByName(p);
      // 0xffffffff81000100 is the mapping's end (exclusive): unknown, not the kernel.
      assert.deepEqual(sorted(self), sorted(new Map([['(unknown)', 1], ['DateNow', 1], ['[kernel]', 2]])));
      assert.deepEqual(p.warnings.filter((w) => w.includes('malformed')), []);
    });
  });
});
