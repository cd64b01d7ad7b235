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

/** Null when the text is fit to analyze; otherwise why not. `filePath` (when known) names browser code. */
export function fileSkipOf(text: string, filePath?: string): FileSkip | null {
  if (text.length > MAX_FILE_CHARS) {
    return { reason: 'too-large', message: `Skipped: ${text.length} characters is over the limit of ${MAX_FILE_CHARS} (2 Mi characters).` };
  }
  if (text.slice(0, BINARY_PROBE_CHARS).includes('\0')) {
    return { reason: 'binary', message: 'Skipped: the file looks binary (NUL byte in its first 8 KB).' };
  }
  const longLine = longestLineOver(text, MAX_LINE_CHARS);
  if (longLine !== null) {
    return { reason: 'minified', message: `Skipped: line ${longLine} is over ${MAX_LINE_CHARS} characters (minified?).` };
  }
  const browser = browserCodeOf(text, filePath);
  if (browser !== null) return { reason: 'browser', message: `Skipped: browser code (${browser}), not a Node.js request path.` };
  return null;
}

/** Folders that hold what a web server sends to browsers (vendor bundles, front-end scripts). */
const BROWSER_FOLDERS = new Set(['public', 'static', 'assets', 'bower_components']);
/** `window.x`, `document[x]` as code: not after a dot (`dom.window.document`), a word character or a quote on its line. */
const BROWSER_GLOBAL = /^[^'"`]*?(?<![.\w$])(?:window|document)\s*[.[]|\$\(\s*(?:window|document)\s*\)/;
/** `const document =`, `(err, document)`, `document =>`: the file names its own `document`/`window`. */
const LOCAL_BROWSER_NAME = /(?:\b(?:const|let|var)\s+|(?<![$\w]\s*)\(\s*|,\s*)(?:document|window)\s*[,)=:]|\b(?:document|window)\s*=>/;
/** Lines of code using the browser's globals before a file anywhere counts as front-end code. */
const BROWSER_LINES = 3;

/**
 * Why the file is browser code, or null. The rules are about a Node.js service: a front-end file
 * served from public/ or a script driving the DOM has no request path of its own, and its clock
 * reads and loops run in a user's tab (issue 11: vendor bundles under public/, an editor's
 * front-end files). A folder name alone is not enough (a checkout may live under /srv/static):
 * under a browser folder one line using `window`/`document` (or a `.min.js` name) decides, elsewhere three.
 */
function browserCodeOf(text: string, filePath: string | undefined): string | null {
  const segments = filePath === undefined ? [] : filePath.split(/[\\/]/);
  const folder = segments.slice(0, -1).reverse().find((segment) => BROWSER_FOLDERS.has(segment));
  if (folder !== undefined && /\.min\.js$/.test(segments[segments.length - 1])) return `a .min.js under ${folder}/`;
  const needed = folder !== undefined ? 1 : BROWSER_LINES;
  let lines = 0;
  for (const line of linesMentioningBrowserGlobals(text)) {
    const code = line.trimStart();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) continue;
    if (BROWSER_GLOBAL.test(code) && ++lines >= needed) {
      // A mongoose app's `document` is often a variable or a parameter: then the name says nothing.
      // Asked only now: this check runs at every edit, and this search of the whole text cost a
      // millisecond of it (issue 26), where the lines above are found in a fifth of that.
      if (LOCAL_BROWSER_NAME.test(text)) return null;
      return folder !== undefined ? `uses window/document, under ${folder}/` : 'uses window/document';
    }
  }
  return null;
}

/** Lines read for the browser's globals: the first 50,000 of a file. */
const BROWSER_SCAN_LINES = 50_000;
const BROWSER_WORD = /window|document/g;

/**
 * The lines among the first BROWSER_SCAN_LINES that hold `window` or `document` (only they can
 * match BROWSER_GLOBAL), in order, without splitting the whole text: this check runs at every
 * edit, and splitting a 4,000-line file into lines cost more than the parse of a statement.
 */
export function* linesMentioningBrowserGlobals(text: string): Generator<string> {
  const word = new RegExp(BROWSER_WORD);
  let line = 0; // 0-based number of the line starting at `counted`
  let counted = 0;
  for (let found = word.exec(text); found !== null; found = word.exec(text)) {
    const start = text.lastIndexOf('\n', found.index - 1) + 1;
    for (let i = text.indexOf('\n', counted); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) {
      line++;
      counted = i + 1;
    }
    if (line >= BROWSER_SCAN_LINES) return;
    const newline = text.indexOf('\n', found.index);
    const end = newline === -1 ? text.length : newline;
    yield text.slice(start, end);
    word.lastIndex = end; // one line once
  }
}

/** The line starting at `start` is a `//` comment after optional blanks. */
function isLineComment(text: string, start: number): boolean {
  let i = start;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return text[i] === '/' && text[i + 1] === '/';
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
