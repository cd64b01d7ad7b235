// The engine's one traversal: a depth-first walk over raw nodes in Babel's order (VISITOR_KEYS)
// that calls a merged, exploded Babel visitor as @babel/traverse would, but makes a NodePath only
// for nodes some visitor function receives (and their ancestors). Babel's traversal makes a path,
// a context and (unless noScope) a scope for every node, which is most of an analysis' cost.
// Paths handed out have no scope and no traversal context; they support the read-only NodePath
// API (get, parentPath, is*, find*, traverse with `noScope`) and `skip()` / `stop()`. The walk
// does not follow AST mutations: no rule mutates the tree.
import type { NodePath, Visitor } from '@babel/traverse';
import type * as t from '@babel/types';
import { childKeysOf, forEachChild } from './childNodes';
import { NodeStack, pathOf, rootFrame, type PathClock } from './lazyPaths';

export { forEachChild };

type VisitFn = (this: unknown, path: NodePath, state: unknown) => void;

interface Phases {
  enter?: VisitFn[];
  exit?: VisitFn[];
}

/**
 * Puts each child of the node at `depth` of `stack` at `depth + 1` and calls `enter(depth + 1)`
 * for it; stops as soon as `done()` holds (asked before each child). The engine's walk and the
 * binding resolver's search for frames share it.
 */
export function forEachChildOnStack(stack: NodeStack, depth: number, enter: (depth: number) => void, done: () => boolean): void {
  // forEachChild's loop, without a closure per node: every node of every walk comes through here.
  const node = stack.node(depth);
  const keys = childKeysOf(node);
  if (keys === undefined) return;
  const record = node as unknown as Record<string, unknown>;
  for (const key of keys) {
    const value = record[key];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child = value[i] as t.Node | null;
        if (!child) continue;
        if (done()) return;
        stack.set(depth + 1, child, i, key);
        enter(depth + 1);
      }
    } else if (value && typeof (value as t.Node).type === 'string') {
      if (done()) return;
      stack.set(depth + 1, value as t.Node, key, null);
      enter(depth + 1);
    }
  }
}

/** Runs visitor functions in order; true once one of them skipped or stopped the path (Babel's _call). */
function callAll(fns: VisitFn[] | undefined, path: NodePath): boolean {
  if (!fns) return false;
  for (const fn of fns) {
    fn.call(undefined, path, undefined);
    if (path.shouldSkip || path.shouldStop) return true;
  }
  return false;
}

/** Told of each top-level statement: `enter` returning false skips it (an editor reuses what it found before). */
export interface StatementHooks {
  enter(statement: t.Statement): boolean;
  exit(statement: t.Statement): void;
}

/** What the walk does at a node of one type: its visitor functions and where its children are. */
interface TypeSteps {
  enter: VisitFn[] | undefined;
  exit: VisitFn[] | undefined;
  keys: readonly string[] | undefined;
}

/**
 * A node with no child node (an identifier, a literal, `this`): most of a tree's nodes. The walk
 * visits one only when a visitor function wants its type, so the nodes no visitor asks about
 * cost one look at their child properties, not a place on the stack and a call.
 */
function isLeaf(node: t.Node, keys: readonly string[] | undefined): boolean {
  if (keys === undefined) return true;
  const record = node as unknown as Record<string, unknown>;
  for (let k = 0; k < keys.length; k++) {
    const value = record[keys[k]];
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) return false;
    } else if (typeof (value as t.Node).type === 'string') {
      return false;
    }
  }
  return true;
}

/**
 * Walks `file` with `visitor`, the result of `traverse.visitors.merge` (exploded, arrays of
 * functions); the paths handed out belong to the analysis `clock` is at. Returns how many nodes
 * it went to: a node no visitor function asks about and with no child (most identifiers and
 * literals) is passed over.
 */
export function walkFile(file: t.File, visitor: Visitor, clock: PathClock, hooks?: StatementHooks): number {
  const table = visitor as unknown as Record<string, Phases | VisitFn[] | undefined>;
  const allEnter = table.enter as VisitFn[] | undefined;
  const allExit = table.exit as VisitFn[] | undefined;
  const stack = new NodeStack(rootFrame(file));
  let stopped = false;
  // Every node of the walk looks its type up here once, for its visitor functions and its children.
  const steps = new Map<string, TypeSteps>();
  const stepsOf = (type: string): TypeSteps => {
    let known = steps.get(type);
    if (known === undefined) {
      const phases = table[type] as Phases | undefined;
      const node = { type } as t.Node;
      known = { enter: phases?.enter, exit: phases?.exit, keys: childKeysOf(node) };
      steps.set(type, known);
    }
    return known;
  };
  const visitsEveryNode = allEnter !== undefined || allExit !== undefined;
  /** Nodes the walk went to (put on the stack), for tests and measurements. */
  let visited = 0;

  /** Visits the children of the node at `depth`, the top-level statements through `hooks`. */
  function visitChildren(depth: number, keys: readonly string[] | undefined): void {
    if (keys === undefined) return;
    const record = stack.node(depth) as unknown as Record<string, unknown>;
    const statements = depth === 1 && hooks !== undefined;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k];
      const value = record[key];
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const child = value[i] as t.Node | null;
          if (!child) continue;
          if (stopped) return;
          const childSteps = stepsOf(child.type);
          // Every top-level statement goes through the hooks, a leaf too (it has a record).
          if (statements && key === 'body') {
            stack.set(depth + 1, child, i, key);
            if (!hooks.enter(child as t.Statement)) continue;
            visit(depth + 1, childSteps);
            hooks.exit(child as t.Statement);
            continue;
          }
          if (!visitsEveryNode && childSteps.enter === undefined && childSteps.exit === undefined && isLeaf(child, childSteps.keys)) continue;
          stack.set(depth + 1, child, i, key);
          visit(depth + 1, childSteps);
        }
      } else if (value && typeof (value as t.Node).type === 'string') {
        if (stopped) return;
        const child = value as t.Node;
        const childSteps = stepsOf(child.type);
        if (!visitsEveryNode && childSteps.enter === undefined && childSteps.exit === undefined && isLeaf(child, childSteps.keys)) continue;
        stack.set(depth + 1, child, key, null);
        visit(depth + 1, childSteps);
      }
    }
  }

  function visit(depth: number, own: TypeSteps): void {
    visited++;
    if (allEnter || own.enter) {
      const path = pathOf(stack.frameAt(depth), clock);
      // A path reused from an earlier (sub-)traversal starts clean, as Babel's pushContext makes it.
      path.shouldSkip = false;
      path.shouldStop = false;
      if (callAll(allEnter, path) || callAll(own.enter, path)) {
        if (path.shouldStop) stopped = true;
        return;
      }
    }
    visitChildren(depth, own.keys);
    if (allExit || own.exit) {
      // Children overwrote the stack below this depth, not this node's own frame.
      const path = pathOf(stack.frameAt(depth), clock);
      if (!callAll(allExit, path)) callAll(own.exit, path);
    }
  }

  stack.set(1, file.program, 'program', null);
  visit(1, stepsOf(file.program.type));
  return visited;
}
