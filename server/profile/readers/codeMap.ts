// Address -> code entry for a V8 log, with code created, moved and deleted while ticks are read.
// Live entries never overlap (a new entry evicts what it covers, as in V8's tools/codemap.mjs).
// A log is untrusted input: any order of creations, moves, deletes and ticks must stay fast, so
// both code entries and shared libraries live in balanced search trees (treaps keyed by start
// address) where every event costs O(log n) expected, amortized over evictions: an entry is
// evicted at most once. (A sorted array with a side list, merged on lookup, made a log of
// interleaved code-move events and ticks quadratic: minutes for 19 MB.)
// sfi-move needs nothing here: functions are identified by name and position, not by SFI address.

/** Disjoint intervals [key, key + length) in a treap; nodes are ids chosen by the caller. */
class IntervalTreap {
  // Empty, then grown: stored twice before use (see CallTreeBuilder's constructor).
  key = new Float64Array(0);
  end = new Float64Array(0);
  private left = new Int32Array(0);
  private right = new Int32Array(0);
  private priority = new Float64Array(0);
  private root = -1;
  /** What `split` returns (no pair allocated per level). */
  private splitLow = -1;
  private splitHigh = -1;

  constructor() {
    this.grow(1024);
  }

  /** Inserts node `id` as [start, end); the caller has removed whatever it overlaps. */
  insert(id: number, start: number, end: number): void {
    if (id >= this.key.length) this.grow(id + 1);
    this.key[id] = start;
    this.end[id] = end;
    this.left[id] = -1;
    this.right[id] = -1;
    this.priority[id] = Math.random();
    this.split(this.root, start);
    const high = this.splitHigh;
    this.root = this.merge(this.merge(this.splitLow, id), high);
  }

  /** Removes node `id` (which must be in the tree). */
  remove(id: number): void {
    this.root = this.removeFrom(this.root, id);
  }

  /** The node with the largest start <= x, or -1. */
  floor(x: number): number {
    let node = this.root;
    let found = -1;
    while (node !== -1) {
      if (this.key[node] <= x) {
        found = node;
        node = this.right[node];
      } else node = this.left[node];
    }
    return found;
  }

  /** The node with the smallest start >= x, or -1. */
  ceil(x: number): number {
    let node = this.root;
    let found = -1;
    while (node !== -1) {
      if (this.key[node] >= x) {
        found = node;
        node = this.left[node];
      } else node = this.right[node];
    }
    return found;
  }

  /** The node whose interval contains x, or -1. */
  containing(x: number): number {
    const node = this.floor(x);
    return node !== -1 && x < this.end[node] ? node : -1;
  }

  /** Nodes with start < x go to `splitLow`, the rest to `splitHigh`. */
  private split(node: number, x: number): void {
    if (node === -1) {
      this.splitLow = -1;
      this.splitHigh = -1;
    } else if (this.key[node] < x) {
      this.split(this.right[node], x);
      this.right[node] = this.splitLow;
      this.splitLow = node;
    } else {
      this.split(this.left[node], x);
      this.left[node] = this.splitHigh;
      this.splitHigh = node;
    }
  }

  /** Every start in `a` is below every start in `b`. */
  private merge(a: number, b: number): number {
    if (a === -1) return b;
    if (b === -1) return a;
    if (this.priority[a] > this.priority[b]) {
      this.right[a] = this.merge(this.right[a], b);
      return a;
    }
    this.left[b] = this.merge(a, this.left[b]);
    return b;
  }

  private removeFrom(node: number, id: number): number {
    if (node === -1) return -1;
    if (node === id) return this.merge(this.left[node], this.right[node]);
    if (this.key[id] < this.key[node]) this.left[node] = this.removeFrom(this.left[node], id);
    else this.right[node] = this.removeFrom(this.right[node], id);
    return node;
  }

  private grow(at: number): void {
    const n = Math.max(at, this.key.length * 2);
    const copy = <T extends Float64Array | Int32Array>(from: T, to: T): T => (to.set(from), to);
    this.key = copy(this.key, new Float64Array(n));
    this.end = copy(this.end, new Float64Array(n));
    this.left = copy(this.left, new Int32Array(n).fill(-1));
    this.right = copy(this.right, new Int32Array(n).fill(-1));
    this.priority = copy(this.priority, new Float64Array(n));
  }
}

export class CodeMap {
  /** Code entries by id (an id is never reused; moved code keeps its id). */
  private readonly code = new IntervalTreap();
  private count = 0;

  /** Shared libraries as disjoint segments: a library listed later wins where it overlaps an earlier one. */
  private readonly segments = new IntervalTreap();
  private segmentLibrary: number[] = [];
  private readonly libraryStarts = new Map<number, number>();

  /**
   * The addresses whose entry the last add, move or delete may have changed: the code placed or
   * removed, and whatever it evicted (an evicted entry can reach past the new one).
   */
  // Empty until the first event. Addresses are mostly past 2^31, not small integers: starting as
  // such, these fields are not changed from one representation to another at the first event
  // (which makes V8 discard optimized code of the log reader that reads them).
  changedFrom = 2 ** 32;
  changedTo = 2 ** 32;

  /** Adds code at [start, start+size) and returns its id; whatever it overlaps is removed. */
  add(start: number, size: number): number {
    const id = this.count++;
    this.place(id, start, Math.max(1, size));
    return id;
  }

  /** The live entry starting exactly at `start`, or -1. */
  at(start: number): number {
    const id = this.code.floor(start);
    return id !== -1 && this.code.key[id] === start ? id : -1;
  }

  move(from: number, to: number): number {
    const id = this.at(from);
    if (id === -1) return -1;
    const size = this.code.end[id] - this.code.key[id];
    this.code.remove(id);
    this.place(id, to, size);
    this.changedFrom = Math.min(this.changedFrom, from);
    this.changedTo = Math.max(this.changedTo, from + size);
    return id;
  }

  delete(start: number): number {
    const id = this.at(start);
    if (id === -1) return -1;
    this.changedFrom = start;
    this.changedTo = this.code.end[id];
    this.code.remove(id);
    return id;
  }

  startOf(id: number): number {
    return this.code.key[id];
  }

  /** Static ranges (shared libraries): only consulted when no code entry covers the address. */
  addLibrary(start: number, end: number, id: number): void {
    if (!(end > start)) return;
    if (!this.libraryStarts.has(id)) this.libraryStarts.set(id, start);
    const segments = this.segments;
    // Cut what the new range overlaps: at most one segment straddles its start, one its end.
    const before = segments.floor(start);
    if (before !== -1 && segments.end[before] > start) {
      const [beforeEnd, library] = [segments.end[before], this.segmentLibrary[before]];
      segments.remove(before);
      if (segments.key[before] < start) segments.insert(before, segments.key[before], start);
      if (beforeEnd > end) this.addSegment(end, beforeEnd, library);
    }
    for (let next = segments.ceil(start); next !== -1 && segments.key[next] < end; next = segments.ceil(start)) {
      const [nextEnd, library] = [segments.end[next], this.segmentLibrary[next]];
      segments.remove(next);
      if (nextEnd > end) this.addSegment(end, nextEnd, library);
    }
    this.addSegment(start, end, id);
  }

  findLibrary(addr: number): number {
    const segment = this.segments.containing(addr);
    return segment === -1 ? -1 : this.segmentLibrary[segment];
  }

  libraryStart(id: number): number {
    return this.libraryStarts.get(id) ?? 0;
  }

  /** The live code entry containing `addr`, or -1. */
  find(addr: number): number {
    return this.code.containing(addr);
  }

  /** Puts entry `id` at [start, start+size), evicting the live entries it overlaps. */
  private place(id: number, start: number, size: number): void {
    const end = start + size;
    const code = this.code;
    let from = start;
    let to = end;
    const before = code.floor(start);
    if (before !== -1 && code.end[before] > start) {
      from = code.key[before];
      to = Math.max(to, code.end[before]);
      code.remove(before);
    }
    for (let next = code.ceil(start); next !== -1 && code.key[next] < end; next = code.ceil(start)) {
      to = Math.max(to, code.end[next]);
      code.remove(next);
    }
    code.insert(id, start, end);
    this.changedFrom = from;
    this.changedTo = to;
  }

  private addSegment(start: number, end: number, library: number): void {
    const id = this.segmentLibrary.length;
    this.segmentLibrary.push(library);
    this.segments.insert(id, start, end);
  }
}
