// Binary searches over a body of statements, which lie in source order without overlapping. The
// incremental parser (incrementalParse.ts) and the re-parse of a block's statements
// (blockReparse.ts) both look for where an edit falls among them; blockReparse.ts is imported by
// incrementalParse.ts, so the search (and the check of where a slice they parse ends) lives apart from both.
import type * as t from '@babel/types';

/**
 * A slice of `text` parsed apart, ending at `end` just before the next statement, ends in a line
 * comment that the whole text continues onto that statement (a line break after `// note` deleted:
 * `// note  const key = keys[i];`). Parsed alone the comment stops at the slice's end; in the file
 * it swallows what follows, so the slice cannot be judged on its own.
 */
export function endsInOpenLineComment(comments: readonly t.Comment[] | null | undefined, end: number, text: string): boolean {
  const last = comments?.at(-1);
  if (last?.type !== 'CommentLine' || last.end !== end || end >= text.length) return false;
  const code = text.charCodeAt(end);
  return code !== 10 && code !== 13 && code !== 0x2028 && code !== 0x2029;
}

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

/**
 * A statement a whole parse takes into the directive prologue when it comes first in a file or a
 * function body (`'use strict';`, not `('x');` nor `'a' + b;`).
 */
export function isDirectiveShaped(statement: t.Statement | undefined): boolean {
  return statement?.type === 'ExpressionStatement' && statement.expression.type === 'StringLiteral'
    && (statement.expression.extra as { parenthesized?: boolean } | undefined)?.parenthesized !== true;
}
