// A file opened with a syntax error Babel cannot recover from (a call left unclosed near the
// top) would otherwise have no tree at all, and lose the findings of every statement that does
// parse. This keeps them: the text is cut at lines that start a top-level statement (column 0,
// not a closing bracket or a continuation), the runs of statements that parse are kept, and the
// text that does not becomes a hole (an empty statement over it, as the incremental parser makes
// while someone types; server/static/incrementalParse.ts parses it again at the first edit that
// touches it). A statement that parses once one of its lines is blanked (the broken line inside a
// function that holds the whole module) is kept as parsed so, and is a hole to the incremental
// parser all the same. Each hole reports its first error; holes that meet are one. Bounded: at most MAX_HOLES holes, each found by
// a few parses of the text after it.
import type * as t from '@babel/types';
import type { ParseProblem } from './engine';
import type { ParserPlugin } from '@babel/parser';
import { forEachChild } from './childNodes';
import { parseSlice, type ParsedSource, type SliceStart } from './parse';

const MAX_HOLES = 16;
/** Parses tried per hole to find where the good statements before it end. */
const MAX_SHRINKS = 8;
/**
 * Lines tried, one at a time, going back from the error, as the broken line of a statement too big
 * to lose whole (a module wrapped in one function or class: issue 26's gateway module lost 243 of
 * 244 findings to one unclosed call inside its wrapper).
 */
const MAX_BLANKED_LINES = 12;

/** `text` with the line that starts at `lineStart` replaced by spaces (offsets and lines kept). */
function blankLine(text: string, lineStart: number): string {
  const end = text.indexOf('\n', lineStart);
  const lineEnd = end === -1 ? text.length : end;
  return text.slice(0, lineStart) + ' '.repeat(lineEnd - lineStart) + text.slice(lineEnd);
}

/** Offsets of the starts of the lines of `text` at or before `offset`, nearest first, at most `count`. */
function linesBackFrom(text: string, offset: number, count: number): number[] {
  // The start of the line holding `p` (lastIndexOf clamps a negative start to 0, where a '\n' would be found).
  const lineStartOf = (p: number): number => (p <= 0 ? 0 : text.lastIndexOf('\n', p - 1) + 1);
  const found: number[] = [];
  let at = lineStartOf(offset);
  while (found.length < count) {
    found.push(at);
    if (at === 0) break;
    at = lineStartOf(at - 1);
  }
  return found;
}

interface Position {
  line: number;
  column: number;
  index: number;
}

/** Offsets of the lines that may start a top-level statement, ascending. */
function statementStarts(text: string): number[] {
  const starts: number[] = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    const c = text.charCodeAt(i + 1);
    // Not a space (indented: inside something), not a closing bracket or a continuation.
    if (Number.isNaN(c) || c === 32 || c === 9 || c === 10 || c === 13 || c === 0x7d || c === 0x29 || c === 0x5d || c === 0x2e || c === 0x2c || c === 0x3a || c === 0x3f) continue;
    starts.push(i + 1);
  }
  return starts;
}

/** The last start in (after, atMost], or -1. */
function lastStart(starts: readonly number[], after: number, atMost: number): number {
  let found = -1;
  for (let low = 0, high = starts.length - 1; low <= high; ) {
    const middle = (low + high) >> 1;
    if (starts[middle] <= atMost) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found >= 0 && starts[found] > after ? starts[found] : -1;
}

/** The first start after `offset`, or -1. */
function nextStart(starts: readonly number[], offset: number): number {
  for (let low = 0, high = starts.length - 1, found = -1; ; ) {
    if (low > high) return found;
    const middle = (low + high) >> 1;
    if (starts[middle] > offset) {
      found = starts[middle];
      high = middle - 1;
    } else low = middle + 1;
  }
}

/** Statements parsed with one line blanked, and that line's extent in the file. */
export interface Repaired {
  parsed: ParsedSource;
  line: BlankedLine;
}

/** The extent of a line blanked to parse the statement that holds it (offsets in the file). */
export interface BlankedLine {
  start: number;
  end: number;
}

/**
 * Whether the blanked line is outside every comment and template literal of the parse. Blanking the
 * line that closes a comment (or holds a template's closing backtick) makes the code after it part
 * of the comment (or the text), up to the next one's end, and then a broken line inside that code
 * "parses": the tree says nothing true of the text (an edit-session test blanked a JSDoc's `*\/`
 * and the method below it, broken line and all, became comment).
 */
function blankedAlone(ast: NonNullable<ParsedSource['ast']>, line: BlankedLine): boolean {
  const over = (node: { start?: number | null; end?: number | null }): boolean => (node.start ?? 0) < line.end && (node.end ?? 0) > line.start;
  if ((ast.comments ?? []).some(over)) return false;
  // Only a node over the line can hold a template over it.
  const stack: t.Node[] = [ast.program];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!over(node)) continue;
    if (node.type === 'TemplateLiteral' || node.type === 'StringLiteral' || node.type === 'JSXText') return false;
    forEachChild(node, (child) => void stack.push(child));
  }
  return true;
}

/**
 * `slice` (placed at `start`) parsed with one line blanked: the first line, going back from the
 * error at `errorOffset` (in the slice), whose removal makes it parse with at least one statement;
 * null when none does. The statements around a broken line keep their findings instead of
 * becoming one hole (used when a file is opened, and by the incremental parser's holes).
 */
export function parseWithoutBrokenLine(slice: string, start: SliceStart, errorOffset: number, plugins: readonly ParserPlugin[]): Repaired | null {
  for (const lineStart of linesBackFrom(slice, errorOffset, MAX_BLANKED_LINES)) {
    if (lineStart >= slice.length) continue;
    const parsed = parseSlice(blankLine(slice, lineStart), start, plugins);
    if (parsed.ast === null || parsed.problems.length > 0) continue;
    // Only a line inside a statement kept is a repair: a line between statements, or a fragment
    // blanked to nothing, is the hole it was (the incremental parser mends holes by their extent).
    const at = start.index + lineStart;
    const end = slice.indexOf('\n', lineStart);
    const line = { start: at, end: start.index + (end === -1 ? slice.length : end) };
    if (!blankedAlone(parsed.ast, line)) continue;
    if (parsed.ast.program.body.some((statement) => (statement.start ?? 0) < at && at < (statement.end ?? 0))) return { parsed, line };
  }
  return null;
}

/**
 * The tree of `text` with a hole over each run of text that does not parse, and the problems
 * (each hole's first error; a kept statement has none: see `clean`), or null when
 * nothing can be kept. `holes` receives the holes, `blanked` the line blanked in each statement
 * kept without its broken line.
 */
export function recoverStatements(text: string, failed: ParsedSource, holes: WeakSet<t.Node>, blanked: WeakMap<t.Node, BlankedLine>): ParsedSource | null {
  const plugins = failed.plugins;
  const starts = statementStarts(text);
  const lineOf = (offset: number): Position => {
    // starts holds only some line starts: count lines from scratch (a few calls per hole).
    let line = 1;
    let lineStart = 0;
    for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    return { line, column: offset - lineStart, index: offset };
  };
  const parseAt = (from: number, to: number): ParsedSource => parseSlice(text.slice(from, to), lineOf(from), plugins);
  const errorAt = (parsed: ParsedSource, from: number): number => Math.max(from, parsed.problemOffsets?.[0] ?? from);
  // Only a part with no error at all is kept: what Babel's error recovery makes of broken text
  // (\`export interface\` cut from its name reads as an export of nothing) is not the code.
  const clean = (parsed: ParsedSource): boolean => parsed.ast !== null && parsed.problems.length === 0;

  const body: t.Statement[] = [];
  const comments: t.Comment[] = [];
  const problems: { problem: ParseProblem; offset: number }[] = [];
  let base: t.File | null = null;
  let kept = 0;
  let topLevelAwait = false;
  const keep = (parsed: ParsedSource): void => {
    const ast = parsed.ast as t.File;
    base ??= ast;
    if ((ast.program.extra as { topLevelAwait?: boolean } | undefined)?.topLevelAwait === true) topLevelAwait = true;
    kept += ast.program.body.length;
    body.push(...ast.program.body);
    comments.push(...(ast.comments ?? []));
    parsed.problems.forEach((problem, k) => problems.push({ problem, offset: parsed.problemOffsets?.[k] ?? 0 }));
  };
  const hole = (from: number, to: number, error: ParsedSource): void => {
    const start = lineOf(from);
    const end = lineOf(to);
    // Text right after a hole that fails too is the same broken statement (a line of a template
    // literal or a comment at column 0 looked like a statement start): one hole, one error.
    const last = body[body.length - 1] as t.Node | undefined;
    if (last !== undefined && holes.has(last) && !blanked.has(last) && last.end === from && last.loc) {
      last.end = to;
      last.loc = { ...last.loc, end };
      return;
    }
    const node = { type: 'EmptyStatement', start: from, end: to, loc: { start, end, filename: undefined, identifierName: undefined } } as unknown as t.EmptyStatement;
    holes.add(node);
    body.push(node);
    const offset = Math.min(Math.max(from, errorAt(error, from)), to - 1);
    problems.push({ problem: error.problems[0], offset });
  };

  const withoutBrokenLine = (from: number, to: number, failed: ParsedSource): Repaired | null =>
    parseWithoutBrokenLine(text.slice(from, to), lineOf(from), errorAt(failed, from) - from, plugins);

  let pos = 0;
  for (let found = 0; pos < text.length; found++) {
    const rest = parseAt(pos, text.length);
    if (clean(rest)) {
      keep(rest);
      pos = text.length;
      break;
    }
    if (found === MAX_HOLES) return null;
    const error = errorAt(rest, pos);
    // The statements before the error that parse: cut at the last statement start before it, and
    // earlier when that part fails too.
    let cut = lastStart(starts, pos, error);
    let before: ParsedSource | null = null;
    for (let shrink = 0; cut !== -1 && shrink < MAX_SHRINKS; shrink++) {
      const part = parseAt(pos, cut);
      if (clean(part)) {
        before = part;
        break;
      }
      cut = lastStart(starts, pos, Math.min(errorAt(part, pos), cut - 1));
    }
    const holeStart = before === null ? pos : cut;
    if (before !== null) keep(before);
    // The hole runs to the next statement start after the error (the text after it is tried again).
    const after = nextStart(starts, Math.max(error, holeStart));
    const holeEnd = after === -1 ? text.length : after;
    // Its own error when its text fails alone, else the error of the text from it on.
    const own = parseAt(holeStart, holeEnd);
    const repaired = clean(own) ? null : withoutBrokenLine(holeStart, holeEnd, own);
    if (repaired !== null) {
      // The statements kept whole, but for one line, which is reported where Babel found the error.
      // Their text does not parse as it is: to the incremental parser they are a hole, parsed
      // again at the first edit that touches them; the rules see the statements.
      keep(repaired.parsed);
      for (const statement of (repaired.parsed.ast as t.File).program.body) {
        holes.add(statement);
        blanked.set(statement, repaired.line);
      }
      problems.push({ problem: own.problems[0], offset: Math.min(errorAt(own, holeStart), holeEnd - 1) });
    } else hole(holeStart, holeEnd, clean(own) ? rest : own);
    pos = holeEnd;
  }
  if (kept === 0 || base === null) return null;
  const file: t.File = base;
  const program = file.program;
  if ((program.start ?? 0) !== 0) {
    program.directives = [];
    program.interpreter = null;
  }
  program.body = body;
  file.comments = comments;
  const end = lineOf(text.length);
  program.start = 0;
  file.start = 0;
  program.end = text.length;
  file.end = text.length;
  if (program.loc) program.loc = { ...program.loc, start: { line: 1, column: 0, index: 0 }, end };
  if (file.loc) file.loc = { ...file.loc, start: { line: 1, column: 0, index: 0 }, end: { ...end } };
  // Every part was parsed as a module; a later edit is parsed in parts only when the tree says no top-level await.
  program.extra = { ...(program.extra ?? {}), topLevelAwait };
  problems.sort((a, b) => a.offset - b.offset);
  return { ast: file, problems: problems.map((p) => p.problem), plugins, problemOffsets: problems.map((p) => p.offset) };
}
