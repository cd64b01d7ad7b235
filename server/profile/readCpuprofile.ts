// Reads a DevTools / `node --cpu-prof` profile (already JSON.parsed) into the normalized model.
// Sample durations follow DevTools: sample i lasts until sample i+1 (timeDeltas[i+1]); the last
// one lasts until `endTime`. Everything here is iterative: a 200k-deep chain is just a loop.
import { CallTreeBuilder } from './callTreeBuilder';
import type { CodeKind } from './categories';
import { ProfileInputError } from './profileInputError';
import type { NormalizedProfile } from './types';

interface RawCallFrame {
  functionName?: unknown;
  url?: unknown;
  lineNumber?: unknown;
  columnNumber?: unknown;
}

interface RawNode {
  id?: unknown;
  callFrame?: RawCallFrame;
  children?: unknown;
  parent?: unknown;
  positionTicks?: unknown;
  hitCount?: unknown;
}

const VM_NAMES = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The profile object inside the accepted shapes: the profile itself or `{ profile: {...} }`. */
export function findCpuprofile(json: unknown): Record<string, unknown> | undefined {
  if (!isRecord(json)) return undefined;
  if (Array.isArray(json.nodes)) return json;
  if (isRecord(json.profile) && Array.isArray(json.profile.nodes)) return json.profile;
  return undefined;
}

export function readCpuprofile(json: unknown, label: string): NormalizedProfile {
  const profile = findCpuprofile(json);
  if (profile === undefined) throw new ProfileInputError(`not a CPU profile: ${label} has no "nodes" array`);
  const nodes = profile.nodes as unknown[];
  const warnings: string[] = [];
  const n = nodes.length;
  if (n === 0) throw new ProfileInputError(`not a CPU profile: ${label} has an empty "nodes" array`);

  // Node ids -> array index.
  const indexOf = new Map<number, number>();
  let badNodes = 0;
  for (let i = 0; i < n; i++) {
    const node = nodes[i];
    const id = isRecord(node) ? finite(node.id) : undefined;
    if (id === undefined || indexOf.has(id)) badNodes++;
    else indexOf.set(id, i);
  }
  if (badNodes > 0) warnings.push(`${badNodes} node(s) without a unique numeric id were ignored`);

  // Parents from `children` (cpuprofile) or `parent` (trace-event chunks).
  const parentOf = new Int32Array(n).fill(-1);
  let dangling = 0;
  let extraParents = 0;
  for (let i = 0; i < n; i++) {
    const node = nodes[i] as RawNode;
    if (!isRecord(node) || indexOf.get(node.id as number) !== i) continue;
    if (Array.isArray(node.children)) {
      for (const childId of node.children) {
        const c = indexOf.get(childId as number);
        if (c === undefined) dangling++;
        else if (c === i || parentOf[c] !== -1) extraParents++;
        else parentOf[c] = i;
      }
    } else if (node.parent !== undefined) {
      const p = indexOf.get(node.parent as number);
      if (p === undefined) dangling++;
      else if (p !== i) parentOf[i] = p;
    }
  }
  if (dangling > 0) warnings.push(`${dangling} reference(s) to unknown node ids were ignored`);
  if (extraParents > 0) warnings.push(`${extraParents} node(s) listed under more than one parent kept their first parent`);

  // Children lists, then breadth-first order from the roots so parents come before children.
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parentOf[i] !== -1) childStart[parentOf[i] + 1]++;
  for (let i = 0; i < n; i++) childStart[i + 1] += childStart[i];
  const fill = childStart.slice(0, n);
  const childList = new Int32Array(n);
  for (let i = 0; i < n; i++) if (parentOf[i] !== -1) childList[fill[parentOf[i]]++] = i;

  const builder = new CallTreeBuilder();
  const funcOf = new Int32Array(n).fill(-1);
  const newIndex = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  let head = 0;
  let tail = 0;
  let reattached = 0;
  const visit = (start: number, asRoot: boolean): void => {
    const frame = (nodes[start] as RawNode).callFrame;
    // The profile's own '(root)' node is the tree's root, node 0 (function -1).
    if (asRoot && isRecord(frame) && frame.functionName === '(root)' && !frame.url) newIndex[start] = 0;
    else newIndex[start] = builder.child(0, (funcOf[start] = internFunction(builder, nodes[start] as RawNode)), 0);
    order[tail++] = start;
    while (head < tail) {
      const p = order[head++];
      for (let k = childStart[p]; k < childStart[p + 1]; k++) {
        const c = childList[k];
        if (newIndex[c] !== -1) continue;
        funcOf[c] = internFunction(builder, nodes[c] as RawNode);
        newIndex[c] = builder.child(newIndex[p], funcOf[c], 0);
        order[tail++] = c;
      }
    }
  };
  for (let i = 0; i < n; i++) if (parentOf[i] === -1 && indexOf.get((nodes[i] as RawNode)?.id as number) === i) visit(i, true);
  // Whatever is left sits on a parent cycle: hang it under the root rather than lose its samples.
  for (let i = 0; i < n; i++) {
    if (newIndex[i] === -1 && isRecord(nodes[i]) && indexOf.get((nodes[i] as RawNode).id as number) === i) {
      reattached++;
      visit(i, false);
    }
  }
  if (reattached > 0) warnings.push(`${reattached} node(s) on a parent cycle were attached to the root`);

  // Samples and their durations.
  const startTime = finite(profile.startTime);
  const endTime = finite(profile.endTime);
  const samples = Array.isArray(profile.samples) ? (profile.samples as unknown[]) : undefined;
  const deltas = Array.isArray(profile.timeDeltas) ? (profile.timeDeltas as unknown[]) : undefined;
  const origSamples = new Float64Array(n);
  const origMs = new Float64Array(n);
  let total = 0;
  let durationMs = startTime !== undefined && endTime !== undefined && endTime >= startTime ? (endTime - startTime) / 1000 : 0;

  if (samples !== undefined) {
    const count = samples.length;
    const haveDeltas = deltas !== undefined && deltas.length === count;
    if (!haveDeltas && count > 0) warnings.push('timeDeltas missing or not one per sample: samples are spread evenly over the profile');
    const even = count > 0 ? durationMs / count : 0;
    let negative = 0;
    let unknown = 0;
    let sumUs = 0;
    for (let i = 0; i < count; i++) {
      const index = indexOf.get(samples[i] as number);
      let ms = even;
      if (haveDeltas) {
        let us: number;
        if (i + 1 < count) us = finite(deltas[i + 1]) ?? 0;
        else us = endTime !== undefined && startTime !== undefined ? endTime - (startTime + sumUs + (finite(deltas[0]) ?? 0)) : 0;
        if (i + 1 < count) sumUs += Math.max(0, us);
        if (us < 0) {
          if (i + 1 < count) negative++;
          us = 0;
        }
        ms = us / 1000;
      }
      if (index === undefined) {
        unknown++;
        continue;
      }
      origSamples[index]++;
      origMs[index] += ms;
      total++;
    }
    if (negative > 0) warnings.push(`${negative} negative time delta(s) were counted as 0 µs`);
    if (unknown > 0) warnings.push(`${unknown} sample(s) name unknown node ids and were skipped`);
  } else {
    // Old profiles carry only per-node hit counts.
    for (let i = 0; i < n; i++) {
      const hits = isRecord(nodes[i]) ? finite((nodes[i] as RawNode).hitCount) : undefined;
      if (hits !== undefined && hits > 0) {
        origSamples[i] = hits;
        total += hits;
      }
    }
    if (total === 0) throw new ProfileInputError(`not a CPU profile: ${label} has neither "samples" nor hit counts`);
    warnings.push('no "samples" array: self time comes from hitCount, spread evenly over the profile');
    for (let i = 0; i < n; i++) origMs[i] = (origSamples[i] * durationMs) / total;
  }
  if (durationMs === 0) for (let i = 0; i < n; i++) durationMs += origMs[i];

  // Fold original nodes into the merged tree, with their per-line ticks.
  for (let k = 0; k < tail; k++) {
    const i = order[k];
    if (origSamples[i] === 0) continue;
    builder.addSelf(newIndex[i], origSamples[i], origMs[i]);
    const ticks = (nodes[i] as RawNode).positionTicks;
    if (!Array.isArray(ticks) || ticks.length === 0) continue;
    let sum = 0;
    for (const t of ticks) sum += (isRecord(t) ? finite(t.ticks) : undefined) ?? 0;
    if (sum <= 0) continue;
    for (const t of ticks) {
      if (!isRecord(t)) continue;
      const line = finite(t.line);
      const count = finite(t.ticks);
      if (line === undefined || count === undefined || count <= 0) continue;
      builder.addLine(newIndex[i], Math.floor(line), count, (origMs[i] * count) / sum);
    }
  }

  return builder.build('cpuprofile', total, durationMs, warnings);
}

function internFunction(builder: CallTreeBuilder, node: RawNode): number {
  const frame: RawCallFrame = isRecord(node) && isRecord(node.callFrame) ? node.callFrame : {};
  const url = typeof frame.url === 'string' ? frame.url : '';
  let name = typeof frame.functionName === 'string' ? frame.functionName : '';
  if (name === '') name = url === '' ? '(unknown)' : '(anonymous)';
  // 0-based in the file, 1-based in the model; -1 (unknown) becomes 0.
  const line = Math.max(0, Math.floor((finite(frame.lineNumber) ?? -1) + 1));
  const column = Math.max(0, Math.floor((finite(frame.columnNumber) ?? -1) + 1));
  const kind: CodeKind = VM_NAMES.has(name) && url === '' ? 'vm' : url === '' ? 'native' : 'js';
  return builder.internFunction(name, url, line, column, kind);
}
