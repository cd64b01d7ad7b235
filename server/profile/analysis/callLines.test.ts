// Call lines on the recorded fixtures: the line that makes a call carries the callee's total,
// found in the source for a .cpuprofile and recorded by a V8 log. The expected time is summed
// here from the raw cpuprofile JSON (sample durations whose stack holds the caller -> callee
// edge), not by the code under test.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { calledName } from './callLines';
import { loadProfile } from '../readers/load';
import { buildReport } from './report';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures');
const PROFILES = join(FIXTURES, 'profiles');
const WORKLOADS = join(FIXTURES, 'workloads');
const SERVICE = join(WORKLOADS, 'service.js');

interface RawNode {
  id: number;
  callFrame: { functionName: string };
  children?: number[];
}

/** Milliseconds of the samples whose stack has `callee` directly under `caller` (DevTools durations). */
function edgeMs(path: string, caller: string, callee: string): number {
  const json = JSON.parse(readFileSync(path, 'utf8')) as { nodes: RawNode[]; samples: number[]; timeDeltas: number[]; endTime: number; startTime: number };
  const byId = new Map(json.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of json.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let ms = 0;
  let at = json.timeDeltas[0];
  for (let i = 0; i < json.samples.length; i++) {
    const us = i + 1 < json.samples.length ? json.timeDeltas[i + 1] : json.endTime - json.startTime - at;
    if (i + 1 < json.samples.length) at += json.timeDeltas[i + 1];
    for (let id: number | undefined = json.samples[i]; id !== undefined; id = parent.get(id)) {
      const p = parent.get(id);
      if (byId.get(id)?.callFrame.functionName === callee && p !== undefined && byId.get(p)?.callFrame.functionName === caller) {
        ms += Math.max(0, us) / 1000;
        break;
      }
    }
  }
  return ms;
}

describe('call lines', () => {
  it('.cpuprofile: the one call to the callee in the caller is found in the source and charged with its total', async () => {
    const path = join(PROFILES, 'service.cpuprofile');
    const { report } = buildReport(await loadProfile(path), { root: WORKLOADS });
    // service.js:38 `out = execSync('true')` in collectStats' loop; :20 handleMessage in onMessages' loop.
    for (const [line, caller, callee] of [
      [38, 'collectStats', 'execSync'],
      [20, 'onMessages', 'handleMessage'],
      [15, 'handleMessage', 'getTimestamp'],
    ] as const) {
      const call = report.callLines.find((c) => c.file === SERVICE && c.line === line);
      assert.ok(call !== undefined, `call line service.js:${line} in ${JSON.stringify(report.callLines.slice(0, 12).map((c) => [c.file, c.line]))}`);
      assert.deepEqual([call.function, call.callee, call.found], [caller, callee, 'fromSource']);
      assert.ok(Math.abs(call.ms - edgeMs(path, caller, callee)) < 1e-6, `${caller} → ${callee}: ${call.ms} ms`);
    }
    // fib calls fib twice on one line (11): one line, the recursion counted once (never above fib's total).
    const fib = report.callLines.find((c) => c.file === SERVICE && c.line === 11);
    const fibTotal = report.functions.find((f) => f.name === 'fib');
    assert.ok(fib !== undefined && fibTotal !== undefined && fib.ms <= fibTotal.totalMs + 1e-9);
    // No call line outside a function that makes the call: every one is a line with a call in the source.
    const source = readFileSync(SERVICE, 'utf8').split('\n');
    for (const call of report.callLines.filter((c) => c.file === SERVICE)) assert.match(source[call.line - 1], /\w\s*\(/, `service.js:${call.line}`);
  });

  it('V8 log: the recorded call line (exactLine), the same lines as the source gives', async () => {
    const { report } = buildReport(await loadProfile(join(PROFILES, 'service.v8.log')), { root: WORKLOADS });
    const call = report.callLines.find((c) => c.file === SERVICE && c.line === 38);
    assert.deepEqual([call?.function, call?.callee, call?.found], ['collectStats', 'execSync', 'exactLine']);
    const lines = report.callLines.filter((c) => c.file === SERVICE && c.function === 'onMessages').map((c) => c.line);
    assert.deepEqual(lines, [20]);
  });

  it('gives each call on a line its own figure, and says when the profile cannot tell the calls apart (issue 23.2)', async () => {
    // A handler calling a() and b() on one line, another calling c() and d() on one line where d
    // was never sampled. Every sample lasts 1 ms, so the expected figures are the sample counts.
    const dir = mkdtempSync(join(tmpdir(), 'hotframe-calls-'));
    try {
      const file = join(dir, 'app.js');
      // Line 1 column 0 is where the module's own function starts: the functions begin below it.
      writeFileSync(file, [
        "'use strict';",
        'function a() { return 1; }',
        'function b() { return 2; }',
        'function c() { return 3; }',
        'function handler() {',
        '  return a() + b();',
        '}',
        'function other() {',
        '  return c() + d();',
        '}',
        'function d() { return 4; }',
        '',
      ].join('\n'));
      const url = pathToFileURL(file).href;
      const frame = (functionName: string, line: number) => ({ functionName, scriptId: '1', url, lineNumber: line - 1, columnNumber: 0 });
      const nodes = [
        { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, children: [2, 5] },
        { id: 2, callFrame: frame('handler', 5), children: [3, 4] },
        { id: 3, callFrame: frame('a', 2) },
        { id: 4, callFrame: frame('b', 3) },
        { id: 5, callFrame: frame('other', 8), children: [6] },
        { id: 6, callFrame: frame('c', 4) },
      ];
      const samples = [...Array<number>(30).fill(3), ...Array<number>(10).fill(4), ...Array<number>(5).fill(2), ...Array<number>(20).fill(6)];
      const profile = join(dir, 'app.cpuprofile');
      writeFileSync(profile, JSON.stringify({ nodes, startTime: 0, endTime: (samples.length + 1) * 1000, samples, timeDeltas: samples.map(() => 1000) }));
      const { report } = buildReport(await loadProfile(profile), { root: dir });
      const callLine = (line: number) => report.callLines.find((c) => c.file === file && c.line === line);
      const both = callLine(6);
      assert.ok(both !== undefined, JSON.stringify(report.callLines));
      // Each call its own figure (a: 30 ms, b: 10 ms), not the line's 40 ms charged to the costlier one.
      assert.deepEqual(both.calls?.map((c) => [c.callee, c.samples, Math.round(c.ms)]), [['a', 30, 30], ['b', 10, 10]]);
      assert.equal(Math.round(both.ms), 40);
      assert.equal(both.untold, undefined);
      // Each call's figure is its function's total: a and b are called from this line only.
      for (const call of both.calls ?? []) assert.equal(Math.round(call.ms), Math.round(report.functions.find((f) => f.name === call.callee)?.totalMs ?? NaN));
      // Two calls written, one callee measured: the figure is the line's calls, said so.
      const one = callLine(9);
      assert.deepEqual([one?.calls?.map((c) => c.callee), Math.round(one?.ms ?? NaN), one?.untold], [['c'], 20, true]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the name a call uses for a frame', () => {
    assert.equal(calledName('Module._load'), '_load');
    assert.equal(calledName('get length'), 'length');
    assert.equal(calledName('execSync'), 'execSync');
    assert.equal(calledName('(garbage collector)'), '');
  });
});
