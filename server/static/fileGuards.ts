// Files the engine refuses to analyze, with the reason shown to the user. Cheap checks done
// before parsing, so a bundle or a binary blob never costs a parse.
import type { SkipReason } from './engine';

export const MAX_FILE_CHARS = 2 * 1024 * 1024;
export const MAX_LINE_CHARS = 10_000;
const BINARY_PROBE_CHARS = 8 * 1024;

export interface FileSkip {
  reason: SkipReason;
  message: string;
}

/** Null when the text is fit to analyze; otherwise why not. */
export function fileSkipOf(text: string): FileSkip | null {
  if (text.length > MAX_FILE_CHARS) {
    return { reason: 'too-large', message: `Skipped: ${text.length} characters is over the 2 MB limit.` };
  }
  if (text.slice(0, BINARY_PROBE_CHARS).includes('\0')) {
    return { reason: 'binary', message: 'Skipped: the file looks binary (NUL byte in its first 8 KB).' };
  }
  const longLine = longestLineOver(text, MAX_LINE_CHARS);
  if (longLine !== null) {
    return { reason: 'minified', message: `Skipped: line ${longLine} is over ${MAX_LINE_CHARS} characters (minified?).` };
  }
  return null;
}

/**
 * 1-based number of the first line of code longer than `limit`, or null. Scans with indexOf, no
 * split. "Minified" is about code: a long line that is only a `//` comment (Babel and tsc end every
 * file with `//# sourceMappingURL=data:...` when they inline the map) costs the parser nothing.
 */
function longestLineOver(text: string, limit: number): number | null {
  if (text.length <= limit) return null;
  let start = 0;
  let line = 1;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end - start > limit && !isLineComment(text, start)) return line;
    start = end + 1;
    line++;
  }
  return null;
}

/** The line starting at `start` is a `//` comment after optional blanks. */
function isLineComment(text: string, start: number): boolean {
  let i = start;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return text[i] === '/' && text[i + 1] === '/';
}
