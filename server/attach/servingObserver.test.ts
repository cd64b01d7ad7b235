import { strict as assert } from 'node:assert';
import diagnosticsChannel from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { runInThisContext } from 'node:vm';

import { parseServingLog } from '../profile/readers/readServingLog';
import { notesForProfile, observerStartExpression, observerStopExpression } from './servingObserver';

const START = 'http.server.request.start';
const FINISH = 'http.server.response.finish';

/** Notes as the monitor writes them: requests [method, path, startUs, endUs], gaps [fromUs, toUs]. */
const notes = (requests: unknown[], requestsSeen: number, gaps: unknown[] = [], gapsSeen = gaps.length) => ({
  format: 'hotframe-serving',
  version: 2,
  clock: 'hrtime-us',
  profileStartUs: null,
  endUs: 10_000,
  observer: 'diagnostics_channel',
  requests,
  requestsSeen,
  loop: { tickMs: 10, minGapMs: 20, gaps, gapsSeen },
});

describe('attach: the request observer', () => {
  it("keeps the requests that started within the profile's window, placed by its startTime", () => {
    const raw = notes([['GET', '/a', 900, 950], ['GET', '/b', 1000, 1100], ['POST', '/c', 5000, null], ['GET', '/d', 9001, 9002]], 4, [[500, 700], [800, 1200], [9500, 9800]]);
    const cut = notesForProfile(raw, { startTime: 1000, endTime: 9000 });
    assert.ok(cut !== null);
    const log = parseServingLog(JSON.stringify(cut));
    assert.ok(!('error' in log));
    assert.deepEqual(log.requests, [
      { method: 'GET', path: '/b', startMs: 0, endMs: 0.1 },
      { method: 'POST', path: '/c', startMs: 4, endMs: null },
    ]);
    assert.equal(log.requestsSeen, 2);
    // A gap that overlaps the window is kept (it held the loop while the profile ran); one wholly outside is not.
    assert.deepEqual(log.loop.gaps, [{ fromMs: -0.2, toMs: 0.2 }]);
    assert.equal(log.loop.gapsSeen, 1);
  });

  it('counts requests past the kept ones as seen only when the kept ones reach into the window', () => {
    // The kept ones are the earliest: past the count, the rest came after the last kept one.
    const inside = notesForProfile(notes([['GET', '/a', 1500, 1600]], 10), { startTime: 1000, endTime: 9000 });
    assert.equal(inside?.requestsSeen, 10);
    const after = notesForProfile(notes([['GET', '/a', 500, 600]], 10), { startTime: 100, endTime: 400 });
    assert.equal(after?.requestsSeen, 0);
  });

  it('gives nothing for a profile without a window, and skips malformed records', () => {
    assert.equal(notesForProfile(notes([], 0), { startTime: 'x', endTime: 3 }), null);
    assert.equal(notesForProfile(notes([], 0), null), null);
    const cut = notesForProfile(notes([null, ['GET'], ['GET', '/a', 'late', 1], ['GET', '/ok', 2000, 2001]], 4, [null, [1, 'x']]), { startTime: 1000, endTime: 3000 });
    assert.deepEqual(cut?.requests, [['GET', '/ok', 2000, 2001]]);
    assert.deepEqual((cut?.loop as { gaps: unknown[] }).gaps, []);
  });

  it('started and stopped in a process, subscribes to the HTTP channels only between, and leaves no global', () => {
    // The same expressions `hotframe attach` evaluates in the target (`require` is the inspector's command-line API there).
    const evaluate = (source: string): unknown => (runInThisContext(`(require) => ${source}`) as (r: NodeRequire) => unknown)(createRequire(__filename));
    const subscribed = (): boolean[] => [diagnosticsChannel.channel(START).hasSubscribers, diagnosticsChannel.channel(FINISH).hasSubscribers];
    assert.deepEqual(subscribed(), [false, false]);
    assert.equal(evaluate(observerStartExpression(1000)), 'started');
    try {
      assert.deepEqual(subscribed(), [true, true]);
      assert.equal(evaluate(observerStartExpression(1000)), 'busy', 'one monitor at a time');
      const request = { method: 'GET', url: '/v1/tasks?token=secret' };
      diagnosticsChannel.channel(START).publish({ request });
      diagnosticsChannel.channel(FINISH).publish({ request });
      // Some CPU on this thread between the monitor's first and last reading of its clock.
      for (const until = Date.now() + 20; Date.now() < until; );
    } finally {
      const answer = JSON.parse(evaluate(observerStopExpression()) as string) as { requests: unknown[][]; requestsSeen: number; threadCpu?: { unit: string; readings: number[][] } };
      assert.equal(answer.requestsSeen, 1);
      assert.deepEqual(answer.requests[0]!.slice(0, 2), ['GET', '/v1/tasks']);
      assert.equal(typeof answer.requests[0]![3], 'number', 'its finish is noted');
      if (process.platform === 'linux') {
        // The main thread's CPU clock, read when it started and when it stopped (µs): it went on by the busy loop's CPU.
        const readings = answer.threadCpu?.readings ?? [];
        assert.equal(answer.threadCpu?.unit, 'us');
        assert.ok(readings.length >= 2, JSON.stringify(answer.threadCpu));
        const [first, last] = [readings[0]!, readings.at(-1)!];
        assert.ok(last[0]! - first[0]! >= 20_000 && last[1]! - first[1]! >= 10_000, JSON.stringify([first, last]));
      }
    }
    assert.deepEqual(subscribed(), [false, false]);
    assert.equal(evaluate(observerStopExpression()), 'null', 'stopped once');
    assert.equal(Object.getOwnPropertySymbols(globalThis).some((s) => s.description?.startsWith('hotframe.attach')), false);
  });
});
