// The requests between the language server's main thread (server/lsp/profileChannel.ts) and the
// profile worker (server/lsp/profileWorker.ts), spoken with vscode-jsonrpc over the worker's
// message port. Cancellation is jsonrpc's ($/cancelRequest); progress is jsonrpc's ($/progress)
// under the `progressToken` a request carries.
import { ProgressType, RequestType } from 'vscode-jsonrpc';

import type { GcTraceView, SemiSpaceSweepParams, SemiSpaceSweepResult } from './wire';
import type { FlameGraphParams, FlameGraphResult, LineDetail, LoadedProfile, OverviewResult, PathMapping, ProfileRole } from './wire';
import type { SandwichParams, SandwichResult } from './wire';

/** Every worker request may carry a progress token; the worker then reports fractions under it. */
export interface WorkerParams {
  progressToken?: string | number;
}

export interface WorkerLoadParams extends WorkerParams {
  /** Absolute path of the profile. */
  path: string;
  role: ProfileRole;
  /** Folders for the automatic suffix match (workspace folders). */
  roots: string[];
  /** Empty in an untrusted workspace (the mappings come from workspace settings). */
  pathMappings: PathMapping[];
  /** V8 logs: run nm on Node's binary to name C++ frames (false in an untrusted workspace). */
  nativeSymbols: boolean;
  sampleType?: string;
  thread?: string;
  /** `hotframe.stallThresholdMs`: the stalls of the primary's cost table (default 50). */
  stallThresholdMs?: number;
}

export type WorkerFlameParams = WorkerParams & FlameGraphParams;

export interface WorkerLineDetailParams extends WorkerParams {
  /** Absolute local path. */
  file: string;
  line: number;
}

export interface WorkerSandwichParams extends WorkerParams, SandwichParams {}

export const WorkerRequests = {
  /** Loads a profile as primary, baseline or allocation (next to a CPU primary); a failure (or cancel) keeps the previous state. */
  load: new RequestType<WorkerLoadParams, LoadedProfile, void>('profile/load'),
  clear: new RequestType<WorkerParams, null, void>('profile/clear'),
  flame: new RequestType<WorkerFlameParams, FlameGraphResult, void>('profile/flame'),
  overview: new RequestType<WorkerParams, OverviewResult, void>('profile/overview'),
  /** The comparison (baseline → primary) as `hotframe diff` prints it; fails when no baseline is loaded. */
  comparisonText: new RequestType<WorkerParams, string, void>('profile/comparisonText'),
  /** What a hover on one line can tell; null when the line is not measured. */
  lineDetail: new RequestType<WorkerLineDetailParams, LineDetail | null, void>('profile/lineDetail'),
  /** Reads `path` as a --trace-gc output and keeps it beside the profiles; null when it is not one (the file is then a profile to load). */
  loadGcTrace: new RequestType<WorkerParams & { path: string }, GcTraceView | null, void>('profile/loadGcTrace'),
  /** The editor's semi-space sweep: each run's saved trace and profile read and compared. */
  semiSpaceSweep: new RequestType<WorkerParams & SemiSpaceSweepParams, SemiSpaceSweepResult, void>('profile/semiSpaceSweep'),
  /** The callers and callees of one function of the primary (issue 29); fails in one line when no function is named. */
  sandwich: new RequestType<WorkerSandwichParams, SandwichResult, void>('profile/sandwich'),
} as const;

/** A request's progress, 0..1. */
export const WorkerProgress = new ProgressType<number>();

/** The error code of a request the worker could not answer (LSP's RequestFailed); the message is one line for the user. */
export const WORKER_REQUEST_FAILED = -32803;
