// A .cpuprofile reports code TurboFan inlined as the caller's own samples, with `positionTicks`
// lines that are the *callee's* line numbers in the callee's file. Taken as they are, those lines
// put heat in the caller's file on lines outside the caller (a `require` line, blank lines). Here
// every line tick is checked against its function's line range, read from the local source (one
// parse per file): a tick outside it is moved to the inlined callee, i.e. a child frame of the
// same node (or a function of the same file) whose range holds that line, and otherwise left off
// the line heat (it stays in the function's self time) with a warning.
import type * as t from '@babel/types';
import { isFunction } from '@babel/types';

import { tryReadGuardedText } from '../../shared/guardedRead';
import { parseSource } from '../../static/parse';
import { forEachChild } from '../../static/walk';
import type { TreeShape } from './aggregate';
import type { LineTicks, NormalizedProfile } from '../model/types';

/** Source files bigger than this are not parsed for ranges (generated bundles, data). */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

export interface LineRange {
  start: number;
  end: number;
}

interface FunctionSpan {
  /** 1-based line and 0-based column of the node's start, and of its body's start. */
  startLine: number;
  startColumn: number;
  bodyLine: number;
  bodyColumn: number;
  endLine: number;
  /** Calls made by the function itself (not by functions nested in it): callee name -> lines. */
  calls: Map<string, number[]>;
}

const before = (line: number, column: number, l2: number, c2: number): boolean => line < l2 || (line === l2 && column < c2);

/** Line ranges of functions in local files, each file read and parsed once. */
export class FunctionRanges {
  private readonly files = new Map<string, FunctionSpan[] | null>();

  /**
   * The line range of the function V8 places at (line, column) (1-based both: V8 points at the
   * parameter list), or null when the file cannot be read or no function has its header there.
   */
  rangeAt(file: string, line: number, column: number): LineRange | null {
    const best = this.spanAt(file, line, column);
    return best === null ? null : { start: best.startLine, end: best.endLine };
  }

  /**
   * The line of the one call the function at (line, column) makes to `callee` (by the name it is
   * called by: `f()`, `x.f()`, `new F()`), or 0 when there is none or more than one.
   */
  callLineOf(file: string, line: number, column: number, callee: string): number {
    const span = this.spanAt(file, line, column);
    const lines = span?.calls.get(callee);
    return lines !== undefined && lines.length === 1 ? lines[0] : 0;
  }

  private spanAt(file: string, line: number, column: number): FunctionSpan | null {
    const spans = this.spansOf(file);
    if (spans === null || line <= 0) return null;
    // V8 places a CommonJS module's own code, which is no function in the source, at 1:1.
    if (line === 1 && column <= 1 && spans.length > 0 && spans[0].startColumn === -1) return spans[0];
    const col = column - 1;
    let best: FunctionSpan | null = null;
    for (const s of spans) {
      // The position lies in the function's header: at or after its start, before its body.
      if (before(line, col, s.startLine, s.startColumn) || !before(line, col, s.bodyLine, s.bodyColumn + 1)) continue;
      if (best === null || before(best.startLine, best.startColumn, s.startLine, s.startColumn)) best = s;
    }
    return best;
  }

  private spansOf(file: string): FunctionSpan[] | null {
    let spans = this.files.get(file);
    if (spans !== undefined) return spans;
    spans = null;
    // The file comes from the profile (mapped into the read scope): read it the one guarded way.
    const text = tryReadGuardedText(file, MAX_SOURCE_BYTES);
    if (text !== null) {
      const { ast } = parseSource(file, text);
      if (ast !== null) spans = collectSpans(ast);
    }
    this.files.set(file, spans);
    return spans;
  }
}

function collectSpans(ast: t.File): FunctionSpan[] {
  // The first span is the file's top level (column -1: no function header to match).
  const endLine = ast.loc?.end.line ?? 1;
  const program: FunctionSpan = { startLine: 1, startColumn: -1, bodyLine: 1, bodyColumn: -1, endLine, calls: new Map() };
  const spans: FunctionSpan[] = [program];
  // Each node with the span of the function it is in.
  const stack: { node: t.Node; owner: FunctionSpan | null }[] = [{ node: ast, owner: program }];
  while (stack.length > 0) {
    const { node, owner: outer } = stack.pop() as { node: t.Node; owner: FunctionSpan | null };
    let owner = outer;
    if (isFunction(node) && node.loc && node.body.loc) {
      owner = {
        startLine: node.loc.start.line,
        startColumn: node.loc.start.column,
        bodyLine: node.body.loc.start.line,
        bodyColumn: node.body.loc.start.column,
        endLine: node.loc.end.line,
        calls: new Map(),
      };
      spans.push(owner);
    }
    if (owner !== null && (node.type === 'CallExpression' || node.type === 'NewExpression' || node.type === 'OptionalCallExpression') && node.loc) {
      const name = calleeName(node.callee);
      if (name !== '') {
        const lines = owner.calls.get(name) ?? [];
        // One call per line counts once: `f(f(x))` is still one line.
        if (!lines.includes(node.loc.start.line)) lines.push(node.loc.start.line);
        owner.calls.set(name, lines);
      }
    }
    forEachChild(node, (child) => {
      stack.push({ node: child, owner });
    });
  }
  return spans;
}

/** `f` for `f()`, `a.b.f()`, `a?.f()`, `new F()`; '' for computed callees. */
function calleeName(callee: t.Node): string {
  if (callee.type === 'Identifier') return callee.name;
  if ((callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression') && !callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return '';
}

export interface PlacedLines {
  lineTicks: LineTicks[];
  /** Line ticks moved to an inlined callee, and those left off the line heat. */
  moved: number;
  unplaced: number;
  unplacedMs: number;
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
      range = file === '' || fn.line <= 0 ? null : ranges.rangeAt(file, fn.line, fn.column);
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

  const out: LineTicks[] = [];
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
    if (target >= 0) {
      out.push({ node: target, line: tick.line, samples: tick.samples, ms: tick.ms });
      moved++;
    } else {
      unplaced++;
      unplacedMs += tick.ms;
    }
  }
  return { lineTicks: out, moved, unplaced, unplacedMs };
}
