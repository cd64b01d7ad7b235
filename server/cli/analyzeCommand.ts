// `hotframe analyze [paths..] [--format text|json|sarif] [--rule <id>=<level>] [--profile FILE] [--root DIR]`
// The editor's engine over a tree of files, for CI. With --profile, findings are ranked by what
// the code they sit in cost in that profile.
import { readFileSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';

import type { RuleId, RuleLevel } from '../../rules/api';
import { allRules } from '../../rules/index';
import { loadCostIndex } from '../profile/costIndex';
import type { CostIndex } from '../profile/costIndex';
import { analyzeSource } from '../static/engine';
import { ProjectIndex } from '../static/projectIndex';
import { flagValue, parseArgs } from './args';
import { CliError } from './errors';
import { formatJson, formatText, parseProblemEntry } from './findingFormats';
import type { AnalyzeReport, FileFinding } from './findingFormats';
import { parseRuleLevels } from './ruleLevels';
import { formatSarif } from './sarifFormat';
import { collectSourceFiles } from './sourceFiles';

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

export interface AnalyzeOptions {
  paths: string[];
  format: Format;
  levels: Partial<Record<RuleId, RuleLevel>>;
  profile: string | null;
  root: string;
}

export function parseAnalyzeOptions(args: readonly string[], cwd: string): AnalyzeOptions {
  const parsed = parseArgs(args, ['format', 'rule', 'profile', 'root']);
  const format = flagValue(parsed, 'format') ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format)) throw new CliError(`--format: unknown format '${format}' (text|json|sarif)`);
  const root = resolve(cwd, flagValue(parsed, 'root') ?? '.');
  if (!isDirectory(root)) throw new CliError(`--root: no such folder: ${flagValue(parsed, 'root')}`);
  const profile = flagValue(parsed, 'profile') ?? null;
  if (profile !== null && !isFile(resolve(cwd, profile))) throw new CliError(`--profile: no such file: ${profile}`);
  return {
    paths: parsed.positionals.length > 0 ? parsed.positionals : ['.'],
    format: format as Format,
    levels: parseRuleLevels(parsed.flags.get('rule') ?? []),
    profile: profile === null ? null : resolve(cwd, profile),
    root,
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Path as shown in reports: relative to cwd, forward slashes. */
function displayPath(cwd: string, file: string): string {
  return relative(cwd, file).split(sep).join('/');
}

function lineTextAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return text.slice(start, end === -1 ? text.length : end).replace(/\r$/, '');
}

/** Analyzes every file; problems with single files are reported in the result, never thrown. */
export function analyzeFiles(files: readonly string[], options: AnalyzeOptions, cwd: string, costs: CostIndex | null): AnalyzeReport {
  const project = new ProjectIndex();
  const report: AnalyzeReport = { findings: [], filesAnalyzed: 0, skipped: [], profileGiven: costs !== null };
  for (const path of files) {
    const file = displayPath(cwd, path);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      report.skipped.push({ file, reason: `unreadable: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, parseError: null });
      continue;
    }
    const result = analyzeSource({ filePath: path, text, levels: options.levels, project });
    if (result.skipped !== null) {
      report.skipped.push({ file, reason: result.skipped.reason, parseError: null });
      continue;
    }
    report.filesAnalyzed++;
    // One entry per file: the first syntax error (Babel's recovery makes later ones follow-ups).
    if (result.parseErrors.length > 0) report.skipped.push(parseProblemEntry(file, result.parseErrors[0]));
    for (const error of result.ruleErrors) process.stderr.write(`hotframe: rule ${error.ruleId} failed on ${file}: ${error.message.split('\n')[0]}\n`);
    for (const finding of result.findings) {
      const entry: FileFinding = { file, finding, lineText: lineTextAt(text, finding.range.start) };
      if (costs !== null) entry.cost = costs.costOf(path, finding);
      report.findings.push(entry);
    }
  }
  return report;
}

export async function runAnalyze(args: string[]): Promise<number> {
  const cwd = process.cwd();
  const options = parseAnalyzeOptions(args, cwd);
  let costs: CostIndex | null = null;
  if (options.profile !== null) {
    try {
      costs = await loadCostIndex(options.profile, { root: options.root });
    } catch (error) {
      throw new CliError(`--profile ${displayPath(cwd, options.profile)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const files = collectSourceFiles(options.paths, cwd);
  const report = analyzeFiles(files, options, cwd, costs);
  let output: string;
  if (options.format === 'json') output = formatJson(report);
  else if (options.format === 'sarif') output = formatSarif(report, allRules.map((rule) => rule.meta), cwd, typeof VERSION === 'string' ? VERSION : 'dev');
  else output = formatText(report);
  process.stdout.write(output + '\n');
  const problems = report.findings.length + report.skipped.filter((s) => s.parseError !== null).length;
  return problems > 0 ? 1 : 0;
}

declare const VERSION: string; // injected by scripts/build.mjs
