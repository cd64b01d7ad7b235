// Node id -> index in the order read, for a profile's nodes. Ids are small integers in every
// recorder we know (1..n, in order): those live in a typed table, looked up without hashing (a
// Map of a 640k-node profile's ids took a third of the reading). Any other id (negative, a
// fraction, or far past the nodes read so far, so a crafted id cannot size the table) goes to a Map.

/** The table holds ids below this many entries per node read so far, plus a floor. */
const DENSE_PER_NODE = 4;
const DENSE_FLOOR = 1024;

export class NodeIds {
  private table = new Int32Array(DENSE_FLOOR).fill(-1);
  private readonly others = new Map<number, number>();
  private count = 0;

  get(id: number): number | undefined {
    if (id >= 0 && id < this.table.length && Number.isInteger(id)) {
      const index = this.table[id];
      if (index !== -1) return index;
    }
    // An id the table did not reach when it was read lives in the Map.
    return this.others.size === 0 ? undefined : this.others.get(id);
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  /** Records `id` at `index` (the caller checks `has` first). */
  set(id: number, index: number): void {
    this.count++;
    if (Number.isInteger(id) && id >= 0 && id < DENSE_PER_NODE * this.count + DENSE_FLOOR) {
      if (id >= this.table.length) {
        const grown = new Int32Array(Math.min(Math.max(id + 1, this.table.length * 2), DENSE_PER_NODE * this.count + DENSE_FLOOR)).fill(-1);
        grown.set(this.table);
        this.table = grown;
      }
      this.table[id] = index;
    } else this.others.set(id, index);
  }
}
