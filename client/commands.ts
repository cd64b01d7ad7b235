// Every command of the extension, public and internal, registered in one place.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { WorkDoneProgress, type WorkDoneProgressBegin, type WorkDoneProgressReport } from 'vscode-languageclient/node';
import { readConfig } from './config';
import type { HotframeContext } from './ctx';
import { OPEN_LOCATION_COMMAND } from './views';
import type { FlamePanel } from './flamePanel';
import { RECORD_ALLOCATION_COMMAND, RECORD_COMMAND, STOP_COMMAND, type ProfileRecorder } from './recording';
import { isAllocationProfileName, joinChoices, loadedLine, loadingTitle, threadItems } from './presentation/profileLoad';
import type { FlameGraphParams, FlameGraphResult, FlameMode, ProfileRole, ProfileSummary } from '../server/protocol/wire';
import { Requests, type LoadProfileParams } from '../server/protocol/lsp';
import { noLinks } from './presentation/plainText';
import type { ComparisonSummary } from './comparisonSummary';
import { comparePickTitle, planWithLoadedAsBefore, swapped, type ComparePlan, type CompareSide } from './presentation/compare';
import { isGcTraceView, openIfGcTrace } from './gcTraceOpen';
import type { GcTraceView } from '../server/protocol/wire';
import { PICK_CAPTURE_PROCESS_COMMAND, PROFILE_RUNNING_COMMAND, pickCaptureProcess, profileRunningProcess } from './attachProcess';

/**
 * What the file picker offers: profile types only (.cpuprofile, a raw --prof log, --preprocess
 * JSON, an allocation profile, pprof, perf script text or folded stacks, any of them gzipped); the server decides what the content
 * actually is.
 */
export const PROFILE_FILTERS: Record<string, string[]> = {
  Profiles: ['cpuprofile', 'log', 'json', 'gz', 'heapprofile', 'pprof', 'pb', 'txt', 'perf', 'folded'],
};

const LAST_PROFILE_FOLDER = 'hotframe.lastProfileFolder';

export interface CommandParts {
  flame: FlamePanel;
  recorder: ProfileRecorder;
  summary: ComparisonSummary;
}

/**
 * Accepts what VS Code passes (a Uri from the explorer or a custom editor) or a path (tests,
 * keybindings); a relative path is taken from the first workspace folder.
 */
export function profilePathOf(arg: unknown): string | null {
  if (arg instanceof vscode.Uri) return arg.scheme === 'file' ? arg.fsPath : null;
  if (typeof arg !== 'string' || arg.length === 0) return null;
  if (arg.startsWith('file:')) return vscode.Uri.parse(arg).fsPath;
  const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  return path.resolve(base, arg);
}

function isDirectory(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where the picker opens: the folder of the last profile opened, else the folder of a profile in
 * the workspace (a `profiles/` folder, wherever `--cpu-prof-dir` wrote), else the workspace.
 */
export async function profileFolder(ctx: HotframeContext): Promise<vscode.Uri | undefined> {
  const last = ctx.extension.workspaceState.get<string>(LAST_PROFILE_FOLDER);
  if (last && isDirectory(last)) return vscode.Uri.file(last);
  const found = await vscode.workspace.findFiles('**/*.cpuprofile', '**/node_modules/**', 1);
  if (found[0]) return vscode.Uri.file(path.dirname(found[0].fsPath));
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

async function pickProfile(ctx: HotframeContext, title: string): Promise<string | null> {
  const defaultUri = await profileFolder(ctx);
  const picked = await vscode.window.showOpenDialog({ title: noLinks(title), canSelectMany: false, filters: PROFILE_FILTERS, openLabel: 'Load Profile', defaultUri });
  return picked?.[0] ? profilePathOf(picked[0]) : null;
}

function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The server promises one line; keep it that way whatever arrives.
  return message.split('\n')[0]?.trim() || 'unknown error';
}

/** Which part of a file to read: a pprof sample type, a trace's thread; absent: the server's default. */
export interface ProfilePick {
  sampleType?: string;
  thread?: string;
}

/** How a load ended: the profile, the one-line error the user was shown, or cancelled by the user. */
export type LoadOutcome = { summary: ProfileSummary } | { error: string } | { cancelled: true };

/**
 * Loads a profile in the server with a cancellable notification. Failure shows one error message
 * and leaves the previously loaded profile in place (the server keeps its state too).
 */
export async function loadProfile(ctx: HotframeContext, file: string, role: ProfileRole, pick: ProfilePick = {}): Promise<ProfileSummary | null> {
  const outcome = await loadProfileOutcome(ctx, file, role, pick);
  return 'summary' in outcome ? outcome.summary : null;
}

/** loadProfile, telling also why nothing was loaded (the summary editor shows it on its page). */
export async function loadProfileOutcome(ctx: HotframeContext, file: string, role: ProfileRole, pick: ProfilePick = {}): Promise<LoadOutcome> {
  const { sampleType, thread } = pick;
  const name = path.basename(file);
  const params: LoadProfileParams & { workDoneToken: string } = {
    path: file,
    role,
    ...(sampleType !== undefined ? { sampleType } : {}),
    pathMappings: readConfig().pathMappings,
    roots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    workDoneToken: ctx.nextProgressToken(),
    ...(thread !== undefined ? { thread } : {}),
  };
  // The title and the server's progress messages quote file names: no markdown link may form.
  const title = noLinks(loadingTitle(role, name));
  try {
    await ctx.ready();
    const summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        let reported = 0;
        const forward = (value: WorkDoneProgressBegin | WorkDoneProgressReport): void => {
          const increment = typeof value.percentage === 'number' ? Math.max(0, value.percentage - reported) : undefined;
          if (typeof value.percentage === 'number') reported = Math.max(reported, value.percentage);
          progress.report({ message: value.message === undefined ? undefined : noLinks(value.message), increment });
        };
        const listening = ctx.client.onProgress(WorkDoneProgress.type, params.workDoneToken, (value) => {
          if (value.kind !== 'end') forward(value);
        });
        try {
          return await ctx.client.sendRequest(Requests.loadProfile, params, token);
        } finally {
          listening.dispose();
        }
      },
    );
    // A cancelled request resolves without a result: nothing changes.
    if (!summary) return { cancelled: true };
    ctx.setProfile(role, summary);
    void ctx.extension.workspaceState.update(LAST_PROFILE_FOLDER, path.dirname(file));
    ctx.output.appendLine(loadedLine(role, summary));
    for (const note of summary.notes ?? []) ctx.output.appendLine(`[profile] ${note}`);
    for (const warning of summary.warnings) ctx.output.appendLine(`[profile] warning: ${warning}`);
    // A trace with several threads: offer the others (not awaited: the load is done).
    if (thread === undefined && summary.capture !== true && (summary.threads?.length ?? 0) > 1) void offerThreads(ctx, file, role, summary);
    return { summary };
  } catch (error) {
    if (error instanceof vscode.CancellationError) return { cancelled: true };
    const message = `Hotframe: ${errorMessage(error)}`;
    ctx.showError(message);
    return { error: message };
  }
}

/** The threads of a trace in a quick pick, the one read first; picking another loads it. */
async function offerThreads(ctx: HotframeContext, file: string, role: ProfileRole, summary: ProfileSummary): Promise<void> {
  const threads = summary.threads ?? [];
  const items = threadItems(summary).map((t) => ({ ...t, label: noLinks(t.label), description: noLinks(t.description) }));
  const picked = await vscode.window.showQuickPick(items, { title: noLinks(`Hotframe: ${summary.name} holds ${threads.length} threads with CPU profiles`), placeHolder: 'The thread to show' });
  if (picked !== undefined && picked.id !== summary.thread) await loadProfile(ctx, file, role, { thread: picked.id });
}

export async function openLocation(ctx: HotframeContext, file: unknown, line: unknown): Promise<boolean> {
  if (typeof file !== 'string' || !path.isAbsolute(file)) {
    ctx.showError(`Hotframe: cannot open ${String(file)}: not a local file`);
    return false;
  }
  const lineIndex = typeof line === 'number' && Number.isInteger(line) && line > 0 ? line - 1 : 0;
  try {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const position = new vscode.Position(Math.min(lineIndex, Math.max(0, doc.lineCount - 1)), 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(position, position), preview: true, viewColumn: vscode.ViewColumn.One });
    return true;
  } catch (error) {
    ctx.showError(`Hotframe: cannot open ${file}: ${errorMessage(error)}`);
    return false;
  }
}

/** Every flame graph the panel shows comes through here (first show and the webview's toggles). */
export async function requestFlameGraph(ctx: HotframeContext, mode: FlameMode, onlyMyCode: boolean): Promise<FlameGraphResult> {
  const params: FlameGraphParams = { mode, onlyMyCode };
  return ctx.request(Requests.flameGraph, params);
}

async function showFlameGraph(ctx: HotframeContext, flame: FlamePanel, mode: FlameMode): Promise<void> {
  if (!ctx.profile) {
    ctx.showError('Hotframe: no profile loaded. Run "Hotframe: Open CPU Profile…" first.');
    return;
  }
  try {
    // The webview loads while the server computes the graph.
    flame.open();
    flame.show(await requestFlameGraph(ctx, mode, flame.view.onlyMyCode));
  } catch (error) {
    const message = `Hotframe: ${errorMessage(error)}`;
    flame.showError(message);
    ctx.showError(message);
  }
}

function isFlameMode(value: unknown): value is FlameMode {
  return value === 'normal' || value === 'inverted' || value === 'diff';
}

/**
 * Joins an allocation profile to the loaded CPU profile: the GC insight names who makes the
 * garbage, findings say what their code allocates; heat and flame graph stay the CPU profile's.
 * Opening another CPU profile (or clearing) ends the join.
 */
async function addAllocationProfile(ctx: HotframeContext, arg: unknown, sampleType: unknown): Promise<ProfileSummary | null> {
  if (!ctx.profile || ctx.profile.unit !== 'ms') {
    ctx.showError('Hotframe: open a CPU profile first: an allocation profile is added next to a CPU profile of the same service.');
    return null;
  }
  const file = profilePathOf(arg) ?? (arg === undefined ? await pickProfile(ctx, `Add an allocation profile next to ${ctx.profile.name}`) : null);
  if (!file) {
    if (arg !== undefined) ctx.showError(`Hotframe: not a local file: ${String(arg)}`);
    return null;
  }
  return loadProfile(ctx, file, 'allocation', { sampleType: typeof sampleType === 'string' ? sampleType : undefined });
}

/** A loaded profile as one side of a comparison, with how it was picked (sample type, thread). */
function sideOf(summary: ProfileSummary): CompareSide {
  return { path: summary.path, name: summary.name, sampleType: summary.sampleTypes?.chosen, thread: summary.thread };
}

/** Loads a comparison's two sides in their roles (the after first: a primary load ends any comparison), then shows the diff. */
async function runComparison(ctx: HotframeContext, parts: CommandParts, plan: ComparePlan): Promise<ProfileSummary | null> {
  const { before, after } = plan;
  if (!(await loadProfile(ctx, after.path, 'primary', { sampleType: after.sampleType, thread: after.thread }))) return null;
  const baseline = await loadProfile(ctx, before.path, 'baseline', { sampleType: before.sampleType, thread: before.thread });
  if (baseline) await showComparison(ctx, parts);
  return baseline;
}

/** The diff flame graph, and beside it the comparison as `hotframe diff` prints it. */
async function showComparison(ctx: HotframeContext, parts: CommandParts): Promise<void> {
  await showFlameGraph(ctx, parts.flame, 'diff');
  await showComparisonSummary(ctx, parts.summary);
}

async function showComparisonSummary(ctx: HotframeContext, summary: ComparisonSummary): Promise<string | null> {
  try {
    return await summary.show();
  } catch (error) {
    ctx.showError(`Hotframe: ${errorMessage(error)}`);
    return null;
  }
}

export function registerCommands(ctx: HotframeContext, parts: CommandParts): vscode.Disposable[] {
  const { flame, recorder } = parts;
  const open = async (arg: unknown, title: string, sampleType?: unknown): Promise<ProfileSummary | GcTraceView | null> => {
    const file = profilePathOf(arg) ?? (arg === undefined ? await pickProfile(ctx, title) : null);
    if (!file) {
      if (arg !== undefined) ctx.showError(`Hotframe: not a local file: ${String(arg)}`);
      return null;
    }
    // A --trace-gc output opens beside the profiles (issue 29); anything else loads as a profile.
    const trace = await openIfGcTrace(ctx, file);
    if (trace !== null) return trace === 'failed' ? null : trace;
    const interactive = arg === undefined || arg instanceof vscode.Uri;
    // An allocation profile opened by a person while a CPU profile is loaded: join the two, or replace.
    if (interactive && isAllocationProfileName(file) && ctx.profile?.unit === 'ms') {
      const choices = joinChoices(path.basename(file), ctx.profile).map((c) => ({ ...c, label: noLinks(c.label), detail: noLinks(c.detail) }));
      const choice = await vscode.window.showQuickPick(choices, { title: noLinks(`Hotframe: ${path.basename(file)} is an allocation profile`) });
      if (choice === undefined) return null;
      if (choice.join) return addAllocationProfile(ctx, file, undefined);
    }
    const given = typeof sampleType === 'string' ? sampleType : undefined;
    const summary = await loadProfile(ctx, file, 'primary', { sampleType: given });
    // A pprof file with several sample types, opened by a person (picker or explorer): they pick one.
    if (summary?.sampleTypes === undefined || summary.sampleTypes.available.length < 2 || given !== undefined || !interactive) return summary;
    const { available, chosen } = summary.sampleTypes;
    const picked = await vscode.window.showQuickPick(
      // Sample type names come from the file: shown without links, loaded by their own name.
      [chosen, ...available.filter((t) => t !== chosen)].map((t) => ({ label: noLinks(t), description: t === chosen ? 'shown now' : undefined, sampleType: t })),
      { title: noLinks(`${path.basename(file)} has ${available.length} sample types: which one to show?`) },
    );
    return picked === undefined || picked.sampleType === chosen ? summary : loadProfile(ctx, file, 'primary', { sampleType: picked.sampleType });
  };
  const register = (id: string, run: (...args: unknown[]) => unknown): vscode.Disposable => vscode.commands.registerCommand(id, run);
  return [
    register('hotframe.openProfile', (arg, sampleType) => open(arg, 'Open Profile', sampleType)),
    // From a profile shown elsewhere (VS Code's profile viewer, the explorer): open Hotframe's views on it, not only the status bar.
    register('hotframe.openWithHotframe', async (arg) => {
      const summary = await open(arg, 'Open CPU Profile');
      if (summary !== null && !isGcTraceView(summary) && ctx.profile) {
        await vscode.commands.executeCommand('workbench.view.extension.hotframe');
        await showFlameGraph(ctx, flame, ctx.baseline ? 'diff' : 'normal');
      }
      return summary;
    }),
    // Compare with both sides named (other extensions, the e2e suite): `before` is the baseline,
    // `after` the primary profile. Run from the editor with a profile loaded, that profile is the
    // BEFORE and the user picks what it is compared with (issue 23.6); with none loaded, the BEFORE
    // is picked first.
    register('hotframe.compareProfile', async (before, after) => {
      if (before !== undefined || after !== undefined) {
        const opened = after === undefined ? null : await open(after, 'Compare: pick the AFTER profile (the new recording)');
        if (after !== undefined && (opened === null || isGcTraceView(opened))) return null;
        if (!ctx.profile) return null;
        const file = profilePathOf(before) ?? (before === undefined ? await pickProfile(ctx, `Compare: pick the BEFORE profile (${ctx.profile.name} is AFTER)`) : null);
        if (!file) {
          if (before !== undefined) ctx.showError(`Hotframe: not a local file: ${String(before)}`);
          return null;
        }
        const baseline = await loadProfile(ctx, file, 'baseline');
        if (baseline) await showComparison(ctx, parts);
        return baseline;
      }
      if (!ctx.profile && (await open(undefined, comparePickTitle(null))) === null) return null;
      if (!ctx.profile) return null;
      const loaded = sideOf(ctx.profile);
      const file = await pickProfile(ctx, comparePickTitle(loaded.name));
      if (!file) return null;
      return runComparison(ctx, parts, planWithLoadedAsBefore(loaded, { path: file, name: path.basename(file) }));
    }),
    // The swap button: the comparison's BEFORE becomes its AFTER and the other way round.
    register('hotframe.swapComparison', async () => {
      if (!ctx.profile || !ctx.baseline) {
        ctx.showError('Hotframe: no comparison to swap: run Compare With Profile… first.');
        return null;
      }
      return runComparison(ctx, parts, swapped({ before: sideOf(ctx.baseline), after: sideOf(ctx.profile) }));
    }),
    // The comparison as `hotframe diff` prints it, again (it opens by itself after Compare and Swap).
    register('hotframe.showComparisonSummary', async () => {
      if (!ctx.profile || !ctx.baseline) {
        ctx.showError('Hotframe: no comparison loaded: run Compare With Profile… first.');
        return null;
      }
      return showComparisonSummary(ctx, parts.summary);
    }),
    register('hotframe.addAllocationProfile', (arg, sampleType) => addAllocationProfile(ctx, arg, sampleType)),
    register('hotframe.clearProfile', async () => {
      try {
        await ctx.request(Requests.clearProfile);
      } catch (error) {
        ctx.output.appendLine(`[profile] clear: ${errorMessage(error)}`);
      }
      ctx.clearProfiles();
    }),
    register('hotframe.showFlameGraph', (mode) => showFlameGraph(ctx, flame, isFlameMode(mode) ? mode : ctx.baseline ? 'diff' : 'normal')),
    // Recording takes no arguments: it runs only what the user picks or types in that moment
    // (a command link or another extension passing a command line must not run it).
    register(RECORD_COMMAND, () => recorder.record('cpu')),
    register(RECORD_ALLOCATION_COMMAND, () => recorder.record('allocation')),
    register(STOP_COMMAND, () => recorder.stop()),
    register(PROFILE_RUNNING_COMMAND, (...args) => profileRunningProcess(ctx, (folder) => loadProfile(ctx, folder, 'primary'), args)),
    register(PICK_CAPTURE_PROCESS_COMMAND, () => pickCaptureProcess(ctx, (folder, thread) => loadProfile(ctx, folder, 'primary', thread === undefined ? {} : { thread }))),
    register(OPEN_LOCATION_COMMAND, (file, line) => openLocation(ctx, file, line)),
  ];
}
