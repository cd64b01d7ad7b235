// `hotframe analyze [paths..] [--format text|json|sarif] [--rule <id>=<level>] [--profile FILE] [--alloc ALLOCATION_PROFILE] [--root DIR]`
// The editor's engine over a tree of files, for CI. With --profile, findings are ranked by what
// the code they sit in cost in that profile; with --alloc too, an allocation profile of the same
// service joins it, as **Hotframe: Add Allocation Profile…** does in the editor: findings say
// what their code allocates, and the GC insight names who makes the garbage.
import { statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';

import { allRules } from '../../rules/index';
import { costIndexOf, joinAllocationCosts, type CostIndex } from '../join/costIndex';
import { withAllocationSites } from '../profile/analysis/allocationJoin';
import { analyzeProfileFile, type AnalyzedProfile } from '../profile/analysis/report';
import { InputError } from '../shared/errors';
import { flagValue, parseCommandArgs } from './args';
import { optionNames } from './commandSpecs';
import { analyzeFileList, displayPath, reportOf } from './fileAnalysis';
import type { RuleLevels } from './fileAnalysis';
import { formatJson, formatText, type AnalyzeReport, type ProfileInsights } from './findingFormats';
import { insightJson, refuseCpuAsAllocation, round } from './profileCommand';
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
  /** An allocation profile joined to the CPU profile `profile`. */
  alloc: string | null;
  root: string;
}

export function parseAnalyzeOptions(args: readonly string[], cwd: string): AnalyzeOptions {
  const parsed = parseCommandArgs(args, optionNames('analyze'));
  const format = flagValue(parsed, 'format') ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format)) throw new InputError(`--format: unknown format '${format}' (text|json|sarif)`);
  const root = resolve(cwd, flagValue(parsed, 'root') ?? '.');
  if (!isDirectory(root)) throw new InputError(`--root: no such folder: ${flagValue(parsed, 'root')}`);
  const profile = flagValue(parsed, 'profile') ?? null;
  if (profile !== null && !isFile(resolve(cwd, profile))) throw new InputError(`--profile: no such file: ${profile}`);
  const alloc = flagValue(parsed, 'alloc') ?? null;
  if (alloc !== null && profile === null) throw new InputError('--alloc: joins an allocation profile to the CPU profile given with --profile (alone, give it as --profile)');
  if (alloc !== null && !isFile(resolve(cwd, alloc))) throw new InputError(`--alloc: no such file: ${alloc}`);
  return {
    paths: parsed.positionals.length > 0 ? parsed.positionals : ['.'],
    format: format as Format,
    levels: parseRuleLevels(parsed.flags.get('rule') ?? []),
    profile: profile === null ? null : resolve(cwd, profile),
    alloc: alloc === null ? null : resolve(cwd, alloc),
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

/** The findings of `options.paths` (ranked by the profile's cost when one is given), as every format prints them. */
export async function analyzeReport(options: AnalyzeOptions, cwd: string): Promise<AnalyzeReport> {
  const files = collectSourceFiles(options.paths, cwd);
  let costs: CostIndex | null = null;
  let profile: ProfileInsights | undefined;
  if (options.profile !== null) {
    const measured = await analyzedFor('--profile', options.profile, options.root, cwd);
    costs = costIndexOf(measured.costTable());
    let measuredInsights = measured.report.insights;
    if (options.alloc !== null) {
      if (measured.report.unit !== 'ms') throw new InputError(`--profile ${displayPath(cwd, options.profile)}: not a CPU profile, which --alloc joins (it measures ${measured.report.unit})`);
      const allocation = await analyzedFor('--alloc', options.alloc, options.root, cwd);
      refuseCpuAsAllocation(allocation, displayPath(cwd, options.alloc));
      // The join of the editor's Add Allocation Profile, and the GC insight of `hotframe profile --alloc`.
      costs = joinAllocationCosts(costs, costIndexOf(allocation.costTable()));
      measuredInsights = withAllocationSites(measuredInsights, allocation, basename(options.alloc));
    }
    // The insights `hotframe profile` prints for this profile, with the same figures; paths as the findings'.
    const insights = measuredInsights.map((insight) => {
      const json = insightJson(insight);
      return json.location === null ? json : { ...json, location: { ...json.location, file: shownPath(cwd, json.location.file) } };
    });
    const report = measured.report;
    profile = { file: displayPath(cwd, options.profile), unit: report.unit, shareOf: report.shareOf, total: round(report.cpuMs), insights };
  }
  const outcomes = analyzeFileList(files, cwd, options.levels);
  // A rule that threw is our bug, not the user's input: say so on stderr, keep the other results.
  for (const outcome of outcomes) for (const error of outcome.ruleErrors) process.stderr.write(`hotframe: rule ${error} (on ${outcome.file})\n`);
  return { ...reportOf(outcomes, costs), ...(profile !== undefined ? { profile } : {}) };
}

export async function runAnalyze(args: string[]): Promise<number> {
  const cwd = process.cwd();
  const options = parseAnalyzeOptions(args, cwd);
  const report = await analyzeReport(options, cwd);
  let output: string;
  if (options.format === 'json') output = formatJson(report);
  else if (options.format === 'sarif') output = formatSarif(report, allRules.map((rule) => rule.meta), cwd, typeof VERSION === 'string' ? VERSION : 'dev');
  else output = formatText(report);
  process.stdout.write(output + '\n');
  const problems = report.findings.length + report.skipped.filter((s) => s.parseError !== null).length;
  return problems > 0 ? 1 : 0;
}

/** A profile given on the command line, analyzed; what is wrong with it is the user's input error, in one line. */
async function analyzedFor(flag: string, path: string, root: string, cwd: string): Promise<AnalyzedProfile> {
  try {
    return await analyzeProfileFile(path, { root });
  } catch (error) {
    throw new InputError(`${flag} ${displayPath(cwd, path)}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

declare const VERSION: string; // injected by scripts/build.mjs
