// Shared by every reader: interns functions (tiers of one function share an entry), grows the
// struct-of-arrays call tree with one node per (parent, function, callLine), and sums self
// samples per node and per node+line.
import { categorize, type CodeKind } from './categories';
import { ChildIndex } from './childIndex';
import type { CallTree, LineTicks, NormalizedProfile, ProfileFormat, ProfileFunction, SampleTimeline } from './types';

/** Grows the sample timeline of a reader that sees samples in recording order. */
export class TimelineBuilder {
  private size = 0;
  // Stored twice before the first sample (empty, then grown: see CallTreeBuilder's constructor).
  private node = new Int32Array(0);
  private atMs = new Float64Array(0);

  constructor() {
    this.grow(1024);
  }

  /** A sample stamped earlier than the previous one is placed at the previous one's time (it lasts 0 ms, as the readers count it). */
  push(node: number, atMs: number): void {
    if (this.size > 0 && !(atMs >= this.atMs[this.size - 1])) atMs = this.atMs[this.size - 1];
    if (this.size === this.node.length) this.grow(this.size * 2);
    this.node[this.size] = node;
    this.atMs[this.size++] = atMs;
  }

  private grow(capacity: number): void {
    const node = new Int32Array(capacity);
    node.set(this.node);
    this.node = node;
    const at = new Float64Array(capacity);
    at.set(this.atMs);
    this.atMs = at;
  }

  get count(): number {
    return this.size;
  }

  /** When the first sample was taken (NaN before any). */
  get firstMs(): number {
    return this.size > 0 ? this.atMs[0] : NaN;
  }

  /**
   * The timeline, times made relative to `originMs` (a log's ticks carry the process's clock),
   * each node renumbered through `nodeOf` (a reader that rebuilds its tree).
   */
  build(endMs: number, originMs = 0, nodeOf?: (node: number) => number): SampleTimeline {
    const node = this.node.slice(0, this.size);
    if (nodeOf !== undefined) for (let i = 0; i < node.length; i++) node[i] = nodeOf(node[i]);
    const atMs = this.atMs.slice(0, this.size);
    if (originMs !== 0) for (let i = 0; i < atMs.length; i++) atMs[i] -= originMs;
    const last = atMs.length > 0 ? atMs[atMs.length - 1] : 0;
    return { node, atMs, endMs: Math.max(endMs, last) };
  }
}

/** Children beyond this count get a lookup map instead of a sibling scan. */
const WIDE_NODE = 16;
/** Call lines past this are not kept (0); a line is packed with its node into one number key (< 2^53). */
const LINE_SPAN = 2 ** 21;

export class CallTreeBuilder {
  readonly functions: ProfileFunction[] = [];
  private readonly functionIndex = new Map<string, number>();

  // The arrays start empty and are grown in the constructor: each field is stored twice before
  // the first node, so V8 knows from the start that they change. Stored once, they count as
  // constants, and TurboFan code of a reader's hot loop built on that is thrown away when they
  // first grow ("dependency change"), while the loop runs unoptimized: a V8 log's ticks ran
  // 2-3 aborted compiles long (the same for TimelineBuilder, codeMap.ts and addressMemo.ts).
  private capacity = 0;
  private size = 1;
  private parent = new Int32Array(0);
  private func = new Int32Array(0);
  private callLine = new Int32Array(0);
  private selfSamples = new Float64Array(0);
  private selfMs = new Float64Array(0);
  private firstChild = new Int32Array(0);
  private nextSibling = new Int32Array(0);
  private childCount = new Int32Array(0);
  /** Per node: 1 once it has more than WIDE_NODE children, which are then found through `wideChildren`. */
  private wide = new Uint8Array(0);
  private readonly wideChildren = new ChildIndex();

  private readonly lineIndex = new Map<number, number>();
  private readonly lineTicks: LineTicks[] = [];

  constructor() {
    this.grow(1024);
    this.parent[0] = -1;
    this.func[0] = -1;
  }

  get nodeCount(): number {
    return this.size;
  }

  /** The function's index; the same name+url+line+column always gives the same index. */
  internFunction(name: string, url: string, line: number, column: number, kind: CodeKind): number {
    const key = `${name}\u0000${url}\u0000${line}\u0000${column}`;
    let index = this.functionIndex.get(key);
    if (index === undefined) {
      index = this.functions.length;
      this.functions.push({ name, url, line, column, category: categorize(name, url, kind) });
      this.functionIndex.set(key, index);
    }
    return index;
  }

  /** The node for `func` called from `callLine` under `parent`, created on first use. */
  child(parent: number, func: number, callLine: number): number {
    const line = callLine > 0 && callLine < LINE_SPAN ? callLine : 0;
    const wide = this.wide[parent] === 1;
    if (wide) {
      const found = this.wideChildren.get(parent, func, line);
      if (found !== -1) return found;
    } else {
      for (let c = this.firstChild[parent]; c !== -1; c = this.nextSibling[c]) {
        if (this.func[c] === func && this.callLine[c] === line) return c;
      }
    }
    const node = this.size++;
    if (node === this.capacity) this.grow();
    this.parent[node] = parent;
    this.func[node] = func;
    this.callLine[node] = line;
    this.nextSibling[node] = this.firstChild[parent];
    this.firstChild[parent] = node;
    const count = ++this.childCount[parent];
    if (wide) this.wideChildren.set(parent, func, line, node);
    else if (count > WIDE_NODE) {
      for (let c = this.firstChild[parent]; c !== -1; c = this.nextSibling[c]) this.wideChildren.set(parent, this.func[c], this.callLine[c], c);
      this.wide[parent] = 1;
    }
    return node;
  }

  addSelf(node: number, samples: number, ms: number): void {
    this.selfSamples[node] += samples;
    this.selfMs[node] += ms;
  }

  addLine(node: number, line: number, samples: number, ms: number): void {
    if (line <= 0 || line >= LINE_SPAN) return;
    const key = node * LINE_SPAN + line;
    const index = this.lineIndex.get(key);
    if (index === undefined) {
      this.lineIndex.set(key, this.lineTicks.length);
      this.lineTicks.push({ node, line, samples, ms });
    } else {
      const entry = this.lineTicks[index];
      entry.samples += samples;
      entry.ms += ms;
    }
  }

  build(format: ProfileFormat, samples: number, durationMs: number, warnings: string[]): NormalizedProfile {
    const n = this.size;
    const tree: CallTree = {
      count: n,
      parent: this.parent.slice(0, n),
      func: this.func.slice(0, n),
      callLine: this.callLine.slice(0, n),
      selfSamples: this.selfSamples.slice(0, n),
      selfMs: this.selfMs.slice(0, n),
    };
    return { format, samples, durationMs, functions: this.functions, tree, lineTicks: this.lineTicks, warnings };
  }

  private grow(capacity = this.capacity * 2): void {
    const growInt = (a: Int32Array, fill = 0): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(capacity);
      if (fill !== 0) b.fill(fill, a.length);
      b.set(a);
      return b;
    };
    const growFloat = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(capacity);
      b.set(a);
      return b;
    };
    this.parent = growInt(this.parent);
    this.func = growInt(this.func);
    this.callLine = growInt(this.callLine);
    this.firstChild = growInt(this.firstChild, -1);
    this.nextSibling = growInt(this.nextSibling, -1);
    this.childCount = growInt(this.childCount);
    const wide = new Uint8Array(capacity);
    wide.set(this.wide);
    this.wide = wide;
    this.selfSamples = growFloat(this.selfSamples);
    this.selfMs = growFloat(this.selfMs);
    this.capacity = capacity;
  }
}
