// Where a node sits (parent, key), recorded by our raw-node walks, and the Babel NodePath made
// from that only when someone asks for it. NodePaths are costly (allocation, cache lookups, GC);
// most nodes (identifiers, literals, members) never need one, so the engine makes them lazily.
import traverseModule, { NodePath, type TraverseOptions, type Visitor } from '@babel/traverse';
import type * as t from '@babel/types';

// @babel/traverse is CommonJS; under esbuild/tsx the default import may arrive wrapped.
type TraverseFn = typeof traverseModule;
const traverse: TraverseFn = (traverseModule as unknown as { default?: TraverseFn }).default ?? traverseModule;

/** A node's place in the tree. `parent` is null for the File node, which never gets a path. */
export interface Frame {
  readonly node: t.Node;
  /**
   * The parent's frame, key in the parent (or index in the list `listKey`). The binding resolver
   * keeps frames across edits of a document: it renumbers a top-level statement when statements
   * above it change, and hangs a kept function's frame from the frames of the version at hand
   * (the nodes around it stay, their frames are made again).
   */
  parent: Frame | null;
  key: string | number;
  listKey: string | null;
  /** The path made for this frame, valid during the analysis (path epoch) it was made in. */
  path: NodePath | null;
  pathEpoch: number;
}

/**
 * Paths are remade once per analysis: a path kept from an earlier one may hold an old key (a
 * moved statement) until NodePath.get sets it again. A document's binding resolver owns the
 * clock of its analyses (see BindingResolver.startAnalysis); its frames are never read by another.
 */
export interface PathClock {
  readonly epoch: number;
}

// Paths made here belong to no traversal, so they have no scope. Babel's `path.get()` would
// otherwise build and crawl a Scope for any scopable child it creates; `noScope` stops that.
// NodePath.get's declared overloads tie `key` to the parent's node type; frames hold it untyped.
type PathGet = (opts: {
  parentPath: NodePath | undefined;
  parent: t.Node;
  container: unknown;
  listKey: string | undefined;
  key: string | number;
}) => NodePath;
const getPath = NodePath.get as unknown as PathGet;

const NO_SCOPE_OPTS = Object.freeze({ noScope: true });

export function rootFrame(file: t.Node): Frame {
  return { node: file, parent: null, key: '', listKey: null, path: null, pathEpoch: -1 };
}

export function childFrame(parent: Frame, node: t.Node, key: string | number, listKey: string | null): Frame {
  return { node, parent, key, listKey, path: null, pathEpoch: -1 };
}

/**
 * The NodePath for a frame in the analysis `clock` is at, made with its ancestors' paths as
 * needed. Babel caches paths by (parent node, node), so this returns the very objects a Babel
 * traversal or `path.get()` would.
 */
export function pathOf(frame: Frame, clock: PathClock): NodePath {
  const pathEpoch = clock.epoch;
  if (frame.path !== null && frame.pathEpoch === pathEpoch) return frame.path;
  const parent = frame.parent;
  if (parent === null) throw new Error('The File node has no path');
  const parentPath = parent.parent === null ? undefined : pathOf(parent, clock);
  const parentNode = parent.node as unknown as Record<string, unknown>;
  const container = frame.listKey === null ? parentNode : parentNode[frame.listKey];
  const path = getPath({ parentPath, parent: parent.node, container, listKey: frame.listKey ?? undefined, key: frame.key });
  if (!(path.opts as { noScope?: boolean } | null)?.noScope) path.opts = NO_SCOPE_OPTS;
  frame.path = path;
  frame.pathEpoch = pathEpoch;
  return path;
}

/**
 * Drops every NodePath Babel has cached (`NodePath.get` keeps them in one process-wide WeakMap
 * keyed by parent node). For a caller that analyzes each tree once and keeps none of its paths
 * (the command line, file after file): otherwise the map's entries for trees already done stay
 * until the collector finds their keys dead, and the young-generation collections that run while
 * later files are analyzed keep visiting them (on the static bench's corpus the map's lookups
 * were 6% of the main thread's time, and the GC pauses of the engine's runs over it fell by a
 * quarter without them). Never for the editor: its documents' trees and paths live across analyses.
 */
export function forgetCachedPaths(): void {
  traverse.cache.clearPath();
}

/**
 * `path.traverse(visitor)` for paths the engine handed out: they have no scope, and Babel refuses
 * to traverse below a non-Program node without one unless told `noScope`.
 */
export function traverseBelow<S>(path: NodePath, visitor: Visitor<S>, state?: S): void {
  const options: TraverseOptions<S> = { ...visitor, noScope: true };
  path.traverse(options, state as S);
}

/**
 * The chain of nodes from the File down to the one being visited, in parallel arrays, for the
 * engine's recursive walks. A Frame object is made only for a node someone keeps (a binding, a
 * reference, a path handed to a visitor) and for its ancestors: the walks allocate nothing per
 * node otherwise, which spares the garbage collector (the fresh AST is still in the young heap).
 */
export class NodeStack {
  private readonly nodes: t.Node[] = [];
  private readonly keys: (string | number)[] = [];
  private readonly listKeys: (string | null)[] = [];
  private readonly frames: (Frame | null)[] = [];

  /** `root` sits at depth 0: the File (see rootFrame) or any node already placed. */
  constructor(root: Frame) {
    this.nodes.push(root.node);
    this.keys.push(root.key);
    this.listKeys.push(root.listKey);
    this.frames.push(root);
  }

  /** Puts `node` at `depth` (the previous occupant of that depth and below are done with). */
  set(depth: number, node: t.Node, key: string | number, listKey: string | null): void {
    this.nodes[depth] = node;
    this.keys[depth] = key;
    this.listKeys[depth] = listKey;
    this.frames[depth] = null;
  }

  node(depth: number): t.Node {
    return this.nodes[depth];
  }

  key(depth: number): string | number {
    return this.keys[depth];
  }

  listKey(depth: number): string | null {
    return this.listKeys[depth];
  }

  /** The frame at `depth` if one was made since that depth was last set. */
  madeFrame(depth: number): Frame | null {
    return this.frames[depth] ?? null;
  }

  /** Puts a frame kept from before at `depth`, so that frames made below it hang from it. */
  setFrame(depth: number, frame: Frame): void {
    this.nodes[depth] = frame.node;
    this.keys[depth] = frame.key;
    this.listKeys[depth] = frame.listKey;
    this.frames[depth] = frame;
  }

  frameAt(depth: number): Frame {
    const known = this.frames[depth];
    if (known) return known;
    const frame: Frame = {
      node: this.nodes[depth],
      parent: depth === 0 ? null : this.frameAt(depth - 1),
      key: this.keys[depth],
      listKey: this.listKeys[depth],
      path: null,
      pathEpoch: -1,
    };
    this.frames[depth] = frame;
    return frame;
  }
}
