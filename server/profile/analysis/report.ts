// The one analysis of a loaded profile: locations resolved (path mapping, then source maps),
// costs aggregated, library time attributed to user call sites, insights found. Views (CLI text
// and JSON, editor heat, hover, flame graph) all read from the `AnalyzedProfile` built here.
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { errnoCode } from '../../shared/errors';
import { tryReadGuardedText } from '../../shared/guardedRead';
import type { ReadScope } from '../../shared/readScope';

import { aggregate, indexFunctions, shapeOf, type Aggregates, type FunctionIndex, type ResolvedFunction, type TreeShape } from './aggregate';
import { attribute, type Attribution } from './attribution';

import { DEFAULT_MIN_FRACTION, invertTree, mergeProfile, toFlameNodes, type MergedTree } from './flameTree';
import { DEFERRED_WORK, findInsights, type SourceLineReader } from './insights';
import { callLinesOf, sourceCalls } from './callLines';
import { FunctionRanges } from './functionRanges';
import { type InlinedCall, placeInlinedLines } from './inlinedLines';
import { stallsOf, type StallSources } from './stallSites';
import { sandwichOf, type Sandwich } from './sandwich';
import { DEFAULT_STALL_MS, type StallReport } from './stalls';
import { asInputError, loadProfile, type LoadOptions } from '../readers/load';
import { inferLocations } from '../location/inferLocations';
import { isLocalCandidate, PathResolver } from '../location/pathMapping';
import { ProfileInputError } from '../readers/profileInputError';
import { SourceMapCache } from '../location/sourceMaps';
import { formatMs, SHARE_OF } from '../../shared/format';
import type { CostTable, FileCosts, FlameNode, FunctionCost, NormalizedProfile, ProfileReport, ReportOptions } from '../model/types';
import { splitByTime, unsplittable } from '../model/timeWindows';
import type { CallEdge, FunctionDetail, LineDetail } from '../../protocol/wire';

export type { CallEdge, FunctionDetail, LineDetail };

export interface AnalysisOptions extends ReportOptions {
  /** More roots for the suffix match (workspace folders); `root` comes first. */
  roots?: string[];
  /** The folder of the profile file: files in it may be read too (set by analyzeProfileFile). */
  profileFolder?: string;
  /** V8 logs: run nm on Node's binary to name C++ frames (default true; false in an untrusted workspace). */
  nativeSymbols?: boolean;
  /** The stalls a session's cost table carries (the editor's `hotframe.stallThresholdMs`; default 50 ms). */
  stallThresholdMs?: number;
}

function rootsOf(options: AnalysisOptions): string[] {
  const roots = [...(options.root !== undefined ? [options.root] : []), ...(options.roots ?? [])];
  return roots.length > 0 ? roots : [process.cwd()];
}

/** Where files named by a profile may be read: the roots, the mapping targets, the profile's folder (docs/security.md). */
function readScopeOf(options: AnalysisOptions): ReadScope {
  return new PathResolver(rootsOf(options), options.pathMappings ?? [], options.profileFolder === undefined ? [] : [options.profileFolder]).scope;
}

const EDGES_SHOWN = 5;

export class AnalyzedProfile {
  readonly report: ProfileReport;
  readonly aggregates: Aggregates;
  readonly attribution: Attribution;
  private heatByFile: Map<string, FileCosts> | null = null;
  private readonly merged = new Map<boolean, MergedTree>();
  /** What the stalls are read with (set by buildReport). */
  stallSources: StallSources | null = null;
  private readonly stallReports = new Map<number, StallReport | null>();

  constructor(
    readonly profile: NormalizedProfile,
    readonly index: FunctionIndex,
    readonly shape: TreeShape,
    aggregates: Aggregates,
    attribution: Attribution,
    report: ProfileReport,
  ) {
    this.aggregates = aggregates;
    this.attribution = attribution;
    this.report = report;
  }

  /** Event-loop stalls longer than `thresholdMs` (stalls.ts), or null when the format keeps no sample order. */
  stalls(thresholdMs: number, routeOf?: (node: number) => string | null): StallReport | null {
    // With the route each node served (server/profile/routes/): each stall names its route; not cached.
    if (routeOf !== undefined) return this.stallSources === null ? null : stallsOf(this.stallSources, thresholdMs, routeOf);
    if (!this.stallReports.has(thresholdMs)) this.stallReports.set(thresholdMs, this.stallSources === null ? null : stallsOf(this.stallSources, thresholdMs));
    return this.stallReports.get(thresholdMs) ?? null;
  }

  /** Everything measured in one local file (absolute path). */
  heatOf(file: string): FileCosts {
    return this.heat().get(file) ?? { lines: [], functions: [], callSites: [], callLines: [] };
  }

  /**
   * Per-file costs of the local files with samples, for the cost index (the language server's copy
   * answers heat, hovers and findings' costs for open documents). Only files that resolved to a
   * local file: node: internals, URLs and recorded paths not found here name no document, and in
   * a big profile they are most of the table (128 MB .cpuprofile: 8,770 files, 21 MB of JSON,
   * over a second to cross from the profile worker, for 2 files the workspace holds).
   */
  costTable(stallThresholdMs: number = DEFAULT_STALL_MS, routeOf?: (node: number) => string | null): CostTable {
    const deferred = this.report.insights.flatMap((insight) => {
      const label = DEFERRED_WORK[insight.id];
      return label === undefined ? [] : [{ insight: insight.id, label, ms: insight.ms, percent: insight.percent }];
    });
    const unit = this.report.unit;
    const unresolved = new Set(this.report.unresolvedFiles);
    const files = [...this.heat()].filter(([file]) => isAbsolute(file) && !unresolved.has(file));
    const table: CostTable = { cpuMs: this.report.cpuMs, files: Object.fromEntries(files), deferred, ...(unit !== 'ms' ? { unit } : {}) };
    // With routes (the editor's workspace registrations), each line's stalls name the routes they served.
    const stalls = this.stalls(stallThresholdMs, routeOf);
    if (stalls !== null && stalls.lines.length > 0) {
      table.stallThresholdMs = stalls.thresholdMs;
      for (const line of stalls.lines) {
        if (!isAbsolute(line.file) || unresolved.has(line.file)) continue;
        // A copy: the heat entries are shared with every other view.
        const costs = table.files[line.file] ?? { lines: [], functions: [], callSites: [], callLines: [] };
        table.files[line.file] = { ...costs, stalls: [...(costs.stalls ?? []), line] };
      }
    }
    return table;
  }

  /** Absolute local paths that frames resolved to (the flame graph may open these). */
  openableFiles(): string[] {
    const files = new Set<string>();
    for (const f of this.index.functions) if (f.resolved && f.file !== '') files.add(f.file);
    return [...files].sort();
  }

  mergedTree(onlyMyCode: boolean): MergedTree {
    let tree = this.merged.get(onlyMyCode);
    if (tree === undefined) {
      tree = mergeProfile({ profile: this.profile, index: this.index, frames: this.attribution.frames }, onlyMyCode);
      this.merged.set(onlyMyCode, tree);
    }
    return tree;
  }

  flame(mode: 'normal' | 'inverted', onlyMyCode: boolean, minFraction = DEFAULT_MIN_FRACTION): FlameNode {
    const merged = this.mergedTree(onlyMyCode);
    const tree = mode === 'inverted' ? invertTree(merged, minFraction) : merged;
    return toFlameNodes(tree, { rootName: 'all', minFraction });
  }

  /**
   * The callers and callees of the resolved functions `targets` (sandwich.ts), each caller's call
   * line as the format recorded it (shown through source maps) or, when it records none, found in
   * the caller's source as the report's call lines find it. The CLI and the editor both ask here.
   */
  sandwich(targets: ReadonlySet<number>): Sandwich {
    const sources = this.stallSources;
    if (sources === null) return sandwichOf(this.profile, this.index, this.shape, targets);
    return sandwichOf(this.profile, this.index, this.shape, targets, (caller, callee, recorded) => {
      const own = this.index.functions[this.index.canonicalOf[caller]].file;
      const at = recorded > 0 ? sources.locateLine(caller, recorded) : sources.calls.callLineOf(caller, callee);
      // A line of the caller's own file only: the view opens it in that file.
      return at !== null && at.file === own ? at.line : 0;
    });
  }

  lineDetail(file: string, line: number): LineDetail | null {
    const heat = this.heatOf(file);
    const lineCost = heat.lines.find((l) => l.line === line) ?? null;
    const functions = heat.functions.filter((f) => f.line === line).map((cost) => this.functionDetail(cost));
    const callSites = heat.callSites.filter((s) => s.line === line);
    const callLine = heat.callLines.find((c) => c.line === line) ?? null;
    if (lineCost === null && functions.length === 0 && callSites.length === 0 && callLine === null) return null;
    return { unit: this.report.unit, cpuMs: this.report.cpuMs, durationMs: this.profile.durationMs, line: lineCost, functions, callSites, callLine };
  }

  private functionDetail(cost: FunctionCost): FunctionDetail {
    const target = this.index.functions.findIndex((f) => f.file === cost.file && f.line === cost.line && f.column === cost.column && f.name === cost.name);
    const callers = new Map<number, { samples: number; ms: number }>();
    const callees = new Map<number, { samples: number; ms: number }>();
    const { tree } = this.profile;
    const add = (into: Map<number, { samples: number; ms: number }>, func: number, node: number): void => {
      const edge = into.get(func) ?? { samples: 0, ms: 0 };
      edge.samples += this.shape.totalSamples[node];
      edge.ms += this.shape.totalMs[node];
      into.set(func, edge);
    };
    for (let n = 1; n < tree.count; n++) {
      if (this.index.canonicalOf[tree.func[n]] !== target) continue;
      const p = tree.parent[n];
      if (p > 0) add(callers, this.index.canonicalOf[tree.func[p]], n);
      for (let c = this.shape.childStart[n]; c < this.shape.childStart[n + 1]; c++) {
        const child = this.shape.children[c];
        add(callees, this.index.canonicalOf[tree.func[child]], child);
      }
    }
    const edges = (map: Map<number, { samples: number; ms: number }>): CallEdge[] =>
      [...map.entries()]
        .sort((a, b) => b[1].ms - a[1].ms)
        .slice(0, EDGES_SHOWN)
        .map(([f, edge]) => ({ name: this.index.functions[f].name, file: this.index.functions[f].file, line: this.index.functions[f].line, ...edge }));
    return { cost, callers: edges(callers), callees: edges(callees) };
  }

  private heat(): Map<string, FileCosts> {
    if (this.heatByFile !== null) return this.heatByFile;
    const byFile = new Map<string, FileCosts>();
    const of = (file: string): FileCosts => {
      let entry = byFile.get(file);
      if (entry === undefined) {
        entry = { lines: [], functions: [], callSites: [], callLines: [] };
        byFile.set(file, entry);
      }
      return entry;
    };
    for (const line of this.report.lines) of(line.file).lines.push(line);
    for (const fn of this.report.functions) if (fn.file !== '') of(fn.file).functions.push(fn);
    for (const site of this.report.callSites) of(site.file).callSites.push(site);
    for (const call of this.report.callLines) of(call.file).callLines.push(call);
    this.heatByFile = byFile;
    return byFile;
  }
}

/** Where each profile function lives locally, and how to map its lines. */
function locator(profile: NormalizedProfile, options: AnalysisOptions) {
  const paths = new PathResolver(rootsOf(options), options.pathMappings ?? [], options.profileFolder === undefined ? [] : [options.profileFolder]);
  // Frames recorded without a URL are placed by name (searched under the roots only), only when the profile has any.
  const noUrlNames = profile.functions.filter((fn) => fn.noUrl === true).map((fn) => fn.name);
  const inferred = noUrlNames.length > 0 && options.inferLocations !== false ? inferLocations(noUrlNames, rootsOf(options)) : new Map();
  const maps = new SourceMapCache(paths.scope);
  const useMaps = options.sourceMaps !== false;
  /** The local generated file of each function when a source map applies to it, else ''. */
  const generated: string[] = new Array(profile.functions.length).fill('');
  const unresolved = new Set<string>();
  /** Sources that only a dependency's source map names (its package ships the build, not these). */
  const dependencySources = new Set<string>();

  const locate = (f: number): ResolvedFunction => {
    const fn = profile.functions[f];
    if (fn.noUrl === true) {
      const at = inferred.get(fn.name);
      if (at === undefined) return { name: fn.name, file: '', line: fn.line, column: fn.column, category: fn.category, resolved: false };
      return { name: fn.name, file: at.file, line: at.line, column: at.column, category: fn.category, resolved: true, inferred: true };
    }
    const path = paths.resolve(fn.url);
    if (!path.resolved) {
      if (isLocalCandidate(fn.url) && (fn.category === 'user' || fn.category === 'dependency')) unresolved.add(path.file);
      return { name: fn.name, file: path.file, line: fn.line, column: fn.column, category: fn.category, resolved: false };
    }
    if (!useMaps || maps.mapFor(path.file) === null) return { name: fn.name, file: path.file, line: fn.line, column: fn.column, category: fn.category, resolved: true };
    generated[f] = path.file;
    const original = maps.originalOf(path.file, fn.line, fn.column);
    // Bundler glue (the module wrapper, helpers) has no original: it stays in the generated file.
    if (original === null) return { name: fn.name, file: path.file, line: fn.line, column: fn.column, category: fn.category, resolved: true };
    // A bundle's frames may come from libraries bundled into it.
    const category = fn.category === 'user' && /[\\/]node_modules[\\/]/.test(original.file) ? 'dependency' : fn.category;
    const resolved = paths.exists(original.file);
    if (!resolved && /[\\/]node_modules[\\/]/.test(path.file)) {
      // A package published with maps but without its sources: no --root or mapping can find
      // them, so they are listed apart, and the frame stays on the installed built file.
      dependencySources.add(original.file);
      generated[f] = '';
      return { name: fn.name, file: path.file, line: fn.line, column: fn.column, category: 'dependency', resolved: true };
    }
    if (!resolved) unresolved.add(original.file);
    return { name: fn.name, file: original.file, line: original.line, column: original.column, category, resolved };
  };

  return { locate, generated, maps, unresolved, dependencySources, scope: paths.scope };
}

/** Source files bigger than this are not read for insights (generated bundles, data). */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/** Reads lines of local source files inside the read scope, each file once. */
function sourceLineReader(scope: ReadScope): SourceLineReader {
  const files = new Map<string, string[] | null>();
  return (file, line) => {
    let lines = files.get(file);
    if (lines === undefined) {
      lines = scope.allows(file) ? (tryReadGuardedText(file, MAX_SOURCE_BYTES)?.split('\n') ?? null) : null;
      files.set(file, lines);
    }
    return lines?.[line - 1] ?? null;
  };
}

/** Analyzes a normalized profile. Pure apart from reading local files (existence, source maps). */
export function buildReport(profile: NormalizedProfile, options: AnalysisOptions = {}): AnalyzedProfile {
  const { locate, generated, maps, unresolved, dependencySources, scope } = locator(profile, options);
  const index = indexFunctions(profile, locate);
  const shape = shapeOf(profile.tree);
  const locateLine = (func: number, line: number): { file: string; line: number } => {
    const resolved = index.functions[index.canonicalOf[func]];
    if (generated[func] !== '') {
      const original = maps.originalOf(generated[func], line, 0);
      if (original !== null) return { file: original.file, line: original.line };
      return { file: generated[func], line };
    }
    return { file: resolved.file, line };
  };
  // A cpuprofile's inlined code carries the callee's line numbers: keep every line in its function.
  const inlineWarnings: string[] = [];
  let lineProfile = profile;
  let inlinedCalls: InlinedCall[] = [];
  // Files a relative require leads to (a callee inlined from another file) are read only within the scope.
  const ranges = new FunctionRanges((file) => scope.allows(file));
  const localFileOf = (f: number): string => {
    if (generated[f] !== '') return generated[f];
    const resolved = index.functions[index.canonicalOf[f]];
    return resolved.resolved ? resolved.file : '';
  };
  if (profile.format === 'cpuprofile') {
    const placed = placeInlinedLines(profile, shape, localFileOf, ranges);
    lineProfile = { ...profile, lineTicks: placed.lineTicks };
    inlinedCalls = placed.inlinedCalls;
    if (placed.unplaced > 0) {
      inlineWarnings.push(`${placed.unplaced} line tick(s) of inlined code (${formatMs(placed.unplacedMs)}) name lines outside their function and no callee holding them: kept in the function's self time, not on a line`);
    }
  }
  const aggregates = aggregate(lineProfile, index, shape, locateLine);
  const attribution = attribute(profile, index, aggregates.cpuMs);
  const calls = sourceCalls({ profile, index, localFileOf, locateLine, ranges });
  const callLines = callLinesOf({ profile, index, shape, localFileOf, locateLine, ranges, lineTicks: lineProfile.lineTicks, inlinedCalls, cpuMs: aggregates.cpuMs, source: calls });
  const readLine = sourceLineReader(scope);
  const insights = findInsights(profile, index, attribution.frames, aggregates, readLine, calls);
  const functions = aggregates.functions
    .filter((f) => f.totalSamples > 0 || f.selfSamples > 0)
    .sort((a, b) => b.selfMs - a.selfMs || b.totalMs - a.totalMs || a.name.localeCompare(b.name));
  const report: ProfileReport = {
    format: profile.format,
    unit: profile.unit ?? 'ms',
    notes: profile.notes ?? [],
    ...(profile.sampleTypes !== undefined ? { sampleTypes: profile.sampleTypes } : {}),
    samples: profile.samples,
    durationMs: profile.durationMs,
    cpuMs: aggregates.cpuMs,
    // An allocation profile's shares are of everything it allocated (it has no idle time).
    shareOf: profile.unit === undefined || profile.unit === 'ms' ? SHARE_OF : `% of allocated ${profile.unit}`,
    categories: aggregates.categories,
    functions,
    lines: aggregates.lines,
    callSites: attribution.callSites,
    callLines,
    insights,
    unresolvedFiles: [...unresolved].sort(),
    dependencySources: [...dependencySources].sort(),
    warnings: [...profile.warnings, ...maps.warnings, ...inlineWarnings],
  };
  const analyzed = new AnalyzedProfile(profile, index, shape, aggregates, attribution, report);
  analyzed.stallSources = { profile, index, frames: attribution.frames, locateLine, localFileOf, calls, ranges, readLine, lineTicks: lineProfile.lineTicks };
  return analyzed;
}

/**
 * Reads and analyzes a profile file. Every problem with the file itself (missing, a directory,
 * unreadable, not a profile) becomes a one-line ProfileInputError; an abort passes through.
 */
export async function analyzeProfileFile(path: string, options: AnalysisOptions = {}, load: LoadOptions = {}): Promise<AnalyzedProfile> {
  const { profile, analysis } = await loadForAnalysis(path, options, load);
  return buildReport(profile, analysis);
}

/**
 * A profile file as `count` windows of equal duration, each analyzed as a profile of its own
 * (model/timeWindows.ts): a long recording as repeated runs for the gate. One-line
 * ProfileInputError when the format keeps no sample order.
 */
export async function analyzeProfileWindows(path: string, count: number, options: AnalysisOptions = {}, load: LoadOptions = {}): Promise<AnalyzedProfile[]> {
  const { profile, analysis } = await loadForAnalysis(path, options, load);
  const why = unsplittable(profile);
  if (why !== null) throw new ProfileInputError(`${basename(path)}: cannot be split into windows: ${why}`);
  return splitByTime(profile, count).map((window) => buildReport(window, analysis));
}

async function loadForAnalysis(path: string, options: AnalysisOptions, load: LoadOptions): Promise<{ profile: NormalizedProfile; analysis: AnalysisOptions }> {
  let profile: NormalizedProfile;
  const analysis = { ...options, profileFolder: options.profileFolder ?? dirname(resolve(path)) };
  const scope = readScopeOf(analysis);
  try {
    profile = await loadProfile(path, { nativeSymbols: analysis.nativeSymbols, mayReadScript: (file) => scope.allows(file), ...load });
  } catch (error) {
    if (error instanceof ProfileInputError || load.signal?.aborted === true) throw error;
    if (errnoCode(error) !== undefined) throw asInputError(path, error);
    throw error;
  }
  load.signal?.throwIfAborted();
  return { profile, analysis };
}
