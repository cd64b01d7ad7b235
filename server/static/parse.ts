// Source text -> Babel AST, tolerant of syntax errors (the editor shows half-typed code).
import { parse as babelParse, type ParserPlugin } from '@babel/parser';
import type * as t from '@babel/types';
import type { ParseProblem } from './engine';

export interface ParsedSource {
  /** Null when the parser could not recover; `problems` then holds the fatal error. */
  ast: t.File | null;
  problems: ParseProblem[];
  /** The parser plugins that produced `ast` (a part of the file is re-parsed with the same ones). */
  plugins: readonly ParserPlugin[];
  /** Where each problem is, as an offset into the text (the incremental parser moves them with edits). */
  problemOffsets?: readonly number[];
}

/** Where a part of a file starts, so that its nodes carry the whole file's positions. */
export interface SliceStart {
  index: number;
  line: number; // 1-based
  column: number; // 0-based
}

type Dialect = 'typescript' | 'tsx' | 'dts' | 'javascript';

function dialectOf(filePath: string): Dialect {
  const lower = filePath.toLowerCase();
  if (/\.d\.[mc]?ts$/.test(lower)) return 'dts';
  if (/\.[mc]?ts$/.test(lower)) return 'typescript';
  if (lower.endsWith('.tsx')) return 'tsx';
  return 'javascript';
}

function pluginsFor(dialect: Dialect, jsx: boolean): readonly ParserPlugin[] {
  const plugins: ParserPlugin[] = ['decorators-legacy'];
  if (dialect === 'dts') plugins.push(['typescript', { dts: true }]);
  else if (dialect === 'typescript' || dialect === 'tsx') plugins.push('typescript');
  if (jsx) plugins.push('jsx');
  return plugins;
}

type ParserOptions = NonNullable<Parameters<typeof babelParse>[1]>;

function attempt(text: string, plugins: readonly ParserPlugin[], options: ParserOptions = { sourceType: 'unambiguous' }): ParsedSource {
  try {
    const ast = babelParse(text, {
      ...options,
      errorRecovery: true,
      allowReturnOutsideFunction: true,
      allowImportExportEverywhere: true,
      allowAwaitOutsideFunction: true,
      tokens: false,
      ranges: false,
      // Comments are read from `ast.comments` (disable directives); attaching them to nodes is wasted work.
      attachComment: false,
      plugins: [...plugins],
    });
    // In source order (Babel reports some errors after later ones), so that a list kept across
    // edits and a fresh one agree.
    const errors = [...(ast.errors ?? [])].sort((a, b) => offsetOf(a) - offsetOf(b));
    // The problems are returned on their own; the tree does not carry them (a tree kept across
    // edits could not keep Babel's error objects true).
    delete (ast as { errors?: unknown }).errors;
    return { ast, problems: errors.map((error) => problemOf(error)), plugins, problemOffsets: errors.map(offsetOf) };
  } catch (error) {
    return { ast: null, problems: [problemOf(error)], plugins, problemOffsets: [offsetOf(error)] };
  }
}

function offsetOf(error: unknown): number {
  const index = (error as { loc?: { index?: unknown } } | null)?.loc?.index;
  return typeof index === 'number' ? index : 0;
}

/** Babel errors carry `loc` (1-based line, 0-based column); anything else lands at 1:0. */
function problemOf(error: unknown): ParseProblem {
  const loc = (error as { loc?: { line?: unknown; column?: unknown } } | null)?.loc;
  const message = error instanceof Error ? error.message : String((error as { reasonCode?: string })?.reasonCode ?? error);
  return {
    message,
    line: typeof loc?.line === 'number' ? loc.line : 1,
    column: typeof loc?.column === 'number' ? loc.column : 0,
  };
}

/** What Babel reports only of strict code: an octal escape ('\\033[31m'), `with`, a reserved word as a name. */
const STRICT_ONLY_PROBLEM = /strict mode|reserved word/i;

/** `import`/`export` at the top level: the file is a module, and strict, whatever parse said. */
function hasModuleSyntax(body: readonly t.Statement[]): boolean {
  return body.some((node) => node.type === 'ImportDeclaration' || node.type === 'ExportNamedDeclaration' || node.type === 'ExportDefaultDeclaration' || node.type === 'ExportAllDeclaration');
}

/**
 * The parse problems of a JavaScript file as Node would see them. Babel's 'unambiguous' parse
 * reads a file as a module first and keeps what strict code forbids as problems even when the
 * file turns out to be a CommonJS script, where Node runs it (an old CLI's '\\033[31m' colour
 * codes). When such a problem is reported and the file has no import or export, the file is parsed
 * once more as a script, and those of them the script parse does not report are dropped: strict
 * code inside it ('use strict', a class body) keeps its errors. Only files with such a problem pay
 * the second parse; the tree is the first parse's (the incremental parser's pieces are parsed as
 * modules too, and this runs on their problems alike).
 */
export function scriptProblems(filePath: string, text: string, parsed: ParsedSource): ParseProblem[] {
  if (parsed.ast === null || dialectOf(filePath) !== 'javascript') return parsed.problems;
  if (!parsed.problems.some((p) => STRICT_ONLY_PROBLEM.test(p.message)) || hasModuleSyntax(parsed.ast.program.body)) return parsed.problems;
  const script = attempt(text, parsed.plugins, { sourceType: 'script' });
  if (script.ast === null) return parsed.problems;
  const at = (p: ParseProblem): string => `${p.line}:${p.column}`;
  const strictInScript = new Set(script.problems.filter((p) => STRICT_ONLY_PROBLEM.test(p.message)).map(at));
  return parsed.problems.filter((p) => !STRICT_ONLY_PROBLEM.test(p.message) || strictInScript.has(at(p)));
}

export function parseSource(filePath: string, text: string): ParsedSource {
  const dialect = dialectOf(filePath);
  if (dialect !== 'javascript') return attempt(text, pluginsFor(dialect, dialect === 'tsx'));
  // Plain .js may hold JSX; but `a < b > c` style code can trip the JSX plugin, so retry without it.
  const withJsx = attempt(text, pluginsFor(dialect, true));
  if (withJsx.ast && withJsx.problems.length === 0) return withJsx;
  const withoutJsx = attempt(text, pluginsFor(dialect, false));
  if (withoutJsx.ast && (!withJsx.ast || withoutJsx.problems.length < withJsx.problems.length)) return withoutJsx;
  return withJsx;
}

/**
 * Parses `text`, a run of whole top-level statements that starts at `start` in a file parsed with
 * `plugins`. In module mode: that is how 'unambiguous' parses any file first, and keeps it unless
 * the module parse fails outright (a file the caller does not re-parse in parts).
 */
export function parseSlice(text: string, start: SliceStart, plugins: readonly ParserPlugin[]): ParsedSource {
  return attempt(text, plugins, {
    sourceType: 'module',
    startIndex: start.index,
    startLine: start.line,
    startColumn: start.column,
  });
}
