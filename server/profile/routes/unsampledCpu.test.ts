import { strict as assert } from 'node:assert';
import type { RequestWindow } from './requestWindows';
import { chargeUnsampledCpu, type ThreadClock } from './unsampledCpu';

/** Samples 1 ms apart from 0 ms, the idle ones marked, none with a route's frame unless `rows` says; three rows, the last middleware. */
function samples(count: number, idle: number[] = [], rows: Record<number, number> = {}) {
  const flags = new Uint8Array(count);
  for (const i of idle) flags[i] = 1;
  const row = new Int32Array(count).fill(-1);
  for (const [i, r] of Object.entries(rows)) row[Number(i)] = r;
  return { atMs: Float64Array.from({ length: count }, (_, i) => i), endMs: count, idle: flags, row, middleware: (r: number) => r === 2, rowCount: 3 };
}

const window = (startMs: number, endMs: number | null): RequestWindow => ({ startMs, endMs, candidates: [] });
const clock = (...readings: [number, number][]): ThreadClock => ({ atMs: readings.map((r) => r[0]), cpuMs: readings.map((r) => r[1]) });

describe('the thread CPU no sample shows, charged by the requests\' windows (pure)', () => {
  it("charges a span's CPU beyond its non-idle samples to the one route whose requests were open in it", () => {
    // 0..9 ms: samples 2, 3 and 4 idle; the thread ran 9 ms of the 10 by its clock, 7 of them sampled.
    const charge = chargeUnsampledCpu(clock([0, 0], [10, 9]), samples(10, [2, 3, 4]), [window(1, 8)], Int32Array.from([1]));
    assert.deepEqual([...charge.perRow], [0, 2, 0]);
    assert.equal(charge.unsampledMs, 2);
    assert.equal(charge.threadMs, 9);
  });

  it("takes the part of a sample inside each span only, and sums a route's spans with their signs", () => {
    // Spans [0, 2.5) and [2.5, 5): sample 2 (2-3 ms) is half in each; all samples busy.
    // The first span's clock says 3.5 ms (1 more than its 2.5 sampled), the second 2 ms (0.5 less:
    // a sampling interval cut at the span's end, or a wait weighed into a sample).
    const charge = chargeUnsampledCpu(clock([0, 0], [2.5, 3.5], [5, 5.5]), samples(5), [window(0, 5)], Int32Array.from([0]));
    assert.deepEqual([...charge.perRow], [0.5, 0, 0]);
    assert.equal(charge.unsampledMs, 0.5);
  });

  it('adds nothing to a route whose samples held more than its CPU', () => {
    // 5 busy samples, 3 ms by the clock: a thread that waited for a core inside its samples.
    const charge = chargeUnsampledCpu(clock([0, 0], [2.5, 2], [5, 3]), samples(5), [window(0, 5)], Int32Array.from([0]));
    assert.deepEqual([...charge.perRow], [0, 0, 0]);
    assert.equal(charge.unsampledMs, 0);
    assert.equal(charge.threadMs, 3);
  });

  it('charges nothing where requests of two routes, of no known route, or none were open; it still counts it', () => {
    const twoRoutes = chargeUnsampledCpu(clock([0, 0], [4, 4]), samples(4, [0, 1]), [window(0, 3), window(2, 4)], Int32Array.from([0, 1]));
    assert.deepEqual([...twoRoutes.perRow], [0, 0, 0]);
    assert.equal(twoRoutes.unsampledMs, 2);
    const unknown = chargeUnsampledCpu(clock([0, 0], [4, 4]), samples(4, [0, 1]), [window(0, 4), window(1, 2)], Int32Array.from([0, -1]));
    assert.deepEqual([...unknown.perRow], [0, 0, 0]);
    const none = chargeUnsampledCpu(clock([0, 0], [4, 4]), samples(4, [0, 1]), [window(5, 6)], Int32Array.from([0]));
    assert.deepEqual([...none.perRow], [0, 0, 0]);
    assert.equal(none.unsampledMs, 2);
  });

  it("a window that ended before a span, or starts after it, is not open in it; one still open at the end is", () => {
    // Spans [0, 2), [2, 4), [4, 6); route 0's window [0, 1.5), route 1's from 4.5, never finished. Every sample idle.
    const charge = chargeUnsampledCpu(clock([0, 0], [2, 1], [4, 2], [6, 3]), samples(6, [0, 1, 2, 3, 4, 5]), [window(0, 1.5), window(4.5, null)], Int32Array.from([0, 1]));
    assert.deepEqual([...charge.perRow], [1, 1, 0], 'the first span to route 0, the middle one to nobody, the last to route 1');
    assert.equal(charge.unsampledMs, 3);
  });

  it("leaves out the clock's spans outside the profile's samples", () => {
    const charge = chargeUnsampledCpu(clock([-5, 0], [0, 4], [3, 6], [9, 12]), samples(4, [0, 1, 2]), [window(-5, 9)], Int32Array.from([0]));
    // [-5, 0) is before the first sample and [3, 9) ends after the profile: only [0, 3) counts,
    // 2 ms by the clock over idle samples.
    assert.equal(charge.threadMs, 2);
    assert.deepEqual([...charge.perRow], [2, 0, 0]);
  });

  it("charges a charged span's samples that are in no window and have no route's frame to its route (Node parsing a request before its start, ending it after its finish)", () => {
    // Spans [0, 5) and [5, 10); route 1's window [2, 4). Samples: 0 no route, 1 idle, 2-3 in the
    // window, 4 middleware's (row 2), 5 with route 0's frame, 6-9 no route. The first span is
    // charged to route 1: samples 0 and 4 (2 ms) go with it, 4 given by the middleware's row. No
    // window is open in the second: nothing is charged there.
    const charge = chargeUnsampledCpu(clock([0, 0], [5, 4.5], [10, 9]), samples(10, [1], { 4: 2, 5: 0 }), [window(2, 4)], Int32Array.from([1]));
    assert.deepEqual([...charge.aroundPerRow], [0, 2, 0]);
    assert.deepEqual([...charge.aroundGiven], [0, 0, 1]);
    assert.deepEqual([...charge.perRow], [0, 0.5, 0], "the span's clock beyond its 4 non-idle samples");
  });

  it('takes only the part of a sample around the windows inside the charged span, and never a sample that started in a window', () => {
    // Spans [0, 2.5), [2.5, 6); route 0's window [0, 1): sample 0 is in it; samples 1 and 2 are in
    // none. In the first span: sample 1 whole and half of sample 2. Route 1's window [4, 4.5)
    // makes the second span its own (route 0's is not open in it): the rest of sample 2 (0.5),
    // sample 3, and sample 5, which starts after the window ended; sample 4 started in it.
    const charge = chargeUnsampledCpu(clock([0, 0], [2.5, 2.5], [6, 6]), samples(6), [window(0, 1), window(4, 4.5)], Int32Array.from([0, 1]));
    assert.deepEqual([...charge.aroundPerRow], [1.5, 2.5, 0]);
  });

  it('charges no sample around the windows in a span with requests of two routes open, or of a route not known', () => {
    const two = chargeUnsampledCpu(clock([0, 0], [6, 6]), samples(6), [window(1, 2), window(3, 4)], Int32Array.from([0, 1]));
    assert.deepEqual([...two.aroundPerRow], [0, 0, 0]);
    const unknown = chargeUnsampledCpu(clock([0, 0], [6, 6]), samples(6), [window(1, 2)], Int32Array.from([-1]));
    assert.deepEqual([...unknown.aroundPerRow], [0, 0, 0]);
  });
});
