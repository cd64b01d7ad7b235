// Typing inside a comment (issue 26): a note typed in a JSDoc block between the methods of a long
// `module.exports = { ... }` re-parsed the whole statement around it (the comment is in no block of
// statements smaller than the object), a third of an edit's cost on apostrophe's page module.
// When the edit stays inside one comment's text and it stays one comment of the same kind (no line
// break typed or taken out, a block comment still closed where it was), every token of the file is
// as it was: the tree is the same but for the comment's text and where what follows it is. The
// incremental parser (incrementalParse.ts) then only moves the nodes after the edit.
import type * as t from '@babel/types';

/** Babel's line terminators: one typed or taken out changes where statements end (ASI) and what a line comment holds. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * The index in `comments` (in source order, of the old text) of the comment whose text holds the
 * edit (old [from, to) became new [from, to + delta)) and stays one comment of the same kind in the
 * new text; -1 when there is none.
 */
export function commentHolding(comments: readonly t.Comment[], oldText: string, text: string, from: number, to: number, delta: number): number {
  let index = -1;
  for (let low = 0, high = comments.length - 1; low <= high;) {
    const middle = (low + high) >> 1;
    if ((comments[middle].start ?? 0) < from) {
      index = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  if (index < 0) return -1;
  const comment = comments[index];
  const start = comment.start ?? 0;
  const end = comment.end ?? 0;
  const block = comment.type === 'CommentBlock';
  // `<!--` and `-->` comments of a script are left to a parse.
  if (oldText.slice(start, start + 2) !== (block ? '/*' : '//')) return -1;
  // Between the opener and the closer (a line comment ends where its line does).
  const textEnd = block ? end - 2 : end;
  if (from < start + 2 || to > textEnd) return -1;
  if (LINE_BREAK.test(oldText.slice(from, to)) || LINE_BREAK.test(text.slice(from, to + delta))) return -1;
  if (block && text.slice(start + 2, textEnd + delta).includes('*/')) return -1;
  return index;
}

/** The line `offset` is on, counted from `start` (on `line`) with Babel's line terminators (\r\n is one). */
export function lineAt(text: string, start: number, line: number, offset: number): number {
  let at = line;
  for (let i = start; i < offset; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || code === 0x2028 || code === 0x2029 || (code === 13 && text.charCodeAt(i + 1) !== 10)) at++;
  }
  return at;
}
