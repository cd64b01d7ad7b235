// Containment for code nested too deeply for a recursive parser or walk (a crafted file with
// 100,000 nested parentheses, or a 2,000-term `a + a + ...` chain). Babel's parser and traverse
// recurse per level, so such a statement overflows the stack and, without this, the whole file
// loses its findings. When an analysis overflows, the file is cut into top-level statements by
// a small scanner, the statements that overflow on their own are found by halving (a few
// analyses of pieces), and the file is analyzed again with those statements blanked out
// (spaces, newlines kept, so every position stays where it was). Each blanked statement is
// reported as a problem on its first line.

/** A top-level statement's span in the text (end exclusive), by the scanner's judgement. */
export interface Segment {
  start: number;
  end: number;
}

const OVERFLOW = /Maximum call stack size exceeded|too much recursion/;

/** True when an error message says the stack overflowed. */
export function isStackOverflow(message: string): boolean {
  return OVERFLOW.test(message);
}

/** Characters after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set('(,=:[!&|?{};+-*%<>~^'.split(''));
const REGEX_KEYWORDS = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await', 'instanceof']);
/**
 * A line starting with one of these continues the statement before it. `(`, `[` and a template's
 * backtick are among them: JavaScript inserts no semicolon before them, so `f()` on one line and
 * `()` on the next are one call (a long `f()()()…` or `a[0][0]…` chain spread over lines is one
 * statement, contained as one).
 */
const CONTINUATION = /^(?:[.,)\]?:+\-*/%&|^=<>([`]|else\b|catch\b|finally\b|while\b)/;
/** A line ending with one of these words continues on the next (`new\nnew\nX` is one expression). */
const CONTINUES_AFTER = new Set(['new', 'typeof', 'void', 'delete', 'in', 'instanceof', 'extends']);

/**
 * Top-level statement spans: split after `;` at depth 0, and at a line end at depth 0 after `}`
 * or a complete-looking line when the next line does not continue it. Strings, comments,
 * templates and regular expressions are skipped; an unterminated string ends at its line.
 */
export function topLevelSegments(text: string): Segment[] {
  const segments: Segment[] = [];
  let start = 0;
  let depth = 0;
  const templateDepths: number[] = [];
  let lastSignificant = '';
  let lastWord = '';
  const cut = (at: number): void => {
    if (text.slice(start, at).trim() !== '') segments.push({ start, end: at });
    start = at;
  };
  let i = 0;
  const n = text.length;
  const skipTemplate = (): void => {
    // Inside a template's text: up to the closing backtick, or into a `${` expression.
    while (i < n) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        i++;
        return;
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        templateDepths.push(depth);
        depth++;
        return;
      } else i++;
    }
  };
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? n : nl;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close === -1 ? n : close + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      for (i++; i < n && text[i] !== c && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      i++;
      lastSignificant = c;
      continue;
    }
    if (c === '`') {
      i++;
      skipTemplate();
      lastSignificant = '`';
      continue;
    }
    if (c === '/' && (lastSignificant === '' || BEFORE_REGEX.has(lastSignificant) || REGEX_KEYWORDS.has(lastWord))) {
      let inClass = false;
      for (i++; i < n && text[i] !== '\n'; i++) {
        const r = text[i];
        if (r === '\\') i++;
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
      }
      i++;
      lastSignificant = '/';
      lastWord = '';
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (c === '}' && templateDepths.length > 0 && templateDepths[templateDepths.length - 1] === depth - 1) {
        templateDepths.pop();
        depth--;
        i++;
        skipTemplate();
        lastSignificant = '`';
        continue;
      }
      depth = Math.max(0, depth - 1);
    }
    if (c === '\n') {
      const endsWithOperatorWord = /[\w$]/.test(lastSignificant) && CONTINUES_AFTER.has(lastWord);
      if (depth === 0 && !endsWithOperatorWord && (lastSignificant === '}' || lastSignificant === ';' || /[\w$)\]'"`]/.test(lastSignificant))) {
        const rest = text.slice(i + 1, i + 200).trimStart();
        if (!CONTINUATION.test(rest)) cut(i + 1);
      }
    } else if (!/\s/.test(c)) {
      if (/[\w$]/.test(c)) {
        // A word starts after any other character, whitespace included (`new new` is two words).
        if (!/[\w$]/.test(text[i - 1] ?? '')) lastWord = '';
        lastWord += c;
      } else lastWord = '';
      lastSignificant = c;
      if (c === ';' && depth === 0) cut(i + 1);
    }
    i++;
  }
  cut(n);
  return segments;
}

/**
 * The segments that overflow on their own: `overflows(from, to)` analyzes a piece of the text.
 * Halving finds them with a few analyses per bad segment (the whole is known to overflow).
 */
export function overflowingSegments(segments: readonly Segment[], overflows: (start: number, end: number) => boolean): Segment[] {
  const bad: Segment[] = [];
  const visit = (lo: number, hi: number, known: boolean): void => {
    if (lo >= hi) return;
    if (!known && !overflows(segments[lo].start, segments[hi - 1].end)) return;
    if (hi - lo === 1) {
      bad.push(segments[lo]);
      return;
    }
    const mid = (lo + hi) >> 1;
    visit(lo, mid, false);
    visit(mid, hi, false);
  };
  visit(0, segments.length, true);
  return bad;
}

/** How deep a trivial function can recurse here (measured once: about 10,000 frames). */
let framesAvailable = 0;

/**
 * Runs `fn` with about half of the stack already used. A piece that passes this way passes with
 * room to spare in the whole file's analysis, which starts from a deeper stack and sees more.
 */
export function withHalfTheStack<T>(fn: () => T): T {
  if (framesAvailable === 0) {
    const probe = (): void => {
      framesAvailable++;
      probe();
    };
    try {
      probe();
    } catch {
      // the stack ran out: framesAvailable is the depth reached
    }
  }
  const descend = (frames: number): T => (frames === 0 ? fn() : descend(frames - 1));
  return descend(Math.floor(framesAvailable / 2));
}

/** The text with the segments replaced by spaces (line breaks kept: positions do not move). */
export function blankSegments(text: string, segments: readonly Segment[]): string {
  let out = '';
  let at = 0;
  for (const { start, end } of segments) {
    out += text.slice(at, start) + text.slice(start, end).replace(/[^\r\n]/g, ' ');
    at = end;
  }
  return out + text.slice(at);
}

/** 1-based line of an offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
