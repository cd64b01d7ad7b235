// Callers and callees of one function (the "sandwich"): every path that leads to it, merged into
// one inverted tree, and everything it calls, merged into one tree, each node with self and total
// in the profile's unit. Recursion is counted once: only the outermost frames of the function on a
// stack (those with no frame of it further up) are taken, so its total here is its total in the
// hot functions list (aggregate.ts counts each sample once per function) and the callers' paths
// add up to it; recursive calls appear inside the callees tree as what they are.
import type { FunctionIndex, TreeShape } from './aggregate';
import type { Category, NormalizedProfile } from '../model/types';

export interface SandwichNode {
  name: string;
  category: Category;
  file: string;
  /** The function's own line. */
  line: number;
  /**
   * Callers tree: the lines of this caller from which the frame below it was called, as the
   * format records them (V8 log) or, when it does not (.cpuprofile), the one call to that frame
   * in the caller's source (`callLineOf`, as the call lines of the report find it); empty when
   * neither tells.
   */
  callLines: number[];
  /** Callees tree: time in this function at this place itself; callers tree: 0. */
  selfMs: number;
  /** Time under this node: for a caller, the target's time reached through this path. */
  totalMs: number;
  children: SandwichNode[];
}

export interface Sandwich {
  /** Every resolved function the question matched (one, unless several share the name and place). */
  target: { name: string; category: Category; file: string; line: number };
  /** Self time of every frame of the function (recursive ones included). */
  selfMs: number;
  /** Time with the function on the stack, each sample once. */
  totalMs: number;
  /** Root = the function; its children are its direct callers, theirs their callers, and so on. */
  callers: SandwichNode;
  /** Root = the function; its children are what it calls. */
  callees: SandwichNode;
}

interface Building {
  func: number;
  callLines: Set<number>;
  selfMs: number;
  totalMs: number;
  children: Map<string, Building>;
}

function building(func: number): Building {
  return { func, callLines: new Set(), selfMs: 0, totalMs: 0, children: new Map() };
}

/** The child of `parent` for function `func` (frames of one function under one parent merge, as in the flame graph). */
function childOf(parent: Building, func: number, callLine: number): Building {
  const key = String(func);
  let child = parent.children.get(key);
  if (child === undefined) {
    child = building(func);
    parent.children.set(key, child);
  }
  if (callLine > 0) child.callLines.add(callLine);
  return child;
}

/**
 * Where a caller's call to its callee is, in the caller's file as shown: `caller` and `callee`
 * are profile functions, `recorded` the line the format recorded (0: none). 0 when unknown.
 */
export type CallLineOf = (caller: number, callee: number, recorded: number) => number;

/** The callers and callees of the resolved functions `targets` (indexes into `index.functions`). */
export function sandwichOf(profile: NormalizedProfile, index: FunctionIndex, shape: TreeShape, targets: ReadonlySet<number>, callLineOf: CallLineOf = (_caller, _callee, recorded) => recorded): Sandwich {
  const { tree } = profile;
  const canonical = (node: number): number => index.canonicalOf[tree.func[node]];
  // Parents precede children: whether a frame of the targets is above each node, in one pass.
  const below = new Uint8Array(tree.count); // 1: a target frame is this node or above it
  const outermost: number[] = [];
  let selfMs = 0;
  for (let n = 1; n < tree.count; n++) {
    const isTarget = targets.has(canonical(n));
    if (isTarget) selfMs += tree.selfMs[n];
    if (isTarget && below[tree.parent[n]] === 0) outermost.push(n);
    below[n] = isTarget || below[tree.parent[n]] === 1 ? 1 : 0;
  }
  const first = targets.values().next().value as number;
  const callers = building(first);
  const callees = building(first);
  for (const n of outermost) {
    const total = shape.totalMs[n];
    callers.totalMs += total;
    callees.totalMs += total;
    // Up: each ancestor is a caller, reached from the line its child records.
    let at = callers;
    for (let child = n, p = tree.parent[n]; p > 0; child = p, p = tree.parent[p]) {
      at = childOf(at, canonical(p), tree.func[child] < 0 || tree.func[p] < 0 ? 0 : callLineOf(tree.func[p], tree.func[child], tree.callLine[child]));
      at.totalMs += total;
    }
    // Down: the subtree merged by function under the root.
    callees.selfMs += tree.selfMs[n];
    const stack: [number, Building][] = [];
    for (let c = shape.childStart[n]; c < shape.childStart[n + 1]; c++) stack.push([shape.children[c], callees]);
    while (stack.length > 0) {
      const [node, parent] = stack.pop()!;
      const merged = childOf(parent, canonical(node), 0);
      merged.selfMs += tree.selfMs[node];
      merged.totalMs += shape.totalMs[node];
      for (let c = shape.childStart[node]; c < shape.childStart[node + 1]; c++) stack.push([shape.children[c], merged]);
    }
  }
  const toNode = (b: Building): SandwichNode => {
    const f = index.functions[b.func];
    return {
      name: f.name || '(anonymous)',
      category: f.category,
      file: f.file,
      line: f.line,
      callLines: [...b.callLines].sort((x, y) => x - y),
      selfMs: b.selfMs,
      totalMs: b.totalMs,
      children: [...b.children.values()].map(toNode).sort((x, y) => y.totalMs - x.totalMs || x.name.localeCompare(y.name)),
    };
  };
  const target = index.functions[first];
  return {
    target: { name: target.name || '(anonymous)', category: target.category, file: target.file, line: target.line },
    selfMs,
    totalMs: callers.totalMs,
    callers: toNode(callers),
    callees: toNode(callees),
  };
}

/**
 * The resolved functions a question names: `name`, or `name:file` where `file` is the end of the
 * function's path (`messages.js`, `routes/stats.js`). Several functions may share a name in one
 * file; each is its own answer, so the caller decides what to do with several.
 */
export function functionsNamed(index: FunctionIndex, question: string): number[] {
  const colon = question.lastIndexOf(':');
  // "name:file" when what follows the colon looks like a path; a name may itself hold colons (node:fs frames are named, not pathed).
  const [name, file] = colon > 0 && /[./\\]/.test(question.slice(colon + 1)) ? [question.slice(0, colon), question.slice(colon + 1).replace(/\\/g, '/')] : [question, null];
  const matches: number[] = [];
  index.functions.forEach((f, i) => {
    if ((f.name || '(anonymous)') !== name) return;
    if (file !== null && !(f.file === file || f.file.replace(/\\/g, '/').endsWith(`/${file}`))) return;
    matches.push(i);
  });
  return matches;
}
