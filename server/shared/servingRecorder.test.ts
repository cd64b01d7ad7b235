// The event-loop monitor itself (SERVING_MONITOR), run in this process: where it places a hold.
import { strict as assert } from 'node:assert';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

import { LOOP_TICK_MS, SERVING_MONITOR, SERVING_VERSION } from './servingRecorder';

interface Monitor {
  stop(): void;
  notes(profileStartUs: number): { version: number; loop: { tickMs: number; gaps: [number, number][] } };
}

const servingMonitor = new Function('require', `${SERVING_MONITOR}\nreturn servingMonitor;`)(createRequire(__filename)) as () => Monitor;
const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);
const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

describe('servingMonitor', () => {
  it('keeps a hold as the span the loop was held, from when it left its poll, not from the tick before', async () => {
    // Warm: the monitor's code compiled once, and the loop left idle until what loading the tests
    // queued on it (V8's tasks) is done, so the wait below is spent in the poll.
    servingMonitor().stop();
    await pause(100);
    const monitor = servingMonitor();
    const started = nowUs();
    const idleBefore = performance.eventLoopUtilization().idle;
    // Idle in the poll for most of a tick, then hold the loop: the tick before is that far back.
    await pause(Math.round(LOOP_TICK_MS * 0.7));
    const heldFrom = nowUs();
    // What of the wait the loop spent outside its poll (by its own idle clock): the hold may be read as starting that much earlier.
    const busyBefore = heldFrom - started - (performance.eventLoopUtilization().idle - idleBefore) * 1000;
    while (nowUs() - heldFrom < 80_000) {
      // holding the loop, as a stall does
    }
    const heldTo = nowUs();
    await pause(3 * LOOP_TICK_MS);
    monitor.stop();
    const notes = monitor.notes(started);
    assert.equal(notes.version, SERVING_VERSION);
    const gap = notes.loop.gaps.find(([from, to]) => from < heldTo && to > heldFrom);
    assert.ok(gap !== undefined, JSON.stringify(notes.loop));
    assert.ok(busyBefore < (heldFrom - started) / 2, `the loop was busy ${busyBefore} µs of the ${heldFrom - started} µs wait: nothing to tell`);
    // It begins where the hold did, not at the tick before (the monitor's start, the wait earlier).
    assert.ok(gap[0] >= heldFrom - busyBefore - 1_000 && gap[0] <= heldFrom + 1_000, `hold from ${heldFrom}, seen from ${gap[0]} (the monitor started at ${started}, ${busyBefore} µs busy before)`);
    const lasted = gap[1] - gap[0];
    assert.ok(Math.abs(lasted - (heldTo - heldFrom)) <= 0.1 * (heldTo - heldFrom), `held ${heldTo - heldFrom} µs, seen ${lasted} µs`);
  });
});
