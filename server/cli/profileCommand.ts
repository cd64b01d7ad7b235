// `hotframe profile FILE [--root DIR] [--top N] [--format text|json] [--thread ID] [--sample-type TYPE] [--alloc FILE] [--stalls [--stall-ms N]]`
// With --alloc, an allocation profile of the same service names who makes the garbage in the GC insight.
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';

import { ProfileInputError } from '../profile/readers/profileInputError';
import { withAllocationSites } from '../profile/analysis/allocationJoin';
import { analyzeProfileFile, type AnalyzedProfile } from '../profile/analysis/report';
import type { Insight, ProfileReport } from '../profile/model/types';
import { InputError } from '../shared/errors';
import { flagValue, parseCommandArgs, type ParsedArgs } from './args';
import { profileText } from './profileText';
import { stallsJson, stallsText, stallThreshold } from './stallsOutput';
import { DEFAULT_STALL_MS } from '../profile/analysis/stalls';

const DEFAULT_TOP = 20;

export interface ProfileCliOptions {
  root: string;
  top: number;
  format: 'text' | 'json';
  /** pprof: the sample type to read. */
  sampleType?: string;
}

/** --root, --top and --format, shared with `hotframe diff`. */
export function profileCliOptions(args: ParsedArgs): ProfileCliOptions {
  const root = resolve(flagValue(args, 'root') ?? process.cwd());
  let isDirectory = false;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch {
    // reported below
  }
  if (!isDirectory) throw new InputError(`--root ${root}: not a directory`);
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
    callLines: report.callLines.slice(0, top).map((c) => ({ ...c, ms: round(c.ms), percent: roundPercent(c.percent) })),
    insights: report.insights.map(insightJson),
    unresolvedFiles: report.unresolvedFiles,
    dependencySources: report.dependencySources,
    warnings: report.warnings,
  };
}

export async function runProfile(argv: string[]): Promise<number> {
  // --stalls takes no value (every other option does): the event-loop stalls instead of the report.
  const stalls = argv.includes('--stalls');
  argv = argv.filter((a) => a !== '--stalls');
  const args = parseCommandArgs(argv, ['root', 'top', 'format', 'thread', 'sample-type', 'alloc', 'stall-ms']);
  if (args.positionals.length !== 1) {
    throw new InputError(`profile: expected one profile FILE, got ${args.positionals.length} (usage: hotframe profile FILE [--root DIR] [--top N] [--format text|json] [--thread ID] [--sample-type TYPE] [--alloc ALLOCATION_PROFILE] [--stalls [--stall-ms N]])`);
  }
  const options = profileCliOptions(args);
  const file = args.positionals[0];
  const analyzed = await analyzeProfileForCli(file, options.root, { sampleType: options.sampleType, thread: flagValue(args, 'thread') });
  let { report } = analyzed;
  // A trace with several threads: say which one this is, on stderr so the JSON stays clean.
  if ((analyzed.profile.threads?.length ?? 0) > 1) process.stderr.write(`hotframe: ${report.warnings.find((w) => w.startsWith('the trace holds')) ?? ''}\n`);
  if (stalls) {
    const found = analyzed.stalls(stallThreshold(flagValue(args, 'stall-ms'), DEFAULT_STALL_MS));
    process.stdout.write(options.format === 'json' ? JSON.stringify(stallsJson(found), null, 2) + '\n' : stallsText(basename(file), found, options.top, options.root));
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
