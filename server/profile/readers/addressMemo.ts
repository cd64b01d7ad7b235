// Address -> memo slot for the V8 log reader: what each address a tick names resolved to, kept
// until code is created, moved or deleted over that address. A log names the same few thousand
// addresses in over a million frames: a Map keyed by addresses above 2^31 boxes each one (a heap
// number per lookup, then garbage), so the table is open addressing over typed arrays instead.
// When code changes, only the addresses in the changed range are forgotten, found through a
// per-page index (code objects are small: a range spans a few pages), so a log that creates code
// between ticks does not resolve every address again. Every operation's work is bounded or paid
// for by the stores before it (the log is untrusted: no event may cost the table's size).

/** Addresses are indexed by 4 KB page for forgetting a range. */
const PAGE = 4096;
/** A range over more pages than this, or pages holding more addresses than that, forgets every address. */
const MAX_PAGES_WALKED = 64;
const MAX_ADDRESSES_WALKED = 1024;
const EMPTY = -1;
const REMOVED = -2;

export class AddressMemo {
  // Empty, then allocated in the constructor: stored twice before use (see CallTreeBuilder's constructor).
  private keys = new Float64Array(0);
  /** The slot stored for the key, EMPTY, or REMOVED (a tombstone: lookups probe past it). */
  private values = new Int32Array(0);
  private shift = 0;
  private live = 0;
  private used = 0;
  /** Page number -> addresses stored in it (some may have been forgotten since). */
  private readonly pages = new Map<number, number[]>();

  constructor() {
    this.allocate(1024);
  }

  get size(): number {
    return this.live;
  }

  /** The slot stored for `address`, or -1. */
  get(address: number): number {
    const keys = this.keys;
    const values = this.values;
    const mask = values.length - 1;
    for (let i = this.hash(address); ; i = (i + 1) & mask) {
      const value = values[i];
      if (value === EMPTY) return -1;
      if (value !== REMOVED && keys[i] === address) return value;
    }
  }

  /** Stores `slot` (>= 0) for an address that has none. */
  set(address: number, slot: number): void {
    if ((this.used + 1) * 2 > this.values.length) this.rehash();
    // The first tombstone on the way is taken (the address is in none of the places after it):
    // an address stored and forgotten again and again must not lengthen its chain each time.
    const values = this.values;
    const mask = values.length - 1;
    let i = this.hash(address);
    while (values[i] >= 0) i = (i + 1) & mask;
    if (values[i] === EMPTY) this.used++;
    this.keys[i] = address;
    values[i] = slot;
    this.live++;
    const page = Math.floor(address / PAGE);
    const list = this.pages.get(page);
    if (list === undefined) this.pages.set(page, [address]);
    else list.push(address);
  }

  /** Forgets every address: work in proportion to what was stored since the last clear, not to the table's size. */
  clear(): void {
    if (this.live === 0) return;
    for (const list of this.pages.values()) for (const address of list) this.remove(address);
    this.pages.clear();
  }

  /**
   * Forgets every address in [from, to). A log is untrusted: a range over many pages, or pages
   * holding many addresses, forgets everything instead (always correct, and the work stays
   * bounded per event; what is forgotten was paid for by the ticks that stored it).
   */
  forget(from: number, to: number): void {
    if (this.live === 0 || !(to > from)) return;
    const first = Math.floor(from / PAGE);
    const last = Math.floor((to - 1) / PAGE);
    if (last - first > MAX_PAGES_WALKED) return this.clear();
    let stored = 0;
    for (let page = first; page <= last; page++) stored += this.pages.get(page)?.length ?? 0;
    if (stored === 0) return;
    if (stored > MAX_ADDRESSES_WALKED) return this.clear();
    for (let page = first; page <= last; page++) {
      const list = this.pages.get(page);
      if (list === undefined) continue;
      let kept = 0;
      for (const address of list) {
        if (address >= from && address < to) this.remove(address);
        else list[kept++] = address;
      }
      if (kept === 0) this.pages.delete(page);
      else list.length = kept;
    }
  }

  private remove(address: number): void {
    const { keys, values } = this;
    const mask = values.length - 1;
    for (let i = this.hash(address); ; i = (i + 1) & mask) {
      const value = values[i];
      if (value === EMPTY) return;
      if (value !== REMOVED && keys[i] === address) {
        values[i] = REMOVED;
        this.live--;
        return;
      }
    }
  }

  /** Rebuilt without tombstones, twice as large when more than a quarter is live. */
  private rehash(): void {
    const { keys, values } = this;
    this.allocate((this.live + 1) * 4 > values.length ? values.length * 2 : values.length);
    for (let i = 0; i < values.length; i++) if (values[i] >= 0) this.insert(keys[i], values[i]);
    this.used = this.live;
  }

  /** An empty table of `capacity` places (a power of 2). */
  private allocate(capacity: number): void {
    this.keys = new Float64Array(capacity);
    this.values = new Int32Array(capacity).fill(EMPTY);
    this.shift = 32 - Math.log2(capacity);
  }

  /** Into a table without tombstones (a rehash). */
  private insert(address: number, slot: number): void {
    const mask = this.values.length - 1;
    let i = this.hash(address);
    while (this.values[i] !== EMPTY) i = (i + 1) & mask;
    this.keys[i] = address;
    this.values[i] = slot;
  }

  /** Both 32-bit halves of the address (code is 2^k-aligned: low bits alone cluster), mixed. */
  private hash(address: number): number {
    const low = address >>> 0;
    const high = (address / 4294967296) >>> 0;
    return Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1) >>> this.shift;
  }
}
