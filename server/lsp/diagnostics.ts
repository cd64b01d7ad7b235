// Finding -> LSP Diagnostic. Babel positions (1-based lines, 0-based UTF-16 columns) become LSP
// positions (0-based lines, UTF-16 characters). When a profile is loaded, findings in code that
// costs at least the hot threshold are raised one severity step and say what they cost.
import { DiagnosticSeverity } from 'vscode-languageserver';
import type { Diagnostic } from 'vscode-languageserver';

import { ruleDocPath } from '../../rules/api';
import type { Finding, Severity } from '../../rules/api';
import { describeCost, rankingPercent, severityWithCost, type MeasuredCost } from '../join/costIndex';
import type { ParseProblem } from '../static/engine';
import { parseErrorText } from '../static/parseErrorText';
import { docUrl } from '../shared/docs';
import { describeStallLine } from '../profile/analysis/stalls';
import type { InsightDiagnostic, ProfileFeatures } from './profileFeatures';

export const DIAGNOSTIC_SOURCE = 'hotframe';
export const PARSE_ERROR_CODE = 'parse-error';
export const PROFILE_INSIGHT_CODE = 'profile-insight';
export const STALL_CODE = 'event-loop-stall';
/** Findings that say what the stalls on their line measured (the rest leave the stall its own diagnostic). */
const CARRIES_STALLS = new Set(['blocking-sync-call']);

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** Attached to each finding's diagnostic so a code action request can name the finding it is about. */
export interface FindingDiagnosticData {
  findingIndex: number;
}

/** The text appended to a hot finding: "— 1.9 s, 23% of CPU in this profile" (with an allocation profile joined: "in the loaded profiles"). */
export function costSuffix(cost: MeasuredCost): string {
  return ` — ${describeCost(cost)} in ${cost.allocated === undefined ? 'this profile' : 'the loaded profiles'}`;
}

export function findingToDiagnostic(finding: Finding, findingIndex: number, cost: MeasuredCost | null, hotThresholdPercent: number): Diagnostic {
  const { start, end } = finding.range.loc;
  const hot = cost !== null && rankingPercent(cost) >= hotThresholdPercent;
  const severity = severityWithCost(finding, cost, hotThresholdPercent);
  const data: FindingDiagnosticData = { findingIndex };
  return {
    range: { start: { line: start.line - 1, character: start.column }, end: { line: end.line - 1, character: end.column } },
    severity: SEVERITY[severity],
    source: DIAGNOSTIC_SOURCE,
    code: finding.ruleId,
    codeDescription: { href: docUrl(ruleDocPath(finding.ruleId)) },
    message: hot ? finding.message + costSuffix(cost) : finding.message,
    data,
  };
}

export function parseErrorToDiagnostic(problem: ParseProblem): Diagnostic {
  const line = Math.max(0, problem.line - 1);
  return {
    range: { start: { line, character: problem.column }, end: { line, character: problem.column + 1 } },
    severity: DiagnosticSeverity.Error,
    source: DIAGNOSTIC_SOURCE,
    code: PARSE_ERROR_CODE,
    message: parseErrorText(problem),
  };
}

/** An insight covers its whole line; `lineLength` keeps the squiggle on the text. */
export function insightToDiagnostic(insight: InsightDiagnostic, lineLength: number): Diagnostic {
  const line = Math.max(0, insight.line - 1);
  return {
    range: { start: { line, character: 0 }, end: { line, character: lineLength } },
    severity: DiagnosticSeverity.Information,
    source: DIAGNOSTIC_SOURCE,
    code: PROFILE_INSIGHT_CODE,
    message: insight.message,
    data: { insightId: insight.insightId },
  };
}

/** Everything published for one analyzed document, findings first (their index is their data). */
export function buildDiagnostics(
  filePath: string,
  findings: readonly Finding[],
  parseErrors: readonly ParseProblem[],
  profile: ProfileFeatures,
  lineLength: (line: number) => number,
): Diagnostic[] {
  const threshold = profile.hotThresholdPercent();
  const insights = profile.insightsFor(filePath);
  const carried = new Set<InsightDiagnostic>();
  const stalls = profile.stallsFor?.(filePath) ?? { thresholdMs: 0, lines: [] };
  const stallsCarried = new Set<object>();
  const diagnostics = findings.map((finding, index) => {
    const diagnostic = findingToDiagnostic(finding, index, profile.costOf(filePath, finding), threshold);
    // A profile insight about the very code the finding flags (a *Sync call measured while
    // serving) is said once, on the finding, with what the profile measured there.
    const joined = insights.find((i) => i.rule === finding.ruleId && i.line === finding.range.loc.start.line);
    if (joined !== undefined) {
      carried.add(joined);
      diagnostic.message += ` — measured in this profile: ${joined.cost} in this call`;
      if (diagnostic.severity !== undefined && diagnostic.severity > DiagnosticSeverity.Warning) diagnostic.severity = DiagnosticSeverity.Warning;
    }
    const stalled = stalls.lines.find((l) => l.line === finding.range.loc.start.line);
    if (stalled !== undefined && CARRIES_STALLS.has(finding.ruleId)) {
      stallsCarried.add(stalled);
      diagnostic.message += ` — in this profile it ${describeStallLine(stalled, stalls.thresholdMs)}`;
    }
    return diagnostic;
  });
  for (const line of stalls.lines) {
    if (stallsCarried.has(line)) continue;
    const at = Math.max(0, line.line - 1);
    diagnostics.push({
      range: { start: { line: at, character: 0 }, end: { line: at, character: lineLength(at) } },
      severity: DiagnosticSeverity.Information,
      source: DIAGNOSTIC_SOURCE,
      code: STALL_CODE,
      message: `${line.call === '' ? 'This line' : `This call (${line.call.slice(0, 120)})`} ${describeStallLine(line, stalls.thresholdMs)}: meanwhile no request, message or timer was handled.`,
    });
  }
  for (const problem of parseErrors) diagnostics.push(parseErrorToDiagnostic(problem));
  for (const insight of insights) if (!carried.has(insight)) diagnostics.push(insightToDiagnostic(insight, lineLength(insight.line - 1)));
  return diagnostics;
}
