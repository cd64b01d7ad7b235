// The bytes of a JSON file seen through a window that moves forward (the streamed readers,
// scanCpuprofile.ts and scanTrace.ts, read files larger than one string can hold), with the few
// moves they make on it: skip spaces, find where a string or a value ends.

/** Sequential bytes: fills target[offset, offset+length) and returns how many it wrote (0 = end). */
export interface ByteSource {
  read(target: Buffer, offset: number, length: number): number;
}

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const MINUS = 0x2d;
/** The window's first size; it grows when one value needs more. */
export const WINDOW_BYTES = 4 * 1024 * 1024;

export const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The bytes of the input from absolute position `base` on. Positions handed around are
 * absolute; bytes before the oldest position still needed (the argument of `more`, or `pin`)
 * are dropped when more is read.
 */
export class ByteWindow {
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

export function skipSpace(w: ByteWindow, pos: number): number {
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
export function endOfString(w: ByteWindow, pos: number): number {
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

/** Where the JSON text starts: past a UTF-8 byte order mark and spaces. */
export function startOfJson(w: ByteWindow): number {
  return skipSpace(w, w.at(0) === 0xef && w.at(1) === 0xbb && w.at(2) === 0xbf ? 3 : 0);
}

/**
 * The object member whose key's quote is at `pos`: the key (latin1, escapes as written) and where
 * its value starts (past the colon and spaces); null when the bytes there are not `"key":`.
 */
export function memberAt(w: ByteWindow, pos: number): { key: string; value: number } | null {
  if (w.at(pos) !== QUOTE) return null;
  const keyEnd = endOfString(w, pos);
  if (keyEnd < 0) return null;
  const key = w.text(pos + 1, keyEnd - 1, 'latin1');
  const colon = skipSpace(w, keyEnd);
  if (w.at(colon) !== COLON) return null;
  return { key, value: skipSpace(w, colon + 1) };
}

/** Absolute position after the JSON value starting at `pos`, or -1 when it does not end. */
export function endOfValue(w: ByteWindow, pos: number): number {
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

export function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
