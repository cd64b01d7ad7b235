// Call lines: the line in a user function from which a child frame was called, charged with the
// child's total time, so that "this call costs 1.2 s" shows on the line that makes the call. A V8
// log records the line (`exactLine`); a .cpuprofile does not, so the caller's source is read and
// the line is the one call to the child's name in the caller's own body whose name can be bound
// to the child (`fromSource`, see functionRanges.ts); a name called on several lines, or not at
// all (a callback, a getter), gives no line. A callee inlined from another file without a frame
// of its own (inlinedLines.ts) charges its ticks to the call that reached it; so do a callee's
// ticks that a .cpuprofile recorded as its caller's samples (inlined) and inlinedLines.ts moved to
// the callee's frame: to the caller's call line of that callee, found from source.
// A sample counts once per line even when the line's call recurses.
import { percentOf } from '../../shared/format';
import type { FunctionIndex, TreeShape } from './aggregate';
import type { FunctionRanges } from './functionRanges';
import type { InlinedCall } from './inlinedLines';
import type { CallLine, LineTicks, NormalizedProfile } from '../model/types';

/** Call lines shown: the most expensive ones. */
const MAX_CALL_LINES = 5000;

export interface SourceInputs {
  profile: NormalizedProfile;
  index: FunctionIndex;
  /** The local file holding function f's recorded lines ('' when none), as for inlined lines. */
  localFileOf: (func: number) => string;
  /** Recorded (func, line) -> the file and line shown (source maps). */
  locateLine: (func: number, line: number) => { file: string; line: number };
  ranges: FunctionRanges;
}

export interface CallLineInputs extends SourceInputs {
  shape: TreeShape;
  /** The line ticks after inlined lines were placed: those charged to a callee of another file carry its call line. */
  lineTicks?: readonly LineTicks[];
  /** Ticks of a caller's node that ran an inlined callee's code, moved to the callee's frame (inlinedLines.ts). */
  inlinedCalls?: readonly InlinedCall[];
  /** The profile's CPU time (idle excluded): the denominator of every percent. */
  cpuMs: number;
  /** Calls read from the source, when the caller already has them (one cache for call lines and insights). */
  source?: SourceCalls;
}

/** The name a call in source uses for a frame: "Module._load" -> "_load", "get x" -> "x". */
export function calledName(frameName: string): string {
  const m = /([A-Za-z_$][\w$]*)$/.exec(frameName);
  return m === null || frameName.startsWith('(') ? '' : m[1];
}

/** Call lines read from the callers' source: for call lines, and for insights placed at a call. */
export interface SourceCalls {
  /** The line (as shown, after source maps) of the one call `caller` makes to the frame `callee`, or null. */
  callLineOf(caller: number, callee: number): { file: string; line: number } | null;
  /** The calls `caller` makes itself, with the module each called name is bound to, at the lines shown. */
  callsOf(caller: number): { name: string; module: string | null; file: string; line: number }[];
}

export function sourceCalls({ profile, index, localFileOf, locateLine, ranges }: SourceInputs): SourceCalls {
  const { functions } = profile;
  const cache = new Map<string, { file: string; line: number } | null>();
  /** Where function f is looked up: a function placed by its name (no URL, no line in the profile) where it was placed. */
  const placeOf = (f: number): { line: number; column: number } => {
    const resolved = index.functions[index.canonicalOf[f]];
    return resolved.inferred === true ? resolved : functions[f];
  };
  return {
    callLineOf(caller, callee) {
      const pair = `${caller}:${callee}`;
      let found = cache.get(pair);
      if (found !== undefined) return found;
      found = null;
      const file = localFileOf(caller);
      const name = calledName(functions[callee].name);
      if (file !== '' && name !== '') {
        const at = placeOf(caller);
        const to = placeOf(callee);
        const category = functions[callee].category;
        const builtin = category === 'node' || category === 'native' || functions[callee].url.startsWith('node:');
        const line = ranges.callLineOf(file, at.line, at.column, { name, localFile: localFileOf(callee), line: to.line, column: to.column, builtin }, functions[caller].name);
        if (line > 0) {
          const shown = locateLine(caller, line);
          if (shown.file !== '') found = shown;
        }
      }
      cache.set(pair, found);
      return found;
    },
    callsOf(caller) {
      const file = localFileOf(caller);
      if (file === '') return [];
      const at = placeOf(caller);
      return ranges.callsOf(file, at.line, at.column, functions[caller].name).map((call) => ({ name: call.name, module: call.module, ...locateLine(caller, call.line) }));
    },
  };
}

export function callLinesOf(inputs: CallLineInputs): CallLine[] {
  const { profile, index, shape, locateLine, cpuMs } = inputs;
  const { tree } = profile;
  const source = inputs.source ?? sourceCalls(inputs);
  const keys = new Map<string, number>();
  type Callee = { samples: number; ms: number; open: number };
  const sites: { func: number; caller: number; file: string; line: number; found: CallLine['found']; samples: number; ms: number; callees: Map<string, Callee> }[] = [];
  /** Charges a subtree to one callee of a line, once per sample (no open call to the same callee above it on the line). */
  const enterCallee = (site: (typeof sites)[number], name: string, samples: number, ms: number): Callee => {
    let callee = site.callees.get(name);
    if (callee === undefined) {
      callee = { samples: 0, ms: 0, open: 0 };
      site.callees.set(name, callee);
    }
    if (callee.open === 0) {
      callee.samples += samples;
      callee.ms += ms;
    }
    return callee;
  };
  const isUserCaller = (caller: number): boolean => {
    const resolved = index.functions[index.canonicalOf[caller]];
    return resolved.category === 'user' && resolved.resolved;
  };
  const siteKey = (caller: number, at: { file: string; line: number }, found: CallLine['found']): number => {
    const id = `${at.file}\u0000${at.line}`;
    let key = keys.get(id);
    if (key === undefined) {
      key = sites.length;
      keys.set(id, key);
      sites.push({ func: index.canonicalOf[caller], caller, file: at.file, line: at.line, found, samples: 0, ms: 0, callees: new Map() });
    }
    return key;
  };
  /** The call line key of node n (an index in `sites`), or -1. */
  const keyOf = (n: number): number => {
    const p = tree.parent[n];
    if (p <= 0 || tree.func[p] < 0 || tree.func[n] < 0) return -1;
    const caller = tree.func[p];
    if (!isUserCaller(caller)) return -1;
    const line = tree.callLine[n];
    if (line > 0) {
      const at = locateLine(caller, line);
      return at.file === '' ? -1 : siteKey(caller, at, 'exactLine');
    }
    const at = source.callLineOf(caller, tree.func[n]);
    return at === null ? -1 : siteKey(caller, at, 'fromSource');
  };
  // Self time of a node that is a callee inlined from another file (no frame of its own): its call line's.
  const inlined = new Map<number, { key: number; callee: string; samples: number; ms: number }[]>();
  for (const tick of inputs.lineTicks ?? []) {
    const caller = tree.func[tick.node];
    if (tick.inlinedFrom === undefined || caller < 0 || !isUserCaller(caller)) continue;
    const at = locateLine(caller, tick.inlinedFrom.callLine);
    if (at.file === '') continue;
    const list = inlined.get(tick.node) ?? [];
    list.push({ key: siteKey(caller, at, 'fromSource'), callee: tick.inlinedFrom.callee, samples: tick.samples, ms: tick.ms });
    inlined.set(tick.node, list);
  }
  for (const call of inputs.inlinedCalls ?? []) {
    const caller = tree.func[call.caller];
    const callee = tree.func[call.callee];
    if (caller < 0 || callee < 0 || !isUserCaller(caller)) continue;
    const at = source.callLineOf(caller, callee);
    if (at === null) continue;
    const list = inlined.get(call.caller) ?? [];
    list.push({ key: siteKey(caller, at, 'fromSource'), callee: index.functions[index.canonicalOf[callee]].name, samples: call.samples, ms: call.ms });
    inlined.set(call.caller, list);
  }

  // Depth-first, counting a subtree for a line only when no caller above it is on the same line.
  let onLine = new Int32Array(16);
  const stack: number[] = [0];
  const nodeKey = new Int32Array(tree.count).fill(-1);
  /** The callee entry each node opened on its line (closed when its subtree is done). */
  const nodeCallee: (Callee | undefined)[] = new Array(tree.count);
  while (stack.length > 0) {
    const entry = stack.pop() as number;
    if (entry < 0) {
      const k = nodeKey[-entry - 1];
      if (k >= 0) onLine[k]--;
      const callee = nodeCallee[-entry - 1];
      if (callee !== undefined) callee.open--;
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
        const callee = enterCallee(site, index.functions[index.canonicalOf[tree.func[entry]]].name, shape.totalSamples[entry], shape.totalMs[entry]);
        callee.open++;
        nodeCallee[entry] = callee;
        onLine[k]++;
      }
      for (const call of inlined.get(entry) ?? []) {
        if (call.key >= onLine.length) {
          const grown = new Int32Array(Math.max(16, 2 * (call.key + 1)));
          grown.set(onLine);
          onLine = grown;
        }
        const site = sites[call.key];
        if (onLine[call.key] === 0) {
          site.samples += call.samples;
          site.ms += call.ms;
        }
        enterCallee(site, call.callee, call.samples, call.ms);
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
      const calls = [...s.callees]
        .filter(([, c]) => c.samples > 0)
        .map(([callee, c]) => ({ callee, samples: c.samples, ms: c.ms, percent: percentOf(c.ms, cpuMs) }))
        .sort((a, b) => b.ms - a.ms || a.callee.localeCompare(b.callee));
      // Calls the source writes on this line: more than the callees measured, and the figure cannot be one call's.
      const written = source.callsOf(s.caller).filter((c) => c.file === s.file && c.line === s.line).length;
      return {
        function: index.functions[s.func].name,
        file: s.file,
        line: s.line,
        callee: calls[0]?.callee ?? '',
        samples: s.samples,
        ms: s.ms,
        percent: percentOf(s.ms, cpuMs),
        found: s.found,
        calls,
        ...(written > calls.length ? { untold: true } : {}),
      };
    });
}
