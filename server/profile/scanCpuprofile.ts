// Reads a .cpuprofile straight from its bytes when it has the usual shape, without ever holding
// the whole text as a string plus the whole object tree (a 100 MB profile would need ~5x its
// size): the "nodes" array is JSON.parsed a batch of elements at a time and handed to
// CpuprofileParts; "samples" and "timeDeltas" are parsed as integers straight into typed arrays.
// Anything unusual (other keys' shapes, non-integer numbers, bad JSON) returns null, and the
// caller parses the file whole, which also words the error. The caller drops the bytes before
// building the tree from the parts, so the two never take memory at the same time.
import { CpuprofileParts } from './readCpuprofile';

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

/** Keys of the other JSON formats: not a cpuprofile, let the caller decide. */
const FOREIGN_KEYS = new Set(['profile', 'code', 'ticks', 'traceEvents']);

/** The profile's parts (the bytes are no longer needed), or null when the file needs a full JSON.parse. */
export function scanCpuprofile(bytes: Buffer): CpuprofileParts | null {
  const parts = new CpuprofileParts();
  let sawNodes = false;
  let i = skipSpace(bytes, bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
  if (bytes[i] !== OPEN_BRACE) return null;
  i = skipSpace(bytes, i + 1);
  if (bytes[i] === CLOSE_BRACE) return null;
  for (;;) {
    if (bytes[i] !== QUOTE) return null;
    const keyEnd = endOfString(bytes, i);
    if (keyEnd < 0) return null;
    const key = bytes.toString('latin1', i + 1, keyEnd - 1);
    i = skipSpace(bytes, keyEnd);
    if (bytes[i] !== COLON) return null;
    i = skipSpace(bytes, i + 1);
    let end: number;
    if (FOREIGN_KEYS.has(key)) return null;
    if (key === 'nodes') {
      if (bytes[i] !== OPEN_BRACKET) return null;
      end = readNodes(bytes, i, parts);
      sawNodes = true;
    } else if (key === 'samples' || key === 'timeDeltas') {
      if (bytes[i] !== OPEN_BRACKET) return null;
      const numbers = readIntegers(bytes, i);
      if (numbers === null) return null;
      if (key === 'samples') parts.samples = numbers.values;
      else parts.timeDeltas = numbers.values;
      end = numbers.end;
    } else {
      end = endOfValue(bytes, i);
      if (end < 0) return null;
      if (key === 'startTime' || key === 'endTime') {
        const value: unknown = parseOrNull(bytes.toString('latin1', i, end));
        if (typeof value === 'number' && Number.isFinite(value)) parts[key] = value;
      }
    }
    if (end < 0) return null;
    i = skipSpace(bytes, end);
    if (bytes[i] === COMMA) {
      i = skipSpace(bytes, i + 1);
      continue;
    }
    if (bytes[i] !== CLOSE_BRACE) return null;
    if (skipSpace(bytes, i + 1) !== bytes.length) return null;
    break;
  }
  return sawNodes ? parts : null;
}

function readNodes(bytes: Buffer, open: number, parts: CpuprofileParts): number {
  let i = skipSpace(bytes, open + 1);
  if (bytes[i] === CLOSE_BRACKET) return i + 1;
  let batchStart = i;
  let inBatch = 0;
  for (;;) {
    if (bytes[i] !== OPEN_BRACE) return -1;
    const end = endOfValue(bytes, i);
    if (end < 0) return -1;
    inBatch++;
    const next = skipSpace(bytes, end);
    const last = bytes[next] === CLOSE_BRACKET;
    if (!last && bytes[next] !== COMMA) return -1;
    if (last || inBatch === NODE_BATCH) {
      const batch = parseOrNull(`[${bytes.toString('utf8', batchStart, end)}]`);
      if (!Array.isArray(batch)) return -1;
      for (const node of batch) parts.addNode(node);
      inBatch = 0;
      batchStart = skipSpace(bytes, next + 1);
    }
    if (last) return next + 1;
    i = skipSpace(bytes, next + 1);
  }
}

/** An array of 32-bit integers, parsed in place; null when it holds anything else. */
function readIntegers(bytes: Buffer, open: number): { values: Int32Array; end: number } | null {
  const close = bytes.indexOf(CLOSE_BRACKET, open + 1);
  if (close < 0) return null;
  // Size the array from the density of commas in its first bytes (grown if that was short).
  const probeEnd = Math.min(close, open + 8192);
  let probeCommas = 0;
  for (let j = open + 1; j < probeEnd; j++) if (bytes[j] === COMMA) probeCommas++;
  let values = new Int32Array(probeEnd === close ? probeCommas + 1 : Math.ceil(((close - open) * (probeCommas + 1)) / (probeEnd - open) * 1.05) + 16);
  let count = 0;
  let value = 0;
  let negative = false;
  let digits = 0;
  let done = false; // digits ended by a space
  for (let j = open + 1; j <= close; j++) {
    const c = bytes[j];
    if (c >= 0x30 && c <= 0x39) {
      if (done) return null;
      value = value * 10 + (c - 0x30);
      digits++;
    } else if (c === COMMA || c === CLOSE_BRACKET) {
      if (digits === 0) {
        if (c === CLOSE_BRACKET && count === 0 && !negative) break;
        return null;
      }
      if (digits > 10 || value > 0x7fffffff) return null;
      if (count === values.length) {
        const grown = new Int32Array(Math.ceil(values.length * 1.5) + 16);
        grown.set(values);
        values = grown;
      }
      values[count++] = negative ? -value : value;
      value = 0;
      digits = 0;
      negative = false;
      done = false;
    } else if (c === MINUS && digits === 0 && !negative) negative = true;
    else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) done = digits > 0;
    else return null;
  }
  return { values: values.subarray(0, count), end: close + 1 };
}

function skipSpace(bytes: Buffer, i: number): number {
  while (i < bytes.length) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** Index after the string starting at the quote at `i`, or -1. */
function endOfString(bytes: Buffer, i: number): number {
  for (let j = i + 1; j < bytes.length; j++) {
    const c = bytes[j];
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

/** Index after the JSON value starting at `i`, or -1 when it does not end. */
function endOfValue(bytes: Buffer, i: number): number {
  const first = bytes[i];
  if (first === QUOTE) return endOfString(bytes, i);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let j = i;
    while (j < bytes.length) {
      const c = bytes[j];
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) break;
      j++;
    }
    return j > i ? j : -1;
  }
  let depth = 0;
  for (let j = i; j < bytes.length; j++) {
    const c = bytes[j];
    if (c === QUOTE) {
      j = endOfString(bytes, j) - 1;
      if (j < 0) return -1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0) return j + 1;
    }
  }
  return -1;
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
