// Reads a .cpuprofile straight from its bytes when it has the usual shape, without ever holding
// the whole text as a string plus the whole object tree (a 100 MB profile would need ~5x its
// size): the bytes pass through a window (read from the file as needed), each element of the
// "nodes" array is read field by field into CpuprofileParts (NodeScanner: no object per node,
// one parse per distinct callFrame), and "samples" / "timeDeltas" are parsed as integers
// straight into typed arrays. A node of another shape (other keys, non-integer numbers, escaped
// keys, longer than NODE_LOOKAHEAD) is JSON.parsed alone and taken by addNode, as before.
// Anything unusual elsewhere (other keys' shapes, non-integer numbers, bad JSON) returns null,
// and the caller parses the file whole, which also words the error.
import { BACKSLASH, ByteWindow, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, endOfValue, isSpace, memberAt, MINUS, OPEN_BRACE, OPEN_BRACKET, parseOrNull, QUOTE, skipSpace, startOfJson, WINDOW_BYTES, type ByteSource } from './jsonBytes';
import { CpuprofileParts, type ScannedFrame } from './readCpuprofile';

export type { ByteSource } from './jsonBytes';

/** Bytes a node is read within by NodeScanner (a longer one, rare, is JSON.parsed alone). */
const NODE_LOOKAHEAD = 64 * 1024;

/** Keys of the other JSON formats: not a cpuprofile, let the caller decide. */
const FOREIGN_KEYS = new Set(['profile', 'code', 'ticks', 'traceEvents']);

/** The profile's parts (the bytes are no longer needed), or null when the file needs a full JSON.parse. */
export function scanCpuprofile(input: Buffer | ByteSource, windowBytes = WINDOW_BYTES): CpuprofileParts | null {
  const w = new ByteWindow(input, windowBytes);
  const parts = new CpuprofileParts();
  let sawNodes = false;
  let i = startOfJson(w);
  if (w.at(i) !== OPEN_BRACE) return null;
  i = skipSpace(w, i + 1);
  if (w.at(i) === CLOSE_BRACE) return null;
  for (;;) {
    const member = memberAt(w, i);
    if (member === null) return null;
    const key = member.key;
    i = member.value;
    if (FOREIGN_KEYS.has(key)) return null;
    let end: number;
    if (key === 'nodes') {
      if (w.at(i) !== OPEN_BRACKET) return null;
      end = readNodes(w, i, parts, Math.min(NODE_LOOKAHEAD, windowBytes >> 1));
      sawNodes = true;
    } else if (key === 'samples' || key === 'timeDeltas') {
      if (w.at(i) !== OPEN_BRACKET) return null;
      // The two arrays have one entry per sample: the second is sized by the first.
      const numbers = readIntegers(w, i, (key === 'samples' ? parts.timeDeltas : parts.samples)?.length);
      if (numbers === null) return null;
      if (key === 'samples') parts.samples = numbers.values;
      else parts.timeDeltas = numbers.values;
      end = numbers.end;
    } else {
      end = endOfValue(w, i);
      if (end < 0) return null;
      if (key === 'startTime' || key === 'endTime') {
        const value: unknown = parseOrNull(w.text(i, end, 'latin1'));
        if (typeof value === 'number' && Number.isFinite(value)) parts[key] = value;
      }
    }
    if (end < 0) return null;
    i = skipSpace(w, end);
    const c = w.at(i);
    if (c === COMMA) {
      i = skipSpace(w, i + 1);
      continue;
    }
    if (c !== CLOSE_BRACE) return null;
    if (w.at(skipSpace(w, i + 1)) !== -1) return null;
    break;
  }
  return sawNodes ? parts : null;
}

function readNodes(w: ByteWindow, open: number, parts: CpuprofileParts, lookahead: number): number {
  const scanner = new NodeScanner(parts);
  let i = skipSpace(w, open + 1);
  if (w.at(i) === CLOSE_BRACKET) return i + 1;
  for (;;) {
    if (w.at(i) !== OPEN_BRACE) return -1;
    // The node (usually whole) in the window; bytes before it may go.
    w.at(i + lookahead, i);
    let end = scanner.read(w.buf, i - w.base, w.end);
    if (end >= 0) end += w.base;
    else {
      end = endOfValue(w, i);
      if (end < 0) return -1;
      const node = parseOrNull(w.text(i, end, 'utf8'));
      if (node === null) return -1;
      parts.addNode(node);
    }
    const next = skipSpace(w, end);
    const c = w.at(next);
    if (c === CLOSE_BRACKET) return next + 1;
    if (c !== COMMA) return -1;
    i = skipSpace(w, next + 1);
  }
}

const keyBytes = (key: string): Uint8Array => Uint8Array.from(key, (c) => c.charCodeAt(0));
const ID = keyBytes('id');
const CALL_FRAME = keyBytes('callFrame');
const HIT_COUNT = keyBytes('hitCount');
const CHILDREN = keyBytes('children');
const POSITION_TICKS = keyBytes('positionTicks');
const DEOPT_REASON = keyBytes('deoptReason');
const PARENT = keyBytes('parent');
const LINE = keyBytes('line');
const TICKS = keyBytes('ticks');
/** The keys of a call frame; each holds a string or an integer (readCpuprofile's internFrame checks which). */
const FRAME_KEYS = new Set(['functionName', 'scriptId', 'url', 'lineNumber', 'columnNumber']);

/** True when buf[from, to) holds exactly `key`. */
function keyIs(buf: Buffer, from: number, to: number, key: Uint8Array): boolean {
  if (to - from !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (buf[from + k] !== key[k]) return false;
  return true;
}

/** Call frames kept per hash of their bytes. */
const MAX_HASH_CHAIN = 8;

/** A call frame already parsed: its bytes, and the next one with the same hash. */
interface KnownFrame {
  readonly bytes: Buffer;
  readonly frame: ScannedFrame;
  readonly next: KnownFrame | undefined;
}

/**
 * Reads the usual node straight from its bytes, validating them as JSON.parse would, and hands
 * its fields to CpuprofileParts.addScanned: {"id":…,"callFrame":{…},"hitCount":…,"children":[…],
 * "positionTicks":[{"line":…,"ticks":…}],"deoptReason":"…","parent":…} in any order, with any
 * spaces, integers only. A callFrame is parsed once per distinct text (a big profile repeats
 * each frame in many nodes). Anything else, or a node that runs past `lim`, is left to the
 * caller (-1) before anything is added.
 */
class NodeScanner {
  private buf: Buffer = Buffer.alloc(0);
  private p = 0;
  private lim = 0;
  /** Call frames by a hash of their bytes (FNV-1a), each with its bytes to tell collisions apart. */
  private readonly frames = new Map<number, KnownFrame>();
  private readonly children: number[] = [];
  private childCount = 0;
  private readonly tickLines: number[] = [];
  private readonly tickCounts: number[] = [];
  private tickCount = 0;

  constructor(private readonly parts: CpuprofileParts) {}

  /** Reads the node whose `{` is at buf[from] (bytes up to lim): the index after its `}`, or -1 (nothing added). */
  read(buf: Buffer, from: number, lim: number): number {
    this.buf = buf;
    this.p = from + 1;
    this.lim = lim;
    let id = NaN;
    let frame: ScannedFrame | undefined;
    let hasChildren = false;
    let parent = NaN;
    let hitCount = 0;
    this.tickCount = 0;
    this.space();
    for (;;) {
      const key = this.p + 1;
      const keyEnd = this.key();
      if (keyEnd < 0) return -1;
      if (keyIs(buf, key, keyEnd, ID)) {
        id = this.integer();
        if (Number.isNaN(id)) return -1;
      } else if (keyIs(buf, key, keyEnd, CALL_FRAME)) {
        frame = this.callFrame();
        if (frame === undefined) return -1;
      } else if (keyIs(buf, key, keyEnd, HIT_COUNT)) {
        hitCount = this.integer();
        if (Number.isNaN(hitCount)) return -1;
      } else if (keyIs(buf, key, keyEnd, CHILDREN)) {
        if (!this.childIds()) return -1;
        hasChildren = true;
      } else if (keyIs(buf, key, keyEnd, POSITION_TICKS)) {
        if (!this.positionTicks()) return -1;
      } else if (keyIs(buf, key, keyEnd, DEOPT_REASON)) {
        if (this.string() === undefined) return -1;
      } else if (keyIs(buf, key, keyEnd, PARENT)) {
        parent = this.integer();
        if (Number.isNaN(parent)) return -1;
      } else return -1;
      this.space();
      const c = this.next();
      if (c === CLOSE_BRACE) break;
      if (c !== COMMA) return -1;
      this.space();
    }
    if (Number.isNaN(id) || frame === undefined) return -1;
    this.parts.addScanned(id, frame, hasChildren ? this.children : null, this.childCount, parent, hitCount, this.tickLines, this.tickCounts, this.tickCount);
    return this.p;
  }

  private space(): void {
    const { buf, lim } = this;
    let p = this.p;
    while (p < lim && isSpace(buf[p])) p++;
    this.p = p;
  }

  /** The next byte (-1 past lim), consumed. */
  private next(): number {
    return this.p < this.lim ? this.buf[this.p++] : -1;
  }

  /** A key without escapes and the colon after it: the index of its closing quote, or -1. */
  private key(): number {
    const { buf, lim } = this;
    let p = this.p;
    if (p >= lim || buf[p] !== QUOTE) return -1;
    for (p++; p < lim; p++) {
      const c = buf[p];
      if (c === QUOTE) break;
      if (c === BACKSLASH || c < 0x20) return -1;
    }
    if (p >= lim) return -1;
    this.p = p + 1;
    this.space();
    if (this.next() !== COLON) return -1;
    this.space();
    return p;
  }

  /** A JSON integer of at most 15 digits (exact as a double); NaN for anything else (a fraction, an exponent, the end of the bytes). */
  private integer(): number {
    const { buf, lim } = this;
    let p = this.p;
    const negative = p < lim && buf[p] === MINUS;
    if (negative) p++;
    const start = p;
    let value = 0;
    for (; p < lim; p++) {
      const c = buf[p];
      if (c < 0x30 || c > 0x39) break;
      value = value * 10 + (c - 0x30);
    }
    const digits = p - start;
    if (digits === 0 || digits > 15 || (digits > 1 && buf[start] === 0x30) || p >= lim) return NaN;
    const c = buf[p];
    if (c === 0x2e /* . */ || c === 0x65 /* e */ || c === 0x45 /* E */) return NaN;
    this.p = p;
    return negative ? -value : value;
  }

  /** A JSON string (escapes decoded by JSON.parse), or undefined. */
  private string(): string | undefined {
    const { buf, lim } = this;
    let p = this.p;
    if (p >= lim || buf[p] !== QUOTE) return undefined;
    const open = p;
    let escaped = false;
    for (p++; p < lim; p++) {
      const c = buf[p];
      if (c === QUOTE) break;
      if (c < 0x20) return undefined; // JSON.parse refuses raw control characters in strings
      if (c === BACKSLASH) {
        escaped = true;
        p++;
      }
    }
    if (p >= lim) return undefined;
    this.p = p + 1;
    if (!escaped) return buf.toString('utf8', open + 1, p);
    const value = parseOrNull(buf.toString('utf8', open, p + 1));
    return typeof value === 'string' ? value : undefined;
  }

  /** `[int, …]` into children[0, childCount), or false. */
  private childIds(): boolean {
    this.childCount = 0;
    if (this.next() !== OPEN_BRACKET) return false;
    this.space();
    if (this.p < this.lim && this.buf[this.p] === CLOSE_BRACKET) {
      this.p++;
      return true;
    }
    for (;;) {
      const value = this.integer();
      if (Number.isNaN(value)) return false;
      this.children[this.childCount++] = value;
      this.space();
      const c = this.next();
      if (c === CLOSE_BRACKET) return true;
      if (c !== COMMA) return false;
      this.space();
    }
  }

  /** `[{"line": int, "ticks": int}, …]`: the entries with both, or false. */
  private positionTicks(): boolean {
    const { buf, tickLines, tickCounts } = this;
    this.tickCount = 0;
    if (this.next() !== OPEN_BRACKET) return false;
    this.space();
    if (this.p < this.lim && buf[this.p] === CLOSE_BRACKET) {
      this.p++;
      return true;
    }
    for (;;) {
      if (this.next() !== OPEN_BRACE) return false;
      this.space();
      let line = NaN;
      let ticks = NaN;
      if (this.p < this.lim && buf[this.p] === CLOSE_BRACE) this.p++;
      else {
        for (;;) {
          const key = this.p + 1;
          const keyEnd = this.key();
          if (keyEnd < 0) return false;
          const value = this.integer();
          if (Number.isNaN(value)) return false;
          if (keyIs(buf, key, keyEnd, LINE)) line = value;
          else if (keyIs(buf, key, keyEnd, TICKS)) ticks = value;
          else return false;
          this.space();
          const c = this.next();
          if (c === CLOSE_BRACE) break;
          if (c !== COMMA) return false;
          this.space();
        }
      }
      // addNode skips an entry without a line or ticks.
      if (!Number.isNaN(line) && !Number.isNaN(ticks)) {
        tickLines[this.tickCount] = line;
        tickCounts[this.tickCount++] = ticks;
      }
      this.space();
      const c = this.next();
      if (c === CLOSE_BRACKET) return true;
      if (c !== COMMA) return false;
      this.space();
    }
  }

  /** The call frame object, parsed once per distinct text; undefined when it is not the usual shape. */
  private callFrame(): ScannedFrame | undefined {
    const { buf, lim } = this;
    const start = this.p;
    if (start >= lim || buf[start] !== OPEN_BRACE) return undefined;
    // Its extent (a call frame holds no object or array; strings may hold anything) and hash.
    let hash = 0x811c9dc5;
    let p = start + 1;
    for (; p < lim; p++) {
      const c = buf[p];
      hash = Math.imul(hash ^ c, 0x01000193);
      if (c === QUOTE) {
        for (p++; p < lim; p++) {
          const d = buf[p];
          hash = Math.imul(hash ^ d, 0x01000193);
          if (d === QUOTE) break;
          if (d === BACKSLASH && p + 1 < lim) hash = Math.imul(hash ^ buf[++p], 0x01000193);
        }
      } else if (c === CLOSE_BRACE) break;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) return undefined;
    }
    if (p >= lim) return undefined;
    const end = p + 1;
    let known = this.frames.get(hash);
    let chain = 0;
    for (; known !== undefined && buf.compare(known.bytes, 0, known.bytes.length, start, end) !== 0; known = known.next) chain++;
    if (known !== undefined) {
      this.p = end;
      return known.frame;
    }
    const callFrame = this.callFrameFields(start);
    if (callFrame === undefined) return undefined;
    this.p = end;
    const frame: ScannedFrame = { callFrame };
    // A crafted profile can make many frames share a hash: past a few, they are not kept (each
    // is parsed again, and interned by its fields), so a lookup never walks a long chain.
    if (chain < MAX_HASH_CHAIN) {
      // A copy: the window's bytes are overwritten as it moves on.
      this.frames.set(hash, { bytes: Buffer.from(buf.subarray(start, end)), frame, next: this.frames.get(hash) });
    }
    return frame;
  }

  /** The fields of the call frame at `start` (known to end before lim), each a string or an integer. */
  private callFrameFields(start: number): Record<string, unknown> | undefined {
    const { buf } = this;
    const fields: Record<string, unknown> = {};
    this.p = start + 1;
    this.space();
    if (this.p < this.lim && buf[this.p] === CLOSE_BRACE) return fields;
    for (;;) {
      const key = this.p + 1;
      const keyEnd = this.key();
      if (keyEnd < 0) return undefined;
      const name = buf.toString('latin1', key, keyEnd);
      if (!FRAME_KEYS.has(name)) return undefined;
      const value = this.p < this.lim && buf[this.p] === QUOTE ? this.string() : this.integer();
      if (value === undefined || Number.isNaN(value)) return undefined;
      fields[name] = value;
      this.space();
      const c = this.next();
      if (c === CLOSE_BRACE) return fields;
      if (c !== COMMA) return undefined;
      this.space();
    }
  }
}

/**
 * An array of 32-bit integers, parsed as it streams by; null when it holds anything else. One
 * number at a time in a tight loop over the window's bytes (most of a big profile's bytes are
 * these two arrays); a number cut by the window's end is parsed again after more is read.
 */
function readIntegers(w: ByteWindow, open: number, expected?: number): { values: Int32Array; end: number } | null {
  let values = new Int32Array(Math.max(16, expected ?? 1 << 16));
  let count = 0;
  let pos = open + 1;
  for (;;) {
    const buf = w.buf;
    const end = w.end;
    const base = w.base;
    // j: where the next element starts (spaces allowed); k: the byte being read.
    let j = pos - base;
    for (;;) {
      let k = j;
      let c = -1;
      while (k < end && isSpace((c = buf[k]))) k++;
      if (k === end) break;
      if (c === CLOSE_BRACKET && count === 0) return { values: values.subarray(0, 0), end: base + k + 1 };
      const negative = c === MINUS;
      if (negative) k++;
      const digitsStart = k;
      let value = 0;
      while (k < end && (c = buf[k]) >= 0x30 && c <= 0x39) {
        value = value * 10 + (c - 0x30);
        k++;
      }
      if (k === end) break;
      const digits = k - digitsStart;
      // JSON has no leading zeros (01): such a file is JSON.parse's to refuse.
      if (digits === 0 || digits > 10 || value > 0x7fffffff || (digits > 1 && buf[digitsStart] === 0x30)) return null;
      while (k < end && isSpace((c = buf[k]))) k++;
      if (k === end) break;
      if (c !== COMMA && c !== CLOSE_BRACKET) return null;
      if (count === values.length) {
        const grown = new Int32Array(Math.ceil(values.length * 1.5));
        grown.set(values);
        values = grown;
      }
      values[count++] = negative ? -value : value;
      j = k + 1;
      if (c === CLOSE_BRACKET) return { values: count * 4 < values.length * 3 ? values.slice(0, count) : values.subarray(0, count), end: base + j };
    }
    pos = base + j;
    if (!w.more(pos)) return null;
  }
}

