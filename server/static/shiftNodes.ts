// Moving kept nodes by an edit made before them: an edit re-parses a part of a file, and the nodes
// after that part keep their objects with their offsets, lines and columns moved. Babel shares
// position objects between nodes that start or end at the same token: each object is moved once,
// told apart by its index (so an edit that moves lines must change the length, or nothing moves).
import type * as t from '@babel/types';
import { forEachChild } from './walk';

export interface Shift {
  delta: number;
  /** Lines added (negative: removed) by the edit. */
  lines: number;
  /** The old line the re-parsed part ended on: positions after it on that line also move sideways. */
  line: number;
  columns: number;
}

interface MutablePosition {
  line: number;
  column: number;
  index: number;
}

/** Moves one position object, unless another node sharing it already did (its index tells). */
function shiftPosition(position: MutablePosition | undefined, oldIndex: number, shift: Shift): void {
  if (!position || position.index !== oldIndex) return;
  position.index = oldIndex + shift.delta;
  if (position.line === shift.line) position.column += shift.columns;
  position.line += shift.lines;
}

/** Moves where a node ends (the File, the Program, a node around the re-parsed part). */
export function shiftEnd(node: t.Node, shift: Shift): void {
  const end = node.end ?? 0;
  node.end = end + shift.delta;
  shiftPosition(node.loc?.end as MutablePosition | undefined, end, shift);
}

export function shiftSpan(node: t.Node | t.Comment, shift: Shift): void {
  const start = node.start ?? 0;
  const end = node.end ?? 0;
  node.start = start + shift.delta;
  node.end = end + shift.delta;
  const loc = node.loc as { start: MutablePosition; end: MutablePosition } | null | undefined;
  if (loc) {
    shiftPosition(loc.start, start, shift);
    shiftPosition(loc.end, end, shift);
  }
}

interface NodeExtra {
  parenStart?: number;
  trailingComma?: number;
  trailingCommaLoc?: MutablePosition;
}

/** Moves a node and the offsets kept in its `extra`. */
export function shiftNode(node: t.Node, shift: Shift): void {
  shiftSpan(node, shift);
  const extra = node.extra as NodeExtra | undefined;
  if (extra) {
    if (typeof extra.parenStart === 'number') extra.parenStart += shift.delta;
    shiftTrailingComma(extra, shift);
  }
}

/**
 * Moves a node that holds the re-parsed part (`from` is where that part ended): its end and a
 * trailing comma after the part; its start and an opening parenthesis are before the part.
 */
export function shiftAround(node: t.Node, from: number, shift: Shift): void {
  shiftEnd(node, shift);
  const extra = node.extra as NodeExtra | undefined;
  if (extra && typeof extra.trailingComma === 'number' && extra.trailingComma >= from) shiftTrailingComma(extra, shift);
}

function shiftTrailingComma(extra: NodeExtra, shift: Shift): void {
  if (typeof extra.trailingComma !== 'number') return;
  shiftPosition(extra.trailingCommaLoc, extra.trailingComma, shift);
  extra.trailingComma += shift.delta;
}

/** Every node of `node`'s subtree, in the walk's order (preorder: a subtree is one run of the list). */
export function listNodes(node: t.Node, into: t.Node[]): void {
  into.push(node);
  forEachChild(node, (child) => listNodes(child, into));
}
