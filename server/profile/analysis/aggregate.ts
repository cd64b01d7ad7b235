// Sums a normalized profile into per-function, per-line and per-category costs. A function's
// total counts each sample once even when the function is on the stack several times
// (recursion): a function can never cost more than the whole profile.
import { percentOf } from '../../shared/format';
import { CATEGORIES, type Category, type CategoryCost, type CallTree, type FunctionCost, type LineCost, type NormalizedProfile } from '../model/types';

/** A function after path mapping and source maps; several profile functions can merge into one. */
export interface ResolvedFunction {
  name: string;
  file: string;
  line: number;
  column: number;
  category: Category;
  resolved: boolean;
  /** Placed by its name: the profile recorded no URL (see inferLocations.ts). */
  inferred?: boolean;
}

export interface FunctionIndex {
  /** Profile function index -> index into `functions`. */
  canonicalOf: Int32Array;
  functions: ResolvedFunction[];
}

/** Children lists (CSR) and subtree totals of the call tree. */
export interface TreeShape {
  childStart: Int32Array; // children of n: children[childStart[n] .. childStart[n + 1])
  children: Int32Array;
  totalSamples: Float64Array;
  totalMs: Float64Array;
}

export interface Aggregates {
  /** The denominator of every percentage: ms of every sample that was not idle. */
  cpuMs: number;
  /** One entry per resolved function, indexed like FunctionIndex.functions (unsorted). */
  functions: FunctionCost[];
  categories: Record<Category, CategoryCost>;
  /** Every (file, line) with self samples, most expensive first. */
  lines: LineCost[];
}

/** Maps a (profile function, line of its generated file) to the line of the source to show. */
export type LineLocator = (func: number, line: number) => { file: string; line: number };

/** Merges profile functions that resolve to the same name and location (e.g. two bundles of one source). */
export function indexFunctions(profile: NormalizedProfile, locate: (func: number) => ResolvedFunction): FunctionIndex {
  const canonicalOf = new Int32Array(profile.functions.length);
  const functions: ResolvedFunction[] = [];
  const byKey = new Map<string, number>();
  for (let f = 0; f < profile.functions.length; f++) {
    const resolved = locate(f);
    const key = `${resolved.name}\u0000${resolved.file}\u0000${resolved.line}\u0000${resolved.column}\u0000${resolved.category}`;
    let index = byKey.get(key);
    if (index === undefined) {
      index = functions.length;
      functions.push(resolved);
      byKey.set(key, index);
    }
    canonicalOf[f] = index;
  }
  return { canonicalOf, functions };
}

export function shapeOf(tree: CallTree): TreeShape {
  const { count, parent } = tree;
  const childStart = new Int32Array(count + 1);
  for (let n = 1; n < count; n++) childStart[parent[n] + 1]++;
  for (let n = 0; n < count; n++) childStart[n + 1] += childStart[n];
  const fill = childStart.slice(0, count);
  const children = new Int32Array(Math.max(0, count - 1));
  for (let n = 1; n < count; n++) children[fill[parent[n]]++] = n;
  const totalSamples = Float64Array.from(tree.selfSamples.subarray(0, count));
  const totalMs = Float64Array.from(tree.selfMs.subarray(0, count));
  // Parents precede children, so one backward pass sums every subtree.
  for (let n = count - 1; n > 0; n--) {
    totalSamples[parent[n]] += totalSamples[n];
    totalMs[parent[n]] += totalMs[n];
  }
  return { childStart, children, totalSamples, totalMs };
}

function emptyCategories(): Record<Category, CategoryCost> {
  const result = {} as Record<Category, CategoryCost>;
  for (const category of CATEGORIES) result[category] = { samples: 0, ms: 0, percent: category === 'idle' ? null : 0 };
  return result;
}

/** Time spent doing something: every category but idle. The one denominator of a profile's shares. */
export function cpuTimeMs(categories: Record<Category, CategoryCost>): number {
  let ms = 0;
  for (const category of CATEGORIES) if (category !== 'idle') ms += categories[category].ms;
  return ms;
}

export function aggregate(profile: NormalizedProfile, index: FunctionIndex, shape: TreeShape, locateLine: LineLocator): Aggregates {
  const { tree } = profile;
  const costs: FunctionCost[] = index.functions.map((f) => ({
    name: f.name,
    file: f.file,
    line: f.line,
    column: f.column,
    selfSamples: 0,
    totalSamples: 0,
    selfMs: 0,
    totalMs: 0,
    selfPercent: null,
    totalPercent: null,
    category: f.category,
    ...(f.inferred === true ? { inferred: true } : {}),
  }));
  const categories = emptyCategories();
  for (let n = 0; n < tree.count; n++) {
    const self = tree.selfSamples[n];
    if (self === 0) continue;
    const func = tree.func[n];
    if (func < 0) {
      // Samples on the root itself carry no frame: the VM was running something unnamed.
      categories.program.samples += self;
      categories.program.ms += tree.selfMs[n];
      continue;
    }
    const cost = costs[index.canonicalOf[func]];
    cost.selfSamples += self;
    cost.selfMs += tree.selfMs[n];
    categories[cost.category].samples += self;
    categories[cost.category].ms += tree.selfMs[n];
  }
  addTotalsOncePerFunction(tree, index, shape, costs);
  // Shares come from time, never from sample counts: samples differ in length (idle and GC
  // samples are far longer), so a count share would rank frames differently from their ms.
  const cpuMs = cpuTimeMs(categories);
  for (const category of CATEGORIES) if (category !== 'idle') categories[category].percent = percentOf(categories[category].ms, cpuMs);
  for (const cost of costs) {
    if (cost.category === 'idle') continue;
    cost.selfPercent = percentOf(cost.selfMs, cpuMs);
    cost.totalPercent = percentOf(cost.totalMs, cpuMs);
  }
  return { cpuMs, functions: costs, categories, lines: lineCosts(profile, locateLine, cpuMs) };
}

/**
 * A node's subtree counts towards its function only when no ancestor is the same function:
 * the outermost frame of a recursion already contains the inner ones.
 */
function addTotalsOncePerFunction(tree: CallTree, index: FunctionIndex, shape: TreeShape, costs: FunctionCost[]): void {
  const onStack = new Int32Array(index.functions.length);
  const stack = new Int32Array(2 * tree.count + 1);
  let top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const entry = stack[--top];
    if (entry < 0) {
      const node = -entry - 1;
      const f = tree.func[node];
      if (f >= 0) onStack[index.canonicalOf[f]]--;
      continue;
    }
    const f = tree.func[entry];
    if (f >= 0) {
      const canonical = index.canonicalOf[f];
      if (onStack[canonical] === 0) {
        costs[canonical].totalSamples += shape.totalSamples[entry];
        costs[canonical].totalMs += shape.totalMs[entry];
      }
      onStack[canonical]++;
    }
    stack[top++] = -entry - 1;
    for (let c = shape.childStart[entry]; c < shape.childStart[entry + 1]; c++) stack[top++] = shape.children[c];
  }
}

function lineCosts(profile: NormalizedProfile, locateLine: LineLocator, cpuMs: number): LineCost[] {
  // Looked up per tick by file, then line: a `${file}\0${line}` key per tick was a new string
  // hashed in full (a long url) for each of a big profile's hundreds of thousands of ticks.
  const byFile = new Map<string, Map<number, LineCost>>();
  const costs: LineCost[] = [];
  for (const tick of profile.lineTicks) {
    const func = profile.tree.func[tick.node];
    if (func < 0 || tick.line <= 0) continue;
    // A callee inlined from another file: its line is in that file as it is.
    const { file, line } = tick.inlinedFrom === undefined ? locateLine(func, tick.line) : { file: tick.inlinedFrom.file, line: tick.line };
    if (file === '') continue;
    let byLine = byFile.get(file);
    if (byLine === undefined) {
      byLine = new Map();
      byFile.set(file, byLine);
    }
    let cost = byLine.get(line);
    if (cost === undefined) {
      cost = { file, line, selfSamples: 0, selfMs: 0, percent: 0 };
      byLine.set(line, cost);
      costs.push(cost);
    }
    cost.selfSamples += tick.samples;
    cost.selfMs += tick.ms;
  }
  for (const cost of costs) cost.percent = percentOf(cost.selfMs, cpuMs);
  return costs.sort((a, b) => b.selfMs - a.selfMs || a.file.localeCompare(b.file) || a.line - b.line);
}
