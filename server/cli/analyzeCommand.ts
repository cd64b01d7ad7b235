// `hotframe analyze [paths..] [--format text|json|sarif] [--rule <id>=<level>] [--profile FILE] [--root DIR]`
// The editor's engine over a tree of files, for CI. With --profile, findings are ranked by what
// the code they sit in cost in that profile.
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

import { allRules } from '../../rules/index';
import { costIndexOf, type CostIndex } from '../join/costIndex';
import { analyzeProfileFile } from '../profile/analysis/report';
import type { ProfileReport } from '../profile/model/types';
import { InputError } from '../shared/errors';
import { flagValue, parseCommandArgs } from './args';
import { analyzeFileList, displayPath, reportOf } from './fileAnalysis';
import type { RuleLevels } from './fileAnalysis';
import { formatJson, formatText, type ProfileInsights } from './findingFormats';
import { insightJson, round } from './profileCommand';
import { parseRuleLevels } from '../static/ruleLevels';
import { formatSarif } from './sarifFormat';
import { collectSourceFiles } from '../shared/sourceFiles';

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

export interface AnalyzeOptions {
  paths: string[];
  format: Format;
  levels: RuleLevels;
  profile: string | null;
  root: string;
}

export function parseAnalyzeOptions(args: readonly string[], cwd: string): AnalyzeOptions {
  const parsed = parseCommandArgs(args, ['format', 'rule', 'profile', 'root']);
  const format = flagValue(parsed, 'format') ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format)) throw new InputError(`--format: unknown format '${format}' (text|json|sarif)`);
  const root = resolve(cwd, flagValue(parsed, 'root') ?? '.');
  if (!isDirectory(root)) throw new InputError(`--root: no such folder: ${flagValue(parsed, 'root')}`);
  const profile = flagValue(parsed, 'profile') ?? null;
  if (profile !== null && !isFile(resolve(cwd, profile))) throw new InputError(`--profile: no such file: ${profile}`);
  return {
    paths: parsed.positionals.length > 0 ? parsed.positionals : ['.'],
    format: format as Format,
    levels: parseRuleLevels(parsed.flags.get('rule') ?? []),
    profile: profile === null ? null : resolve(cwd, profile),
    root,
  };
}

/** A local absolute path relative to cwd like the findings' files; anything else (node:fs, a path as recorded) as it is. */
function shownPath(cwd: string, file: string): string {
  return isAbsolute(file) ? displayPath(cwd, file) : file;
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

export async function runAnalyze(args: string[]): Promise<number> {
  const cwd = process.cwd();
  const options = parseAnalyzeOptions(args, cwd);
  const files = collectSourceFiles(options.paths, cwd);
  let costs: CostIndex | null = null;
  let profile: ProfileInsights | undefined;
  if (options.profile !== null) {
    let measured: ProfileReport;
    try {
      const analyzed = await analyzeProfileFile(options.profile, { root: options.root });
      costs = costIndexOf(analyzed.costTable());
      measured = analyzed.report;
    } catch (error) {
      throw new InputError(`--profile ${displayPath(cwd, options.profile)}: ${error instanceof Error ? error.message : String(error)}`);
    }
    // The insights `hotframe profile` prints for this profile, with the same figures; paths as the findings'.
    const insights = measured.insights.map((insight) => {
      const json = insightJson(insight);
      return json.location === null ? json : { ...json, location: { ...json.location, file: shownPath(cwd, json.location.file) } };
    });
    profile = { file: displayPath(cwd, options.profile), unit: measured.unit, shareOf: measured.shareOf, total: round(measured.cpuMs), insights };
  }
  const outcomes = analyzeFileList(files, cwd, options.levels);
  // A rule that threw is our bug, not the user's input: say so on stderr, keep the other results.
  for (const outcome of outcomes) for (const error of outcome.ruleErrors) process.stderr.write(`hotframe: rule ${error} (on ${outcome.file})\n`);
  const report = { ...reportOf(outcomes, costs), ...(profile !== undefined ? { profile } : {}) };
  let output: string;
  if (options.format === 'json') output = formatJson(report);
  else if (options.format === 'sarif') output = formatSarif(report, allRules.map((rule) => rule.meta), cwd, typeof VERSION === 'string' ? VERSION : 'dev');
  else output = formatText(report);
  process.stdout.write(output + '\n');
  const problems = report.findings.length + report.skipped.filter((s) => s.parseError !== null).length;
  return problems > 0 ? 1 : 0;
}

declare const VERSION: string; // injected by scripts/build.mjs
