// What a source map may become (docs/security.md, "Budgets"): a map within its byte cap can
// still describe tens of millions of mapping segments (`A,A,A,…` is 2 bytes a segment) or
// sources (`"a",` is 4 bytes), and @jridgewell/trace-mapping decodes each segment into an array
// of ~64 bytes; three 60 MB maps aborted the CLI out of memory. Both are counted on the text,
// before JSON.parse and before decoding, per map and over every map one report caches; a map
// past the budget is not applied (its frames stay unmapped, with a one-line warning).
import { totalmem } from 'node:os';

/** At most one mapping segment per this many bytes of the map cap (real maps: 5-8 bytes a segment). */
export const MAP_BYTES_PER_SEGMENT = 8;
/** At most one JSON string (sources, names, sourcesContent) per this many bytes of the map cap (real maps: 20+). */
export const MAP_BYTES_PER_STRING = 16;
/** What one decoded segment costs (a number array of 1-5 elements). */
const BYTES_PER_DECODED_SEGMENT = 64;
/** The share of the machine's memory all the maps of one report may take, decoded. */
const MAP_MEMORY_SHARE = 1 / 16;

/** How many segments the maps of one report may decode, together and each (within `capBytes` a map). */
export function mapSegmentBudget(capBytes: number, memoryBytes = totalmem()): number {
  return Math.floor(Math.min(capBytes / MAP_BYTES_PER_SEGMENT, (memoryBytes * MAP_MEMORY_SHARE) / BYTES_PER_DECODED_SEGMENT));
}

/** How many JSON strings one map read within `capBytes` may hold. */
export function mapStringBudget(capBytes: number): number {
  return Math.floor(capBytes / MAP_BYTES_PER_STRING);
}

/** Double quotes in `text` divided by two: an upper bound on the JSON strings it holds (escaped quotes count too). */
export function countJsonStrings(text: string): number {
  let quotes = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) quotes++;
  return Math.ceil(quotes / 2);
}

/** Segments in a `mappings` string: one per `,`, plus one per non-empty line (an upper bound, no decoding). */
export function countSegments(mappings: string): number {
  let count = 0;
  let lineEmpty = true;
  for (let i = 0; i < mappings.length; i++) {
    const c = mappings.charCodeAt(i);
    if (c === 0x3b /* ; */) {
      if (!lineEmpty) count++;
      lineEmpty = true;
    } else if (c === 0x2c /* , */) count++;
    else lineEmpty = false;
  }
  return lineEmpty ? count : count + 1;
}
