// One long profile as several shorter ones: N windows of equal duration, each a profile of its own
// (the performance gate takes them as repeated runs: server/profile/gate/gate.ts). Pure.
//
// A window keeps the whole call tree (the same nodes, so every function and call line is where it
// was) with the self time of the samples taken in it, from the profile's timeline (the samples in
// recording order). The tree's line ticks are not in the timeline: a node's line ticks are shared
// out in proportion to its self time in each window, which assumes the lines of one node keep their
// proportions over the recording. Formats that keep no sample order (pprof, heap profiles) cannot
// be split.
import type { LineTicks, NormalizedProfile } from './types';

/** Why `profile` cannot be split into windows, or null when it can. */
export function unsplittable(profile: NormalizedProfile): string | null {
  if (profile.timeline === undefined) return `a ${profile.format} profile keeps no sample order`;
  if ((profile.unit ?? 'ms') !== 'ms') return 'an allocation profile has no time to split';
  if (!(profile.timeline.endMs > 0) || profile.timeline.node.length === 0) return 'the profile holds no samples';
  return null;
}

/** `profile` as `count` profiles of equal duration, in time order. Throws (one line) past `unsplittable`. */
export function splitByTime(profile: NormalizedProfile, count: number): NormalizedProfile[] {
  const why = unsplittable(profile);
  if (why !== null) throw new RangeError(why);
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`cannot split a profile into ${count} windows`);
  const timeline = profile.timeline!;
  const { node, atMs, endMs } = timeline;
  const nodes = profile.tree.count;
  const width = endMs / count;
  const windowOf = (ms: number): number => Math.min(count - 1, Math.max(0, Math.floor(ms / width)));

  const selfMs = Array.from({ length: count }, () => new Float64Array(nodes));
  const selfSamples = Array.from({ length: count }, () => new Float64Array(nodes));
  const firstSample = new Int32Array(count + 1).fill(node.length);
  for (let i = node.length - 1; i >= 0; i--) firstSample[windowOf(atMs[i])] = i;
  for (let w = count - 1; w >= 0; w--) firstSample[w] = Math.min(firstSample[w], firstSample[w + 1]);
  for (let i = 0; i < node.length; i++) {
    // A sample lasts until the next one (the tree's selfMs sums the same durations); it belongs to
    // the window it was taken in.
    const w = windowOf(atMs[i]);
    const duration = (i + 1 < node.length ? atMs[i + 1] : endMs) - atMs[i];
    selfMs[w][node[i]] += duration;
    selfSamples[w][node[i]] += 1;
  }

  const totalMs = new Float64Array(nodes);
  for (const window of selfMs) for (let n = 0; n < nodes; n++) totalMs[n] += window[n];

  return selfMs.map((windowMs, w) => {
    const lineTicks: LineTicks[] = [];
    for (const ticks of profile.lineTicks) {
      const share = totalMs[ticks.node] > 0 ? windowMs[ticks.node] / totalMs[ticks.node] : 0;
      if (share > 0) lineTicks.push({ ...ticks, samples: ticks.samples * share, ms: ticks.ms * share });
    }
    const from = firstSample[w];
    const to = firstSample[w + 1];
    const startMs = w * width;
    return {
      ...profile,
      samples: to - from,
      durationMs: width,
      tree: { ...profile.tree, selfMs: windowMs, selfSamples: selfSamples[w] },
      lineTicks,
      warnings: [...profile.warnings],
      timeline: { node: node.slice(from, to), atMs: atMs.slice(from, to).map((ms) => ms - startMs), endMs: width },
    };
  });
}
