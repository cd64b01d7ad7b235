// Call lines: the line in a user function from which a child frame was called, charged with the
// child's total time, so that "this call costs 1.2 s" shows on the line that makes the call. A V8
// log records the line (`exactLine`); a .cpuprofile does not, so the caller's source is read and
// the line is the one call to the child's name in the caller's own body (`fromSource`); a name
// called on several lines, or not at all (a callback, a getter), gives no line.
// A sample counts once per line even when the line's call recurses.
import { percentOf } from '../../shared/format';
import type { FunctionIndex, TreeShape } from './aggregate';
import type { FunctionRanges } from './inlinedLines';
import type { CallLine, NormalizedProfile } from '../model/types';

/** Call lines shown: the most expensive ones. */
const MAX_CALL_LINES = 5000;

export interface CallLineInputs {
  profile: NormalizedProfile;
  index: FunctionIndex;
  shape: TreeShape;
  /** The local file holding function f's recorded lines ('' when none), as for inlined lines. */
  localFileOf: (func: number) => string;
  /** Recorded (func, line) -> the file and line shown (source maps). */
  locateLine: (func: number, line: number) => { file: string; line: number };
  ranges: FunctionRanges;
  /** The profile's CPU time (idle excluded): the denominator of every percent. */
  cpuMs: number;
}

/** The name a call in source uses for a frame: "Module._load" -> "_load", "get x" -> "x". */
export function calledName(frameName: string): string {
  const m = /([A-Za-z_$][\w$]*)$/.exec(frameName);
  return m === null || frameName.startsWith('(') ? '' : m[1];
}

export function callLinesOf({ profile, index, shape, localFileOf, locateLine, ranges, cpuMs }: CallLineInputs): CallLine[] {
  const { tree, functions } = profile;
  const keys = new Map<string, number>();
  const sites: { func: number; file: string; line: number; found: CallLine['found']; samples: number; ms: number; callees: Map<number, number> }[] = [];
  const fromSource = new Map<string, number>();
  /** The call line key of node n (an index in `sites`), or -1. */
  const keyOf = (n: number): number => {
    const p = tree.parent[n];
    if (p <= 0 || tree.func[p] < 0 || tree.func[n] < 0) return -1;
    const caller = tree.func[p];
    const resolved = index.functions[index.canonicalOf[caller]];
    if (resolved.category !== 'user' || !resolved.resolved) return -1;
    let line = tree.callLine[n];
    let found: CallLine['found'] = 'exactLine';
    if (line <= 0) {
      const pair = `${caller}:${tree.func[n]}`;
      let cached = fromSource.get(pair);
      if (cached === undefined) {
        const file = localFileOf(caller);
        const name = calledName(functions[tree.func[n]].name);
        // A function placed by its name (no URL, no line in the profile) is looked up where it was placed.
        const fn = resolved.inferred === true ? resolved : functions[caller];
        cached = file === '' || name === '' ? 0 : ranges.callLineOf(file, fn.line, fn.column, name);
        fromSource.set(pair, cached);
      }
      line = cached;
      found = 'fromSource';
    }
    if (line <= 0) return -1;
    const at = locateLine(caller, line);
    if (at.file === '') return -1;
    const id = `${at.file}\u0000${at.line}`;
    let key = keys.get(id);
    if (key === undefined) {
      key = sites.length;
      keys.set(id, key);
      sites.push({ func: index.canonicalOf[caller], file: at.file, line: at.line, found, samples: 0, ms: 0, callees: new Map() });
    }
    return key;
  };

  // Depth-first, counting a subtree for a line only when no caller above it is on the same line.
  let onLine = new Int32Array(16);
  const stack: number[] = [0];
  const nodeKey = new Int32Array(tree.count).fill(-1);
  while (stack.length > 0) {
    const entry = stack.pop() as number;
    if (entry < 0) {
      const k = nodeKey[-entry - 1];
      if (k >= 0) onLine[k]--;
      continue;
    }
    if (entry > 0) {
      const k = keyOf(entry);
      nodeKey[entry] = k;
      if (k >= 0) {
        if (k >= onLine.length) {
          const grown = new Int32Array(Math.max(16, 2 * (k + 1)));
          grown.set(onLine);
          onLine = grown;
        }
        const site = sites[k];
        if (onLine[k] === 0) {
          site.samples += shape.totalSamples[entry];
          site.ms += shape.totalMs[entry];
        }
        const callee = index.canonicalOf[tree.func[entry]];
        site.callees.set(callee, (site.callees.get(callee) ?? 0) + shape.totalMs[entry]);
        onLine[k]++;
      }
    }
    stack.push(-entry - 1);
    for (let c = shape.childStart[entry]; c < shape.childStart[entry + 1]; c++) stack.push(shape.children[c]);
  }
  return sites
    .filter((s) => s.samples > 0)
    .sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file) || a.line - b.line)
    .slice(0, MAX_CALL_LINES)
    .map((s) => {
      let callee = -1;
      let best = -1;
      for (const [f, ms] of s.callees) if (ms > best) [callee, best] = [f, ms];
      return {
        function: index.functions[s.func].name,
        file: s.file,
        line: s.line,
        callee: callee === -1 ? '' : index.functions[callee].name,
        samples: s.samples,
        ms: s.ms,
        percent: percentOf(s.ms, cpuMs),
        found: s.found,
      };
    });
}
