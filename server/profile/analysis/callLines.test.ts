// Call lines on the recorded fixtures: the line that makes a call carries the callee's total,
// found in the source for a .cpuprofile and recorded by a V8 log. The expected time is summed
// here from the raw cpuprofile JSON (sample durations whose stack holds the caller -> callee
// edge), not by the code under test.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

  it('the name a call uses for a frame', () => {
    assert.equal(calledName('Module._load'), '_load');
    assert.equal(calledName('get length'), 'length');
    assert.equal(calledName('execSync'), 'execSync');
    assert.equal(calledName('(garbage collector)'), '');
  });
});
