// The profile engine's data model. Every reader (cpuprofile, raw V8 log, preprocessed JSON)
// produces one `NormalizedProfile`; every view (CLI, language server, flame graph) is computed
// from it by `buildReport`. Lines and columns are 1-based everywhere in this file; 0 = unknown.

// What crosses to the language server, the client and the webview is a wire type, owned by
// server/protocol/wire.ts; it is re-exported here so that the engine names its types in one place.
import type {
  AttributedLibraryCost,
  CallLine,
  CallSite,
  Category,
  CostTable,
  DeferredCost,
  FileCosts,
  FlameNode,
  FunctionCost,
  Insight,
  InsightId,
  LineCost,
  PathMapping,
  ProfileFormat,
  ProfileTotals,
  WeightUnit,
} from '../../protocol/wire';

export type { AttributedLibraryCost, CallLine, CallSite, Category, CostTable, DeferredCost, FileCosts, FlameNode, FunctionCost, Insight, InsightId, LineCost, PathMapping, ProfileFormat, WeightUnit };

/** Every category, in the order the CLI lists them. */
export const CATEGORIES: readonly Category[] = ['user', 'dependency', 'node', 'native', 'kernel', 'gc', 'program', 'idle'];

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
  /**
   * Set by the analysis for code inlined from another file with no frame of its own: `line` is
   * in `file` (the callee's local file), reached by the call to `callee` on `callLine` of the
   * node's function.
   */
  inlinedFrom?: { file: string; callLine: number; callee: string };
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
  /** Several processes and threads of one capture merged (issue 28): the ids kept and how many the capture has; every share is of the kept ones together. */
  capture?: { kept: string[]; of: number };
  /** The samples in the order they were taken (formats that record it): what stalls are read from. */
  timeline?: SampleTimeline;
}

/**
 * When each sample was taken and which tree node it landed on, in recording order. Sample i
 * lasts from `atMs[i]` until `atMs[i + 1]` (the last until `endMs`), the same durations the
 * tree's `selfMs` sums. Absent for formats that keep no order (pprof, heap profiles, hit counts).
 */
export interface SampleTimeline {
  node: Int32Array;
  /** ms since the profile's start. */
  atMs: Float64Array;
  endMs: number;
}

export interface CategoryCost {
  samples: number;
  ms: number;
  /** ms / the profile's CPU time (idle excluded), 0..100; null for idle, which is not CPU time. */
  percent: number | null;
}

/** Every `percent` in the report is `ms / cpuMs * 100`; `ms` figures measure `unit` (see NormalizedProfile.unit). */
export interface ProfileReport extends ProfileTotals {
  /** What the percentages are a share of, for labels: "% of CPU time, idle excluded" (`shareOfText(shareBasis)`). */
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
