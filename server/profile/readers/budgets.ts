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

/** The share of the machine's memory what one profile builds may take (each budget below is also bounded by its cap). */
const MEMORY_SHARE = 1 / 8;

/**
 * Values (array elements and object members: numbers, strings, objects) of JSON parsed at once,
 * a whole file or one trace event: at most one per this many bytes of the cap. `[2,2,2,…]` is 2
 * bytes a value, which JSON.parse makes 8-16 bytes of heap (a 195 KB gzipped trace of 100 M
 * samples peaked at 4.7 GB). Real files hold one per 5-15 bytes (a preprocessed tick's stack is
 * the densest).
 */
export const JSON_BYTES_PER_VALUE = 6;
const BYTES_PER_PARSED_VALUE = 16;

export function jsonValueBudget(capBytes: number, memoryBytes = totalmem()): number {
  return Math.floor(Math.min(capBytes / JSON_BYTES_PER_VALUE, (memoryBytes * MEMORY_SHARE) / BYTES_PER_PARSED_VALUE));
}

/**
 * Counts the values in JSON text (one per `,`, plus one per `{` and `[`: an upper bound, strings
 * included, no parse) and stops at `budget + 1`.
 */
export function countJsonValues(text: Uint8Array | string, budget: number): number {
  let count = 0;
  if (typeof text === 'string') {
    for (let i = 0; i < text.length && count <= budget; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x2c /* , */ || c === 0x7b || c === 0x5b) count++;
    }
    return count;
  }
  for (let i = 0; i < text.length && count <= budget; i++) {
    const b = text[i];
    if (b === 0x2c /* , */ || b === 0x7b || b === 0x5b) count++;
  }
  return count;
}

/**
 * Trace events, read or skipped: one per 64 bytes of the cap (48 Mi at 3 GiB). The smallest real
 * event (`{"pid":1,"tid":1,"ts":1,"ph":"X","name":"a","dur":1,"args":{}}`) takes about 70; `{},`
 * takes 3, and 80 M of them took half a minute to walk.
 */
export const TRACE_BYTES_PER_EVENT = 64;

export function traceEventBudget(capBytes: number): number {
  return Math.floor(capBytes / TRACE_BYTES_PER_EVENT);
}

/**
 * pprof, before decoding (pprof-format builds the whole Profile at once): what decoding would
 * build, estimated from the wire (countPprof.ts). Measured: an empty Sample (2 bytes) decodes to
 * ~152 bytes of heap, each number of a packed list (1 byte) to ~16.
 */
export const PPROF_BYTES_PER_DECODED_MESSAGE = 160;
export const PPROF_BYTES_PER_DECODED_NUMBER = 16;

/** The decoded pprof profile may take as much memory as the byte cap allows bytes (512 MiB), and at most 1/8 of the machine's. */
export function pprofDecodeBudget(capBytes: number, memoryBytes = totalmem()): number {
  return Math.floor(Math.min(capBytes, memoryBytes * MEMORY_SHARE));
}

/** What decoding a pprof buffer with these counts builds, in bytes (the estimate pprofDecodeBudget bounds). */
export function pprofDecodedBytes(counts: { messages: number; numbers: number }): number {
  return counts.messages * PPROF_BYTES_PER_DECODED_MESSAGE + counts.numbers * PPROF_BYTES_PER_DECODED_NUMBER;
}

/**
 * pprof sample types are each listed (the notes, the sample-type picker): real profiles have 1
 * to 10. A list past this is no profile a person picks from.
 */
export const MAX_PPROF_SAMPLE_TYPES = 256;

/**
 * Frames walked while building a pprof call tree: each sample's stack, its inlined lines
 * included, once per sample (a location of 1,000 inlined lines named 1,000 times in each of
 * 1,000 samples is a billion frames from 10 KB). One per 16 bytes of the cap: 32 Mi at 512 MiB,
 * seconds of work.
 */
export const BYTES_PER_FRAME_WALKED = 16;

export function frameWalkBudget(capBytes: number): number {
  return Math.floor(capBytes / BYTES_PER_FRAME_WALKED);
}

/**
 * Call tree nodes a reader builds, and so the deepest stack it takes: one per 128 bytes of the
 * cap (4 Mi at 512 MiB; real profiles have thousands to a few hundred thousand), and at most 1/8
 * of the machine's memory at ~250 bytes a node (the builder's arrays, doubled as they grow, what the reader keeps per node beside it, and
 * the views built on the tree).
 */
export const BYTES_PER_TREE_NODE_OF_CAP = 128;
const BYTES_PER_TREE_NODE = 250;

export function treeNodeBudget(capBytes: number, memoryBytes = totalmem()): number {
  return Math.floor(Math.min(capBytes / BYTES_PER_TREE_NODE_OF_CAP, (memoryBytes * MEMORY_SHARE) / BYTES_PER_TREE_NODE));
}
