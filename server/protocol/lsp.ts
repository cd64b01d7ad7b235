// The custom requests and notifications between the extension (client/) and the language server
// (server/lsp). One object per message: its method name, its params type and its result type,
// so `client.sendRequest(Requests.flameGraph, params)` and `connection.onRequest(...)` agree by
// construction. The client only displays; every number here is computed in the server process.
import { NotificationType0, RequestType, RequestType0 } from 'vscode-jsonrpc';

import type { GcTraceView, SemiSpaceSweepParams, SemiSpaceSweepResult } from './wire';
import type { AttachParams, AttachResult, RunningProcesses } from './wire';
import type { FileHeat, FlameGraphParams, FlameGraphResult, OverviewResult, PathMapping, ProfileRole, ProfileSummary } from './wire';
import type { SandwichParams, SandwichResult } from './wire';

/**
 * The editor languages whose documents the language server analyzes: the client's document
 * selector and the server's check use this list, and package.json's `onLanguage` activation
 * events must name the same (test/unit/settingsSchema.test.ts).
 */
export const SOURCE_LANGUAGE_IDS = ['javascript', 'typescript', 'javascriptreact', 'typescriptreact'] as const;

/** What the client sends as `initializationOptions`. */
export interface InitializationOptions {
  workspaceRoots?: string[];
  /**
   * False in an untrusted workspace (restricted mode): the server then never runs nm and ignores
   * path mappings, which come from workspace settings (docs/security.md). Absent means trusted.
   */
  workspaceTrusted?: boolean;
}

export interface LoadProfileParams {
  /** Absolute file path of the profile. */
  path: string;
  /**
   * 'baseline' loads the "before" profile for Compare; the primary stays the "after".
   * 'allocation' loads an allocation profile next to a CPU primary (ends when another primary loads).
   */
  role: ProfileRole;
  pathMappings: PathMapping[];
  /** Workspace folders used for the automatic suffix match. */
  roots: string[];
  /** pprof: the sample type to read ('wall', 'inuse_space/bytes'); absent: the profile's default. */
  sampleType?: string;
  /** A trace with several threads: the one to read ("pid:tid"); default the busiest. */
  thread?: string;
  /** LSP work-done progress: the server reports the load's percentage under this token. */
  workDoneToken?: string | number;
}

export interface FileHeatParams {
  /** Document URI as the client knows it. */
  uri: string;
}

export const Requests = {
  /**
   * Load a profile (progress via workDoneToken, cancellable). Fails with a one-line message;
   * the previous state is kept. A cancelled load answers null.
   */
  loadProfile: new RequestType<LoadProfileParams, ProfileSummary | null, void>('hotframe/loadProfile'),
  clearProfile: new RequestType0<null, void>('hotframe/clearProfile'),
  /** Heat for one open file: per line, per function, call sites. */
  fileHeat: new RequestType<FileHeatParams, FileHeat, void>('hotframe/fileHeat'),
  /** The (collapsed) flame tree for the webview. */
  flameGraph: new RequestType<FlameGraphParams, FlameGraphResult, void>('hotframe/flameGraph'),
  /** Hot functions, call sites and insights for the activity-bar view. */
  overview: new RequestType0<OverviewResult, void>('hotframe/overview'),
  /** The comparison (baseline → profile) as text, as `hotframe diff BEFORE AFTER` prints it (issue 23.6). */
  comparisonText: new RequestType0<string, void>('hotframe/comparisonText'),
  /** This user's local Node processes, workers grouped under their parent (Profile Running Process…). */
  runningProcesses: new RequestType0<RunningProcesses, void>('hotframe/runningProcesses'),
  /**
   * Profiles a running process and its workers for `durationS` (cancel: stop early, keep what was
   * captured); refused in an untrusted workspace. The client then loads the folder it answers.
   */
  attach: new RequestType<AttachParams, AttachResult, void>('hotframe/attach'),
  /**
   * Reads a file as a `node --trace-gc` output (issue 29) when its first bytes hold a collection
   * line, and keeps it beside the loaded profiles (the overview's `gcTrace`); null when the file is
   * something else (then it is loaded as a profile).
   */
  loadGcTrace: new RequestType<{ path: string }, GcTraceView | null, void>('hotframe/loadGcTrace'),
  /** The editor's semi-space sweep (issue 29): the runs the client recorded, compared as `hotframe record --semi-space` does. */
  semiSpaceSweep: new RequestType<SemiSpaceSweepParams, SemiSpaceSweepResult, void>('hotframe/semiSpaceSweep'),
  /**
   * The callers and callees of one function of the loaded profile (issue 29): `file` and `line`
   * with its name (a row, a frame) or the cursor's column and word (the editor), each caller's
   * call lines with the findings on them. Fails in one line when no function is named there.
   */
  sandwich: new RequestType<SandwichParams, SandwichResult, void>('hotframe/sandwich'),
} as const;

/** Notifications from the client. */
export const Notifications = {
  /** The user trusted the workspace (VS Code's workspace trust): nm may run, path settings apply. */
  workspaceTrusted: new NotificationType0('hotframe/workspaceTrusted'),
} as const;
