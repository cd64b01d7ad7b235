// Reads a .cpuprofile straight from its bytes when it has the usual shape, without ever holding
// the whole text as a string plus the whole object tree (a 100 MB profile would need ~5x its
// size): the bytes pass through a window (read from the file as needed), the "nodes" array is
// JSON.parsed a batch of elements at a time and handed to CpuprofileParts, and "samples" /
// "timeDeltas" are parsed as integers straight into typed arrays.
// Anything unusual (other keys' shapes, non-integer numbers, bad JSON) returns null, and the
// caller parses the file whole, which also words the error.
import { CpuprofileParts } from './readCpuprofile';

/** Sequential bytes: fills target[offset, offset+length) and returns how many it wrote (0 = end). */
export interface ByteSource {
  read(target: Buffer, offset: number, length: number): number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
/** Nodes JSON.parsed per call: few calls, small transient trees. */
const NODE_BATCH = 2000;
const WINDOW_BYTES = 4 * 1024 * 1024;

/** Keys of the other JSON formats: not a cpuprofile, let the caller decide. */
const FOREIGN_KEYS = new Set(['profile', 'code', 'ticks', 'traceEvents']);

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The bytes of the input from absolute position `base` on. Positions handed around are
 * absolute; bytes before the oldest position still needed (the argument of `more`, or `pin`)
 * are dropped when more is read.
 */
class ByteWindow {
  buf: Buffer;
  base = 0;
  end = 0;
  pin = Infinity;
  private source: ByteSource | null;

  constructor(input: Buffer | ByteSource, size: number) {
    if (Buffer.isBuffer(input)) {
      this.buf = input;
      this.end = input.length;
      this.source = null;
    } else {
      this.buf = Buffer.allocUnsafe(size);
      this.source = input;
    }
  }

  /** Reads more, keeping bytes from absolute `keep` (and `pin`) on; false at the end of input. */
  more(keep: number): boolean {
    if (this.source === null) return false;
    const from = Math.min(keep, this.pin) - this.base;
    if (from > 0) {
      this.buf.copyWithin(0, from, this.end);
      this.end -= from;
      this.base += from;
    } else if (this.end === this.buf.length) {
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.end);
      this.buf = bigger;
    }
    const n = this.source.read(this.buf, this.end, this.buf.length - this.end);
    if (n <= 0) {
      this.source = null;
      return false;
    }
    this.end += n;
    return true;
  }

  /** The byte at absolute `pos` (bytes from `keep` on stay), or -1 past the end. */
  at(pos: number, keep = pos): number {
    while (pos - this.base >= this.end) if (!this.more(keep)) return -1;
    return this.buf[pos - this.base];
  }

  text(from: number, to: number, encoding: 'utf8' | 'latin1'): string {
    return this.buf.toString(encoding, from - this.base, to - this.base);
  }
}

/** The profile's parts (the bytes are no longer needed), or null when the file needs a full JSON.parse. */
export function scanCpuprofile(input: Buffer | ByteSource, windowBytes = WINDOW_BYTES): CpuprofileParts | null {
  const w = new ByteWindow(input, windowBytes);
  const parts = new CpuprofileParts();
  let sawNodes = false;
  let i = 0;
  if (w.at(0) === 0xef && w.at(1) === 0xbb && w.at(2) === 0xbf) i = 3;
  i = skipSpace(w, i);
  if (w.at(i) !== OPEN_BRACE) return null;
  i = skipSpace(w, i + 1);
  if (w.at(i) === CLOSE_BRACE) return null;
  for (;;) {
    if (w.at(i) !== QUOTE) return null;
    const keyEnd = endOfString(w, i);
    if (keyEnd < 0) return null;
    const key = w.text(i + 1, keyEnd - 1, 'latin1');
    i = skipSpace(w, keyEnd);
    if (w.at(i) !== COLON) return null;
    i = skipSpace(w, i + 1);
    if (FOREIGN_KEYS.has(key)) return null;
    let end: number;
    if (key === 'nodes') {
      if (w.at(i) !== OPEN_BRACKET) return null;
      end = readNodes(w, i, parts);
      sawNodes = true;
    } else if (key === 'samples' || key === 'timeDeltas') {
      if (w.at(i) !== OPEN_BRACKET) return null;
      const numbers = readIntegers(w, i);
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

function readNodes(w: ByteWindow, open: number, parts: CpuprofileParts): number {
  let i = skipSpace(w, open + 1);
  if (w.at(i) === CLOSE_BRACKET) return i + 1;
  let batchStart = i;
  let inBatch = 0;
  w.pin = batchStart;
  try {
    for (;;) {
      if (w.at(i) !== OPEN_BRACE) return -1;
      const end = endOfValue(w, i);
      if (end < 0) return -1;
      inBatch++;
      const next = skipSpace(w, end);
      const c = w.at(next);
      const last = c === CLOSE_BRACKET;
      if (!last && c !== COMMA) return -1;
      if (last || inBatch === NODE_BATCH) {
        const batch = parseOrNull(`[${w.text(batchStart, end, 'utf8')}]`);
        if (!Array.isArray(batch)) return -1;
        for (const node of batch) parts.addNode(node);
        inBatch = 0;
        if (last) return next + 1;
        batchStart = skipSpace(w, next + 1);
        w.pin = batchStart;
        i = batchStart;
      } else i = skipSpace(w, next + 1);
    }
  } finally {
    w.pin = Infinity;
  }
}

/**
 * An array of 32-bit integers, parsed as it streams by; null when it holds anything else. One
 * number at a time in a tight loop over the window's bytes (most of a big profile's bytes are
 * these two arrays); a number cut by the window's end is parsed again after more is read.
 */
function readIntegers(w: ByteWindow, open: number): { values: Int32Array; end: number } | null {
  let values = new Int32Array(1 << 16);
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

function skipSpace(w: ByteWindow, pos: number): number {
  for (;;) {
    const buf = w.buf;
    let i = pos - w.base;
    while (i < w.end) {
      if (!isSpace(buf[i])) return w.base + i;
      i++;
    }
    pos = w.base + i;
    if (!w.more(pos)) return pos;
  }
}

/** Absolute position after the string whose quote is at `pos`, or -1. */
function endOfString(w: ByteWindow, pos: number): number {
  let at = pos + 1;
  for (;;) {
    const buf = w.buf;
    let j = at - w.base;
    for (; j < w.end; j++) {
      const c = buf[j];
      if (c === BACKSLASH) j++;
      else if (c === QUOTE) return w.base + j + 1;
    }
    at = w.base + j;
    if (!w.more(pos)) return -1;
  }
}

/** Absolute position after the JSON value starting at `pos`, or -1 when it does not end. */
function endOfValue(w: ByteWindow, pos: number): number {
  const first = w.at(pos);
  if (first === QUOTE) return endOfString(w, pos);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let j = pos;
    for (let c = w.at(j, pos); c !== -1 && c !== COMMA && c !== CLOSE_BRACE && c !== CLOSE_BRACKET && !isSpace(c); c = w.at(j, pos)) j++;
    return j > pos ? j : -1;
  }
  let depth = 0;
  let at = pos;
  let inString = false;
  for (;;) {
    const buf = w.buf;
    let j = at - w.base;
    for (; j < w.end; j++) {
      const c = buf[j];
      if (inString) {
        if (c === BACKSLASH) j++;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--depth === 0) return w.base + j + 1;
      }
    }
    at = w.base + j;
    if (!w.more(pos)) return -1;
  }
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
