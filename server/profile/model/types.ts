// The profile engine's data model. Every reader (cpuprofile, raw V8 log, preprocessed JSON)
// produces one `NormalizedProfile`; every view (CLI, language server, flame graph) is computed
// from it by `buildReport`. Lines and columns are 1-based everywhere in this file; 0 = unknown.

import type { WeightUnit } from '../../shared/format';

export type ProfileFormat = 'cpuprofile' | 'v8log' | 'v8log-preprocessed' | 'heapprofile' | 'pprof';
export type { WeightUnit };

export type Category = 'gc' | 'idle' | 'program' | 'native' | 'node' | 'dependency' | 'user';
export const CATEGORIES: readonly Category[] = ['user', 'dependency', 'node', 'native', 'gc', 'program', 'idle'];

/** A function as the profile names it; optimization tiers of one function share one entry. */
export interface ProfileFunction {
  name: string;
  /** File path or URL exactly as recorded ('' for native code and VM states). */
  url: string;
  line: number;
  column: number;
  category: Category;
  /**
   * JavaScript whose script URL the profile leaves out (Node 20 heap profiles omit it for
   * CommonJS functions, and their line too): the report may place it by its name, as inferred.
   */
  noUrl?: boolean;
}

/**
 * The call tree, struct-of-arrays so that a 500k-node profile stays compact. Node 0 is the root
 * (function -1). A node is one (parent, function, callLine) path; its children are the nodes
 * whose `parent` is its index, and every parent index is smaller than its children's.
 */
export interface CallTree {
  count: number;
  parent: Int32Array;
  func: Int32Array;
  /** Line in the parent's function from which this node was called (0 when the format does not say: cpuprofile). */
  callLine: Int32Array;
  selfSamples: Float64Array;
  selfMs: Float64Array;
}

/** Self samples of one tree node on one source line of its function. */
export interface LineTicks {
  node: number;
  line: number;
  samples: number;
  ms: number;
}

export interface NormalizedProfile {
  format: ProfileFormat;
  /** Total samples (ticks), idle included. */
  samples: number;
  durationMs: number;
  functions: ProfileFunction[];
  tree: CallTree;
  lineTicks: LineTicks[];
  /** Non-fatal problems seen while reading (dangling ids, negative deltas...), one line each. */
  warnings: string[];
  /**
   * What the weights measure; absent means CPU time. For 'bytes' and 'objects' (allocation
   * profiles, pprof heap types) every `selfMs`/`ms` figure holds that weight instead of
   * milliseconds, and `selfSamples`/`samples` hold the same weight, so that every share is a
   * share of the weight (a 1 MB sample is not worth the same as a 16 B one). Outward views
   * name the fields by unit (`selfBytes`, "allocates 366 MB").
   */
  unit?: WeightUnit;
  /** What kind of recording this is, in one line each (an allocation profile's retention, pprof's sample type). */
  notes?: string[];
  /** pprof: every sample type in the file ('type/unit') and the one read. */
  sampleTypes?: { available: string[]; chosen: string };
  /** Traces: every thread with a CPU profile ("pid:tid", name, samples), and the id of the one read. */
  threads?: { id: string; name: string; samples: number }[];
  thread?: string;
}

export interface CategoryCost {
  samples: number;
  ms: number;
  /** ms / the profile's CPU time (idle excluded), 0..100; null for idle, which is not CPU time. */
  percent: number | null;
}

export interface FunctionCost {
  name: string;
  file: string;
  line: number;
  column: number;
  selfSamples: number;
  totalSamples: number;
  selfMs: number;
  totalMs: number;
  /** selfMs and totalMs as shares of the profile's CPU time (idle excluded), 0..100; null for idle frames. */
  selfPercent: number | null;
  totalPercent: number | null;
  category: Category;
  /** The location was inferred from the function's name (the profile recorded no URL). */
  inferred?: boolean;
}

export interface LineCost {
  file: string;
  line: number;
  selfSamples: number;
  selfMs: number;
  /** selfMs as a share of the profile's CPU time (idle excluded), 0..100. */
  percent: number;
}

/** Cost below a user frame, spent in dependencies / node internals / native code. */
export interface AttributedLibraryCost {
  name: string;
  file: string;
  line: number;
  category: Category;
  samples: number;
  ms: number;
}

/** A place in user code charged with the library time spent beneath it. */
export interface CallSite {
  /** The user function making the call. */
  function: string;
  file: string;
  /** The call's line when the format records it (V8 log), else the user function's line. */
  line: number;
  /** True when `line` is the recorded call line, false when it is the function's own line (cpuprofile). */
  exactLine?: boolean;
  samples: number;
  ms: number;
  /** ms as a share of the profile's CPU time (idle excluded), 0..100. */
  percent: number;
  /** Library functions that cost the most under this call, most expensive first. */
  libraries: AttributedLibraryCost[];
}

/** A line in a user function that calls another frame, charged with the total time under that call. */
export interface CallLine {
  /** The calling user function. */
  function: string;
  file: string;
  line: number;
  /** The callee with the most time under calls from this line. */
  callee: string;
  samples: number;
  ms: number;
  percent: number;
  /** How the line is known: recorded by the format (V8 log) or found as the one call to the callee in the caller's source (cpuprofile). */
  found: 'exactLine' | 'fromSource';
}

export type InsightId = 'gc-pressure' | 'mongoose-hydration' | 'spawn-env-walk' | 'date-now-hot' | 'blocking-sync-io';

export interface Insight {
  id: InsightId;
  seed: '000' | '001' | '002' | '003' | '004';
  title: string;
  /** The advice, with the seed's figures. */
  message: string;
  samples: number;
  ms: number;
  /** ms as a share of the profile's CPU time (idle excluded), 0..100. */
  percent: number;
  /** The user call site it points at, when there is one. */
  location: { file: string; line: number } | null;
  /** The static rule that flags the same code; a finding of it on `location`'s line carries this insight. */
  rule?: 'blocking-sync-call';
}

/** d3-flame-graph's input shape plus what the tooltip and click need. */
export interface FlameNode {
  name: string;
  /** Total ms of the subtree (the graph's widths are time, like every other figure). */
  value: number;
  /** Self ms. */
  self: number;
  category: Category;
  file: string;
  line: number;
  /** Differential view: change against the baseline, normalized by duration (ms). */
  delta?: number;
  /** Number of nodes folded into this one when tiny subtrees are collapsed. */
  collapsed?: number;
  children: FlameNode[];
}

export interface ProfileReport {
  format: ProfileFormat;
  /** What `ms` figures measure (see NormalizedProfile.unit); 'ms' for CPU profiles. */
  unit: WeightUnit;
  /** What kind of recording this is (allocation profiles, pprof sample types), one line each. */
  notes: string[];
  sampleTypes?: { available: string[]; chosen: string };
  samples: number;
  durationMs: number;
  /**
   * The one denominator of every percentage in this report: the time of every sample that was
   * not idle, in ms (the sum of every category's ms but idle's). Every `percent` is `ms / cpuMs * 100`.
   */
  cpuMs: number;
  /** What the percentages are a share of, for labels: "% of CPU time, idle excluded". */
  shareOf: string;
  categories: Record<Category, CategoryCost>;
  /** Sorted by selfMs, descending. */
  functions: FunctionCost[];
  lines: LineCost[];
  callSites: CallSite[];
  /** Call lines in user code, most expensive first. */
  callLines: CallLine[];
  insights: Insight[];
  /** Files named by frames that could not be found locally (listed, never silently dropped). */
  unresolvedFiles: string[];
  /**
   * Sources named only by installed dependencies' source maps, whose packages do not ship them:
   * not a path-mapping problem (no --root finds them); their frames stay on the built files.
   */
  dependencySources: string[];
  warnings: string[];
}

export interface PathMapping {
  /** Prefix as recorded, e.g. '/usr/src/app'. */
  from: string;
  /** Local prefix, e.g. '/home/me/app'. */
  to: string;
}

export interface ReportOptions {
  /** Local project root for the automatic longest-suffix match. */
  root?: string;
  /** Explicit prefix mappings; they win over the suffix match. */
  pathMappings?: PathMapping[];
  /** Apply source maps of local files (default true). */
  sourceMaps?: boolean;
  /** Place JavaScript frames recorded without a URL by their name when it is declared once in the roots (default true). */
  inferLocations?: boolean;
}

/**
 * Library work the profile shows but no stack ties to the finding's line, because it runs after
 * an await: mongoose hydrates documents when the driver's reply arrives, under the driver's
 * callbacks, not under the route that called find(). Reported beside the line's own cost.
 */
export interface DeferredCost {
  insight: InsightId;
  /** What it is, for messages: "mongoose hydration". */
  label: string;
  ms: number;
  /** Share of the profile's CPU time (idle excluded), 0..100. */
  percent: number;
}

/** Everything measured in one local file. */
export interface FileCosts {
  lines: LineCost[];
  functions: FunctionCost[];
  callSites: CallSite[];
  callLines: CallLine[];
}

/** Per-file costs of a whole profile; plain data, so it can cross from the profile worker. */
export interface CostTable {
  /** The profile's CPU time (idle excluded): the denominator of every percent (allocation profiles: all their bytes). */
  cpuMs: number;
  /** Allocation profiles: what the costs measure (absent: CPU ms). */
  unit?: 'bytes' | 'objects';
  files: Record<string, FileCosts>;
  /** Deferred library work measured across the whole profile, by the insight that found it. */
  deferred: DeferredCost[];
}
