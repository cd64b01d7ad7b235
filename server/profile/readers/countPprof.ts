// What decoding a pprof buffer would build, counted from the protobuf wire without building it
// (budgets.ts, docs/security.md "Budgets"): pprof-format decodes a whole Profile at once, and
// two bytes (an empty sample) become a Sample object of ~150 bytes, one byte of a packed list a
// number in an array. The walk follows pprof-format's decoder exactly (a one-byte tag, varint and
// length-delimited values only, lengths clamped to the buffer), so what it counts is what the
// decoder would make of the same bytes.

/** Messages (objects: samples, locations, lines, functions, mappings, labels, value types, strings) and numbers in lists. */
export interface PprofCounts {
  messages: number;
  numbers: number;
  sampleTypes: number;
}

const VARINT = 0;
const LENGTH_DELIMITED = 2;

/** Profile fields that decode to one object each (sample_type, sample, mapping, location, function, string_table, period_type). */
const PROFILE_MESSAGES = new Set([1, 2, 3, 4, 5, 6, 11]);
const PROFILE_SAMPLE = 2;
const PROFILE_LOCATION = 4;
const PROFILE_COMMENT = 13;
const PROFILE_SAMPLE_TYPE = 1;
const SAMPLE_LOCATION_IDS = 1;
const SAMPLE_VALUES = 2;
const SAMPLE_LABEL = 3;
const LOCATION_LINE = 4;

/** Calls `visit(field, mode, start, end)` for each field of the message in bytes[from, to). */
function forEachField(bytes: Uint8Array, from: number, to: number, visit: (field: number, mode: number, start: number, end: number) => void): void {
  let i = from;
  while (i < to) {
    const tag = bytes[i++];
    const mode = tag & 0b111;
    if (mode === VARINT) {
      const start = i;
      while (i < to && bytes[i] >= 0x80) i++;
      i = Math.min(to, i + 1);
      visit(tag >> 3, mode, start, i);
    } else if (mode === LENGTH_DELIMITED) {
      let length = 0;
      let scale = 1;
      while (i < to) {
        const b = bytes[i++];
        length += (b & 0x7f) * scale;
        scale *= 128;
        if (b < 0x80) break;
      }
      const start = i;
      i = Math.min(to, i + length);
      visit(tag >> 3, mode, start, i);
    } else return; // the decoder throws on any other wire type: nothing more is built
  }
}

/** How many numbers a list field decodes to: one per varint end in its bytes. */
function numbersIn(bytes: Uint8Array, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) if (bytes[i] < 0x80) n++;
  return n;
}

export function countPprof(bytes: Uint8Array): PprofCounts {
  const counts: PprofCounts = { messages: 0, numbers: 0, sampleTypes: 0 };
  forEachField(bytes, 0, bytes.length, (field, mode, start, end) => {
    if (field === PROFILE_COMMENT) counts.numbers += numbersIn(bytes, start, end);
    if (!PROFILE_MESSAGES.has(field)) return;
    counts.messages++;
    if (field === PROFILE_SAMPLE_TYPE) counts.sampleTypes++;
    if (mode !== LENGTH_DELIMITED) return;
    if (field === PROFILE_SAMPLE) {
      forEachField(bytes, start, end, (inner, _mode, s, e) => {
        if (inner === SAMPLE_LOCATION_IDS || inner === SAMPLE_VALUES) counts.numbers += numbersIn(bytes, s, e);
        else if (inner === SAMPLE_LABEL) counts.messages++;
      });
    } else if (field === PROFILE_LOCATION) {
      forEachField(bytes, start, end, (inner) => {
        if (inner === LOCATION_LINE) counts.messages++;
      });
    }
  });
  return counts;
}
