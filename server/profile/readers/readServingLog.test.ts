import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { parseServingLog, readServingLog, readServingLogs, servingLogPath } from './readServingLog';
import { MAX_CPU_READINGS, MAX_REQUESTS } from '../../shared/servingRecorder';
import { tempFolders } from '../../../test/unit/tempFolders';

const head = { format: 'hotframe-serving', version: 1, clock: 'hrtime-us', profileStartUs: 1_000_000 };

describe('readServingLog', () => {
  const temp = tempFolders();
  after(() => temp.removeAll());

  it('places requests and loop holds in ms since the profile start (a version 1 gap held from when its tick was due)', () => {
    const log = parseServingLog(JSON.stringify({ ...head, observer: 'diagnostics_channel', requests: [['get', '/a', 1_002_000, 1_004_500], ['POST', '/b', 1_010_000, null]], requestsSeen: 5, loop: { tickMs: 5, minGapMs: 15, gaps: [[1_100_000, 1_400_000]], gapsSeen: 1 } }));
    assert.ok(!('error' in log));
    assert.deepEqual(log.requests, [{ method: 'GET', path: '/a', startMs: 2, endMs: 4.5 }, { method: 'POST', path: '/b', startMs: 10, endMs: null }]);
    assert.equal(log.requestsSeen, 5);
    assert.deepEqual(log.loop, { tickMs: 5, minGapMs: 15, gaps: [{ fromMs: 105, toMs: 400 }], gapsSeen: 1 });
  });

  it('takes a version 2 hold as it is written: the span the loop was held', () => {
    const log = parseServingLog(JSON.stringify({ ...head, version: 2, observer: 'diagnostics_channel', requests: [], requestsSeen: 0, loop: { tickMs: 10, minGapMs: 20, gaps: [[1_100_000, 1_400_000], [1_500_000, 1_502_000]], gapsSeen: 2 } }));
    assert.ok(!('error' in log));
    assert.deepEqual(log.loop, { tickMs: 10, minGapMs: 20, gaps: [{ fromMs: 100, toMs: 400 }, { fromMs: 500, toMs: 502 }], gapsSeen: 2 });
    assert.deepEqual(parseServingLog(JSON.stringify({ ...head, version: 3 })), { error: 'not a hotframe-serving file of version 1 or 2' });
  });

  it('skips malformed records, bounds what the file becomes, and refuses what is not its format', () => {
    const requests: unknown[] = [[1, '/a', 1, 2], ['GET', '/a', 'x', 2], ['GET', '/a', 1, 'y'], 'no', ['GET', 'x'.repeat(5000), 1_000_000, null]];
    const log = parseServingLog(JSON.stringify({ ...head, requests, requestsSeen: -4, loop: { gaps: [[5, 1], 'x', [1, 2]] } }));
    assert.ok(!('error' in log));
    assert.equal(log.requests.length, 1);
    assert.ok(log.requests[0]!.path.length <= 512);
    assert.equal(log.skipped, 6);
    assert.equal(log.requestsSeen, 1);
    assert.equal(log.loop.gaps.length, 1);
    const many = parseServingLog(JSON.stringify({ ...head, requests: Array.from({ length: MAX_REQUESTS + 10 }, () => ['GET', '/', 1, null]) }));
    assert.ok(!('error' in many) && many.requests.length === MAX_REQUESTS);
    assert.deepEqual(parseServingLog('{"format":"other"}'), { error: 'not a hotframe-serving file of version 1 or 2' });
    assert.deepEqual(parseServingLog('nope'), { error: 'not JSON' });
    assert.deepEqual(parseServingLog(JSON.stringify({ ...head, profileStartUs: 'x' })), { error: 'no profileStartUs' });
  });

  it("places the thread's CPU clock in ms; a reading going back, or not two numbers, is skipped; the count is bounded", () => {
    const readings = [[1_000_000, 50_000], [1_005_000, 53_000], [1_004_000, 54_000], [1_010_000, 52_000], ['x', 1], [1_020_000], [1_030_000, 60_500]];
    const log = parseServingLog(JSON.stringify({ ...head, threadCpu: { unit: 'us', readings, readingsSeen: 7 } }));
    assert.ok(!('error' in log));
    assert.deepEqual(log.threadCpu, { atMs: [0, 5, 30], cpuMs: [50, 53, 60.5] });
    assert.equal(log.skipped, 4);
    const otherUnit = parseServingLog(JSON.stringify({ ...head, threadCpu: { unit: 'ns', readings } }));
    assert.ok(!('error' in otherUnit) && otherUnit.threadCpu === undefined, 'another unit is not read');
    const many = parseServingLog(JSON.stringify({ ...head, threadCpu: { unit: 'us', readings: Array.from({ length: MAX_CPU_READINGS + 5 }, (_, i) => [1_000_000 + i, i]) } }));
    assert.ok(!('error' in many) && many.threadCpu?.atMs.length === MAX_CPU_READINGS);
  });

  it('finds the notes beside a profile; none is null, a folder in their place is an error', () => {
    const dir = temp.make('hotframe-serving-');
    const profile = join(dir, 'a.cpuprofile');
    assert.equal(readServingLog(profile), null);
    writeFileSync(servingLogPath(profile), JSON.stringify({ ...head, requests: [] }));
    assert.deepEqual((readServingLog(profile) as { requests: unknown[] }).requests, []);
    const other = join(dir, 'b.cpuprofile');
    mkdirSync(servingLogPath(other));
    assert.ok('error' in (readServingLog(other) as object));
  });

  it("reads a merged capture's notes as one: every part's requests, no loop gaps (each on its own clock)", () => {
    const dir = temp.make('hotframe-serving-merged-');
    const part = (name: string, requests: unknown[], requestsSeen: number): string => {
      const file = join(dir, name);
      writeFileSync(servingLogPath(file), JSON.stringify({ ...head, observer: 'diagnostics_channel', requests, requestsSeen, loop: { tickMs: 5, minGapMs: 15, gaps: [[1_100_000, 1_400_000]], gapsSeen: 1 } }));
      return file;
    };
    const a = part('CPU.20260101.000000.11.0.001.cpuprofile', [['GET', '/a', 1_001_000, null]], 1);
    const b = part('CPU.20260101.000000.12.0.001.cpuprofile', [['GET', '/b', 1_001_000, null], ['GET', '/a', 1_002_000, null]], 7);
    const thread = join(dir, 'CPU.20260101.000000.12.1.001.cpuprofile'); // a worker thread: no notes
    const log = readServingLogs([a, b, thread]);
    assert.ok(log !== null && !('error' in log));
    assert.deepEqual(log.requests.map((r) => r.path), ['/a', '/b', '/a']);
    assert.equal(log.requestsSeen, 8);
    assert.deepEqual(log.loop.gaps, []);
    assert.equal(readServingLogs([thread]), null);
    writeFileSync(servingLogPath(thread), '{');
    const broken = readServingLogs([a, thread]);
    assert.ok(broken !== null && 'error' in broken && broken.error.startsWith('CPU.20260101.000000.12.1.001.cpuprofile.serving.json: '), JSON.stringify(broken));
  });
});
