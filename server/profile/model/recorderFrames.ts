// Hotframe's recorder runs inside the processes it records (a preload given through NODE_OPTIONS,
// server/shared/recordProfile.ts): starting the profiler, writing the profile at exit, and what
// else it observes. Its frames are not the user's code, so they are taken out of the profile here,
// once, as it is loaded (readers/load.ts): the report, the heat, the hot functions, the call lines,
// the flame graph, the CLI and every other view are computed from what is left.
//
// Which frames: a frame of the recorder's own script (recognised by its path,
// server/shared/recordingFiles.ts), and below it whatever it calls in Node, V8 or native code. Code
// of the program's own (user or dependency frames) reached below a recorder frame (a callback the
// recorder passes on) is kept, moved up to the recorder frame's caller. The time of the frames taken
// out leaves the profile's totals (it is the recorder's, not the program's), and callers left with
// no time of their own at all (Node's loader that ran the preload) go with them. In the sample
// timeline, a sample taken in the recorder counts as its nearest caller left, so that a stall around
// it is not cut in two.
import { formatAmount } from '../../shared/format';
import { isRecorderScript } from '../../shared/recordingFiles';
import type { CallTree, LineTicks, NormalizedProfile, ProfileFunction } from './types';

/** Code of the program (kept when the recorder calls it); everything else it calls is the recorder's. */
function isProgramCode(fn: ProfileFunction): boolean {
  return fn.category === 'user' || fn.category === 'dependency';
}

/** The profile without the recorder's frames; the same object when it has none. */
export function withoutRecorderFrames(profile: NormalizedProfile): NormalizedProfile {
  const recorder = profile.functions.map((fn) => isRecorderScript(fn.url));
  if (!recorder.includes(true)) return profile;
  const { tree } = profile;
  const n = tree.count;

  // 1. Which nodes are the recorder's; the others' nearest caller that is not.
  const removed = new Uint8Array(n);
  const keptParent = new Int32Array(n).fill(-1);
  for (let node = 1; node < n; node++) {
    const parent = tree.parent[node];
    const fn = tree.func[node] >= 0 ? profile.functions[tree.func[node]] : undefined;
    const isRecorder = fn !== undefined && recorder[tree.func[node]];
    removed[node] = isRecorder || (removed[parent] === 1 && !(fn !== undefined && isProgramCode(fn))) ? 1 : 0;
    keptParent[node] = removed[parent] === 1 ? keptParent[parent] : parent;
  }

  // 2. Callers that lost every sample with it: their subtree had the recorder and nothing else weighs.
  const hadRecorder = new Uint8Array(n);
  const keptWeight = new Float64Array(n);
  let removedSamples = 0;
  let removedMs = 0;
  for (let node = n - 1; node > 0; node--) {
    if (removed[node] === 1) {
      hadRecorder[node] = 1;
      removedSamples += tree.selfSamples[node];
      removedMs += tree.selfMs[node];
    } else keptWeight[node] += tree.selfSamples[node] + tree.selfMs[node];
    const up = removed[node] === 1 ? tree.parent[node] : keptParent[node];
    if (up >= 0) {
      hadRecorder[up] ||= hadRecorder[node];
      keptWeight[up] += keptWeight[node];
    }
  }
  const survives = new Uint8Array(n);
  survives[0] = 1;
  for (let node = 1; node < n; node++) {
    survives[node] = removed[node] === 0 && survives[keptParent[node]] === 1 && !(hadRecorder[node] === 1 && keptWeight[node] === 0) ? 1 : 0;
  }

  // 3. The functions still named by a node (and those no node named, as the reader left them).
  const referenced = new Uint8Array(profile.functions.length);
  const stillReferenced = new Uint8Array(profile.functions.length);
  for (let node = 1; node < n; node++) {
    const f = tree.func[node];
    if (f < 0) continue;
    referenced[f] = 1;
    if (survives[node] === 1) stillReferenced[f] = 1;
  }
  const functionOf = new Int32Array(profile.functions.length).fill(-1);
  const functions: ProfileFunction[] = [];
  profile.functions.forEach((fn, f) => {
    if (recorder[f] || (referenced[f] === 1 && stillReferenced[f] === 0)) return;
    functionOf[f] = functions.length;
    functions.push(fn);
  });

  // 4. The tree again, parents before children; a node moved up merges with a sibling of the same function.
  const newOf = new Int32Array(n).fill(-1);
  newOf[0] = 0;
  const parent: number[] = [-1];
  const func: number[] = [-1];
  const callLine: number[] = [0];
  const selfSamples: number[] = [tree.selfSamples[0]];
  const selfMs: number[] = [tree.selfMs[0]];
  const byKey = new Map<string, number>();
  for (let node = 1; node < n; node++) {
    if (survives[node] === 0) continue;
    const up = newOf[keptParent[node]];
    const f = functionOf[tree.func[node]];
    // A call line is a line of the caller's function: not known any more under a new caller.
    const line = keptParent[node] === tree.parent[node] ? tree.callLine[node] : 0;
    const key = `${up}:${f}:${line}`;
    let index = byKey.get(key);
    if (index === undefined) {
      index = parent.length;
      byKey.set(key, index);
      parent.push(up);
      func.push(f);
      callLine.push(line);
      selfSamples.push(0);
      selfMs.push(0);
    }
    newOf[node] = index;
    selfSamples[index] += tree.selfSamples[node];
    selfMs[index] += tree.selfMs[node];
  }
  const newTree: CallTree = {
    count: parent.length,
    parent: Int32Array.from(parent),
    func: Int32Array.from(func),
    callLine: Int32Array.from(callLine),
    selfSamples: Float64Array.from(selfSamples),
    selfMs: Float64Array.from(selfMs),
  };

  // 5. Line ticks follow their node (merged when two nodes became one); the recorder's go.
  const lineTicks: LineTicks[] = [];
  const tickAt = new Map<string, LineTicks>();
  for (const ticks of profile.lineTicks) {
    if (survives[ticks.node] === 0) continue;
    const node = newOf[ticks.node];
    const key = `${node}:${ticks.line}:${ticks.inlinedFrom ? JSON.stringify(ticks.inlinedFrom) : ''}`;
    const known = tickAt.get(key);
    if (known !== undefined) {
      known.samples += ticks.samples;
      known.ms += ticks.ms;
    } else {
      const moved = { ...ticks, node };
      tickAt.set(key, moved);
      lineTicks.push(moved);
    }
  }

  // 6. The timeline: a sample keeps its time, on the nearest node left.
  let timeline = profile.timeline;
  if (timeline !== undefined) {
    const nearest = (node: number): number => {
      let at = node;
      while (at > 0 && survives[at] === 0) at = removed[at] === 1 ? tree.parent[at] : keptParent[at];
      return newOf[at];
    };
    const node = Int32Array.from(timeline.node, (old) => (old >= 0 && old < n ? nearest(old) : old));
    timeline = { ...timeline, node };
  }

  return {
    ...profile,
    samples: Math.max(0, profile.samples - removedSamples),
    functions,
    tree: newTree,
    lineTicks,
    timeline,
    notes: [...(profile.notes ?? []), `Hotframe's recorder (its preload and what it called: ${formatAmount(removedMs, profile.unit ?? 'ms')}) is left out of every figure`],
  };
}
