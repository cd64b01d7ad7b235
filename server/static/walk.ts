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

/**
 * Walks `file` with `visitor`, the result of `traverse.visitors.merge` (exploded, arrays of
 * functions); the paths handed out belong to the analysis `clock` is at.
 */
export function walkFile(file: t.File, visitor: Visitor, clock: PathClock, hooks?: StatementHooks): void {
  const table = visitor as unknown as Record<string, Phases | VisitFn[] | undefined>;
  const allEnter = table.enter as VisitFn[] | undefined;
  const allExit = table.exit as VisitFn[] | undefined;
  const stack = new NodeStack(rootFrame(file));
  let stopped = false;
  const isStopped = (): boolean => stopped;

  function visit(depth: number): void {
    const node = stack.node(depth);
    const phases = table[node.type] as Phases | undefined;
    if (allEnter || phases?.enter) {
      const path = pathOf(stack.frameAt(depth), clock);
      // A path reused from an earlier (sub-)traversal starts clean, as Babel's pushContext makes it.
      path.shouldSkip = false;
      path.shouldStop = false;
      if (callAll(allEnter, path) || callAll(phases?.enter, path)) {
        if (path.shouldStop) stopped = true;
        return;
      }
    }
    if (depth === 1 && hooks !== undefined) {
      forEachChildOnStack(stack, depth, (child) => {
        const statement = stack.node(child);
        if (stack.listKey(child) !== 'body') {
          visit(child);
        } else if (hooks.enter(statement as t.Statement)) {
          visit(child);
          hooks.exit(statement as t.Statement);
        }
      }, isStopped);
    } else {
      forEachChildOnStack(stack, depth, visit, isStopped);
    }
    if (allExit || phases?.exit) {
      // Children overwrote the stack below this depth, not this node's own frame.
      const path = pathOf(stack.frameAt(depth), clock);
      if (!callAll(allExit, path)) callAll(phases?.exit, path);
    }
  }

  stack.set(1, file.program, 'program', null);
  visit(1);
}
