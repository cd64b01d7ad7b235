// Custom requests between the extension (client/) and the language server (server/lsp).
// The client only displays; every number here is computed in the server process. Types only,
// so the client can import this file without pulling analysis code into its bundle.
import type { CallSite, FlameNode, FunctionCost, Insight, PathMapping, ProfileFormat, WeightUnit } from './profile/model/types';

export const Requests = {
  /** Load a profile (progress via workDoneToken, cancellable). Fails with one-line message; previous state is kept. */
  loadProfile: 'hotframe/loadProfile',
  clearProfile: 'hotframe/clearProfile',
  /** Heat for one open file: per line, per function, call sites. */
  fileHeat: 'hotframe/fileHeat',
  /** The (collapsed) flame tree for the webview. */
  flameGraph: 'hotframe/flameGraph',
  /** Hot functions, call sites and insights for the activity-bar view. */
  overview: 'hotframe/overview',
} as const;

/** Notifications from the client. */
export const Notifications = {
  /** The user trusted the workspace (VS Code's workspace trust): nm may run, path settings apply. */
  workspaceTrusted: 'hotframe/workspaceTrusted',
} as const;

/** What the client sends as `initializationOptions`. */
export interface InitializationOptions {
  workspaceRoots?: string[];
  /**
   * False in an untrusted workspace (restricted mode): the server then never runs nm and ignores
   * path mappings, which come from workspace settings (docs/security.md). Absent means trusted.
   */
  workspaceTrusted?: boolean;
}

export type ProfileRole = 'primary' | 'baseline';

export interface LoadProfileParams {
  /** Absolute file path of the profile. */
  path: string;
  /** 'baseline' loads the "before" profile for Compare; the primary stays the "after". */
  role: ProfileRole;
  pathMappings: PathMapping[];
  /** Workspace folders used for the automatic suffix match. */
  roots: string[];
  /** pprof: the sample type to read ('wall', 'inuse_space/bytes'); absent: the profile's default. */
  sampleType?: string;
  /** A trace with several threads: the one to read ("pid:tid"); default the busiest. */
  thread?: string;
}

export interface ProfileSummary {
  name: string;
  path: string;
  format: ProfileFormat;
  /** What the figures measure: ms for CPU profiles, bytes/objects for allocation profiles (every `*Ms` field then holds that unit). */
  unit: WeightUnit;
  /** What kind of recording this is (an allocation profile's retention, pprof's sample type), one line each. */
  notes: string[];
  /** pprof: the file's sample types and the one read. */
  sampleTypes?: { available: string[]; chosen: string };
  samples: number;
  durationMs: number;
  /** CPU time (idle excluded), the denominator of every percent Hotframe shows for this profile. */
  cpuMs: number;
  /** GC's share of CPU time (idle excluded). */
  gcPercent: number;
  /** Files named by frames that are not found locally. */
  unresolvedFiles: string[];
  warnings: string[];
  /** A trace with several threads: all of them, and the id of the one read. */
  threads?: { id: string; name: string; samples: number }[];
  thread?: string;
}

export interface FileHeatParams {
  /** Document URI as the client knows it. */
  uri: string;
}

export interface LineHeat {
  line: number; // 1-based
  selfMs: number;
  selfSamples: number;
  /** selfMs as a share of the profile's CPU time (idle excluded), 0..100. */
  percent: number;
}

export interface FunctionHeat {
  name: string;
  line: number; // 1-based, declaration line
  column: number; // 1-based
  selfMs: number;
  totalMs: number;
  /** totalMs as a share of the profile's CPU time (idle excluded), 0..100. */
  percent: number;
  /** Placed by its name: the profile recorded no URL for it. */
  inferred?: boolean;
}

/** A line that makes a call, with the total time under the call (CallLine, share of samples). */
export interface CallLineHeat {
  line: number; // 1-based
  callee: string;
  ms: number;
  percent: number;
  /** 'exactLine': recorded by the V8 log; 'fromSource': the one call to that name in the caller's source. */
  found: 'exactLine' | 'fromSource';
}

export interface FileHeat {
  profile: ProfileSummary | null;
  lines: LineHeat[];
  functions: FunctionHeat[];
  callSites: CallSite[];
  /** Lines that make calls, with their own heat (the callee's total). */
  callLines: CallLineHeat[];
}

export type FlameMode = 'normal' | 'inverted' | 'diff';

export interface FlameGraphParams {
  mode: FlameMode;
  onlyMyCode: boolean;
  /** Subtrees narrower than this fraction of the root are folded before transfer (default 1/2000). */
  minFraction?: number;
}

export interface FlameGraphResult {
  title: string;
  mode: FlameMode;
  /** Frame values are ms (self and total), like every other figure; an allocation profile's are bytes or objects. */
  unit: 'ms' | 'bytes' | 'objects';
  /** The profile's CPU time (idle excluded): every share in the graph is a frame's ms over this (allocation profiles: all their bytes). */
  cpuMs: number;
  root: FlameNode;
  /** Files the webview may ask to open (absolute local paths that exist). */
  openableFiles: string[];
}

export interface OverviewResult {
  profile: ProfileSummary | null;
  baseline: ProfileSummary | null;
  hotFunctions: FunctionCost[];
  callSites: CallSite[];
  insights: Insight[];
}
