// The main thread's CPU time that a CPU profile's samples do not show, charged to routes by the
// requests' windows (issue 25). V8 samples the thread as idle while it is inside the event loop's
// poll, and the kernel's side of that poll and of the socket reads it makes is CPU the thread
// spends for the requests: a light route (a few ms a request) lost 8-22% of its CPU that way. A
// Hotframe recording reads the thread's own CPU clock every few loop ticks (50 ms: server/shared/
// servingRecorder.ts), so for each span between two readings the thread's CPU is known, and so is
// what the non-idle samples in that span account for; the difference is the span's unsampled CPU.
//
// The differences are summed with their signs and only a route's sum is held at zero or above: a
// span's samples are whole sampling intervals (about 1 ms) cut at its ends, so one span's samples
// may exceed its CPU by what the next one lacks, and holding each span at zero would add up the
// positive halves of that noise. A negative sum is a thread whose samples held more than its CPU
// (waits for a core weighed into them): nothing is added then.
//
// The rule, the same as requestWindows.ts's: a span's unsampled CPU is charged to a route when
// every request open during the span (any part of it) is that route's; a span with requests of
// several routes, of no known route, or none open is not charged: which work it was cannot be told.
//
// A charged span's samples outside the windows go with it. The span's unsampled CPU is its clock
// minus all its non-idle samples, those before a request's start (Node reading and parsing its
// headers, in the same tick) and after its finish (ending the response) included; charging the
// difference while leaving those samples on no route would drop them from both, and a light route
// fell 10% short of its thread's CPU by that alone. So the samples in a charged span that are in
// no window and that the windows' rule would charge in one (no endpoint route's frame: none, or
// only middleware's) are charged to its route too, clipped to the span as the clock's difference
// is (`aroundPerRow`; a middleware row's part in `aroundGiven`): they are samples, and count in its
// figure.
// Pure: the clock's readings, the samples in order, the windows and their owners in.
import type { RequestWindow, WindowSamples } from './requestWindows';

export interface ThreadClock {
  /** ms since the profile's start, ascending; the thread had spent `cpuMs[k]` ms on a CPU at `atMs[k]`. */
  atMs: readonly number[];
  cpuMs: readonly number[];
}

export interface UnsampledCharge {
  /** Per row: the unsampled CPU charged to it (its spans' sum, at least zero). */
  perRow: Float64Array;
  /** Per row: ms of non-idle samples in no window and with no endpoint route's frame, inside the spans charged to it. */
  aroundPerRow: Float64Array;
  /** Per (middleware) row: ms of its samples among those, charged to a route instead. */
  aroundGiven: Float64Array;
  /** The unsampled CPU of all the spans the clock and the profile both cover, charged or not (their sum, at least zero). */
  unsampledMs: number;
  /** The thread's CPU over those spans, by its clock. */
  threadMs: number;
}

/** Non-idle sample time from the profile's start to `t`, for ascending `t` (a sweep over the samples). */
function sampledUntil(samples: Pick<WindowSamples, 'atMs' | 'endMs' | 'idle'>): (t: number) => number {
  const count = samples.atMs.length;
  let i = 0; // the first sample starting after the last t asked
  let before = 0; // non-idle ms of the samples before i
  return (t) => {
    while (i < count && samples.atMs[i] <= t) {
      const end = i + 1 < count ? samples.atMs[i + 1] : samples.endMs;
      if (samples.idle[i] === 0 && end > samples.atMs[i]) before += end - samples.atMs[i];
      i++;
    }
    // Sample i - 1 may still be running at t: take back the part after t.
    if (i > 0 && samples.idle[i - 1] === 0) {
      const end = i < count ? samples.atMs[i] : samples.endMs;
      if (end > t) return before - (end - t);
    }
    return before;
  };
}

/** 1 for each sample that starts while a window is open (on [start, end), as requestWindows.ts reads them). */
function samplesInWindows(atMs: Float64Array, windows: readonly RequestWindow[]): Uint8Array {
  const starts = windows.map((w) => w.startMs).sort((a, b) => a - b);
  const ends = windows.map((w) => w.endMs ?? Infinity).sort((a, b) => a - b);
  const inside = new Uint8Array(atMs.length);
  let s = 0;
  let e = 0;
  for (let i = 0; i < atMs.length; i++) {
    while (s < starts.length && starts[s] <= atMs[i]) s++;
    while (e < ends.length && ends[e] <= atMs[i]) e++;
    if (s > e) inside[i] = 1;
  }
  return inside;
}

export function chargeUnsampledCpu(
  clock: ThreadClock,
  samples: Pick<WindowSamples, 'atMs' | 'endMs' | 'idle' | 'row' | 'middleware' | 'rowCount'>,
  windows: readonly RequestWindow[],
  owners: Int32Array,
): UnsampledCharge {
  const perRow = new Float64Array(samples.rowCount);
  const aroundPerRow = new Float64Array(samples.rowCount);
  const aroundGiven = new Float64Array(samples.rowCount);
  const count = samples.atMs.length;
  const endOf = (i: number): number => (i + 1 < count ? samples.atMs[i + 1] : samples.endMs);
  const inWindow = samplesInWindows(samples.atMs, windows);
  let firstLive = 0; // the first sample that ends after the last charged span's start
  let unsampledMs = 0;
  let threadMs = 0;
  const sampled = sampledUntil(samples);
  const order = windows.map((_, k) => k).sort((a, b) => windows[a].startMs - windows[b].startMs);
  let next = 0;
  let active: number[] = [];
  const first = samples.atMs.length > 0 ? samples.atMs[0] : samples.endMs;
  for (let k = 0; k + 1 < clock.atMs.length; k++) {
    const from = clock.atMs[k];
    const to = clock.atMs[k + 1];
    // Only the spans inside the profile: before its first sample or after its end, nothing was sampled.
    if (from < first || to > samples.endMs || !(to > from)) continue;
    const cpu = clock.cpuMs[k + 1] - clock.cpuMs[k];
    const sampledBefore = sampled(from); // asked in ascending order: `from`, then `to`
    const missed = cpu - (sampled(to) - sampledBefore);
    threadMs += cpu;
    unsampledMs += missed;
    // The windows open during [from, to): started before `to`, not ended by `from`.
    while (next < order.length && windows[order[next]].startMs < to) active.push(order[next++]);
    active = active.filter((w) => (windows[w].endMs ?? Infinity) > from);
    if (active.length === 0) continue;
    const owner = owners[active[0]];
    if (owner === -1 || active.some((w) => owners[w] !== owner)) continue;
    perRow[owner] += missed;
    while (firstLive < count && endOf(firstLive) <= from) firstLive++;
    for (let i = firstLive; i < count && samples.atMs[i] < to; i++) {
      const row = samples.row[i];
      if (samples.idle[i] === 1 || (row !== -1 && !samples.middleware(row))) continue;
      if (inWindow[i] === 1) continue; // requestWindows.ts's rule has charged it, or left it on purpose
      const at = samples.atMs[i];
      const lasted = Math.min(endOf(i), to) - Math.max(at, from);
      if (!(lasted > 0)) continue;
      aroundPerRow[owner] += lasted;
      if (row !== -1) aroundGiven[row] += lasted;
    }
  }
  for (let r = 0; r < perRow.length; r++) perRow[r] = Math.max(0, perRow[r]);
  return { perRow, aroundPerRow, aroundGiven, unsampledMs: Math.max(0, unsampledMs), threadMs };
}
