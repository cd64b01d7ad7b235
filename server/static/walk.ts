// The engine's one traversal: a depth-first walk over raw nodes in Babel's order (VISITOR_KEYS)
// that calls a merged, exploded Babel visitor as @babel/traverse would, but makes a NodePath only
// for nodes some visitor function receives (and their ancestors). Babel's traversal makes a path,
// a context and (unless noScope) a scope for every node, which is most of an analysis' cost.
// Paths handed out have no scope and no traversal context; they support the read-only NodePath
// API (get, parentPath, is*, find*, traverse with `noScope`) and `skip()` / `stop()`. The walk
// does not follow AST mutations: no rule mutates the tree.
import type { NodePath, Visitor } from '@babel/traverse';
import * as t from '@babel/types';
import { NodeStack, pathOf, rootFrame } from './lazyPaths';

// Read once: bundled CommonJS re-exports go through a getter on every access.
const VISITOR_KEYS = t.VISITOR_KEYS;

type VisitFn = (this: unknown, path: NodePath, state: unknown) => void;

interface Phases {
  enter?: VisitFn[];
  exit?: VisitFn[];
}

/** Calls `visit` for each child of `node`, in Babel's order: for walks that need no paths and no stops. */
export function forEachChild(node: t.Node, visit: (child: t.Node) => void): void {
  const keys = VISITOR_KEYS[node.type];
  if (!keys) return;
  const record = node as unknown as Record<string, unknown>;
  for (const key of keys) {
    const value = record[key];
    if (Array.isArray(value)) {
      for (const child of value as (t.Node | null)[]) if (child) visit(child);
    } else if (value && typeof (value as t.Node).type === 'string') {
      visit(value as t.Node);
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

/** Walks `file` with `visitor`, the result of `traverse.visitors.merge` (exploded, arrays of functions). */
export function walkFile(file: t.File, visitor: Visitor): void {
  const table = visitor as unknown as Record<string, Phases | VisitFn[] | undefined>;
  const allEnter = table.enter as VisitFn[] | undefined;
  const allExit = table.exit as VisitFn[] | undefined;
  const stack = new NodeStack(rootFrame(file));
  let stopped = false;

  function visit(depth: number): void {
    const node = stack.node(depth);
    const phases = table[node.type] as Phases | undefined;
    if (allEnter || phases?.enter) {
      const path = pathOf(stack.frameAt(depth));
      // A path reused from an earlier (sub-)traversal starts clean, as Babel's pushContext makes it.
      path.shouldSkip = false;
      path.shouldStop = false;
      if (callAll(allEnter, path) || callAll(phases?.enter, path)) {
        if (path.shouldStop) stopped = true;
        return;
      }
    }
    const keys = VISITOR_KEYS[node.type];
    if (keys) {
      const record = node as unknown as Record<string, unknown>;
      for (const key of keys) {
        const value = record[key];
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length && !stopped; i++) {
            const child = value[i] as t.Node | null;
            if (!child) continue;
            stack.set(depth + 1, child, i, key);
            visit(depth + 1);
          }
        } else if (value && typeof (value as t.Node).type === 'string') {
          stack.set(depth + 1, value as t.Node, key, null);
          visit(depth + 1);
        }
        if (stopped) break;
      }
    }
    if (allExit || phases?.exit) {
      // Children overwrote the stack below this depth, not this node's own frame.
      const path = pathOf(stack.frameAt(depth));
      if (!callAll(allExit, path)) callAll(phases?.exit, path);
    }
  }

  stack.set(1, file.program, 'program', null);
  visit(1);
}
