import { strict as assert } from 'node:assert';

import { withLoopMonitor } from './loopMonitor';
import type { Stall, StallReport } from '../../protocol/wire';

const stall = (startMs: number, durationMs: number, startup = false): Stall => ({ startMs, durationMs, samples: durationMs, at: null, atMs: 0, ...(startup ? { startup } : {}) });
const report = (...stalls: Stall[]): StallReport => ({ thresholdMs: 50, count: stalls.length, startupCount: 0, totalMs: 0, unnamedCount: 0, stalls, lines: [] });

describe('withLoopMonitor', () => {
  it('joins a stall and the span held over it into one stall that carries it (its delay: how long the loop was held); a span alone over the threshold is listed apart', () => {
    const out = withLoopMonitor(report(stall(100, 200), stall(1000, 80)), {
      tickMs: 5,
      gapsSeen: 4,
      gaps: [
        { fromMs: 2005, toMs: 2300 }, // alone: no JavaScript sampled
        { fromMs: 103, toMs: 303 }, // over the first stall
        { fromMs: 505, toMs: 530 }, // alone, under the threshold
        { fromMs: 3005, toMs: 3054 }, // alone, a delay of 49 ms: under it
      ],
    });
    assert.deepEqual(out.stalls[0]!.loop, { fromMs: 103, toMs: 303, delayMs: 200 });
    assert.equal(out.stalls[1]!.loop, undefined);
    assert.deepEqual(out.monitor, { tickMs: 5, gapsSeen: 4, confirmed: 1, unconfirmed: 1, monitorOnly: [{ fromMs: 2005, toMs: 2300, delayMs: 295 }] });
  });

  it('a stall over several gaps keeps the longest; a gap over several stalls confirms each; start-up stalls are not counted', () => {
    const out = withLoopMonitor(report(stall(0, 100, true), stall(200, 300), stall(520, 60)), {
      tickMs: 5,
      gapsSeen: 2,
      gaps: [{ fromMs: 200, toMs: 300 }, { fromMs: 310, toMs: 600 }],
    });
    assert.equal(out.stalls[0]!.loop, undefined);
    assert.deepEqual(out.stalls[1]!.loop, { fromMs: 310, toMs: 600, delayMs: 290 });
    assert.deepEqual(out.stalls[2]!.loop, { fromMs: 310, toMs: 600, delayMs: 290 });
    assert.deepEqual({ ...out.monitor, monitorOnly: out.monitor!.monitorOnly.length }, { tickMs: 5, gapsSeen: 2, confirmed: 2, unconfirmed: 0, monitorOnly: 0 });
  });
});
