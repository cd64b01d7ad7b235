// The event-loop monitor itself (SERVING_MONITOR), run in this process: where it places a hold.
import { strict as assert } from 'node:assert';
import diagnosticsChannel from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

import { CPU_READING_TICKS, LOOP_TICK_MS, MAX_REQUESTS, SERVING_MONITOR, SERVING_VERSION } from './servingRecorder';

interface Monitor {
  stop(): void;
  notes(profileStartUs: number): {
    version: number;
    requests: [string, string, number, number | null][];
    requestsSeen: number;
    loop: { tickMs: number; gaps: [number, number][] };
    threadCpu?: { readings: [number, number][]; readingsSeen: number };
  };
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

  it('reads the thread\'s CPU clock every few ticks, not every tick (a read on a tick that woke the loop costs tens of µs), and once more when it stops', async function () {
    if (process.platform !== 'linux') this.skip(); // the clock is /proc/thread-self/schedstat
    const monitor = servingMonitor();
    const ticks = 6 * CPU_READING_TICKS;
    await pause(ticks * LOOP_TICK_MS);
    monitor.stop();
    const readings = monitor.notes(0).threadCpu?.readings ?? [];
    // One at the start, one every CPU_READING_TICKS ticks (fewer when the timer ran late), one at the stop.
    assert.ok(readings.length >= 3 && readings.length <= ticks / CPU_READING_TICKS + 2, `${readings.length} readings over ${ticks} ticks`);
    for (let k = 1; k < readings.length - 1; k++) {
      const apart = readings[k][0] - readings[k - 1][0];
      assert.ok(apart >= (CPU_READING_TICKS - 0.5) * LOOP_TICK_MS * 1000, `readings ${k - 1} and ${k} ${apart} µs apart`);
    }
    for (let k = 1; k < readings.length; k++) assert.ok(readings[k][1] >= readings[k - 1][1], 'the thread\'s CPU time never goes back');
  });

  it('keeps each request\'s method, path and times, past the first storage it grows out of, and counts past its bound', () => {
    // The channels Node's http server publishes on, with request objects as it passes them.
    const start = diagnosticsChannel.channel('http.server.request.start');
    const finish = diagnosticsChannel.channel('http.server.response.finish');
    const monitor = servingMonitor();
    const requests = Array.from({ length: 3000 }, (_, i) => ({ method: i % 2 === 0 ? 'GET' : 'POST', url: `/v1/tasks/${i}?token=secret${i}` }));
    const before = nowUs();
    for (const request of requests) start.publish({ request });
    // All but the last finish, in reverse order (a request's finish finds its own record).
    for (const request of requests.slice(0, -1).reverse()) finish.publish({ request });
    finish.publish({ request: { method: 'GET', url: '/never-started' } });
    const after = nowUs();
    monitor.stop();
    const notes = monitor.notes(0);
    assert.equal(notes.requestsSeen, 3000);
    assert.equal(notes.requests.length, 3000);
    notes.requests.forEach(([method, path, startUs, endUs], i) => {
      assert.equal(method, i % 2 === 0 ? 'GET' : 'POST');
      assert.equal(path, `/v1/tasks/${i}`, 'the query string is never kept');
      assert.ok(startUs >= before && startUs <= after, `request ${i} started at ${startUs}`);
      if (i === 2999) assert.equal(endUs, null, 'a request still open has no end');
      else assert.ok(endUs !== null && endUs >= startUs && endUs <= after, `request ${i}: ${startUs} to ${endUs}`);
    });

    const bounded = servingMonitor();
    for (let i = 0; i < MAX_REQUESTS + 5; i++) start.publish({ request: { method: 'GET', url: '/' } });
    bounded.stop();
    const kept = bounded.notes(0);
    assert.equal(kept.requests.length, MAX_REQUESTS);
    assert.equal(kept.requestsSeen, MAX_REQUESTS + 5);
  });
});
