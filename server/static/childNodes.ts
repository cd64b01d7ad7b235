// The children of a Babel node in Babel's order (VISITOR_KEYS): the one way every walk of the
// engine (walk.ts, which re-exports it) and the profile's reading of a source file's functions
// (server/profile/analysis/functionSpans.ts) go down a tree. Apart from walk.ts because walk.ts
// needs @babel/traverse (for its NodePaths), which a reader that makes no path need not load.
import * as t from '@babel/types';

// Read once: bundled CommonJS re-exports go through a getter on every access.
const VISITOR_KEYS = t.VISITOR_KEYS;

/**
 * The properties of a node that hold its children, in Babel's order (undefined for an unknown
 * type): for the hottest walks, which go over them in a loop of their own rather than pay a
 * callback closure per node (walk.ts).
 */
export function childKeysOf(node: t.Node): readonly string[] | undefined {
  return VISITOR_KEYS[node.type];
}

/**
 * Calls `visit(child, key, listKey)` for each child of `node`, in Babel's order (`key` is the index
 * in the list `listKey`, or the property name when `listKey` is null), until `visit` returns true.
 */
export function forEachChild(node: t.Node, visit: (child: t.Node, key: string | number, listKey: string | null) => boolean | void): void {
  const keys = VISITOR_KEYS[node.type];
  if (!keys) return;
  const record = node as unknown as Record<string, unknown>;
  for (const key of keys) {
    const value = record[key];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child = value[i] as t.Node | null;
        if (child && visit(child, i, key) === true) return;
      }
    } else if (value && typeof (value as t.Node).type === 'string') {
      if (visit(value as t.Node, key, null) === true) return;
    }
  }
}
