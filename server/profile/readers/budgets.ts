// What an input may become, not only its bytes (docs/security.md, "Budgets"): a small file can
// describe millions of objects (`[{},{},…]` is 3 bytes an object), and what a reader builds
// from it costs tens of bytes each. Each budget is proportional to the input's byte cap and to
// the machine's memory, and a reader refuses past it in one line before building. The caps
// themselves live beside the readers that apply them (load.ts); the budgets are here, named,
// so both can move together.
import { totalmem } from 'node:os';

/**
 * Raw V8 logs (`--prof`), read line by line within MAX_LOG_BYTES: at most one code entry
 * (code-creation line) per this many bytes of the cap. A real code-creation line is 60-150 bytes
 * (a name with its script URL); each entry costs ~150 bytes here (its name, kind, the code map).
 */
export const V8LOG_BYTES_PER_CODE_ENTRY = 128;
const BYTES_PER_CODE_ENTRY_BUILT = 160;

/**
 * Raw V8 logs: at most one source position, inlining or inlined-function element (the `C…O…`,
 * `F…O…` and `S0x…` items of code-source-info lines, 4 bytes at the least, 6-12 in real logs)
 * per this many bytes of the cap, counted over the code the ticks land in (parsed) and the
 * inlined functions' names kept per code. Each costs 12 bytes (three Int32s) to ~40 (a name).
 */
export const V8LOG_BYTES_PER_SOURCE_ELEMENT = 32;
const BYTES_PER_SOURCE_ELEMENT_BUILT = 40;

/**
 * Raw V8 logs: at most one inlined frame per this many bytes of the cap. Every ticked offset in
 * code with inlining gets its whole chain (up to 1,000 deep) as frames, and every call tree node
 * of that code gets a node per chain link: a 1 MB log with a deep chain ticked at many offsets
 * asks for tens of millions, ~200 bytes each. Real logs ask for a few per ticked offset.
 */
export const V8LOG_BYTES_PER_INLINED_FRAME = 512;
const BYTES_PER_INLINED_FRAME_BUILT = 200;

/** The share of the machine's memory what one V8 log builds (entries, positions) may take. */
const V8LOG_MEMORY_SHARE = 1 / 8;

/** How many code entries a V8 log read within `capBytes` may create here. */
export function v8LogCodeEntryBudget(capBytes: number, memoryBytes = totalmem()): number {
  return Math.floor(Math.min(capBytes / V8LOG_BYTES_PER_CODE_ENTRY, (memoryBytes * V8LOG_MEMORY_SHARE) / BYTES_PER_CODE_ENTRY_BUILT));
}

/** How many source-info elements (positions, inlinings, inlined functions) a V8 log read within `capBytes` may build here. */
export function v8LogSourceElementBudget(capBytes: number, memoryBytes = totalmem()): number {
  return Math.floor(Math.min(capBytes / V8LOG_BYTES_PER_SOURCE_ELEMENT, (memoryBytes * V8LOG_MEMORY_SHARE) / BYTES_PER_SOURCE_ELEMENT_BUILT));
}

/**
 * JSON parsed whole (traces, --preprocess files, heap profiles, gzipped cpuprofiles): at most one
 * object or array per this many bytes of the cap. Real files hold one per 40-150 bytes (a trace
 * event and its args, a node and its callFrame); JSON.parse makes each one 50-100 bytes of heap.
 */
export const JSON_BYTES_PER_CONTAINER = 32;

/** The share of the machine's memory the objects of one parsed JSON file may take (at ~64 bytes each). */
const JSON_MEMORY_SHARE = 1 / 8;
const BYTES_PER_PARSED_CONTAINER = 64;

/** How many objects and arrays a JSON file read within `capBytes` may hold here. */
export function jsonContainerBudget(capBytes: number, memoryBytes = totalmem()): number {
  return Math.floor(Math.min(capBytes / JSON_BYTES_PER_CONTAINER, (memoryBytes * JSON_MEMORY_SHARE) / BYTES_PER_PARSED_CONTAINER));
}

/**
 * Counts `{` and `[` in `bytes` (inside strings too: an upper bound, one pass, no parse) and stops
 * at `budget + 1`. The count is what JSON.parse would build at most.
 */
export function countJsonContainers(bytes: Uint8Array, budget: number): number {
  let count = 0;
  for (let i = 0; i < bytes.length && count <= budget; i++) {
    const b = bytes[i];
    if (b === 0x7b /* { */ || b === 0x5b /* [ */) count++;
  }
  return count;
}

/** How many inlined frames (chain links at ticked offsets, and their call tree nodes) a V8 log read within `capBytes` may build here. */
export function v8LogInlinedFrameBudget(capBytes: number, memoryBytes = totalmem()): number {
  return Math.floor(Math.min(capBytes / V8LOG_BYTES_PER_INLINED_FRAME, (memoryBytes * V8LOG_MEMORY_SHARE) / BYTES_PER_INLINED_FRAME_BUILT));
}
