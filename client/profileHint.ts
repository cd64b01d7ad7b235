// A .cpuprofile opens in VS Code's own profile viewer (Hotframe's editor is an option, not the
// default). The editor-title action (package.json `editor/title`) is the way to Hotframe from
// there; this says so once, the first time such a tab is opened.
import * as vscode from 'vscode';
import type { HotframeContext } from './ctx';

const SHOWN = 'hotframe.profileHintShown';
const PROFILE_FILE = /(\.cpuprofile|^isolate.*\.log)$/;

function profileUriOf(tab: vscode.Tab | undefined): vscode.Uri | null {
  const input = tab?.input;
  if (input instanceof vscode.TabInputCustom && input.viewType !== 'hotframe.profileSummary') return PROFILE_FILE.test(input.uri.path.split('/').pop() ?? '') ? input.uri : null;
  if (input instanceof vscode.TabInputText) return PROFILE_FILE.test(input.uri.path.split('/').pop() ?? '') ? input.uri : null;
  return null;
}

/** Whether the hint was shown (once per user: it is not shown again). */
export function profileHintShown(ctx: HotframeContext): boolean {
  return ctx.extension.globalState.get<boolean>(SHOWN) === true;
}

export function offerHotframeForProfileTabs(ctx: HotframeContext): vscode.Disposable {
  const check = (): void => {
    if (profileHintShown(ctx)) return;
    const uri = profileUriOf(vscode.window.tabGroups.activeTabGroup.activeTab);
    if (uri === null) return;
    void ctx.extension.globalState.update(SHOWN, true);
    void vscode.window
      .showInformationMessage('Hotframe can open this profile on your source: per-line heat, a flame graph and findings ranked by cost. (The flame button in the editor title does this any time.)', 'Open With Hotframe')
      .then((choice) => (choice ? vscode.commands.executeCommand('hotframe.openWithHotframe', uri) : undefined));
  };
  check();
  return vscode.window.tabGroups.onDidChangeTabs(check);
}
