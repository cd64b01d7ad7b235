// Flame graph trees for the webview: frames of the same function under the same parent are
// merged (whatever line they were called from), optionally with library frames folded into the
// user code that called them, bottom-up (inverted) or against a baseline (diff). Subtrees
// narrower than `minFraction` of the root are folded into one "(N small frames)" node per parent
// so that a 500k-node profile stays small enough to transfer and draw quickly.
import type { FunctionIndex } from './aggregate';
import { categoryOf, isLibrary, type UserFrames } from './attribution';
import type { Category, FlameNode, NormalizedProfile } from '../model/types';

export const DEFAULT_MIN_FRACTION = 1 / 2000;
const LIBRARIES = '(libraries)';

export interface FlameLabel {
  name: string;
  category: Category;
  file: string;
  line: number;
}

/** A merged call tree: node 0 is the root, parents precede children. */
export class MergedTree {
  readonly parent: number[] = [-1];
  readonly label: number[] = [-1];
  readonly self: number[] = [0];
  readonly selfMs: number[] = [0];
  /** Diff trees only: the baseline's self ms, already scaled to this profile's duration. */
  readonly baseMs: number[] = [0];
  /** Inverted trees, root children only: ms of small callees' samples merged into this function (invertTree). */
  readonly smallCalleesMs: number[] = [0];
  /** "Only my code": ms of library frames folded into this user frame (mergeProfile). */
  readonly libraryMs: number[] = [0];
  private readonly byKey = new Map<number, number>();

  /** `shownLabel`: a label whose nodes are drawn however small (the inverted tree's named remainder). */
  constructor(
    readonly labels: FlameLabel[],
    readonly shownLabel = -1,
  ) {}

  get count(): number {
    return this.parent.length;
  }

  child(parent: number, label: number): number {
    const key = parent * (this.labels.length + 1) + label;
    let node = this.byKey.get(key);
    if (node === undefined) {
      node = this.parent.length;
      this.parent.push(parent);
      this.label.push(label);
      this.self.push(0);
      this.selfMs.push(0);
      this.baseMs.push(0);
      this.smallCalleesMs.push(0);
      this.libraryMs.push(0);
      this.byKey.set(key, node);
    }
    return node;
  }
}

export interface AnalyzedTree {
  profile: NormalizedProfile;
  index: FunctionIndex;
  frames: UserFrames;
}

function labelsOf(index: FunctionIndex): FlameLabel[] {
  const labels: FlameLabel[] = index.functions.map((f) => ({ name: f.name || '(anonymous)', category: f.category, file: f.file, line: f.line }));
  labels.push({ name: LIBRARIES, category: 'dependency', file: '', line: 0 });
  return labels;
}

/**
 * The profile's tree with nodes of one function under one parent merged. With `onlyMyCode`,
 * dependency/node/native frames vanish: their time goes to the nearest user frame above them
 * (or one top-level '(libraries)' node) and the user frames they called hang under it. User code
 * with no user frame above it (a route handler called by express from the event loop) is at the
 * top level: '(libraries)' holds library time alone, never the user's code.
 */
export function mergeProfile({ profile, index, frames }: AnalyzedTree, onlyMyCode: boolean): MergedTree {
  const labels = labelsOf(index);
  const librariesLabel = labels.length - 1;
  const merged = new MergedTree(labels);
  const { tree } = profile;
  const map = new Int32Array(tree.count);
  for (let n = 1; n < tree.count; n++) {
    const f = tree.func[n];
    if (onlyMyCode && isLibrary(categoryOf(profile, index, n))) {
      const user = frames.userAncestor[n];
      map[n] = user !== -1 ? map[user] : merged.child(0, librariesLabel);
    } else {
      const above = map[tree.parent[n]];
      const parent = onlyMyCode && above !== 0 && merged.label[above] === librariesLabel ? 0 : above;
      map[n] = f < 0 ? parent : merged.child(parent, index.canonicalOf[f]);
    }
    merged.self[map[n]] += tree.selfSamples[n];
    merged.selfMs[map[n]] += tree.selfMs[n];
    if (onlyMyCode && map[n] !== 0 && merged.label[map[n]] !== librariesLabel && isLibrary(categoryOf(profile, index, n))) merged.libraryMs[map[n]] += tree.selfMs[n];
  }
  merged.self[0] += tree.selfSamples[0];
  merged.selfMs[0] += tree.selfMs[0];
  return merged;
}

/** The inverted tree's one remainder: samples whose every frame, caller by caller, stayed below the threshold. */
export const SMALL_STACKS = '(small stacks: every function on them below the threshold)';

/**
 * Bottom-up: the root's children are the functions where samples were taken, their children the
 * callers. A function whose samples add up to less than `minFraction` of the whole is not a root of
 * its own (thousands of them used to make one "(6998 small frames)" root block): its samples go to
 * its caller, as that caller's time in small callees (`smallCallees`), smallest first, so a caller
 * that grows past the threshold keeps what was merged into it. Samples whose every caller was
 * small too end in one SMALL_STACKS root node that says so.
 */
export function invertTree(merged: MergedTree, minFraction = 0): MergedTree {
  const labels = [...merged.labels, { name: SMALL_STACKS, category: 'program' as Category, file: '', line: 0 }];
  const smallStacks = labels.length - 1;
  const inverted = new MergedTree(labels, smallStacks);
  let totalMs = merged.selfMs[0];
  // Every merged node with samples is one stack; `start` is where its inverted path begins.
  const stacks: number[] = [];
  for (let n = 1; n < merged.count; n++) {
    if (merged.self[n] === 0 && merged.selfMs[n] === 0) continue;
    stacks.push(n);
    totalMs += merged.selfMs[n];
  }
  const threshold = totalMs * Math.max(0, minFraction);
  const start = new Int32Array(merged.count);
  const valueOf = new Float64Array(labels.length);
  const stacksAt = new Map<number, number[]>();
  for (const n of stacks) {
    start[n] = n;
    const label = merged.label[n];
    valueOf[label] += merged.selfMs[n];
    const list = stacksAt.get(label);
    if (list === undefined) stacksAt.set(label, [n]);
    else list.push(n);
  }
  const dissolved = new Uint8Array(labels.length);
  // Smallest first, so a caller that grows past the threshold keeps what was merged into it;
  // values only grow as callees are merged in, so each round rechecks. A caller that received
  // stacks and is still small is dissolved in the next round (at most the stacks' depth rounds).
  for (;;) {
    const small = [...stacksAt.keys()].filter((label) => valueOf[label] < threshold).sort((a, b) => valueOf[a] - valueOf[b]);
    if (small.length === 0) break;
    for (const label of small) {
      if (valueOf[label] >= threshold) continue;
      dissolved[label] = 1;
      for (const n of stacksAt.get(label) ?? []) {
        let at = merged.parent[start[n]];
        while (at > 0 && dissolved[merged.label[at]] === 1) at = merged.parent[at];
        start[n] = at;
        if (at === 0) continue;
        const caller = merged.label[at];
        valueOf[caller] += merged.selfMs[n];
        const list = stacksAt.get(caller);
        if (list === undefined) stacksAt.set(caller, [n]);
        else list.push(n);
      }
      stacksAt.delete(label);
    }
  }
  for (const n of stacks) {
    let at = 0;
    if (start[n] === 0) at = inverted.child(0, smallStacks);
    for (let m = start[n]; m > 0; m = merged.parent[m]) at = inverted.child(at, merged.label[m]);
    // Every node on the path holds the sample in its subtree; only the outermost caller holds it as self.
    inverted.self[at] += merged.self[n];
    inverted.selfMs[at] += merged.selfMs[n];
    if (start[n] !== n && start[n] !== 0) inverted.smallCalleesMs[inverted.child(0, merged.label[start[n]])] += merged.selfMs[n];
  }
  inverted.self[0] += merged.self[0];
  inverted.selfMs[0] += merged.selfMs[0];
  return inverted;
}

function identity(label: FlameLabel): string {
  return `${label.name}\u0000${label.file}\u0000${label.line}\u0000${label.category}`;
}

/**
 * After and before merged into one tree keyed by function identity. The baseline's ms are
 * scaled by afterDuration / beforeDuration, so a delta is "ms more (or less) over this
 * profile's duration than the baseline spent at the same rate".
 */
export function diffTrees(after: MergedTree, before: MergedTree, scale: number): MergedTree {
  const labels: FlameLabel[] = [];
  const labelOf = new Map<string, number>();
  const intern = (label: FlameLabel): number => {
    const key = identity(label);
    let id = labelOf.get(key);
    if (id === undefined) {
      id = labels.length;
      labels.push(label);
      labelOf.set(key, id);
    }
    return id;
  };
  const afterIds = after.labels.map(intern);
  const beforeIds = before.labels.map(intern);
  const combined = new MergedTree(labels);
  const afterMap = new Int32Array(after.count);
  for (let n = 1; n < after.count; n++) {
    afterMap[n] = combined.child(afterMap[after.parent[n]], afterIds[after.label[n]]);
    combined.self[afterMap[n]] += after.self[n];
    combined.selfMs[afterMap[n]] += after.selfMs[n];
  }
  const beforeMap = new Int32Array(before.count);
  for (let n = 1; n < before.count; n++) {
    beforeMap[n] = combined.child(beforeMap[before.parent[n]], beforeIds[before.label[n]]);
    combined.baseMs[beforeMap[n]] += before.selfMs[n] * scale;
  }
  combined.self[0] += after.self[0];
  combined.selfMs[0] += after.selfMs[0];
  combined.baseMs[0] += before.selfMs[0] * scale;
  return combined;
}

export interface FlameOptions {
  rootName: string;
  minFraction?: number;
  /** Fill `delta` from the tree's baseMs (diff trees). */
  withDelta?: boolean;
}

/**
 * FlameNode objects for d3-flame-graph, values in ms (the time base of every figure, so that a
 * frame's width, its tooltip and the editor's hover agree). Nodes below the threshold are never
 * materialized: each parent gets one "(N small frames)" child holding their summed value.
 */
export function toFlameNodes(merged: MergedTree, options: FlameOptions): FlameNode {
  const count = merged.count;
  const value = Float64Array.from(merged.selfMs);
  const base = Float64Array.from(merged.baseMs);
  for (let n = count - 1; n > 0; n--) {
    const p = merged.parent[n];
    value[p] += value[n];
    base[p] += base[n];
  }
  const minFraction = options.minFraction ?? DEFAULT_MIN_FRACTION;
  const threshold = value[0] * Math.max(0, minFraction);
  const nodes: (FlameNode | null)[] = new Array(count).fill(null);
  // For a folded node: the kept ancestor whose "(small frames)" child absorbs it.
  const foldInto = new Int32Array(count).fill(-1);
  const small = new Map<number, FlameNode>();
  const root: FlameNode = {
    name: options.rootName,
    value: value[0],
    self: merged.selfMs[0],
    category: 'program',
    file: '',
    line: 0,
    children: [],
  };
  if (options.withDelta === true) root.delta = value[0] - base[0];
  nodes[0] = root;
  for (let n = 1; n < count; n++) {
    const p = merged.parent[n];
    const parentNode = nodes[p];
    const kept = parentNode !== null && value[n] > 0 && (value[n] >= threshold || merged.label[n] === merged.shownLabel);
    if (kept) {
      const label = merged.labels[merged.label[n]];
      const node: FlameNode = { name: label.name, value: value[n], self: merged.selfMs[n], category: label.category, file: label.file, line: label.line, children: [] };
      if (options.withDelta === true) node.delta = value[n] - base[n];
      if (merged.smallCalleesMs[n] > 0) node.smallCalleesMs = merged.smallCalleesMs[n];
      if (merged.libraryMs[n] > 0) node.libraryMs = merged.libraryMs[n];
      nodes[n] = node;
      parentNode.children.push(node);
      continue;
    }
    const target = parentNode !== null ? p : foldInto[p];
    foldInto[n] = target;
    let bucket = small.get(target);
    if (bucket === undefined) {
      bucket = { name: '', value: 0, self: 0, category: merged.labels[merged.label[n]].category, file: '', line: 0, collapsed: 0, children: [] };
      if (options.withDelta === true) bucket.delta = 0;
      small.set(target, bucket);
    }
    bucket.collapsed = (bucket.collapsed ?? 0) + 1;
    if (parentNode !== null) {
      // Only the top of a folded subtree adds its value; its descendants are inside it already.
      bucket.value += value[n];
      bucket.self += value[n];
      if (bucket.delta !== undefined) bucket.delta += value[n] - base[n];
    }
  }
  for (const [target, bucket] of small) {
    const parentNode = nodes[target];
    if (parentNode === null) continue;
    bucket.name = `(${bucket.collapsed} small frames)`;
    // A folded subtree whose value is 0 (a diff's "gone" frames) still carries its delta.
    if (bucket.value > 0 || (bucket.delta !== undefined && bucket.delta !== 0)) parentNode.children.push(bucket);
  }
  for (const node of nodes) if (node !== null) node.children.sort((a, b) => b.value - a.value);
  return root;
}
