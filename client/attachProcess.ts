// "Hotframe: Profile Running Process…" (issue 28) and "Hotframe: Show One Process of the Capture…".
// The user picks a local Node process in that moment (the command takes no arguments: a caller
// cannot name a pid for it); the language server lists the processes and runs the capture with
// the engine of `hotframe attach` (server/lsp/attachFeatures.ts); this file only shows the list
// and opens the capture's folder, merged. Command lines come from other processes: every one is
// shown through plainLabel / noLinks (no icon, no link).
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { WorkDoneProgress } from 'vscode-languageclient/node';

import { Requests } from '../server/protocol/lsp';
import type { AttachResult } from '../server/protocol/wire';
import { formatMs } from '../server/shared/format';
import { captureTarget, keepRecording, recordingsFolderIn } from '../server/shared/recordingFiles';
import { keepTemporaryFolder } from '../server/shared/temporaryFolders';
import { readConfig } from './config';
import type { HotframeContext } from './ctx';
import { noLinks } from './presentation/plainText';
import { CAPTURE_SECONDS, captureLines, processItems, processPickPlaceholder } from './presentation/processPick';
import { threadItems } from './presentation/profileLoad';
import type { ProfileSummary } from '../server/protocol/wire';

export const PROFILE_RUNNING_COMMAND = 'hotframe.profileRunningProcess';
export const PICK_CAPTURE_PROCESS_COMMAND = 'hotframe.pickCaptureProcess';

type Load = (folder: string, thread?: string) => Promise<ProfileSummary | null>;

function errorLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]?.trim() || 'unknown error';
}

/**
 * Moves a capture from the server's temporary folder into the recordings folder of the (first)
 * workspace folder, `hotframe.recordingsFolder`, as Record Profile keeps its recordings, and answers
 * where it is now. With no workspace folder, or when it cannot be moved, it stays where it is and
 * the error says where.
 */
function keepCapture(ctx: HotframeContext, folder: string, pid: number, startedAt: number): string {
  const workspace = vscode.workspace.workspaceFolders?.[0];
  // Where it stays, the user finds it: no longer a temporary folder that the next activation removes.
  if (workspace === undefined) {
    keepTemporaryFolder(folder);
    return folder;
  }
  const out = recordingsFolderIn(workspace.uri.fsPath, readConfig(workspace.uri).recordingsFolder);
  if ('error' in out) {
    keepTemporaryFolder(folder);
    ctx.showError(noLinks(`Hotframe: the capture stays in ${folder}: ${out.error}`));
    return folder;
  }
  try {
    const files = readdirSync(folder).filter((name) => /\.(?:cpuprofile|heapprofile)$/.test(name)).map((name) => path.join(folder, name));
    const saved = keepRecording(folder, files, captureTarget(out.dir, pid, startedAt, workspace.uri.fsPath));
    return saved.length > 0 ? path.dirname(saved[0]!) : folder;
  } catch (error) {
    keepTemporaryFolder(folder);
    ctx.showError(noLinks(`Hotframe: ${errorLine(error)}`));
    return folder;
  }
}

/** The command: resolves with the merged capture opened, or null (refused, nothing picked, failed). */
export async function profileRunningProcess(ctx: HotframeContext, load: Load, args: readonly unknown[]): Promise<ProfileSummary | null> {
  // No caller names the process: a link or another extension cannot make Hotframe signal one.
  if (args.length > 0 && args.some((a) => a !== undefined)) {
    ctx.showError('Hotframe: Profile Running Process… takes no arguments: pick the process in its list');
    return null;
  }
  // Attaching signals a process and runs code in it through its inspector.
  if (!vscode.workspace.isTrusted) {
    ctx.showError('Hotframe: profiling a running process runs code in it; trust the workspace first (Manage Workspace Trust)');
    return null;
  }
  try {
    await ctx.ready();
    const list = await ctx.client.sendRequest(Requests.runningProcesses);
    if (list.unsupported !== undefined) {
      ctx.showError(noLinks(`Hotframe: ${list.unsupported}`));
      return null;
    }
    if (list.groups.length === 0) {
      void vscode.window.showInformationMessage('Hotframe: no Node process of this user is running');
      return null;
    }
    const picked = await vscode.window.showQuickPick(processItems(list), { title: 'Hotframe: Profile Running Process', placeHolder: noLinks(processPickPlaceholder(list)), matchOnDescription: true });
    if (!picked) return null;
    const seconds = await vscode.window.showQuickPick(
      CAPTURE_SECONDS.map((s) => ({ label: noLinks(`${s} s`), seconds: s })),
      { title: 'Hotframe: Profile Running Process', placeHolder: noLinks(`How long to profile process ${picked.pid} (Cancel in the notification stops early and keeps what was captured)`) },
    );
    if (!seconds) return null;
    const startedAt = Date.now();
    const result = await vscode.window.withProgress<AttachResult>(
      { location: vscode.ProgressLocation.Notification, title: noLinks(`Hotframe: profiling process ${picked.pid} for ${seconds.seconds} s`), cancellable: true },
      async (progress, token) => {
        const workDoneToken = ctx.nextProgressToken();
        const listening = ctx.client.onProgress(WorkDoneProgress.type, workDoneToken, (value) => {
          if (value.kind !== 'end' && value.message !== undefined) progress.report({ message: noLinks(value.message) });
        });
        try {
          // Cancel stops the capture early; the server still answers with what it captured.
          return await ctx.client.sendRequest(Requests.attach, { pid: picked.pid, durationS: seconds.seconds, workDoneToken }, token);
        } finally {
          listening.dispose();
        }
      },
    );
    const folder = keepCapture(ctx, result.folder, picked.pid, startedAt);
    for (const line of captureLines({ ...result, folder }, formatMs)) ctx.output.appendLine(line);
    if (result.problems.length > 0) ctx.showWarning(`Hotframe: ${result.problems.length} part(s) of the capture gave no profile: ${result.problems[0]}`);
    return await load(folder);
  } catch (error) {
    ctx.showError(noLinks(`Hotframe: ${errorLine(error)}`));
    return null;
  }
}

/** The per-process/thread filter of a merged capture: all of them, or one. */
export async function pickCaptureProcess(ctx: HotframeContext, load: Load): Promise<ProfileSummary | null> {
  const profile = ctx.profile;
  if (!profile?.capture) {
    ctx.showError('Hotframe: no capture of several processes is open (Hotframe: Profile Running Process…)');
    return null;
  }
  const items = threadItems(profile).map((t) => ({ ...t, label: noLinks(t.label), description: noLinks(t.description) }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Hotframe: Show One Process of the Capture', placeHolder: 'The process and thread to show (pid:thread), or all of them merged' });
  if (!picked || picked.id === (profile.thread ?? '')) return null;
  return load(profile.path, picked.id === '' ? undefined : picked.id);
}
