// "Open With… > Hotframe Profile" for *.cpuprofile and isolate*.log (priority "option": VS Code's
// own profile viewer stays the default). Opening loads the profile and shows a short summary
// with a link to the flame graph; the page runs no script.
import * as vscode from 'vscode';
import type { HotframeContext } from './ctx';
import { loadProfileOutcome } from './commands';
import { summaryHtml } from './presentation/summaryPage';

export const PROFILE_EDITOR_VIEW_TYPE = 'hotframe.profileSummary';

export class ProfileEditorProvider implements vscode.CustomReadonlyEditorProvider<vscode.CustomDocument> {
  constructor(private readonly ctx: HotframeContext) {}

  static register(ctx: HotframeContext): vscode.Disposable {
    return vscode.window.registerCustomEditorProvider(PROFILE_EDITOR_VIEW_TYPE, new ProfileEditorProvider(ctx), {
      supportsMultipleEditorsPerDocument: true,
    });
  }

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = { enableScripts: false, enableCommandUris: ['hotframe.showFlameGraph'] };
    const file = document.uri.fsPath;
    panel.webview.html = summaryHtml(file, null, 'Loading…');
    const outcome = await loadProfileOutcome(this.ctx, file, 'primary');
    if ('summary' in outcome) panel.webview.html = summaryHtml(file, outcome.summary, null);
    else panel.webview.html = summaryHtml(file, null, 'error' in outcome ? outcome.error : 'Loading was cancelled.');
  }
}
