import { strict as assert } from 'node:assert';
import type { RequestWindow } from './requestWindows';
import { chargeUnsampledCpu, type ThreadClock } from './unsampledCpu';

/** Samples 1 ms apart from 0 ms, the idle ones marked; two route rows. */
function samples(count: number, idle: number[] = []) {
  const flags = new Uint8Array(count);
  for (const i of idle) flags[i] = 1;
  return { atMs: Float64Array.from({ length: count }, (_, i) => i), endMs: count, idle: flags, rowCount: 2 };
}

const window = (startMs: number, endMs: number | null): RequestWindow => ({ startMs, endMs, candidates: [] });
const clock = (...readings: [number, number][]): ThreadClock => ({ atMs: readings.map((r) => r[0]), cpuMs: readings.map((r) => r[1]) });

describe('the thread CPU no sample shows, charged by the requests\' windows (pure)', () => {
  it("charges a span's CPU beyond its non-idle samples to the one route whose requests were open in it", () => {
    // 0..9 ms: samples 2, 3 and 4 idle; the thread ran 9 ms of the 10 by its clock, 7 of them sampled.
    const charge = chargeUnsampledCpu(clock([0, 0], [10, 9]), samples(10, [2, 3, 4]), [window(1, 8)], Int32Array.from([1]));
    assert.deepEqual([...charge.perRow], [0, 2]);
    assert.equal(charge.unsampledMs, 2);
    assert.equal(charge.threadMs, 9);
  });

  it("takes the part of a sample inside each span only, and sums a route's spans with their signs", () => {
    // Spans [0, 2.5) and [2.5, 5): sample 2 (2-3 ms) is half in each; all samples busy.
    // The first span's clock says 3.5 ms (1 more than its 2.5 sampled), the second 2 ms (0.5 less:
    // a sampling interval cut at the span's end, or a wait weighed into a sample).
    const charge = chargeUnsampledCpu(clock([0, 0], [2.5, 3.5], [5, 5.5]), samples(5), [window(0, 5)], Int32Array.from([0]));
    assert.deepEqual([...charge.perRow], [0.5, 0]);
    assert.equal(charge.unsampledMs, 0.5);
  });

  it('adds nothing to a route whose samples held more than its CPU', () => {
    // 5 busy samples, 3 ms by the clock: a thread that waited for a core inside its samples.
    const charge = chargeUnsampledCpu(clock([0, 0], [2.5, 2], [5, 3]), samples(5), [window(0, 5)], Int32Array.from([0]));
    assert.deepEqual([...charge.perRow], [0, 0]);
    assert.equal(charge.unsampledMs, 0);
    assert.equal(charge.threadMs, 3);
  });

  it('charges nothing where requests of two routes, of no known route, or none were open; it still counts it', () => {
    const twoRoutes = chargeUnsampledCpu(clock([0, 0], [4, 4]), samples(4, [0, 1]), [window(0, 3), window(2, 4)], Int32Array.from([0, 1]));
    assert.deepEqual([...twoRoutes.perRow], [0, 0]);
    assert.equal(twoRoutes.unsampledMs, 2);
    const unknown = chargeUnsampledCpu(clock([0, 0], [4, 4]), samples(4, [0, 1]), [window(0, 4), window(1, 2)], Int32Array.from([0, -1]));
    assert.deepEqual([...unknown.perRow], [0, 0]);
    const none = chargeUnsampledCpu(clock([0, 0], [4, 4]), samples(4, [0, 1]), [window(5, 6)], Int32Array.from([0]));
    assert.deepEqual([...none.perRow], [0, 0]);
    assert.equal(none.unsampledMs, 2);
  });

  it("a window that ended before a span, or starts after it, is not open in it; one still open at the end is", () => {
    // Spans [0, 2), [2, 4), [4, 6); route 0's window [0, 1.5), route 1's from 4.5, never finished. Every sample idle.
    const charge = chargeUnsampledCpu(clock([0, 0], [2, 1], [4, 2], [6, 3]), samples(6, [0, 1, 2, 3, 4, 5]), [window(0, 1.5), window(4.5, null)], Int32Array.from([0, 1]));
    assert.deepEqual([...charge.perRow], [1, 1], 'the first span to route 0, the middle one to nobody, the last to route 1');
    assert.equal(charge.unsampledMs, 3);
  });

  it("leaves out the clock's spans outside the profile's samples", () => {
    const charge = chargeUnsampledCpu(clock([-5, 0], [0, 4], [3, 6], [9, 12]), samples(4, [0, 1, 2]), [window(-5, 9)], Int32Array.from([0]));
    // [-5, 0) is before the first sample and [3, 9) ends after the profile: only [0, 3) counts,
    // 2 ms by the clock over idle samples.
    assert.equal(charge.threadMs, 2);
    assert.deepEqual([...charge.perRow], [2, 0]);
  });
});
