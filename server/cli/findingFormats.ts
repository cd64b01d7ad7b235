// What `hotframe analyze` found, and its text and JSON renderings (SARIF is in sarifFormat.ts).
// Positions here are 1-based lines AND columns, end exclusive, like ESLint's output.
import { printableAsUnicode } from './printable';
import { round, roundPercent } from './profileCommand';
import type { Finding, Severity } from '../../rules/api';
import { describeCost, rankingMs, type MeasuredCost } from '../join/costIndex';
import type { Insight, WeightUnit } from '../profile/model/types';
import { formatMs, formatWeight } from '../shared/format';
import type { ParseProblem } from '../static/engine';
import { parseErrorText } from '../static/parseErrorText';

/** A finding in a file, with the file as shown to the user (relative to cwd, forward slashes). */
export interface FileFinding {
  file: string;
  finding: Finding;
  /** The text of the finding's first line, for stable fingerprints. */
  lineText: string;
  /** undefined: no profile given; null: a profile was given and this code is not in it. */
  cost?: MeasuredCost | null;
}

export interface FileProblem {
  file: string;
  /** 'binary' | 'minified' | 'too-large' | 'browser' | 'unreadable: <code>' | 'parse-error: <message> (<line>:<column>)' */
  reason: string;
  /** The syntax error (1-based line and column); null for files that were not analyzed at all. */
  parseError: { line: number; column: number; message: string } | null;
}

/** What `--profile` measured beyond the findings' costs: the profile's insights, with their denominator. */
export interface ProfileInsights {
  /** The profile file as shown (relative to cwd). */
  file: string;
  unit: WeightUnit;
  /** What every percent is a share of (`% of CPU time, idle excluded`), and that total (ms, or bytes/objects). */
  shareOf: string;
  total: number;
  /** As `hotframe profile` gives them (same ms and percent), locations relative to cwd. */
  insights: Insight[];
}

export interface AnalyzeReport {
  findings: FileFinding[];
  filesAnalyzed: number;
  /** Files not analyzed, and files analyzed only partly because of syntax errors. */
  skipped: FileProblem[];
  profileGiven: boolean;
  /** Set with --profile. */
  profile?: ProfileInsights;
}

/** A file that parsed only partly: listed in `skipped` with reason `parse-error: <message> (<line>:<column>)`. */
export function parseProblemEntry(file: string, problem: ParseProblem): FileProblem {
  const message = parseErrorText(problem);
  const column = problem.column + 1;
  return { file, reason: `parse-error: ${message} (${problem.line}:${column})`, parseError: { line: problem.line, column, message } };
}

/** The order findings are printed in: by cost when a profile was given (highest first), else by file and position. */
export function sortFindings(findings: FileFinding[], byCost: boolean): FileFinding[] {
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const byPosition = (a: FileFinding, b: FileFinding) =>
    order(a.file, b.file) || a.finding.range.start - b.finding.range.start || order(a.finding.ruleId, b.finding.ruleId);
  if (!byCost) return [...findings].sort(byPosition);
  return [...findings].sort((a, b) => rankingMs(b.cost) - rankingMs(a.cost) || byPosition(a, b));
}

export interface JsonFinding {
  ruleId: string;
  severity: Severity;
  message: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  cost?: JsonCost | null;
}

/**
 * A finding's cost in the JSON: `selfMs`/`totalMs` for a CPU profile; for an allocation profile
 * the fields are named by the unit (`selfBytes`/`totalBytes`, `selfObjects`/`totalObjects`) and
 * `unit` says which. `percent` is a share of the profile's total either way.
 */
/** `basis`: which code the figure is the cost of (the calls on the finding's line, the line, or `function`, its enclosing function). */
type JsonBasis = { basis?: MeasuredCost['basis']; function?: string };
export type JsonCost = JsonBasis &
  (
    | { selfMs: number; totalMs: number; percent: number; deferred?: MeasuredCost['deferred']; allocated?: Omit<NonNullable<MeasuredCost['allocated']>, 'shareBasis'> }
    | { selfBytes: number; totalBytes: number; percent: number; unit: 'bytes' }
    | { selfObjects: number; totalObjects: number; percent: number; unit: 'objects' }
  );

export function jsonCost(cost: MeasuredCost): JsonCost {
  const basis: JsonBasis = { ...(cost.basis !== undefined ? { basis: cost.basis } : {}), ...(cost.functionName !== undefined ? { function: cost.functionName } : {}) };
  // The precision of `hotframe profile --format json`: one figure, one set of digits, in every output.
  if (cost.unit === 'bytes') return { selfBytes: round(cost.selfMs), totalBytes: round(cost.totalMs), percent: roundPercent(cost.percent), unit: 'bytes', ...basis };
  if (cost.unit === 'objects') return { selfObjects: round(cost.selfMs), totalObjects: round(cost.totalMs), percent: roundPercent(cost.percent), unit: 'objects', ...basis };
  const json: JsonCost & { selfMs: number } = { selfMs: round(cost.selfMs), totalMs: round(cost.totalMs), percent: roundPercent(cost.percent), ...basis };
  if (cost.deferred !== undefined) json.deferred = { ...cost.deferred, ms: round(cost.deferred.ms), percent: roundPercent(cost.deferred.percent) };
  if (cost.allocated !== undefined) {
    // What its percent is of is the JSON's once (the profile's `shareOf`), not repeated per finding.
    const { shareBasis: _of, ...allocated } = cost.allocated;
    json.allocated = { ...allocated, amount: round(allocated.amount), percent: roundPercent(allocated.percent) };
  }
  return json;
}

export function toJsonFinding(entry: FileFinding, profileGiven: boolean): JsonFinding {
  const { start, end } = entry.finding.range.loc;
  const json: JsonFinding = {
    ruleId: entry.finding.ruleId,
    severity: entry.finding.severity,
    message: entry.finding.message,
    file: entry.file,
    line: start.line,
    column: start.column + 1,
    endLine: end.line,
    endColumn: end.column + 1,
  };
  if (profileGiven) {
    const cost = entry.cost ?? null;
    json.cost = cost === null ? null : jsonCost(cost);
  }
  return json;
}

/** The profile's insights in the JSON: `{file, unit, shareOf, cpuMs | totalBytes | totalObjects, insights}`, an insight's `ms` named by the unit too. */
function profileJson(profile: ProfileInsights): Record<string, unknown> {
  const total = profile.unit === 'ms' ? 'cpuMs' : profile.unit === 'bytes' ? 'totalBytes' : 'totalObjects';
  // An allocation profile's samples hold the same weight: left out, as in `hotframe profile`.
  const insights = profile.insights.map((insight) => {
    if (profile.unit === 'ms') return insight;
    const { ms, samples: _samples, ...rest } = insight;
    return { ...rest, [profile.unit]: ms };
  });
  return { file: profile.file, unit: profile.unit, shareOf: profile.shareOf, [total]: profile.total, insights };
}



export function formatJson(report: AnalyzeReport): string {
  return JSON.stringify({
    findings: sortFindings(report.findings, report.profileGiven).map((f) => toJsonFinding(f, report.profileGiven)),
    filesAnalyzed: report.filesAnalyzed,
    skipped: report.skipped.map(({ file, reason }) => ({ file, reason })),
    ...(report.profile !== undefined ? { profile: profileJson(report.profile) } : {}),
  });
}

/** The profile's insights under the findings: where, the insight's id, the title, and the advice with its measured share. */
function insightLines(profile: ProfileInsights): string[] {
  if (profile.insights.length === 0) return [];
  const total = profile.unit === 'ms' ? formatMs(profile.total) : formatWeight(profile.total, profile.unit);
  const lines = [`Insights from ${printable(profile.file)} (every % is ${profile.shareOf}: ${profile.unit} / ${total})`];
  for (const insight of profile.insights) {
    const at = insight.location === null ? '' : `${printable(insight.location.file)}:${insight.location.line}  `;
    lines.push(`  ${at}[${insight.id}] ${printable(insight.title)}`, `    ${printable(insight.message)}`);
  }
  return lines;
}

function costText(cost: MeasuredCost | null | undefined): string {
  if (cost === undefined) return '';
  if (cost === null) return '  (not in profile)';
  return `  (${describeCost(cost)})`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 || word === 'information' ? '' : 's'}`;
}

/** File names and messages come from the analyzed tree: control characters (newlines, terminal escapes, bidi controls) are shown, not obeyed. */
const printable = printableAsUnicode;

/**
 * `file:line:col  severity  message  [rule]`, grouped per file (blank line between files), or one
 * list ranked by cost when a profile was given; then skipped files and one summary line.
 */
export function formatText(report: AnalyzeReport): string {
  const lines: string[] = [];
  let previousFile: string | null = null;
  for (const entry of sortFindings(report.findings, report.profileGiven)) {
    if (!report.profileGiven && previousFile !== null && previousFile !== entry.file) lines.push('');
    previousFile = entry.file;
    const { line, column } = entry.finding.range.loc.start;
    lines.push(`${printable(entry.file)}:${line}:${column + 1}  ${entry.finding.severity}  ${printable(entry.finding.message)}  [${entry.finding.ruleId}]${costText(entry.cost)}`);
  }
  if (report.skipped.length > 0) {
    if (lines.length > 0) lines.push('');
    for (const problem of report.skipped) {
      const error = problem.parseError;
      const file = printable(problem.file);
      lines.push(error === null ? `${file}  skipped  ${printable(problem.reason)}` : `${file}:${error.line}:${error.column}  error  ${printable(error.message)}  [parse-error]`);
    }
  }
  const insights = report.profile === undefined ? [] : insightLines(report.profile);
  if (insights.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push(...insights);
  }
  const bySeverity = new Map<Severity, number>();
  for (const { finding } of report.findings) bySeverity.set(finding.severity, (bySeverity.get(finding.severity) ?? 0) + 1);
  const counts = (['error', 'warning', 'information', 'hint'] as const).filter((s) => bySeverity.has(s)).map((s) => plural(bySeverity.get(s)!, s));
  const files = new Set(report.findings.map((f) => f.file)).size;
  const parseErrors = report.skipped.filter((s) => s.parseError !== null).length;
  const notAnalyzed = report.skipped.length - parseErrors;
  let summary = `${plural(report.findings.length, 'finding')}${counts.length > 0 ? ` (${counts.join(', ')})` : ''} in ${plural(files, 'file')}; ${plural(report.filesAnalyzed, 'file')} analyzed`;
  if (parseErrors > 0) summary += `, ${plural(parseErrors, 'parse error')}`;
  if (notAnalyzed > 0) summary += `, ${notAnalyzed} skipped`;
  if (lines.length > 0) lines.push('');
  lines.push(summary);
  return lines.join('\n');
}
