// Source text -> Babel AST, tolerant of syntax errors (the editor shows half-typed code).
import { parse as babelParse, type ParserPlugin } from '@babel/parser';
import type * as t from '@babel/types';
import type { ParseProblem } from './engine';

export interface ParsedSource {
  /** Null when the parser could not recover; `problems` then holds the fatal error. */
  ast: t.File | null;
  problems: ParseProblem[];
}

type Dialect = 'typescript' | 'tsx' | 'dts' | 'javascript';

function dialectOf(filePath: string): Dialect {
  const lower = filePath.toLowerCase();
  if (/\.d\.[mc]?ts$/.test(lower)) return 'dts';
  if (/\.[mc]?ts$/.test(lower)) return 'typescript';
  if (lower.endsWith('.tsx')) return 'tsx';
  return 'javascript';
}

function pluginsFor(dialect: Dialect, jsx: boolean): ParserPlugin[] {
  const plugins: ParserPlugin[] = ['decorators-legacy'];
  if (dialect === 'dts') plugins.push(['typescript', { dts: true }]);
  else if (dialect === 'typescript' || dialect === 'tsx') plugins.push('typescript');
  if (jsx) plugins.push('jsx');
  return plugins;
}

interface Attempt {
  ast: t.File | null;
  problems: ParseProblem[];
}

function attempt(text: string, plugins: ParserPlugin[]): Attempt {
  try {
    const ast = babelParse(text, {
      sourceType: 'unambiguous',
      errorRecovery: true,
      allowReturnOutsideFunction: true,
      allowImportExportEverywhere: true,
      allowAwaitOutsideFunction: true,
      tokens: false,
      ranges: false,
      // Comments are read from `ast.comments` (disable directives); attaching them to nodes is wasted work.
      attachComment: false,
      plugins,
    });
    const problems = (ast.errors ?? []).map((error) => problemOf(error));
    return { ast, problems };
  } catch (error) {
    return { ast: null, problems: [problemOf(error)] };
  }
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
