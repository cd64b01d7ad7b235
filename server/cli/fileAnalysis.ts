// One file through the engine, as plain data, and the report assembled from many such outcomes
// in the order the files were listed.
import { relative, sep } from 'node:path';

import type { Finding, ProjectView, RuleId, RuleLevel } from '../../rules/api';
import { DEFAULT_HOT_THRESHOLD_PERCENT, severityWithCost, type CostIndex } from '../join/costIndex';
import { analyzeSource } from '../static/engine';
import { forgetCachedPaths } from '../static/lazyPaths';
import { ProjectIndex } from '../static/projectIndex';
import { parseProblemEntry } from './findingFormats';
import { GuardedReadError, readGuardedText } from '../shared/guardedRead';
import { MAX_FILE_CHARS } from '../static/fileGuards';
import type { AnalyzeReport, FileFinding, FileProblem } from './findingFormats';

export type RuleLevels = Partial<Record<RuleId, RuleLevel>>;

export interface FileOutcome {
  /** Absolute path (for the cost index). */
  path: string;
  /** As shown: relative to cwd, forward slashes. */
  file: string;
  /** False when the file was not analyzed at all (unreadable, binary, minified, too large). */
  analyzed: boolean;
  /** Why it was not analyzed, or its first syntax error. */
  problem: FileProblem | null;
  findings: { finding: Finding; lineText: string }[];
  /** Rules that threw on this file (contained by the engine), one line each. */
  ruleErrors: string[];
}

export function displayPath(cwd: string, path: string): string {
  return relative(cwd, path).split(sep).join('/');
}

function lineTextAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return text.slice(start, end === -1 ? text.length : end).replace(/\r$/, '');
}

export function analyzeFile(path: string, cwd: string, levels: RuleLevels, project: ProjectView): FileOutcome {
  const outcome: FileOutcome = { path, file: displayPath(cwd, path), analyzed: false, problem: null, findings: [], ruleErrors: [] };
  let text: string;
  try {
    // Four bytes per character at most: anything longer is over the engine's limit anyway.
    text = readGuardedText(path, 4 * MAX_FILE_CHARS);
  } catch (error) {
    const reason = error instanceof GuardedReadError ? (error.code ?? error.reason) : String(error);
    outcome.problem = { file: outcome.file, reason: `unreadable: ${reason}`, parseError: null };
    return outcome;
  }
  const result = analyzeSource({ filePath: path, text, levels, project });
  // Nothing of the tree outlives the analysis here (findings are plain data).
  forgetCachedPaths();
  if (result.skipped !== null) {
    outcome.problem = { file: outcome.file, reason: result.skipped.reason, parseError: null };
    return outcome;
  }
  outcome.analyzed = true;
  // One entry per file: the first syntax error (Babel's recovery makes later ones follow-ups).
  if (result.parseErrors.length > 0) outcome.problem = parseProblemEntry(outcome.file, result.parseErrors[0]);
  outcome.ruleErrors = result.ruleErrors.map((e) => `${e.ruleId}: ${e.message.split('\n')[0]}`);
  outcome.findings = result.findings.map((finding) => ({ finding, lineText: lineTextAt(text, finding.range.start) }));
  return outcome;
}

/**
 * Passes over the files at most: a handler calling a helper that calls a helper in a third module
 * needs one pass per module boundary; deeper chains stop here (their end keeps what it knew).
 */
const MAX_PROJECT_PASSES = 4;

/**
 * Files analyzed one after another, sharing one project index (models files are read once). Each
 * analysis records what its module tells the others (handlers it registers from other modules,
 * workers it starts, the other modules' exports its hot code calls); a file that a later one
 * changed the answer for (its exports are registered in a route table read after it, or called
 * from a handler) is analyzed again, until no answer changes, so every file sees the whole project.
 */
export function analyzeFileList(paths: readonly string[], cwd: string, levels: RuleLevels): FileOutcome[] {
  const project = new ProjectIndex();
  const seen: string[] = [];
  const outcomes = paths.map((path) => {
    const outcome = analyzeFile(path, cwd, levels, project);
    seen.push(project.answerKey(path));
    return outcome;
  });
  for (let pass = 1; pass < MAX_PROJECT_PASSES; pass++) {
    let changed = false;
    for (let i = 0; i < paths.length; i++) {
      if (!outcomes[i].analyzed) continue;
      const answer = project.answerKey(paths[i]);
      if (answer === seen[i]) continue;
      seen[i] = answer;
      outcomes[i] = analyzeFile(paths[i], cwd, levels, project);
      changed = true;
    }
    if (!changed) break;
  }
  return outcomes;
}

export function reportOf(outcomes: readonly FileOutcome[], costs: CostIndex | null): AnalyzeReport {
  const report: AnalyzeReport = { findings: [], filesAnalyzed: 0, skipped: [], profileGiven: costs !== null };
  for (const outcome of outcomes) {
    if (outcome.analyzed) report.filesAnalyzed++;
    if (outcome.problem !== null) report.skipped.push(outcome.problem);
    for (const { finding, lineText } of outcome.findings) {
      const entry: FileFinding = { file: outcome.file, finding, lineText };
      if (costs !== null) {
        // A finding in hot code is raised one severity step, as the editor does at the default threshold.
        const cost = costs.costOf(outcome.path, finding);
        entry.cost = cost;
        entry.finding = { ...finding, severity: severityWithCost(finding, cost, DEFAULT_HOT_THRESHOLD_PERCENT) };
      }
      report.findings.push(entry);
    }
  }
  return report;
}
