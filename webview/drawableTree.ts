// The tree the chart draws: a sanitized copy of the server's FlameNode tree in which subtrees
// narrower than a threshold are folded into their parent. The server already folds at 1/2000 of
// the root; this is the webview's own guard so that an uncollapsed 500k-node tree can't freeze
// the view, and so that a malformed node (wrong types) can't break d3.
import type { FlameNode } from '../server/protocol/wire';
import { isCategory } from './categories';

export interface DrawableTree {
  root: FlameNode;
  /** Nodes kept in `root`. */
  nodes: number;
  /** Nodes of the input that were folded into a parent (their time shows as the parent's self). */
  folded: number;
}

/** The server's collapse rule (1/2000 of the root), or one pixel when the view is wider. */
export function foldThreshold(rootValue: number, widthPx: number): number {
  return rootValue / Math.max(2000, widthPx);
}

function finiteOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function copyNode(raw: Record<string, unknown>): FlameNode {
  const node: FlameNode = {
    name: typeof raw.name === 'string' ? raw.name : String(raw.name ?? ''),
    value: Math.max(0, finiteOr(raw.value, 0)),
    self: Math.max(0, finiteOr(raw.self, 0)),
    category: isCategory(raw.category) ? raw.category : 'program',
    file: typeof raw.file === 'string' ? raw.file : '',
    line: Math.max(0, Math.trunc(finiteOr(raw.line, 0))),
    children: [],
  };
  if (typeof raw.delta === 'number' && Number.isFinite(raw.delta)) node.delta = raw.delta;
  const collapsed = finiteOr(raw.collapsed, 0);
  if (collapsed > 0) node.collapsed = collapsed;
  const smallCalleesMs = finiteOr(raw.smallCalleesMs, 0);
  if (smallCalleesMs > 0) node.smallCalleesMs = smallCalleesMs;
  const libraryMs = finiteOr(raw.libraryMs, 0);
  if (libraryMs > 0) node.libraryMs = libraryMs;
  return node;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function childrenOf(raw: Record<string, unknown>): unknown[] {
  return Array.isArray(raw.children) ? raw.children : [];
}

/** Input nodes in a folded subtree, counting what the server had already folded into them. */
function subtreeSize(raw: Record<string, unknown>): number {
  let size = 0;
  const stack: unknown[] = [raw];
  while (stack.length > 0) {
    const item = stack.pop();
    if (!isRecord(item)) continue;
    size += 1 + Math.max(0, finiteOr(item.collapsed, 0));
    for (const child of childrenOf(item)) stack.push(child);
  }
  return size;
}

/** More nodes than this and d3's per-zoom passes over the whole hierarchy get slow. */
export const NODE_BUDGET = 60_000;

/**
 * Copies `raw` (untrusted shape) keeping only subtrees whose value is at least `minValue`; if
 * that still leaves more than `maxNodes`, the threshold is raised until it does not (a tree of
 * many equal, deep chains survives any fraction-of-root rule).
 */
export function drawableTree(raw: unknown, minValue: number, maxNodes = NODE_BUDGET): DrawableTree {
  if (!isRecord(raw)) throw new Error('the flame graph has no root frame');
  const rootValue = Math.max(0, finiteOr(raw.value, 0));
  let threshold = minValue;
  let tree = foldBelow(raw, threshold);
  while (tree.nodes > maxNodes && threshold < rootValue) {
    threshold = threshold > 0 ? threshold * 4 : rootValue / 1e6;
    tree = foldBelow(raw, threshold);
  }
  return tree;
}

/** Iterative, so a very deep chain cannot overflow the stack. */
function foldBelow(raw: Record<string, unknown>, minValue: number): DrawableTree {
  const root = copyNode(raw);
  let nodes = 1;
  let folded = 0;
  const stack: Array<[Record<string, unknown>, FlameNode]> = [[raw, root]];
  while (stack.length > 0) {
    const [source, copy] = stack.pop()!;
    for (const child of childrenOf(source)) {
      if (!isRecord(child)) continue;
      const value = finiteOr(child.value, 0);
      if (value < minValue || value <= 0) {
        const size = subtreeSize(child);
        folded += size;
        copy.collapsed = (copy.collapsed ?? 0) + size;
        continue;
      }
      const childCopy = copyNode(child);
      copy.children.push(childCopy);
      nodes += 1;
      stack.push([child, childCopy]);
    }
  }
  return { root, nodes, folded };
}
