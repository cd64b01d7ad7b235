// `// hotframe-disable-next-line <id>[, <id>]` and `/* hotframe-disable <id> */` (whole file):
// reading them from the parsed comments, and the two quick fixes that write them.
import type * as t from '@babel/types';
import type { Finding, Fix, RuleId, TextEdit } from '../../rules/api';

/** Rule ids a directive names; `all` when it names none. */
type DirectiveRules = ReadonlySet<string> | 'all';

export interface DisableDirectives {
  file: DirectiveRules[];
  /** 1-based line -> directives aimed at it. */
  lines: Map<number, DirectiveRules[]>;
}

const DIRECTIVE = /^\s*\*?\s*hotframe-disable(-next-line)?(?=\s|$)([^\n]*)$/;

function rulesOf(list: string): DirectiveRules {
  // Anything after ` -- ` is a justification, as in ESLint.
  const ids = list.split(/\s--\s/)[0].split(/[\s,]+/).filter((id) => id.length > 0);
  return ids.length === 0 ? 'all' : new Set(ids);
}

export function readDisableDirectives(comments: readonly t.Comment[] | null | undefined): DisableDirectives {
  const directives: DisableDirectives = { file: [], lines: new Map() };
  for (const comment of comments ?? []) {
    if (!comment.value.includes('hotframe-disable')) continue;
    const match = DIRECTIVE.exec(comment.value.trim());
    if (!match || !comment.loc) continue;
    const rules = rulesOf(match[2]);
    if (match[1]) {
      const line = comment.loc.end.line + 1;
      const existing = directives.lines.get(line);
      if (existing) existing.push(rules);
      else directives.lines.set(line, [rules]);
    } else {
      directives.file.push(rules);
    }
  }
  return directives;
}

function covers(list: readonly DirectiveRules[] | undefined, ruleId: RuleId): boolean {
  return list !== undefined && list.some((rules) => rules === 'all' || rules.has(ruleId));
}

export function isDisabled(directives: DisableDirectives, finding: Pick<Finding, 'ruleId' | 'range'>): boolean {
  return covers(directives.file, finding.ruleId) || covers(directives.lines.get(finding.range.loc.start.line), finding.ruleId);
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/**
 * When the line above already is `// hotframe-disable-next-line a, b`, add the id to it: a new
 * comment line in between would take that directive's target away from the code.
 */
function extendPreviousDirective(text: string, lineStart: number, ruleId: RuleId): TextEdit | null {
  if (lineStart === 0) return null;
  const previousEnd = text[lineStart - 2] === '\r' ? lineStart - 2 : lineStart - 1;
  const previousStart = lineStartOf(text, previousEnd);
  const previous = text.slice(previousStart, previousEnd);
  const match = /^(\s*\/\/\s*hotframe-disable-next-line\s+[^\s,].*?)(\s+--\s.*)?\s*$/.exec(previous);
  if (!match) return null;
  const at = previousStart + match[1].length;
  return { start: at, end: at, text: `, ${ruleId}` };
}

/** The two quick fixes every finding gets: silence it on its line, or in the whole file. */
export function disableFixes(finding: Pick<Finding, 'ruleId' | 'range'>, text: string): Fix[] {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lineStart = lineStartOf(text, finding.range.start);
  const indent = /^[ \t]*/.exec(text.slice(lineStart, finding.range.start))?.[0] ?? '';
  let fileTop = 0;
  if (text.startsWith('#!')) {
    const shebangEnd = text.indexOf('\n');
    fileTop = shebangEnd === -1 ? text.length : shebangEnd + 1;
  }
  const afterShebang = fileTop === text.length && fileTop > 0 && !text.endsWith('\n') ? eol : '';
  return [
    {
      title: `Disable ${finding.ruleId} for this line`,
      edits: [extendPreviousDirective(text, lineStart, finding.ruleId)
        ?? { start: lineStart, end: lineStart, text: `${indent}// hotframe-disable-next-line ${finding.ruleId}${eol}` }],
    },
    {
      title: `Disable ${finding.ruleId} for this file`,
      edits: [{ start: fileTop, end: fileTop, text: `${afterShebang}/* hotframe-disable ${finding.ruleId} */${eol}` }],
    },
  ];
}
