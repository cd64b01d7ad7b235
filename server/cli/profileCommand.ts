// `hotframe profile FILE.. [--root DIR] [--top N] [--format text|json] [--thread ID] [--sample-type TYPE] [--alloc FILE] [--function NAME[:file]] [--stalls [--stall-ms N]] [--routes]`
// With --alloc, an allocation profile of the same service names who makes the garbage in the GC insight.
import { statSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';

import { ProfileInputError } from '../profile/readers/profileInputError';
import { withAllocationSites } from '../profile/analysis/allocationJoin';
import { functionsNamed } from '../profile/analysis/sandwich';
import { analyzeProfileFile, analyzeProfileWindows, type AnalyzedProfile } from '../profile/analysis/report';
import type { Insight, ProfileReport } from '../profile/model/types';
import { InputError } from '../shared/errors';
import { flagValue, parseCommandArgs, type ParsedArgs } from './args';
import { optionNames, switchNames, synopsis } from './commandSpecs';
import { analyzeMergedForCli, profileFilesOf } from './mergedProfiles';
import { mergedPartsJson, mergedPartsText } from './mergedText';
import { profileText } from './profileText';
import { sandwichJson, sandwichText } from './sandwichText';
import { gcTraceJson, gcTraceOf, gcTraceText } from './gcTraceText';
import { stallsJson, stallsText, stallThreshold, withLoopNotes } from './stallsOutput';
import { DEFAULT_STALL_MS } from '../profile/analysis/stalls';

/** The route map and its output (the parser, Babel's types, the folder walk): loaded for --routes and --stalls only. */
const routesOutput = (): Promise<typeof import('./routesOutput')> => import('./routesOutput');

const DEFAULT_TOP = 20;

export interface ProfileCliOptions {
  root: string;
  top: number;
  format: 'text' | 'json';
  /** pprof: the sample type to read. */
  sampleType?: string;
}

/** --root, --top and --format, shared with `hotframe diff`. */
/** `--root DIR` (default the current folder), resolved; not a folder is the user's input error. */
export function rootFolder(args: ParsedArgs): string {
  const root = resolve(flagValue(args, 'root') ?? process.cwd());
  let isDirectory = false;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch {
    // reported below
  }
  if (!isDirectory) throw new InputError(`--root ${root}: not a directory`);
  return root;
}

export function profileCliOptions(args: ParsedArgs): ProfileCliOptions {
  const root = rootFolder(args);
  const topText = flagValue(args, 'top') ?? String(DEFAULT_TOP);
  const top = Number(topText);
  if (!/^\d+$/.test(topText) || top < 1) throw new InputError(`--top ${topText}: expected a whole number of at least 1`);
  const format = flagValue(args, 'format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new InputError(`--format ${format}: expected text or json`);
  const sampleType = flagValue(args, 'sample-type');
  return { root, top, format, ...(sampleType !== undefined ? { sampleType } : {}) };
}

/** Loads and analyzes one profile; unreadable input becomes a one-line InputError. */
export async function analyzeProfileForCli(path: string, root: string, pick: { sampleType?: string; thread?: string } = {}): Promise<AnalyzedProfile> {
  try {
    return await analyzeProfileFile(resolve(path), { root }, pick);
  } catch (error) {
    if (error instanceof ProfileInputError) throw new InputError(error.message);
    throw error;
  }
}

/** A profile cut into `count` windows of equal duration, each analyzed (the gate's `--windows`). */
export async function analyzeWindowsForCli(path: string, count: number, root: string): Promise<AnalyzedProfile[]> {
  try {
    return await analyzeProfileWindows(resolve(path), count, { root });
  } catch (error) {
    if (error instanceof ProfileInputError) throw new InputError(error.message);
    throw error;
  }
}

/** `--alloc` (of `profile` and `analyze`) names an allocation profile: a CPU profile there is an input error. */
export function refuseCpuAsAllocation(allocation: AnalyzedProfile, shown: string): void {
  if (allocation.report.unit === 'ms') throw new InputError(`--alloc ${shown}: not an allocation profile (it measures CPU time)`);
}

/** ms (or bytes) to the microsecond, as every figure of the JSON reports (findings' costs too: findingFormats.ts). */
export const round = (ms: number): number => Math.round(ms * 1000) / 1000;
/** Percentages to 1e-6 of a percent: `percent * cpuMs / 100` still gives `ms` to the microsecond. */
export const roundPercent = (percent: number): number => Math.round(percent * 1e6) / 1e6;
const roundShare = (percent: number | null): number | null => (percent === null ? null : roundPercent(percent));

/** An insight as `profile --format json` gives it (and `analyze --profile --format json`): ms to the microsecond, percent to 1e-6. */
export function insightJson(insight: Insight): Insight {
  return { ...insight, ms: round(insight.ms), percent: roundPercent(insight.percent) };
}

/**
 * The report for `--format json`, lists cut to `top`, ms rounded to the microsecond. An
 * allocation profile's figures are named by their unit (`selfBytes`, `totalBytes`, `bytes`), and
 * its `samples` fields, which hold the same weight, are left out.
 */
export function reportJson(report: ProfileReport, top: number): Record<string, unknown> {
  const json = cpuReportJson(report, top);
  if (report.unit === 'ms') return json;
  const name = report.unit === 'bytes' ? 'Bytes' : 'Objects';
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      // cpuMs is the total weight here: it is given as totalBytes (totalObjects) below.
      if (key === 'samples' || key === 'selfSamples' || key === 'totalSamples' || key === 'cpuMs') continue;
      const renamed = key === 'selfMs' ? `self${name}` : key === 'totalMs' ? `total${name}` : key === 'ms' ? name.toLowerCase() : key;
      out[renamed] = key === 'unresolvedFiles' || key === 'warnings' || key === 'notes' ? inner : rename(inner);
    }
    return out;
  };
  const { samples, durationMs, ...rest } = json as ProfileReport;
  return { ...(rename(rest) as Record<string, unknown>), [`total${name}`]: samples, ...(durationMs > 0 ? { durationMs } : {}) };
}

function cpuReportJson(report: ProfileReport, top: number): Record<string, unknown> & ProfileReport {
  return {
    format: report.format,
    unit: report.unit,
    notes: report.notes,
    ...(report.sampleTypes !== undefined ? { sampleTypes: report.sampleTypes } : {}),
    samples: report.samples,
    durationMs: round(report.durationMs),
    cpuMs: round(report.cpuMs),
    shareOf: report.shareOf,
    shareBasis: report.shareBasis,
    categories: Object.fromEntries(
      Object.entries(report.categories).map(([k, c]) => [k, { samples: c.samples, ms: round(c.ms), percent: roundShare(c.percent) }]),
    ) as ProfileReport['categories'],
    functions: report.functions
      .slice(0, top)
      .map((f) => ({ ...f, selfMs: round(f.selfMs), totalMs: round(f.totalMs), selfPercent: roundShare(f.selfPercent), totalPercent: roundShare(f.totalPercent) })),
    lines: report.lines.slice(0, top).map((l) => ({ ...l, selfMs: round(l.selfMs), percent: roundPercent(l.percent) })),
    callSites: report.callSites
      .slice(0, top)
      .map((s) => ({ ...s, ms: round(s.ms), percent: roundPercent(s.percent), libraries: s.libraries.map((l) => ({ ...l, ms: round(l.ms) })) })),
    callLines: report.callLines
      .slice(0, top)
      .map((c) => ({ ...c, ms: round(c.ms), percent: roundPercent(c.percent), ...(c.calls !== undefined ? { calls: c.calls.map((call) => ({ ...call, ms: round(call.ms), percent: roundPercent(call.percent) })) } : {}) })),
    insights: report.insights.map(insightJson),
    unresolvedFiles: report.unresolvedFiles,
    dependencySources: report.dependencySources,
    warnings: report.warnings,
  };
}

/** `--function NAME[:file]`: that function's callers and callees, or a one-line error naming the choices. */
function functionSandwich(analyzed: AnalyzedProfile, question: string, options: ProfileCliOptions): string {
  const matches = functionsNamed(analyzed.index, question);
  if (matches.length === 0) throw new InputError(`--function ${question}: no function of that name in the profile`);
  if (matches.length > 1) {
    const choices = matches.slice(0, 5).map((i) => {
      const f = analyzed.index.functions[i];
      return `${f.name}:${relative(options.root, f.file) || f.file}:${f.line}`;
    });
    throw new InputError(`--function ${question}: ${matches.length} functions have that name (${choices.join(', ')}${matches.length > 5 ? ', …' : ''}); add its file, as NAME:file`);
  }
  const sandwich = analyzed.sandwich(new Set(matches));
  const { report } = analyzed;
  return options.format === 'json' ? JSON.stringify(sandwichJson(sandwich, report, options.top), null, 2) + '\n' : sandwichText(sandwich, report, options.top, options.root);
}

export async function runProfile(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, optionNames('profile'), switchNames('profile'));
  // --stalls: the event-loop stalls instead of the report.
  const stalls = args.flags.has('stalls');
  if (args.positionals.length === 0) {
    throw new InputError(`profile: expected a profile FILE (or several, or a folder), got none (usage: ${synopsis('profile')})`);
  }
  const options = profileCliOptions(args);
  // Several files, or a folder: the processes and threads of one capture, merged.
  if (args.positionals.length > 1 || isFolder(args.positionals[0])) return runMergedProfile(args, options);
  const file = args.positionals[0];
  const gcTrace = gcTraceOf(resolve(file));
  if (gcTrace !== null) {
    process.stdout.write(options.format === 'json' ? JSON.stringify(gcTraceJson(gcTrace), null, 2) + '\n' : gcTraceText(basename(file), gcTrace));
    return 0;
  }
  const analyzed = await analyzeProfileForCli(file, options.root, { sampleType: options.sampleType, thread: flagValue(args, 'thread') });
  let { report } = analyzed;
  // A trace with several threads: say which one this is, on stderr so the JSON stays clean.
  if ((analyzed.profile.threads?.length ?? 0) > 1) process.stderr.write(`hotframe: ${report.warnings.find((w) => w.startsWith('the trace holds')) ?? ''}\n`);
  if (stalls) {
    // Each stall names the route its code served, from the --root folder's registrations.
    const { nodeRoutesFor } = await routesOutput();
    const found = withLoopNotes(analyzed.stalls(stallThreshold(flagValue(args, 'stall-ms'), DEFAULT_STALL_MS), nodeRoutesFor(analyzed, options.root)), resolve(file));
    process.stdout.write(options.format === 'json' ? JSON.stringify(stallsJson(found), null, 2) + '\n' : stallsText(basename(file), found, options.top, options.root));
    return 0;
  }
  // --routes: CPU time per route of the --root folder's source.
  if (args.flags.has('routes')) {
    const { routeReportFor, routesJson, routesText } = await routesOutput();
    const routes = routeReportFor(analyzed, options.root, resolve(file));
    process.stdout.write(options.format === 'json' ? JSON.stringify(routesJson(routes, options.top), null, 2) + '\n' : routesText(basename(file), routes, options.top, options.root));
    return 0;
  }
  const question = flagValue(args, 'function');
  if (question !== undefined) {
    process.stdout.write(functionSandwich(analyzed, question, options));
    return 0;
  }
  const allocFile = flagValue(args, 'alloc');
  if (allocFile !== undefined) {
    const allocation = await analyzeProfileForCli(allocFile, options.root);
    refuseCpuAsAllocation(allocation, allocFile);
    report = { ...report, insights: withAllocationSites(report.insights, allocation, basename(allocFile)) };
  }
  process.stdout.write(options.format === 'json' ? JSON.stringify(reportJson(report, options.top), null, 2) + '\n' : profileText(basename(file), report, options.top, options.root));
  return 0;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function runMergedProfile(args: ParsedArgs, options: ProfileCliOptions): Promise<number> {
  if (flagValue(args, 'alloc') !== undefined) throw new InputError('profile: --alloc applies to one CPU profile, not to merged ones');
  const files = profileFilesOf(args.positionals);
  const { analyzed, inputs } = await analyzeMergedForCli(files, options.root, args.flags.get('thread') ?? []);
  const { report } = analyzed;
  const name = `${inputs.length} profiles`;
  // --routes: CPU time per route of them all, and the requests each kept process served (their notes).
  if (args.flags.has('routes')) {
    const { routeReportFor, routesJson, routesText } = await routesOutput();
    const routes = routeReportFor(analyzed, options.root, files.filter((file) => inputs.some((input) => input.name === basename(file))));
    process.stdout.write(options.format === 'json' ? JSON.stringify(routesJson(routes, options.top), null, 2) + '\n' : routesText(name, routes, options.top, options.root));
    return 0;
  }
  process.stdout.write(
    options.format === 'json'
      ? JSON.stringify({ ...reportJson(report, options.top), parts: mergedPartsJson(inputs, report) }, null, 2) + '\n'
      : mergedPartsText(inputs, report) + profileText(name, report, options.top, options.root),
  );
  return 0;
}
