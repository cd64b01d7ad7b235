// What an input may become, not only its bytes (docs/security.md, "Budgets"): a small file can
// describe millions of objects (`[{},{},…]` is 3 bytes an object), and what a reader builds
// from it costs tens of bytes each. Each budget is proportional to the input's byte cap and to
// the machine's memory, and a reader refuses past it in one line before building. The caps
// themselves live beside the readers that apply them (load.ts); the budgets are here, named,
// so both can move together.
import { totalmem } from 'node:os';

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
