// The profile session: the primary and baseline analyses a user has loaded (and an allocation
// profile joined to a CPU primary), and the answers to questions about them (flame graph,
// overview, one line's detail). Pure logic, no transport: the profile worker
// (server/lsp/profileWorker.ts) serves it over the worker's message port.
import { basename } from 'node:path';

import type { CostTable, FlameGraphParams, FlameGraphResult, LineDetail, LoadedProfile, OverviewResult, ProfileRole, ProfileSummary, RouteNotes } from '../../protocol/wire';
import type { SandwichParams, SandwichResult } from '../../protocol/wire';
import type { Insight } from '../model/types';
import { withAllocationSites } from './allocationJoin';
import { diffFlameTree, diffReports } from './diff';
import { DIFF_TOP, diffText } from './diffText';
import { gcPercent } from './insights';
import { ProfileInputError } from '../readers/profileInputError';
import { analyzeMerged, isFolder, profileFilesOf } from './mergedAnalysis';
import { analyzeProfileFile, type AnalysisOptions, type AnalyzedProfile } from './report';
import { sandwichAnswer } from './sandwichQuery';

const HOT_FUNCTIONS = 100;
/**
 * Unresolved files a summary lists (the costliest); the count is always whole, the CLI's JSON
 * lists every one. A service's own profile stays below it (the e2e demo, recorded elsewhere: a
 * few hundred, dependencies included); a profile of many copies of a service does not.
 */
export const MAX_UNRESOLVED_LISTED = 1000;

/** A one-line message for the user; untrusted text stays one line. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split(/\r?\n/)[0].trim() || 'unknown error';
}

/** The routes of a primary profile: the route each node served (its stalls name them) and the notes the editor shows. */
export interface PrimaryRoutes {
  routeOf?: (node: number) => string | null;
  routes: RouteNotes;
}

/** The primary's cost table, with its routes when they are known. */
function primaryTable(analyzed: AnalyzedProfile, stallThresholdMs: number | undefined, routes: PrimaryRoutes | null): CostTable {
  if (routes === null) return analyzed.costTable(stallThresholdMs);
  return { ...analyzed.costTable(stallThresholdMs, routes.routeOf), routes: routes.routes };
}

export class ProfileSession {
  private primary: { path: string; analyzed: AnalyzedProfile } | null = null;
  private baseline: { path: string; analyzed: AnalyzedProfile } | null = null;
  /** An allocation profile of the same service next to a CPU primary: who makes the garbage. */
  private allocation: { path: string; analyzed: AnalyzedProfile } | null = null;

  /**
   * Loads a profile; on any failure (or abort) the previous state is kept. `routesOf` gives what
   * the caller knows of the primary's routes (the editor's workspace registrations): its cost
   * table is then computed once, with them (its stalls walk every sample: twice was a tenth of a
   * big profile's load).
   */
  async load(path: string, role: ProfileRole, options: AnalysisOptions, signal?: AbortSignal, onProgress?: (fraction: number) => void, pick: { sampleType?: string; thread?: string } = {}, routesOf?: (analyzed: AnalyzedProfile) => PrimaryRoutes | null): Promise<LoadedProfile> {
    // Checked before the read: the join needs a CPU profile to join to.
    if (role === 'allocation') requireCpuPrimary(this.primary);
    let analyzed: AnalyzedProfile;
    try {
      // A folder is one capture (Profile Running Process…): its processes and threads merged, or
      // the one `thread` ("pid:tid") names.
      analyzed = isFolder(path)
        ? (await analyzeMerged(profileFilesOf([path]), options, pick.thread === undefined ? [] : [pick.thread], { signal })).analyzed
        : await analyzeProfileFile(path, options, { signal, onProgress: (fraction) => onProgress?.(fraction * 0.8), sampleType: pick.sampleType, thread: pick.thread });
      // Analysis is synchronous: let an abort posted meanwhile arrive before committing.
      await new Promise<void>((done) => setImmediate(done));
      signal?.throwIfAborted();
    } catch (error) {
      if (signal?.aborted === true) throw new Error('cancelled');
      if (error instanceof ProfileInputError) throw error;
      throw new Error(`${basename(path)}: ${oneLine(error)}`);
    }
    const entry = { path, analyzed };
    if (role === 'allocation') {
      requireCpuPrimary(this.primary);
      if (analyzed.report.unit === 'ms') throw new ProfileInputError(`${basename(path)} measures CPU time, not allocations: open it as the profile (Hotframe: Open Profile), or add an allocation profile (.heapprofile, pprof heap)`);
      onProgress?.(1);
      this.allocation = entry;
      return { summary: summaryOf(path, analyzed), costTable: analyzed.costTable(), insights: this.insights() ?? [] };
    }
    const routes = role === 'primary' ? (routesOf?.(analyzed) ?? null) : null;
    const costTable = role === 'primary' ? primaryTable(analyzed, options.stallThresholdMs, routes) : null;
    onProgress?.(1);
    if (role === 'baseline') this.baseline = entry;
    else {
      // Opening another profile ends a comparison and an allocation join: the old "before" and
      // the old allocations say nothing about the new one.
      this.primary = entry;
      this.baseline = null;
      this.allocation = null;
    }
    return {
      summary: summaryOf(path, analyzed),
      costTable,
      insights: role === 'primary' ? analyzed.report.insights : [],
    };
  }

  clear(): void {
    this.primary = null;
    this.baseline = null;
    this.allocation = null;
  }

  /** The primary's insights; with an allocation profile joined, the GC insight names who allocates. */
  private insights(): Insight[] | null {
    const primary = this.primary;
    if (primary === null) return null;
    const { insights } = primary.analyzed.report;
    return this.allocation === null ? insights : withAllocationSites(insights, this.allocation.analyzed, basename(this.allocation.path));
  }

  flame(params: FlameGraphParams): FlameGraphResult {
    const primary = this.primary;
    if (primary === null) throw new ProfileInputError('no profile loaded: open a .cpuprofile or V8 log first');
    const minFraction = params.minFraction ?? undefined;
    if (params.mode === 'diff') {
      const baseline = this.baseline;
      if (baseline === null) throw new ProfileInputError('no baseline profile loaded: use Compare to pick the "before" profile');
      const files = new Set([...primary.analyzed.openableFiles(), ...baseline.analyzed.openableFiles()]);
      return {
        title: `${basename(baseline.path)} → ${basename(primary.path)}`,
        mode: 'diff',
        unit: flameUnit(primary.analyzed),
        shareBasis: primary.analyzed.report.shareBasis,
        cpuMs: primary.analyzed.report.cpuMs,
        root: diffFlameTree(baseline.analyzed, primary.analyzed, params.onlyMyCode, minFraction),
        openableFiles: [...files].sort(),
      };
    }
    return {
      title: basename(primary.path),
      mode: params.mode,
      unit: flameUnit(primary.analyzed),
      shareBasis: primary.analyzed.report.shareBasis,
      cpuMs: primary.analyzed.report.cpuMs,
      root: primary.analyzed.flame(params.mode, params.onlyMyCode, minFraction),
      openableFiles: primary.analyzed.openableFiles(),
    };
  }

  /**
   * The comparison as `hotframe diff BEFORE AFTER` prints it (the same model and formatter), the
   * baseline being the BEFORE; paths relative to `root`.
   */
  comparisonText(root: string): string {
    const primary = this.primary;
    const baseline = this.baseline;
    if (primary === null || baseline === null) throw new ProfileInputError('no comparison loaded: use Compare to pick the profile to compare with');
    const diff = diffReports(baseline.analyzed.report, primary.analyzed.report);
    return diffText({ before: basename(baseline.path), after: basename(primary.path) }, diff, DIFF_TOP, root);
  }

  /** The primary's analysis (null: none loaded), for answers computed outside the profile engine (routes). */
  primaryAnalysis(): AnalyzedProfile | null {
    return this.primary?.analyzed ?? null;
  }

  overview(): OverviewResult {
    const report = this.primary?.analyzed.report;
    return {
      profile: this.primary === null ? null : summaryOf(this.primary.path, this.primary.analyzed),
      baseline: this.baseline === null ? null : summaryOf(this.baseline.path, this.baseline.analyzed),
      allocation: this.allocation === null ? null : summaryOf(this.allocation.path, this.allocation.analyzed),
      hotFunctions: report?.functions.slice(0, HOT_FUNCTIONS) ?? [],
      callSites: report?.callSites.slice(0, HOT_FUNCTIONS) ?? [],
      insights: this.insights() ?? [],
    };
  }

  /** The callers and callees of the primary's function that `params` names (issue 29). */
  sandwich(params: SandwichParams): SandwichResult {
    const primary = this.primary;
    if (primary === null) throw new ProfileInputError('no profile loaded: open a .cpuprofile or V8 log first');
    return sandwichAnswer(primary.analyzed, params, basename(primary.path));
  }

  lineDetail(file: string, line: number): LineDetail | null {
    return this.primary?.analyzed.lineDetail(file, line) ?? null;
  }
}

/** An allocation profile joins a CPU primary: a one-line refusal otherwise. */
function requireCpuPrimary(primary: { analyzed: AnalyzedProfile } | null): void {
  if (primary === null) throw new ProfileInputError('no CPU profile loaded: open the CPU profile first, then add the allocation profile next to it');
  if (primary.analyzed.report.unit !== 'ms') throw new ProfileInputError('the loaded profile is not a CPU profile: an allocation profile joins a CPU profile of the same service');
}

/** Flame values are ms for CPU profiles, the weight itself (bytes, objects) for allocation profiles. */
function flameUnit(analyzed: AnalyzedProfile): FlameGraphResult['unit'] {
  return analyzed.report.unit;
}

function summaryOf(path: string, analyzed: AnalyzedProfile): ProfileSummary {
  const { report } = analyzed;
  return {
    name: basename(path),
    path,
    format: report.format,
    unit: report.unit,
    notes: report.notes,
    ...(report.sampleTypes !== undefined ? { sampleTypes: report.sampleTypes } : {}),
    samples: report.samples,
    durationMs: report.durationMs,
    cpuMs: report.cpuMs,
    gcPercent: gcPercent(analyzed.aggregates),
    unresolvedFiles: costliestUnresolved(analyzed, MAX_UNRESOLVED_LISTED),
    unresolvedCount: report.unresolvedFiles.length,
    warnings: report.warnings,
    ...(analyzed.profile.threads !== undefined ? { threads: analyzed.profile.threads, thread: analyzed.profile.thread } : {}),
    shareOf: report.shareOf,
    shareBasis: report.shareBasis,
    ...(isFolder(path) ? { capture: true as const } : {}),
  };
}

/** The unresolved files whose frames cost most (self time, then name), at most `max`. */
function costliestUnresolved(analyzed: AnalyzedProfile, max: number): string[] {
  const { unresolvedFiles, functions } = analyzed.report;
  if (unresolvedFiles.length <= 1) return unresolvedFiles;
  const cost = new Map<string, number>(unresolvedFiles.map((file) => [file, 0]));
  for (const f of functions) {
    const ms = cost.get(f.file);
    if (ms !== undefined) cost.set(f.file, ms + f.selfMs);
  }
  return [...cost]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, max)
    .map(([file]) => file);
}
