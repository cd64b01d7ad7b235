// The findings of the static rules that sit on the callers' call lines of a sandwich (issue 29):
// the callers tree names which of its call lines a rule flags, so a reviewer sees the finding
// beside the time that reaches the function through that call.
import type { CallLineFinding, SandwichEntry, SandwichResult } from '../protocol/wire';

/** A finding as the language server holds it: its rule, its message, its 1-based lines. */
export interface LineFinding {
  rule: string;
  message: string;
  startLine: number;
  endLine: number;
}

/** Findings sent per caller: a call line holds one or two; a flood is cut, not carried. */
const MAX_PER_CALLER = 10;

/**
 * `result` with each caller's findings on its call lines; `findingsIn(file)` gives the findings
 * of one local file (asked once per file).
 */
export function withCallLineFindings(result: SandwichResult, findingsIn: (file: string) => readonly LineFinding[]): SandwichResult {
  const byFile = new Map<string, readonly LineFinding[]>();
  const of = (file: string): readonly LineFinding[] => {
    let found = byFile.get(file);
    if (found === undefined) {
      found = findingsIn(file);
      byFile.set(file, found);
    }
    return found;
  };
  const visit = (entry: SandwichEntry): SandwichEntry => {
    const children = entry.children.map(visit);
    if (entry.callLines.length === 0 || entry.file === '') return { ...entry, children };
    const findings: CallLineFinding[] = [];
    for (const line of entry.callLines) {
      for (const f of of(entry.file)) {
        if (f.startLine <= line && line <= f.endLine && findings.length < MAX_PER_CALLER) findings.push({ line, rule: f.rule, message: f.message });
      }
    }
    return findings.length > 0 ? { ...entry, children, findings } : { ...entry, children };
  };
  return { ...result, callers: visit(result.callers) };
}
