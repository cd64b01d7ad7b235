// Binary searches over a body of statements, which lie in source order without overlapping. The
// incremental parser (incrementalParse.ts) and the re-parse of a block's statements
// (blockReparse.ts) both look for where an edit falls among them; blockReparse.ts is imported by
// incrementalParse.ts, so the search lives apart from both.
import type * as t from '@babel/types';

/** Index of the last statement ending at or before `offset`; -1 when none does. */
export function lastEndingBy(body: readonly t.Statement[], offset: number): number {
  let found = -1;
  for (let low = 0, high = body.length - 1; low <= high;) {
    const middle = (low + high) >> 1;
    if ((body[middle].end ?? 0) <= offset) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}
