// Reads a DevTools / `node --cpu-prof` profile into the normalized model. Nodes are collected one
// at a time into flat arrays (so a byte scanner can feed them without building the whole JSON
// tree, see scanCpuprofile.ts), then linked, ordered parents-first and folded into the tree.
// Sample durations follow DevTools: sample i lasts until sample i+1 (timeDeltas[i+1]); the last
// one lasts until `endTime`. Everything here is iterative: a 200k-deep chain is just a loop.
import { CallTreeBuilder, TimelineBuilder } from '../model/callTreeBuilder';
import type { CodeKind } from '../model/categories';
import { ProfileInputError } from './profileInputError';
import type { NormalizedProfile } from '../model/types';
import { NodeIds } from './nodeIds';

const VM_NAMES = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);
/** Frame index of the profile's own '(root)' frame until it turns out to need a function. */
const ROOT_FRAME = -1;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The profile object inside the accepted shapes: the profile itself or `{ profile: {...} }`. */
export function findCpuprofile(json: unknown): Record<string, unknown> | undefined {
  if (!isRecord(json)) return undefined;
  if (Array.isArray(json.nodes)) return json;
  if (isRecord(json.profile) && Array.isArray(json.profile.nodes)) return json.profile;
  return undefined;
}

/** A `callFrame` the byte scanner parsed, with its function index once interned. */
export interface ScannedFrame {
  readonly callFrame: Record<string, unknown>;
  index?: number;
}

/** A profile's parts as read so far: nodes in flat arrays, samples, deltas and times. */
export class CpuprofileParts {
  readonly builder = new CallTreeBuilder();
  readonly ids: number[] = [];
  readonly frames: number[] = [];
  readonly childStart: number[] = [0];
  readonly childIds: number[] = [];
  readonly parentIds: number[] = [];
  readonly hitCounts: number[] = [];
  readonly tickNode: number[] = [];
  readonly tickLine: number[] = [];
  readonly tickCount: number[] = [];
  readonly indexOf = new NodeIds();
  badNodes = 0;
  /** Nodes that carry a `callFrame` object: a JSON whose nodes have none is not a CPU profile. */
  framedNodes = 0;
  samples: ArrayLike<unknown> | undefined;
  timeDeltas: ArrayLike<unknown> | undefined;
  startTime: number | undefined;
  endTime: number | undefined;

  get nodeCount(): number {
    return this.ids.length;
  }

  addNode(node: unknown): void {
    const id = isRecord(node) ? finite(node.id) : undefined;
    if (!isRecord(node) || id === undefined || this.indexOf.has(id)) {
      this.badNodes++;
      return;
    }
    const index = this.ids.length;
    this.indexOf.set(id, index);
    this.ids.push(id);
    if (isRecord(node.callFrame)) this.framedNodes++;
    this.frames.push(internFrame(this.builder, node.callFrame));
    if (Array.isArray(node.children)) for (const c of node.children) this.childIds.push(typeof c === 'number' ? c : NaN);
    this.childStart.push(this.childIds.length);
    this.parentIds.push(Array.isArray(node.children) ? NaN : (finite(node.parent) ?? NaN));
    this.hitCounts.push(finite(node.hitCount) ?? 0);
    if (Array.isArray(node.positionTicks)) {
      for (const t of node.positionTicks) {
        const line = isRecord(t) ? finite(t.line) : undefined;
        const ticks = isRecord(t) ? finite(t.ticks) : undefined;
        if (line === undefined || ticks === undefined || ticks <= 0) continue;
        this.tickNode.push(index);
        this.tickLine.push(Math.floor(line));
        this.tickCount.push(ticks);
      }
    }
  }

  /**
   * A node whose fields the byte scanner read itself (scanCpuprofile.ts), exactly as addNode would
   * take the same node parsed: an integer id, its `callFrame` (shared by the nodes with the same
   * callFrame text; interned when the first node naming it is kept, so in addNode's order), `children` (or null
   * when absent; then `parent`, NaN when absent), `hitCount` (0 when absent), and the
   * positionTicks entries that had both a line and ticks (the first childCount and tickCount
   * entries of the scanner's reused arrays).
   */
  addScanned(id: number, frame: ScannedFrame, children: readonly number[] | null, childCount: number, parent: number, hitCount: number, tickLines: readonly number[], tickCounts: readonly number[], tickCount: number): void {
    if (this.indexOf.has(id)) {
      this.badNodes++;
      return;
    }
    const index = this.ids.length;
    this.indexOf.set(id, index);
    this.ids.push(id);
    this.framedNodes++;
    frame.index ??= internFrame(this.builder, frame.callFrame);
    this.frames.push(frame.index);
    if (children !== null) for (let k = 0; k < childCount; k++) this.childIds.push(children[k]);
    this.childStart.push(this.childIds.length);
    this.parentIds.push(children !== null ? NaN : parent);
    this.hitCounts.push(hitCount);
    for (let k = 0; k < tickCount; k++) {
      if (tickCounts[k] <= 0) continue;
      this.tickNode.push(index);
      this.tickLine.push(tickLines[k]);
      this.tickCount.push(tickCounts[k]);
    }
  }
}

export function readCpuprofile(json: unknown, label: string): NormalizedProfile {
  const profile = findCpuprofile(json);
  if (profile === undefined) throw new ProfileInputError(`not a CPU profile: ${label} has no "nodes" array`);
  const parts = new CpuprofileParts();
  for (const node of profile.nodes as unknown[]) parts.addNode(node);
  parts.samples = Array.isArray(profile.samples) ? profile.samples : undefined;
  parts.timeDeltas = Array.isArray(profile.timeDeltas) ? profile.timeDeltas : undefined;
  parts.startTime = finite(profile.startTime);
  parts.endTime = finite(profile.endTime);
  return buildCpuprofile(parts, label);
}

export function buildCpuprofile(parts: CpuprofileParts, label: string): NormalizedProfile {
  const { builder, indexOf } = parts;
  const n = parts.nodeCount;
  const warnings: string[] = [];
  if (n === 0) throw new ProfileInputError(`not a CPU profile: ${label} has ${parts.badNodes > 0 ? 'no node with an id' : 'an empty "nodes" array'}`);
  if (parts.framedNodes === 0) throw new ProfileInputError(`not a CPU profile: ${label} has "nodes" but none with a "callFrame"`);
  if (parts.badNodes > 0) warnings.push(`${parts.badNodes} node(s) without a unique numeric id were ignored`);

  // Parents from `children` (cpuprofile) or `parent` (trace-event chunks).
  const parentOf = new Int32Array(n).fill(-1);
  let dangling = 0;
  let extraParents = 0;
  for (let i = 0; i < n; i++) {
    for (let k = parts.childStart[i]; k < parts.childStart[i + 1]; k++) {
      const c = indexOf.get(parts.childIds[k]);
      if (c === undefined) dangling++;
      else if (c === i || parentOf[c] !== -1) extraParents++;
      else parentOf[c] = i;
    }
  }
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(parts.parentIds[i])) continue;
    const p = indexOf.get(parts.parentIds[i]);
    if (p === undefined) dangling++;
    else if (p !== i && parentOf[i] === -1) parentOf[i] = p;
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

  const frames = parts.frames;
  const funcOf = (i: number): number => {
    // A '(root)' frame that is not a root after all gets a function like any other.
    if (frames[i] === ROOT_FRAME) frames[i] = builder.internFunction('(root)', '', 0, 0, 'vm');
    return frames[i];
  };
  const newIndex = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  let head = 0;
  let tail = 0;
  const visit = (start: number, asRoot: boolean): void => {
    // The profile's own '(root)' node is the tree's root, node 0 (function -1).
    newIndex[start] = asRoot && frames[start] === ROOT_FRAME ? 0 : builder.child(0, funcOf(start), 0);
    order[tail++] = start;
    while (head < tail) {
      const p = order[head++];
      for (let k = childStart[p]; k < childStart[p + 1]; k++) {
        const c = childList[k];
        if (newIndex[c] !== -1) continue;
        newIndex[c] = builder.child(newIndex[p], funcOf(c), 0);
        order[tail++] = c;
      }
    }
  };
  for (let i = 0; i < n; i++) if (parentOf[i] === -1) visit(i, true);
  // Whatever is left sits on a parent cycle: hang it under the root rather than lose its samples.
  let reattached = 0;
  for (let i = 0; i < n; i++) {
    if (newIndex[i] === -1) {
      reattached++;
      visit(i, false);
    }
  }
  if (reattached > 0) warnings.push(`${reattached} node(s) on a parent cycle were attached to the root`);

  // Samples and their durations.
  const { startTime, endTime, samples, timeDeltas: deltas } = parts;
  const origSamples = new Float64Array(n);
  const origMs = new Float64Array(n);
  let total = 0;
  const timeline = new TimelineBuilder();
  let durationMs = startTime !== undefined && endTime !== undefined && endTime >= startTime ? (endTime - startTime) / 1000 : 0;

  if (samples !== undefined) {
    // Sample ids are looked up millions of times: a table when ids are small, else the map.
    let maxId = 0;
    for (let i = 0; i < n; i++) if (parts.ids[i] > maxId) maxId = parts.ids[i];
    const dense = Number.isInteger(maxId) && maxId < 4 * n + 1024 ? new Int32Array(maxId + 1).fill(-1) : null;
    if (dense !== null) for (let i = 0; i < n; i++) if (Number.isInteger(parts.ids[i]) && parts.ids[i] >= 0) dense[parts.ids[i]] = i;
    const count = samples.length;
    const haveDeltas = deltas !== undefined && deltas.length === count;
    if (!haveDeltas && count > 0) warnings.push('timeDeltas missing or not one per sample: samples are spread evenly over the profile');
    // One typed loop for both sources (the byte scanner gives Int32Arrays already).
    const ids = samples instanceof Int32Array ? samples : Float64Array.from(samples as ArrayLike<unknown>, (v) => (typeof v === 'number' ? v : NaN));
    const deltaUs = !haveDeltas ? null : deltas instanceof Int32Array ? deltas : Float64Array.from(deltas as ArrayLike<unknown>, (v) => finite(v) ?? 0);
    const even = count > 0 ? durationMs / count : 0;
    let negative = 0;
    let unknown = 0;
    // Time of the current sample since startTime (negative deltas count as 0).
    let atUs = deltaUs !== null && count > 0 ? Math.max(0, deltaUs[0]) : 0;
    for (let i = 0; i < count; i++) {
      const id = ids[i];
      const sampledAtMs = deltaUs !== null ? atUs / 1000 : i * even;
      const index = dense !== null ? (id >= 0 && id <= maxId ? (dense[id] ?? -1) : -1) : (indexOf.get(id) ?? -1);
      let ms = even;
      if (deltaUs !== null) {
        let us: number;
        if (i + 1 < count) {
          us = deltaUs[i + 1];
          if (us < 0) {
            negative++;
            us = 0;
          }
          atUs += us;
        } else us = endTime !== undefined && startTime !== undefined ? Math.max(0, endTime - startTime - atUs) : 0;
        ms = us / 1000;
      }
      if (index === -1) {
        unknown++;
        continue;
      }
      origSamples[index]++;
      origMs[index] += ms;
      timeline.push(newIndex[index], sampledAtMs);
      total++;
    }
    if (negative > 0) warnings.push(`${negative} negative time delta(s) were counted as 0 µs`);
    if (unknown > 0) warnings.push(`${unknown} sample(s) name unknown node ids and were skipped`);
  } else {
    // Old profiles carry only per-node hit counts.
    for (let i = 0; i < n; i++) {
      const hits = parts.hitCounts[i];
      if (hits > 0) {
        origSamples[i] = hits;
        total += hits;
      }
    }
    if (total === 0) throw new ProfileInputError(`not a CPU profile: ${label} has neither "samples" nor hit counts`);
    warnings.push('no "samples" array: self time comes from hitCount, spread evenly over the profile');
    for (let i = 0; i < n; i++) origMs[i] = (origSamples[i] * durationMs) / total;
  }
  if (durationMs === 0) for (let i = 0; i < n; i++) durationMs += origMs[i];

  // Fold original nodes into the merged tree, with their per-line ticks (a share of the node's time).
  for (let k = 0; k < tail; k++) {
    const i = order[k];
    if (origSamples[i] > 0) builder.addSelf(newIndex[i], origSamples[i], origMs[i]);
  }
  const tickSum = new Float64Array(n);
  for (let t = 0; t < parts.tickNode.length; t++) tickSum[parts.tickNode[t]] += parts.tickCount[t];
  for (let t = 0; t < parts.tickNode.length; t++) {
    const i = parts.tickNode[t];
    if (origSamples[i] === 0) continue;
    builder.addLine(newIndex[i], parts.tickLine[t], parts.tickCount[t], (origMs[i] * parts.tickCount[t]) / tickSum[i]);
  }

  const profile = builder.build('cpuprofile', total, durationMs, warnings);
  if (samples !== undefined && total > 0) profile.timeline = timeline.build(durationMs);
  return profile;
}

function internFrame(builder: CallTreeBuilder, callFrame: unknown): number {
  const frame = isRecord(callFrame) ? callFrame : {};
  const url = typeof frame.url === 'string' ? frame.url : '';
  let name = typeof frame.functionName === 'string' ? frame.functionName : '';
  if (name === '(root)' && url === '') return ROOT_FRAME;
  if (name === '') name = url === '' ? '(unknown)' : '(anonymous)';
  // 0-based in the file, 1-based in the model; -1 (unknown) becomes 0.
  const line = Math.max(0, Math.floor((finite(frame.lineNumber) ?? -1) + 1));
  const column = Math.max(0, Math.floor((finite(frame.columnNumber) ?? -1) + 1));
  const kind: CodeKind = VM_NAMES.has(name) && url === '' ? 'vm' : url === '' ? 'native' : 'js';
  return builder.internFunction(name, url, line, column, kind);
}

/** The legacy profile shape (Node <= 10 with v8-profiler, old DevTools): a `head` call tree. */
export function isLegacyCpuprofile(json: unknown): json is { head: Record<string, unknown> } {
  return isRecord(json) && isRecord(json.head) && !Array.isArray(json.nodes);
}

/**
 * Reads a legacy `head`-tree profile: nodes nest in `children` objects and carry their frame
 * fields inline; `samples` are node ids and `timestamps` absolute µs (startTime / endTime are
 * whole seconds there, too coarse to use). Without timestamps, time comes from hit counts.
 */
export function readLegacyCpuprofile(json: { head: Record<string, unknown> } & Record<string, unknown>, label: string): NormalizedProfile {
  const parts = new CpuprofileParts();
  let nextId = 1;
  const stack: { node: Record<string, unknown>; id: number }[] = [];
  const idOf = (node: Record<string, unknown>): number => finite(node.id) ?? -nextId++;
  stack.push({ node: json.head, id: idOf(json.head) });
  while (stack.length > 0) {
    const { node, id } = stack.pop() as { node: Record<string, unknown>; id: number };
    const kids = (Array.isArray(node.children) ? node.children : []).filter(isRecord);
    const kidIds = kids.map(idOf);
    parts.addNode({
      id,
      callFrame: { functionName: node.functionName, url: node.url, lineNumber: node.lineNumber, columnNumber: node.columnNumber ?? -1 },
      hitCount: node.hitCount,
      children: kidIds,
      positionTicks: node.positionTicks,
    });
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ node: kids[k], id: kidIds[k] });
  }
  const samples = Array.isArray(json.samples) ? json.samples : undefined;
  const stamps = Array.isArray(json.timestamps) ? json.timestamps.map((t) => finite(t) ?? NaN) : undefined;
  // One timestamp per sample, sometimes one more: the end of the last sample.
  const n = samples?.length ?? 0;
  if (samples !== undefined && stamps !== undefined && n > 0 && (stamps.length === n || stamps.length === n + 1) && stamps.every(Number.isFinite)) {
    parts.samples = samples;
    parts.timeDeltas = stamps.slice(0, n).map((t, i) => (i === 0 ? 0 : t - stamps[i - 1]));
    parts.startTime = stamps[0];
    parts.endTime = stamps[stamps.length - 1];
  } else {
    // Hit counts only; whole seconds give the duration.
    const start = finite(json.startTime);
    const end = finite(json.endTime);
    if (start !== undefined && end !== undefined) {
      parts.startTime = start * 1e6;
      parts.endTime = end * 1e6;
    }
  }
  return buildCpuprofile(parts, label);
}
