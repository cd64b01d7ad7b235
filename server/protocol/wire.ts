// The wire types: everything that crosses a process or thread boundary (language server <->
// extension, language server <-> profile worker, extension <-> webview). This file owns them;
// the profile engine imports them (types only) to produce them, the client and the webview to
// read them. Types only: importing this file adds nothing to a bundle.
// Lines and columns are 1-based everywhere in this file; 0 = unknown.
import type { ShareBasis, WeightUnit } from '../shared/format';

export type { ShareBasis, WeightUnit };

export type ProfileFormat = 'cpuprofile' | 'v8log' | 'v8log-preprocessed' | 'heapprofile' | 'pprof' | 'perf-script' | 'folded';

/** Where a frame's cost goes; the flame graph colours and the CLI's breakdown use the same buckets. */
export type Category = 'gc' | 'idle' | 'program' | 'native' | 'kernel' | 'node' | 'dependency' | 'user';

export interface PathMapping {
  /** Prefix as recorded, e.g. '/usr/src/app'. */
  from: string;
  /** Local prefix, e.g. '/home/me/app'. */
  to: string;
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
  /**
   * Each callee the profile shows called from this line, with the total under it (a sample counted
   * once per callee), most expensive first: the line's calls told apart. `ms` above is all of them
   * together (a sample once), so the two differ only when one call runs under another on the line.
   */
  calls?: CallOnLine[];
  /** The caller's source makes more calls on this line than the profile shows callees (inlined, or too cheap to be sampled): `ms` is the cost of the calls on this line, not of one. */
  untold?: boolean;
}

/** One callee called from a call line, and what ran under it. */
export interface CallOnLine {
  callee: string;
  samples: number;
  ms: number;
  percent: number;
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
  /** An allocation profile's insight: `ms` holds this weight and `percent` is of everything allocated (absent: ms of CPU time). */
  unit?: 'bytes' | 'objects';
  /** What `percent` is of: the profile's (its unit; a merged capture's processes). */
  shareBasis: ShareBasis;
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
  /** Inverted view, a root frame: ms of its small callees' samples merged into it (part of its value). */
  smallCalleesMs?: number;
  /** "Only my code": ms of library frames folded into this user frame (part of its self). */
  libraryMs?: number;
  children: FlameNode[];
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
  /** Lines of this file that event-loop stalls are named by (issue 25; absent when none or the format keeps no sample order). */
  stalls?: StallLine[];
}

/** Per-file costs of a whole profile; plain data, so it can cross from the profile worker. */
export interface CostTable {
  /** The profile's CPU time (idle excluded): the denominator of every percent (allocation profiles: all their bytes). */
  cpuMs: number;
  /** Allocation profiles: what the costs measure (absent: CPU ms). */
  unit?: 'bytes' | 'objects';
  /** What every share is of (the report's): a finding's cost names it. */
  shareBasis: ShareBasis;
  files: Record<string, FileCosts>;
  /** Deferred library work measured across the whole profile, by the insight that found it. */
  deferred: DeferredCost[];
  /** The threshold the files' `stalls` were found with (ms). */
  stallThresholdMs?: number;
  /** CPU time per route of the workspace's registrations, and where each handler is (issue 25). */
  routes?: RouteNotes;
}

/** One caller or callee of a function, with the samples that went through that edge. */
export interface CallEdge {
  name: string;
  file: string;
  line: number;
  samples: number;
  ms: number;
}

export interface FunctionDetail {
  cost: FunctionCost;
  callers: CallEdge[];
  callees: CallEdge[];
}

/** What a hover on one source line can tell. */
export interface LineDetail {
  /** What the `ms` figures measure (bytes for allocation profiles). */
  unit: WeightUnit;
  /** What every share shown is of (named in the hover). */
  shareBasis: ShareBasis;
  /** The profile's CPU time (idle excluded): the denominator of every share shown (allocation profiles: all their bytes). */
  cpuMs: number;
  durationMs: number;
  line: LineCost | null;
  /** Functions declared on the line. */
  functions: FunctionDetail[];
  /** Library time charged to calls on the line. */
  callSites: CallSite[];
  /** The call made on the line, with the total time under it. */
  callLine: CallLine | null;
}

/**
 * What a loaded profile is to the session: the one shown ('primary'), the "before" of Compare
 * ('baseline'), or an allocation profile of the same service loaded next to a CPU primary
 * ('allocation': names who makes the garbage in the GC insight and says what findings allocate;
 * heat and flame graph stay the CPU profile's).
 */
export type ProfileRole = 'primary' | 'baseline' | 'allocation';

/** A profile as a whole: what it is and its totals, as the summary (editor) and the report (CLI) both give them. */
export interface ProfileTotals {
  format: ProfileFormat;
  /** What the figures measure: ms for CPU profiles, bytes/objects for allocation profiles (every `*Ms` field then holds that unit). */
  unit: WeightUnit;
  /** What kind of recording this is (an allocation profile's retention, pprof's sample type), one line each. */
  notes: string[];
  /** What every percent of this profile is a share of (its unit; a merged capture's processes): every view names it through format.ts. */
  shareBasis: ShareBasis;
  /** pprof: the file's sample types and the one read. */
  sampleTypes?: { available: string[]; chosen: string };
  samples: number;
  durationMs: number;
  /**
   * The one denominator of every percentage shown for this profile: the time of every sample
   * that was not idle, in ms (the sum of every category's ms but idle's); allocation profiles: all their weight.
   */
  cpuMs: number;
}

export interface ProfileSummary extends ProfileTotals {
  name: string;
  path: string;
  /** GC's share of CPU time (idle excluded). */
  gcPercent: number;
  /**
   * Files named by frames that are not found locally: the costliest first, at most 1,000
   * (MAX_UNRESOLVED_LISTED in server/profile/analysis/session.ts). A profile recorded elsewhere
   * can name more (8,749 in the 128 MB bench profile: a 300 KB summary in every message that
   * carries it); `hotframe profile --format json` lists them all.
   */
  unresolvedFiles: string[];
  /** How many files are not found locally, listed or not. */
  unresolvedCount: number;
  warnings: string[];
  /** A trace with several threads: all of them, and the id of the one read. */
  threads?: { id: string; name: string; samples: number }[];
  thread?: string;
  /** What every percent of this profile is of, in full (several processes merged: all of them; issue 28). */
  shareOf?: string;
  /** The profiles of one capture (a folder), merged: `threads` lists every part, `thread` the one kept (absent: all). */
  capture?: true;
}

/** What a load leaves with the language server: enough for costs, file heat and diagnostics without asking the worker again. */
export interface LoadedProfile {
  summary: ProfileSummary;
  /** Primary: per-file costs for the cost index and file heat; allocation: its per-file bytes, for findings. */
  costTable: CostTable | null;
  /** The primary's insights (after an allocation load: with the GC insight naming who allocates); empty for a baseline. */
  insights: Insight[];
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
  /** Each call on the line with its own figure, and whether the profile could not tell them apart (CallLine). */
  calls?: CallOnLine[];
  untold?: boolean;
}

export interface FileHeat {
  profile: ProfileSummary | null;
  lines: LineHeat[];
  functions: FunctionHeat[];
  callSites: CallSite[];
  /** Lines that make calls, with their own heat (the callee's total). */
  callLines: CallLineHeat[];
  /** Route registrations on this file's lines, with the route's CPU time (issue 25). */
  routes?: RouteNote[];
  /** Lines of this file that event-loop stalls are named by, and the threshold they were found with (issue 25). */
  stalls?: { thresholdMs: number; lines: StallLine[] };
}

/** A route registered on a line: "GET /v1/tasks: 289 ms · 3.74% CPU". */
export interface RouteNote {
  line: number;
  route: string;
  ms: number;
  percent: number;
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
  unit: WeightUnit;
  /** What every share in the graph is of (named in its tooltip). */
  shareBasis: ShareBasis;
  /** The profile's CPU time (idle excluded): every share in the graph is a frame's ms over this (allocation profiles: all their bytes). */
  cpuMs: number;
  root: FlameNode;
  /** Files the webview may ask to open (absolute local paths that exist). */
  openableFiles: string[];
  /** The primary CPU profile's event-loop stalls on its timeline (issue 25); absent in the diff view and for formats without sample order. */
  stalls?: StallStrip;
}

/** What the flame panel's stall strip draws: the stalls of the CLI's `--stalls` report, on the run's timeline. */
export interface StallStrip extends Omit<StallReport, 'lines'> {
  /** The timeline's length: ms from the profile's start to its last sample's end. */
  runMs: number;
}

export interface OverviewResult {
  profile: ProfileSummary | null;
  baseline: ProfileSummary | null;
  /** An allocation profile joined to the CPU primary (its insights then name who allocates). */
  allocation: ProfileSummary | null;
  hotFunctions: FunctionCost[];
  callSites: CallSite[];
  insights: Insight[];
  /** CPU time per route of the workspace's registrations (issue 25); absent without a CPU primary. */
  routes?: RouteReport;
  /** A --trace-gc output the user opened (issue 29), beside the profile's figures. */
  gcTrace?: GcTraceView;
}

// Issue 25: event-loop stalls (server/profile/analysis/stalls.ts).

/** The user line a stall is named by: the line on top of its stacks in user code. */
export interface StallSite {
  file: string;
  line: number;
  /** The user function holding the line. */
  function: string;
  /** The library or native function that line called and that was on top ('' when the user code itself ran). */
  call: string;
  /** How the line is known: recorded by the format, found in the source, or the function's own line. */
  found: 'exactLine' | 'fromSource' | 'functionLine' | 'selfLine';
}

export interface Stall {
  /** ms since the profile's start. */
  startMs: number;
  durationMs: number;
  samples: number;
  /** The line holding at least half of the stall's time, or null when no one line does. */
  at: StallSite | null;
  /** ms of the stall spent under `at`. */
  atMs: number;
  /** The main module's (or a preloaded module's) run: start-up, not serving. */
  startup?: boolean;
  /** When no line holds half of it (callbacks back to back): the line holding most, and its ms. */
  mostly?: StallSite & { ms: number };
  /** The route whose code held at least half of the stall's time. */
  route?: string;
  /** With a Hotframe recording: the event-loop monitor's gap over this stall (server/profile/analysis/loopMonitor.ts). */
  loop?: LoopGapSeen;
}

/** A span the loop was held, seen by the recording's event-loop timer running late: none of the loop's timers ran in it. */
export interface LoopGapSeen {
  /** When the hold began (by the loop's idle clock) and the late tick that ended it (ms since the profile's start). */
  fromMs: number;
  toMs: number;
  /** How long the loop was held: toMs - fromMs. */
  delayMs: number;
}

/** What the event-loop monitor of a Hotframe recording saw, joined to the stalls from samples. */
export interface LoopMonitorSummary {
  /** The timer's period, and the gaps it noted (over its period by more than a margin). */
  tickMs: number;
  gapsSeen: number;
  /** Stalls (while serving) that a gap overlaps, and those none does. */
  confirmed: number;
  unconfirmed: number;
  /** Gaps with a delay over the threshold that no stall of the samples overlaps: the loop was held with no JavaScript sampled (GC, native work, the process not scheduled). */
  monitorOnly: LoopGapSeen[];
}

/** The stalls named by one line. */
export interface StallLine extends StallSite {
  count: number;
  longestMs: number;
  totalMs: number;
  routes: string[];
}

export interface StallReport {
  thresholdMs: number;
  /** Every stall found, start-up ones included. */
  count: number;
  startupCount: number;
  /** ms of the stalls while serving (start-up excluded). */
  totalMs: number;
  /** Stalls while serving that no one line holds. */
  unnamedCount: number;
  /** In time order (the longest 1,000 when there are more). */
  stalls: Stall[];
  /** Lines that stalls (start-up excluded) are named by, most total time first. */
  lines: StallLine[];
  /** With a Hotframe recording's serving notes beside the profile: what its event-loop monitor saw. */
  monitor?: LoopMonitorSummary;
}

// ---- Profile Running Process… (issue 28) ---------------------------------------------------

/** A local Node process as /proc shows it; `command` is the process's own text (untrusted). */
export interface RunningProcess {
  pid: number;
  ppid: number;
  command: string;
  /** Started as a worker by its parent: node:cluster or pm2. */
  worker?: 'cluster' | 'pm2';
}

export interface RunningProcesses {
  /** Workers under their parent (cluster primary, pm2 daemon); every other process on its own. */
  groups: { root: RunningProcess; workers: RunningProcess[] }[];
  /** Processes past the listed maximum. */
  more: number;
  /** Set when this platform cannot attach by pid (no /proc, no SIGUSR1): one line. */
  unsupported?: string;
}

export interface AttachParams {
  /** The process picked; every Node process below it (its workers) and their threads join. */
  pid: number;
  /** Seconds of capture; cancelling the request ends it early and keeps what was captured. */
  durationS: number;
  workDoneToken?: string | number;
}

export interface AttachResult {
  /** The folder of the capture's profiles (one per process and thread): open it to see them merged. */
  folder: string;
  profiles: number;
  /** One line per process or thread that gave no profile, or kept only part. */
  problems: string[];
  /** Per process: how long the profiler's start and stop held its main thread (ms, measured in it). */
  pauses: { pid: number; startMs: number; stopMs: number | null }[];
}

/** One route's CPU time (issue 25, server/profile/routes/routeCost.ts). */
export interface RouteCost {
  /** 'GET /v1/tasks'; several routes joined by ' | ' when one function serves them all. */
  route: string;
  kind: 'request' | 'message';
  ms: number;
  /** ms / the profile's CPU time, idle excluded. */
  percent: number;
  registeredAt: { file: string; line: number }[];
  /** The samples' handler serves several routes: they cannot be told apart. */
  shared?: true;
  /** From a Hotframe recording: requests the server received on this route. */
  requests?: number;
  /** ms / requests, when requests > 0 (server/profile/routes/requestCounts.ts). */
  msPerRequest?: number;
  /** The part of `ms` charged by the requests' windows (and, with the thread's clock, the ticks around them), not by a frame of the route (requestWindows.ts, unsampledCpu.ts). */
  byRequestWindowsMs?: number;
  /**
   * From a Hotframe recording on Linux: the main thread's CPU time, by its own clock, that the
   * samples do not show (the kernel's side of the loop's polls and socket reads), in spans where
   * only this route's requests were open (server/profile/routes/unsampledCpu.ts). Not in `ms`.
   */
  unsampledMs?: number;
}

/** The requests of a Hotframe recording, matched to the routes (server/profile/routes/requestCounts.ts). */
export interface RequestTally {
  /** Requests the process's servers received while recorded, and those kept one by one (the rest are not matched). */
  received: number;
  kept: number;
  /** Kept requests no endpoint route (method and path) matched: a 404, or a route the source analysis did not see. */
  unmatched: number;
  /** Kept requests that several endpoint routes matched: counted for each. */
  several: number;
  /** Routes whose path pattern could not be read (a dynamic path, a regular expression): their requests are not counted. */
  unreadRoutes: number;
  /** Kept requests not checked because matching them would exceed the work bound. */
  unchecked: number;
}

export interface RouteReport {
  cpuMs: number;
  /** What every share is of (the profile's). */
  shareBasis: ShareBasis;
  routes: RouteCost[];
  /** Samples with no route's handler on their stack. */
  noRoute: { ms: number; percent: number };
  /** Handlers named by a registration that lead to no function of the project. */
  unresolvedHandlers: number;
  /** With a Hotframe recording's notes beside the profile: its requests, per route in `routes`. */
  requests?: RequestTally;
  /** With those notes on the profile's own clock: what the requests' windows charged (server/profile/routes/requestWindows.ts). */
  requestWindows?: {
    /** ms charged to a route by its requests' windows (from no route, and from middleware rows). */
    chargedMs: number;
    /** ms the rule could not charge: requests of several routes, or of no known route, were open. */
    overlappedMs: number;
    /** Requests noted, and those whose route was known. */
    requests: number;
    placed: number;
    /** With the thread's CPU clock: its CPU over the profile's span, the part of it no sample shows, and the part of that charged to routes. */
    unsampled?: { threadMs: number; unsampledMs: number; chargedMs: number };
  };
}

/** The route report, and each handler's lines (a finding inside one serves that route). */
export interface RouteNotes {
  report: RouteReport;
  handlers: { route: string; file: string; startLine: number; endLine: number }[];
}

// Issue 29: the GC's own trace (node --trace-gc) in the editor, and the semi-space sweep.

/** A --trace-gc output summarized (server/profile/gcTrace/gcTrace.ts `GcTraceSummary`, the same fields). */
export interface GcTraceFigures {
  collections: number;
  /** From the first collection's time to the last's, ms. */
  spanMs: number;
  totalPauseMs: number;
  incrementalMs: number;
  /** Pauses and incremental marking over the span's wall time (per isolate), 0..100. */
  pausePercent: number;
  meanPauseMs: number;
  p99PauseMs: number;
  maxPauseMs: number;
  byKind: { kind: string; count: number; totalPauseMs: number; meanPauseMs: number; p99PauseMs: number; maxPauseMs: number }[];
  /** The heap (MB) before and after the last full GC (Mark-Compact). */
  lastFullGc: { heapBeforeMb: number; heapAfterMb: number } | null;
  isolates: string[];
}

/** The GC trace the editor has open, and the CPU profile of the same run when one is loaded (server/profile/gcTrace/pairing.ts). */
export interface GcTraceView {
  name: string;
  path: string;
  summary: GcTraceFigures;
  /** The loaded CPU profile when it is of the same run: its GC share of CPU time (idle excluded). */
  cpuProfile: { name: string; gcPercent: number } | null;
}

/** One run of the editor's semi-space sweep, as the client recorded and saved it. */
export interface SemiSpaceRunFiles {
  sizeMb: number;
  wallMs: number;
  exitCode: number | null;
  /** The saved --trace-gc output (absolute). */
  tracePath: string;
  /** The busiest saved CPU profile (absolute), or null when none was written. */
  profilePath: string | null;
  /** Every file saved for this run (absolute), listed in the result. */
  files: string[];
}

export interface SemiSpaceSweepParams {
  runs: SemiSpaceRunFiles[];
  /** Paths in the text are relative to it (the workspace folder). */
  root: string;
}

/** The sweep compared (server/profile/gcTrace/semiSpace.ts) and its text as `hotframe record --semi-space` prints it. */
export interface SemiSpaceSweepResult {
  /** The smallest size past which GC stops improving; null when it still improved at the largest size tried. */
  enoughMb: number | null;
  rows: { sizeMb: number; gcPercent: number; scavenges: number; meanPauseMs: number; p99PauseMs: number; maxPauseMs: number; wallMs: number; cpuProfileGcPercent: number | null }[];
  text: string;
}

/**
 * hotframe/sandwich (issue 29): which function to show the callers and callees of. From a row
 * or a frame: its file, line and name. From the editor: the cursor (line, column) and the word
 * under it; the server takes the function of that name declared there, else the profile's
 * function of that name (this file first), else the innermost function of the profile whose
 * source range holds the cursor.
 */
export interface SandwichParams {
  /** Absolute local path (the document, the row's or the frame's file). */
  file: string;
  /** 1-based: the function's own line (a row, a frame), or the cursor's. */
  line: number;
  /** 1-based column of the cursor; absent for a row or a frame. */
  column?: number;
  /** The function's name (a row, a frame), or the word under the cursor. */
  name?: string;
}

/** A finding of the static rules on a caller's call line. */
export interface CallLineFinding {
  line: number;
  rule: string;
  message: string;
}

/** One function in the callers or callees tree, merged by function as sandwich.ts builds it. */
export interface SandwichEntry {
  name: string;
  category: Category;
  file: string;
  /** The function's own line. */
  line: number;
  /** Callers tree: the lines of this caller that call the function below it (recorded, or the one call found in the source). */
  callLines: number[];
  /** Callees tree: time in this function here itself; callers tree: 0. In the profile's unit. */
  selfMs: number;
  /** Callers tree: the target's time reached through this path; callees tree: time under it. */
  totalMs: number;
  /** Findings of the static rules on `callLines` (filled by the language server). */
  findings?: CallLineFinding[];
  children: SandwichEntry[];
  /** Children left out (narrower than 0.1% of the function's total, or past the first 20). */
  more?: number;
}

export interface SandwichResult {
  /** The profile's name. */
  title: string;
  unit: WeightUnit;
  /** The denominator of every share: CPU time, idle excluded (allocation profiles: all their weight). */
  cpuMs: number;
  shareOf: string;
  shareBasis: ShareBasis;
  target: { name: string; category: Category; file: string; line: number; selfMs: number; totalMs: number };
  /** Root = the function; its children are its direct callers (drawn inverted, above it). */
  callers: SandwichEntry;
  /** Root = the function; its children are what it calls. */
  callees: SandwichEntry;
  /** Files the flame panel may open (as FlameGraphResult's). */
  openableFiles: string[];
}
