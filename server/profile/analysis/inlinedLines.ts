// A .cpuprofile reports code TurboFan inlined as the caller's own samples, with `positionTicks`
// lines that are the *callee's* line numbers in the callee's file. Taken as they are, those lines
// put heat in the caller's file on lines outside the caller (a `require` line, blank lines). Here
// every line tick is checked against its function's line range, read from the local source (one
// parse per file): a tick outside it is moved to the inlined callee: a child frame of the same
// node (or a function of the same file) whose range holds that line, else (user code) a function
// of another file the caller calls by a `require`/`import`ed name (charged there and to the call's line);
// only when none is found is it left off the line heat (it stays in the function's self time)
// with a warning. Ticks moved to a callee's frame are also listed (`inlinedCalls`): they are
// samples of the caller's node that ran the callee's code, so the call line that reaches that
// callee is charged with them (callLines.ts), as a V8 log's inlining table charges them.
import { FunctionRanges, type LineRange } from './functionRanges';
import type { TreeShape } from './aggregate';
import type { LineTicks, NormalizedProfile } from '../model/types';

export interface PlacedLines {
  lineTicks: LineTicks[];
  /** Line ticks moved to an inlined callee (of this file or another), and those left off the line heat. */
  moved: number;
  unplaced: number;
  unplacedMs: number;
  /** Ticks moved from the node `caller` (the function TurboFan inlined into) to the frame `callee` of the function whose code they ran. */
  inlinedCalls: InlinedCall[];
}

export interface InlinedCall {
  caller: number;
  callee: number;
  samples: number;
  ms: number;
}

/**
 * The profile's line ticks with every tick inside its function's line range. `localFileOf(f)`
 * is the local file holding function f's recorded line numbers (the generated file when a source
 * map applies), or '' when there is none: such functions are left as they are.
 */
export function placeInlinedLines(profile: NormalizedProfile, shape: TreeShape, localFileOf: (func: number) => string, ranges = new FunctionRanges()): PlacedLines {
  const { tree, functions } = profile;
  const rangeCache = new Map<number, LineRange | null>();
  const rangeOf = (f: number): LineRange | null => {
    let range = rangeCache.get(f);
    if (range === undefined) {
      const file = localFileOf(f);
      const fn = functions[f];
      range = file === '' || fn.line <= 0 ? null : ranges.rangeAt(file, fn.line, fn.column, fn.name);
      rangeCache.set(f, range);
    }
    return range;
  };
  const inRange = (f: number, line: number): boolean => {
    const r = rangeOf(f);
    return r !== null && line >= r.start && line <= r.end;
  };
  // Functions of each file, for a callee inlined from the same file that is not a child frame.
  let byFile: Map<string, number[]> | null = null;
  let nodeOfFunc: Int32Array | null = null;
  const sameFileCallee = (f: number, line: number): number => {
    if (byFile === null || nodeOfFunc === null) {
      byFile = new Map();
      for (let g = 0; g < functions.length; g++) {
        const file = functions[g].url;
        if (file === '') continue;
        const list = byFile.get(file) ?? [];
        list.push(g);
        byFile.set(file, list);
      }
      nodeOfFunc = new Int32Array(functions.length).fill(-1);
      for (let n = tree.count - 1; n >= 1; n--) if (tree.func[n] >= 0) nodeOfFunc[tree.func[n]] = n;
    }
    let best = -1;
    let bestStart = -1;
    const own = rangeOf(f) as LineRange;
    for (const g of byFile.get(functions[f].url) ?? []) {
      if (g === f || nodeOfFunc[g] === -1 || !inRange(g, line)) continue;
      // A function around f (the module's top level holds every line) is no callee inlined into it.
      const range = rangeOf(g) as LineRange;
      if (range.start <= own.start && range.end >= own.end) continue;
      const start = range.start;
      if (start > bestStart) {
        best = nodeOfFunc[g];
        bestStart = start;
      }
    }
    return best;
  };

  // A callee inlined from another file: the one function of that name, holding the line, in a
  // file the caller's own calls reach through a relative require/import. Looked for from user
  // code only (whose call lines are shown): following a library's requires would parse much of it.
  const otherFileCache = new Map<string, LineTicks['inlinedFrom'] | null>();
  const otherFileCallee = (f: number, line: number): LineTicks['inlinedFrom'] | null => {
    const id = `${f}:${line}`;
    let found = otherFileCache.get(id);
    if (found !== undefined) return found;
    found = null;
    const file = localFileOf(f);
    const fn = functions[f];
    for (const call of ranges.callsOf(file, fn.line, fn.column, fn.name)) {
      if (call.module === null) continue;
      const target = ranges.resolveModule(file, call.module);
      if (target === null || target === file || ranges.functionNamed(target, call.name, line) === null) continue;
      if (found !== null && (found.file !== target || found.callLine !== call.line || found.callee !== call.name)) {
        // Two calls could have inlined it: neither is charged.
        found = null;
        break;
      }
      found = { file: target, callLine: call.line, callee: call.name };
    }
    otherFileCache.set(id, found);
    return found;
  };

  const out: LineTicks[] = [];
  const inlinedCalls: InlinedCall[] = [];
  let moved = 0;
  let unplaced = 0;
  let unplacedMs = 0;
  for (const tick of profile.lineTicks) {
    const f = tree.func[tick.node];
    if (f < 0 || rangeOf(f) === null || inRange(f, tick.line)) {
      out.push(tick);
      continue;
    }
    // A child frame whose function holds the line: the callee that was also called un-inlined.
    let target = -1;
    for (let c = shape.childStart[tick.node]; c < shape.childStart[tick.node + 1]; c++) {
      const child = shape.children[c];
      if (tree.func[child] >= 0 && inRange(tree.func[child], tick.line)) {
        target = target === -1 ? child : -2;
      }
    }
    if (target < 0) target = sameFileCallee(f, tick.line);
    const inlinedFrom = target >= 0 || functions[f].category !== 'user' ? null : otherFileCallee(f, tick.line);
    if (target >= 0) {
      out.push({ node: target, line: tick.line, samples: tick.samples, ms: tick.ms });
      inlinedCalls.push({ caller: tick.node, callee: target, samples: tick.samples, ms: tick.ms });
      moved++;
    } else if (inlinedFrom !== null) {
      out.push({ ...tick, inlinedFrom });
      moved++;
    } else {
      unplaced++;
      unplacedMs += tick.ms;
    }
  }
  return { lineTicks: out, moved, unplaced, unplacedMs, inlinedCalls };
}
