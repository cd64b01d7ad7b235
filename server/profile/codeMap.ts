// Address -> code entry for a V8 log, with code created, moved and deleted while ticks are read.
// Live entries never overlap (a new entry evicts what it covers, as in V8's tools/codemap.mjs).
// Lookups binary-search a sorted array; new code waits in an unsorted side list that is merged
// in (one linear pass) by the next lookup: code is created in bursts and ticks come between them.
// sfi-move needs nothing here: functions are identified by name and position, not by SFI address.

/** Side-list length a lookup still scans instead of merging first. */
const SCAN_PENDING = 8;
/** Side-list length that forces a merge even without lookups (bounds the eviction scan). */
const MERGE_AT = 4096;

export class CodeMap {
  private start = new Float64Array(1024);
  private size = new Float64Array(1024);
  private alive = new Uint8Array(1024);
  private count = 0;

  /** Ids sorted by start, and the start each had when it was sorted in (stale when moved). */
  private sorted = new Int32Array(0);
  private sortedStart = new Float64Array(0);
  private pending: number[] = [];
  private staleInSorted = 0;

  private libraries: { start: number; end: number; id: number }[] = [];

  /** Adds code at [start, start+size) and returns its id; whatever it overlaps is removed. */
  add(start: number, size: number): number {
    const id = this.count++;
    if (id === this.start.length) this.grow();
    this.start[id] = start;
    this.size[id] = Math.max(1, size);
    this.alive[id] = 1;
    this.evict(start, this.size[id], id);
    this.insert(id);
    return id;
  }

  /** The live entry starting exactly at `start`, or -1. */
  at(start: number): number {
    const id = this.find(start);
    return id !== -1 && this.start[id] === start ? id : -1;
  }

  move(from: number, to: number): number {
    const id = this.at(from);
    if (id === -1) return -1;
    this.alive[id] = 0;
    this.staleInSorted++;
    this.removePending(id);
    this.start[id] = to;
    this.alive[id] = 1;
    this.evict(to, this.size[id], id);
    this.insert(id);
    return id;
  }

  delete(start: number): number {
    const id = this.at(start);
    if (id === -1) return -1;
    this.alive[id] = 0;
    this.staleInSorted++;
    this.removePending(id);
    return id;
  }

  startOf(id: number): number {
    return this.start[id];
  }

  /** Static ranges (shared libraries): only consulted when no code entry covers the address. */
  addLibrary(start: number, end: number, id: number): void {
    this.libraries.push({ start, end, id });
    this.libraries.sort((a, b) => a.start - b.start);
  }

  findLibrary(addr: number): number {
    const libs = this.libraries;
    let lo = 0;
    let hi = libs.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (libs[mid].start <= addr) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    // Libraries may be listed once per mapped segment: the nearest start may be a short one.
    for (let i = found; i >= 0; i--) if (addr < libs[i].end) return libs[i].id;
    return -1;
  }

  libraryStart(id: number): number {
    return this.libraries.find((l) => l.id === id)?.start ?? 0;
  }

  /** The live code entry containing `addr`, or -1. */
  find(addr: number): number {
    if (this.pending.length > SCAN_PENDING) this.merge();
    for (const id of this.pending) if (this.contains(id, addr)) return id;
    const starts = this.sortedStart;
    let lo = 0;
    let hi = starts.length - 1;
    let k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= addr) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    // Skip entries deleted or moved since they were sorted in; the first valid one decides.
    for (; k >= 0; k--) {
      const id = this.sorted[k];
      if (this.alive[id] === 1 && this.start[id] === starts[k]) return this.contains(id, addr) ? id : -1;
    }
    return -1;
  }

  private contains(id: number, addr: number): boolean {
    return this.alive[id] === 1 && addr >= this.start[id] && addr < this.start[id] + this.size[id];
  }

  private insert(id: number): void {
    this.pending.push(id);
    if (this.pending.length >= MERGE_AT || this.staleInSorted > this.sorted.length / 2 + MERGE_AT) this.merge();
  }

  private removePending(id: number): void {
    const i = this.pending.indexOf(id);
    if (i !== -1) this.pending.splice(i, 1);
  }

  /** Removes live entries overlapping [start, start+size), except `keep`. */
  private evict(start: number, size: number, keep: number): void {
    const end = start + size;
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const id = this.pending[i];
      if (id !== keep && this.start[id] < end && start < this.start[id] + this.size[id]) {
        this.alive[id] = 0;
        this.pending.splice(i, 1);
      }
    }
    const starts = this.sortedStart;
    let lo = 0;
    let hi = starts.length - 1;
    let k = starts.length;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] >= end) {
        k = mid;
        hi = mid - 1;
      } else lo = mid + 1;
    }
    // Every sorted entry starting before `end` may overlap; live ones are disjoint, so walk
    // back until one ends at or before `start`.
    for (let j = k - 1; j >= 0; j--) {
      const id = this.sorted[j];
      if (this.alive[id] !== 1 || this.start[id] !== starts[j] || id === keep) continue;
      if (this.start[id] + this.size[id] <= start) break;
      this.alive[id] = 0;
      this.staleInSorted++;
    }
  }

  private merge(): void {
    const inPending = new Set(this.pending);
    const fresh = this.pending.filter((id) => this.alive[id] === 1).sort((a, b) => this.start[a] - this.start[b]);
    const ids = new Int32Array(this.sorted.length + fresh.length);
    let n = 0;
    let f = 0;
    for (let k = 0; k < this.sorted.length; k++) {
      const id = this.sorted[k];
      if (this.alive[id] !== 1 || this.start[id] !== this.sortedStart[k] || inPending.has(id)) continue;
      while (f < fresh.length && this.start[fresh[f]] < this.start[id]) ids[n++] = fresh[f++];
      ids[n++] = id;
    }
    while (f < fresh.length) ids[n++] = fresh[f++];
    this.sorted = ids.slice(0, n);
    this.sortedStart = Float64Array.from(this.sorted, (id) => this.start[id]);
    this.pending = [];
    this.staleInSorted = 0;
  }

  private grow(): void {
    const n = this.start.length * 2;
    const start = new Float64Array(n);
    start.set(this.start);
    const size = new Float64Array(n);
    size.set(this.size);
    const alive = new Uint8Array(n);
    alive.set(this.alive);
    this.start = start;
    this.size = size;
    this.alive = alive;
  }
}
