// Activation: wire the language client, views and commands together. Nothing here waits for the
// server, so activation stays cheap (measured: the API's activationMs, client/api.ts).
import * as vscode from 'vscode';
import { HotframeContext } from './ctx';
import { createLanguageClient } from './languageClient';
import * as path from 'node:path';
import { affectsPathMappings, readConfig } from './config';
import { isInsideFolders } from './flameSession';
import { registerCommands, requestFlameGraph, openLocation, loadProfile, type ProfilePick } from './commands';
import { HeatDecorations } from './decorations';
import { OverviewTree } from './views';
import { ProfileStatusBar } from './statusBar';
import { ProfileEditorProvider } from './profileEditor';
import { FlamePanel } from './flamePanel';
import { registerSandwich, SANDWICH_COMMAND, SandwichView } from './sandwichView';
import { Notifications } from '../server/protocol/lsp';
import type { ProfileSummary } from '../server/protocol/wire';
import { ProfileRecorder } from './recording';
import { offerHotframeForProfileTabs } from './profileHint';
import { createApi, type HotframeApi } from './api';
import { ComparisonSummary } from './comparisonSummary';
import { removeLeftTemporaryFolders, removeOwnTemporaryFolders } from '../server/shared/temporaryFolders';

export const OVERVIEW_VIEW_ID = 'hotframe.overview';

export function activate(extension: vscode.ExtensionContext): HotframeApi {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('Hotframe');
  const ctx = new HotframeContext(extension, createLanguageClient(extension, output), output);
  const heat = new HeatDecorations(ctx);
  const tree = new OverviewTree(ctx);
  const statusBar = new ProfileStatusBar(ctx);
  const flame = new FlamePanel({
    extensionUri: extension.extensionUri,
    requestGraph: (mode, onlyMyCode) => requestFlameGraph(ctx, mode, onlyMyCode),
    openFile: (file, line) => void openLocation(ctx, file, line),
    mayOpen: (file) =>
      isInsideFolders(file, [...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), ...readConfig().pathMappings.map((m) => m.to)], path),
    log: (line) => output.appendLine(`[flame] ${line}`),
    // The flame page's swap button (comparison only) runs the same command as the view's title button.
    swap: () => void vscode.commands.executeCommand('hotframe.swapComparison'),
    // A frame's "Callers and callees" button: the question the panel checked against its graph.
    sandwich: (question) => void vscode.commands.executeCommand(SANDWICH_COMMAND, question),
  });
  const sandwich = new SandwichView(ctx);
  const summary = new ComparisonSummary(ctx);
  const recorder = new ProfileRecorder(ctx, (file) => loadProfile(ctx, file, 'primary'));
  extension.subscriptions.push(
    output,
    recorder,
    offerHotframeForProfileTabs(ctx),
    ctx,
    // Disposing the client stops the server process when the extension host shuts down.
    ctx.client,
    heat,
    tree,
    statusBar,
    vscode.window.registerTreeDataProvider(OVERVIEW_VIEW_ID, tree),
    ProfileEditorProvider.register(ctx),
    summary,
    ...registerCommands(ctx, { flame, recorder, summary }),
    flame,
    sandwich,
    ...registerSandwich(ctx, sandwich, flame),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!affectsPathMappings(event)) return;
      const { profile, baseline, allocation } = ctx;
      void (async () => {
        // Reloaded as picked: the same pprof sample type and trace thread (no picker again).
        const pickOf = (summary: ProfileSummary): ProfilePick => ({ sampleType: summary.sampleTypes?.chosen, thread: summary.thread });
        if (profile) await loadProfile(ctx, profile.path, 'primary', pickOf(profile));
        if (baseline) await loadProfile(ctx, baseline.path, 'baseline', pickOf(baseline));
        if (allocation) await loadProfile(ctx, allocation.path, 'allocation', pickOf(allocation));
      })();
    }),
    // Restricted mode ends: the server may now run nm and apply path mappings (docs/security.md).
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      // A lost notification leaves the server in Restricted Mode: say so in the output.
      if (ctx.client.isRunning()) ctx.client.sendNotification(Notifications.workspaceTrusted).catch((error: unknown) => output.appendLine(`[server] workspace trust not sent: ${error instanceof Error ? error.message : String(error)}`));
    }),
    ctx.onDidChangeProfile((change) => {
      // An open flame graph follows the primary profile; Compare shows its own diff view.
      if (change === 'cleared') flame.dispose();
      else if (change === 'primary' && flame.isOpen) void flame.refresh();
    }),
  );
  // What an editor closed during a recording or a capture left in the temp folder (only folders
  // provably Hotframe's, whose process has ended: server/shared/temporaryFolders.ts); off the activation path.
  void removeLeftTemporaryFolders().then((removed) => {
    if (removed.length > 0) output.appendLine(`[cleanup] removed ${removed.length} temporary folder(s) left by an earlier Hotframe: ${removed.join(', ')}`);
  });
  // Diagnostics need the server as soon as a JS/TS file is open; start it without blocking activation.
  ctx.ready().catch((error: unknown) => output.appendLine(`[server] failed to start: ${error instanceof Error ? error.message : String(error)}`));
  const activationMs = Math.round((performance.now() - started) * 10) / 10;
  output.appendLine(`[activation] ${activationMs} ms`);
  return createApi({ ctx, heat, tree, statusBar, flame, recorder, sandwich }, activationMs, extension.subscriptions);
}

export function deactivate(): void {
  // Everything, the language client included, is disposed through `extension.subscriptions`; the
  // temporary folders of a recording still running go here (the server removes a capture's as it exits).
  removeOwnTemporaryFolders();
}
