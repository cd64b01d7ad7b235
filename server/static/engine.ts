// Entry point of the static engine: source text -> parse -> one traversal (hot context + all
// rules) -> findings. Used by the language server, the CLI and the rule tests.
// CONTRACT STUB: the signatures below are fixed; the body is being written (issue 2).
import type { Finding, ProjectView, RuleId, RuleLevel, RuleModule } from '../../rules/api';

export interface AnalyzeInput {
  filePath: string;
  text: string;
  /** Per-rule level overrides; a rule absent here runs at its default severity. */
  levels?: Partial<Record<RuleId, RuleLevel>>;
  /** Cross-module facts (mongoose models imported from other files). Defaults to "knows nothing". */
  project?: ProjectView;
  /** The rules to run; defaults to every rule in rules/index.ts. */
  rules?: readonly RuleModule[];
}

export interface ParseProblem {
  message: string;
  line: number; // 1-based
  column: number; // 0-based
}

export type SkipReason = 'binary' | 'minified' | 'too-large';

export interface AnalysisResult {
  findings: Finding[];
  /** Syntax errors Babel recovered from; findings still cover what parsed. */
  parseErrors: ParseProblem[];
  /** Set when the file was not analyzed at all (binary, a line over 10k chars, over 2 MB). */
  skipped: { reason: SkipReason; message: string } | null;
  /** A rule that threw: contained here, never propagated. */
  ruleErrors: { ruleId: RuleId; message: string }[];
}

export function analyzeSource(input: AnalyzeInput): AnalysisResult {
  void input;
  throw new Error('analyzeSource: not implemented yet');
}
