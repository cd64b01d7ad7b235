// What stalls.ts needs to know about each node of an analyzed profile: whether its sample left
// the event loop blocked, and the user line on top of its stack.
// The line is the innermost user frame's: the line it called the blocking frame from (recorded by
// a V8 log; for a .cpuprofile the one call to that name in the caller's source, as call lines are
// found, or the line holding the literal of a `RegExp: <pattern>` frame), else, when the user
// code itself was on top, its line with the most self time in that frame, else its function's line.
import type { FunctionIndex } from './aggregate';
import type { UserFrames } from './attribution';
import type { SourceCalls } from './callLines';
import type { FunctionRanges } from './functionRanges';
import type { SourceLineReader } from './insights';
import { analyzeStalls, LoopState, type SampleSite, type StallReport } from './stalls';
import type { Category, LineTicks, NormalizedProfile } from '../model/types';

/** Categories of frames that run JavaScript (a script's function): on the stack, the loop is not running. */
const JAVASCRIPT: ReadonlySet<Category> = new Set<Category>(['user', 'dependency', 'node']);
/** Frames that run the main module (and its requires) or the preloaded ones: start-up, before serving. */
const STARTUP = /^(?:node:)?internal\/(?:modules\/run_main|process\/pre_execution)$/;
/** A regular expression's frame in a .cpuprofile: `RegExp: ^(a+)+$`. */
const REGEXP_FRAME = /^RegExp: ([\s\S]+)$/;

export interface StallSources {
  profile: NormalizedProfile;
  index: FunctionIndex;
  frames: UserFrames;
  locateLine: (func: number, line: number) => { file: string; line: number };
  localFileOf: (func: number) => string;
  calls: SourceCalls;
  ranges: FunctionRanges;
  readLine: SourceLineReader;
  /** Line ticks as the report placed them (inlined callees' lines in their own file). */
  lineTicks: readonly LineTicks[];
}

/** The stalls of an analyzed CPU profile, or null when its format keeps no sample order (or it is not CPU time). */
export function stallsOf(sources: StallSources, thresholdMs: number, routeOf?: (node: number) => string | null): StallReport | null {
  const { profile } = sources;
  if (profile.timeline === undefined || (profile.unit !== undefined && profile.unit !== 'ms')) return null;
  const facts = nodeFactsOf(sources);
  return analyzeStalls({
    timeline: profile.timeline,
    stateOf: (n) => facts.state[n] as LoopState,
    siteOf: facts.siteOf,
    startupOf: (n) => facts.loader[n] === 1,
    ...(routeOf !== undefined ? { routeOf } : {}),
    thresholdMs,
  });
}

/** What stalls need of each node, whatever the threshold and the routes. */
interface NodeFacts {
  state: Uint8Array;
  loader: Uint8Array;
  siteOf: (node: number) => SampleSite | null;
}

/**
 * Kept per analyzed profile: the editor asks for its stalls with the load (with routes) and again
 * for the flame graph's strip and the CLI for another threshold; the nodes' states, lines and
 * sites stay the same.
 */
const nodeFacts = new WeakMap<StallSources, NodeFacts>();

function nodeFactsOf(sources: StallSources): NodeFacts {
  const known = nodeFacts.get(sources);
  if (known !== undefined) return known;
  const { tree } = sources.profile;
  const { index } = sources;
  const categoryOf = (n: number): Category => (tree.func[n] < 0 ? 'program' : index.functions[index.canonicalOf[tree.func[n]]].category);
  const javascript = new Uint8Array(tree.count);
  const loader = new Uint8Array(tree.count);
  const state = new Uint8Array(tree.count).fill(LoopState.Loop);
  for (let n = 1; n < tree.count; n++) {
    const p = tree.parent[n];
    const category = categoryOf(n);
    javascript[n] = javascript[p] === 1 || JAVASCRIPT.has(category) ? 1 : 0;
    const f = tree.func[n];
    loader[n] = loader[p] === 1 || (f >= 0 && STARTUP.test(index.functions[index.canonicalOf[f]].file)) ? 1 : 0;
    state[n] = category === 'idle' ? LoopState.Loop : javascript[n] === 1 ? LoopState.Busy : category === 'gc' ? LoopState.Neutral : LoopState.Loop;
  }
  let selfLine: Int32Array | null = null;
  const sites = new Map<number, SampleSite | null>();
  const siteOf = (n: number): SampleSite | null => {
    let site = sites.get(n);
    if (site === undefined) {
      selfLine ??= heaviestLines(sources);
      site = sampleSite(sources, n, selfLine);
      sites.set(n, site);
    }
    return site;
  };
  const facts = { state, loader, siteOf };
  nodeFacts.set(sources, facts);
  return facts;
}

/**
 * Per node, the index in `lineTicks` of its line with the most self time (the first of equals), or
 * -1; located (source maps, inlined placement) only for the nodes a stall asks about.
 */
function heaviestLines(sources: StallSources): Int32Array {
  const { tree } = sources.profile;
  const { lineTicks } = sources;
  const best = new Int32Array(tree.count).fill(-1);
  for (let t = 0; t < lineTicks.length; t++) {
    const tick = lineTicks[t];
    const current = best[tick.node];
    if (current !== -1 && lineTicks[current].ms >= tick.ms) continue;
    if (tree.func[tick.node] < 0) continue;
    best[tick.node] = t;
  }
  return best;
}

/** Where a node's heaviest line is shown, or undefined when it has none. */
function selfLineOf(sources: StallSources, selfLine: Int32Array, n: number): { file: string; line: number } | undefined {
  const t = selfLine[n];
  if (t === -1) return undefined;
  const tick = sources.lineTicks[t];
  return tick.inlinedFrom !== undefined ? { file: tick.inlinedFrom.file, line: tick.line } : sources.locateLine(sources.profile.tree.func[n], tick.line);
}

function sampleSite(sources: StallSources, n: number, selfLine: Int32Array): SampleSite | null {
  const { profile, index, frames } = sources;
  const { tree } = profile;
  const u = frames.userAncestor[n];
  if (u === -1) return null;
  const caller = tree.func[u];
  const user = index.functions[index.canonicalOf[caller]];
  if (!user.resolved || user.file === '') return null;
  const site = (file: string, line: number, call: string, found: SampleSite['found']): SampleSite => ({
    key: `${file}\u0000${line}`,
    file,
    line,
    function: user.name || '(anonymous)',
    call,
    found,
  });
  if (u === n) {
    const at = selfLineOf(sources, selfLine, n);
    return at !== undefined ? site(at.file, at.line, '', 'selfLine') : site(user.file, user.line, '', 'functionLine');
  }
  // The frame the user function called on the way to this sample.
  let c = frames.entry[n];
  if (c === -1) for (c = n; tree.parent[c] !== u; c = tree.parent[c]);
  const callee = tree.func[c];
  const call = index.functions[index.canonicalOf[callee]].name;
  if (tree.callLine[c] > 0) {
    const at = sources.locateLine(caller, tree.callLine[c]);
    if (at.file !== '') return site(at.file, at.line, call, 'exactLine');
  }
  const found = sources.calls.callLineOf(caller, callee);
  if (found !== null) return site(found.file, found.line, call, 'fromSource');
  const literal = regexpLine(sources, caller, call);
  if (literal !== null) return site(literal.file, literal.line, call, 'fromSource');
  return site(user.file, user.line, call, 'functionLine');
}

/** The one line of the caller's function holding the literal `/pattern/` of a `RegExp: pattern` frame. */
function regexpLine(sources: StallSources, caller: number, call: string): { file: string; line: number } | null {
  const pattern = REGEXP_FRAME.exec(call)?.[1];
  const file = sources.localFileOf(caller);
  if (pattern === undefined || file === '') return null;
  const fn = sources.profile.functions[caller];
  const range = sources.ranges.rangeAt(file, fn.line, fn.column, fn.name);
  if (range === null) return null;
  let found = 0;
  for (let line = range.start; line <= range.end; line++) {
    if (!(sources.readLine(file, line) ?? '').includes(`/${pattern}/`)) continue;
    if (found !== 0) return null;
    found = line;
  }
  return found === 0 ? null : sources.locateLine(caller, found);
}
