// (parent, function, call line) -> call tree node, for the nodes of a call tree with many
// children (a sibling scan serves the others). Open addressing over typed arrays: the key of a
// Map would be a number above 2^31 (function and line packed), boxed on every lookup, and a
// reader looks a child up for every frame of every sample.

export class ChildIndex {
  /** -1: an empty place. Empty, then grown: stored twice before use (see CallTreeBuilder's constructor). */
  private parents = new Int32Array(0);
  private funcs = new Int32Array(0);
  private lines = new Int32Array(0);
  private nodes = new Int32Array(0);
  private count = 0;

  constructor() {
    this.grow(1024);
  }

  /** The node stored for the triple, or -1. */
  get(parent: number, func: number, line: number): number {
    const parents = this.parents;
    const mask = parents.length - 1;
    for (let i = hash(parent, func, line) & mask; ; i = (i + 1) & mask) {
      const p = parents[i];
      if (p === -1) return -1;
      if (p === parent && this.funcs[i] === func && this.lines[i] === line) return this.nodes[i];
    }
  }

  /** Stores `node` for a triple that has none (parent >= 0). */
  set(parent: number, func: number, line: number, node: number): void {
    if ((this.count + 1) * 2 > this.parents.length) this.grow();
    this.insert(parent, func, line, node);
    this.count++;
  }

  private insert(parent: number, func: number, line: number, node: number): void {
    const parents = this.parents;
    const mask = parents.length - 1;
    let i = hash(parent, func, line) & mask;
    while (parents[i] !== -1) i = (i + 1) & mask;
    parents[i] = parent;
    this.funcs[i] = func;
    this.lines[i] = line;
    this.nodes[i] = node;
  }

  private grow(capacity = this.parents.length * 2): void {
    const { parents, funcs, lines, nodes } = this;
    this.parents = new Int32Array(capacity).fill(-1);
    this.funcs = new Int32Array(capacity);
    this.lines = new Int32Array(capacity);
    this.nodes = new Int32Array(capacity);
    for (let i = 0; i < parents.length; i++) if (parents[i] !== -1) this.insert(parents[i], funcs[i], lines[i], nodes[i]);
  }
}

function hash(parent: number, func: number, line: number): number {
  const h = Math.imul(parent, 0x9e3779b1) ^ Math.imul(func, 0x85ebca6b) ^ Math.imul(line, 0xc2b2ae35);
  return h ^ (h >>> 15);
}
