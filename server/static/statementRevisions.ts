// What is kept per top-level statement node between an editor document's analyses (statement
// records, the scopes of the binding resolver, module facts, assigned values), and when it is
// stale. An edit inside a long statement re-parses only a part of it (blockReparse.ts,
// nestedReparse.ts) and puts that part in place inside the statement, which keeps its node: the
// other statements' records hold its nodes (the function a call of its name runs, in the hot
// context), so a copy would make every caller's record stale (issue 26: in iobroker's main.js the
// callers of an edited function were several times its size). The parser marks the statement
// revised instead, and whatever was kept for an earlier revision is made again.
// The nodes inside the statement that hold the part put in place (the block or object around it,
// the functions around that) are revised too: their subtrees changed while their nodes stayed, so
// what is kept per subtree of a long statement (the module facts of a function nested in it,
// project/moduleFacts.ts) is made again for them only, and kept for every other subtree.
import type * as t from '@babel/types';

const revisions = new WeakMap<t.Node, number>();

/** How many times the incremental parser edited this statement (or this node inside one) in place. */
export function revisionOf(statement: t.Node): number {
  return revisions.get(statement) ?? 0;
}

/** The incremental parser edited `statement` (or a node's subtree inside one) in place: what was kept for it is stale. */
export function revise(statement: t.Node): void {
  revisions.set(statement, revisionOf(statement) + 1);
}

/** A value kept per statement node (or per node inside one), valid while it is not revised. Entries live as long as their nodes. */
export class PerStatement<V> {
  private readonly entries = new WeakMap<t.Node, { revision: number; value: V }>();

  get(statement: t.Node): V | undefined {
    const entry = this.entries.get(statement);
    return entry !== undefined && entry.revision === revisionOf(statement) ? entry.value : undefined;
  }

  has(statement: t.Node): boolean {
    return this.get(statement) !== undefined;
  }

  set(statement: t.Node, value: V): void {
    this.entries.set(statement, { revision: revisionOf(statement), value });
  }
}
