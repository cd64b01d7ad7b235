// Callers and callees in the real editor (issue 29): the command at a function's name in the
// demo's source, the Callers and Callees view's rows, and the flame panel's split (screenshot).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { browserAction, debugState, demoFile, openInEditor, screenshot, waitFor, type DebugState } from './workbench';

async function stateWhen(what: string, ready: (s: DebugState) => boolean, timeoutMs = 30_000): Promise<DebugState> {
  return waitFor(what, async () => {
    const state = await debugState();
    return ready(state) ? state : undefined;
  }, [], timeoutMs);
}

describe('callers and callees', () => {
  it('shows the callers and callees of the function under the cursor, in the view and as the flame panel split', async () => {
    const summary = await vscode.commands.executeCommand<{ name: string } | null>('hotframe.openProfile', demoFile('profiles', 'before.cpuprofile'));
    assert.equal(summary?.name, 'before.cpuprofile');
    // messages.js:13 `function parseEvents(message) {`: the cursor on its name.
    const editor = await openInEditor(demoFile('messages.js'));
    const at = new vscode.Position(12, 12);
    editor.selection = new vscode.Selection(at, at);
    await vscode.commands.executeCommand('hotframe.showCallersCallees');
    const state = await stateWhen('the callers and callees of parseEvents', (s) => s.sandwichView.length > 0 && s.flameSandwich !== null);
    const rows = state.sandwichView;
    assert.match(rows[0], /^parseEvents · self \d+(\.\d+)? (ms|s) \(\d+(\.\d+)?%\) · total \d+(\.\d+)? (ms|s) \(\d+(\.\d+)?%\)$/, rows.join('\n'));
    assert.ok(rows.some((r) => /^Callers of parseEvents — total /.test(r)), rows.join('\n'));
    assert.ok(rows.some((r) => /^Callees of parseEvents — self /.test(r)), rows.join('\n'));
    // Its callers call it on messages.js:40 or :45, found in the source (a .cpuprofile records no call line).
    assert.ok(rows.some((r) => /^ {2}\S.* — .*calls on lines? (\d+, )*(40|45)\b/.test(r)), rows.join('\n'));
    assert.equal(state.flameSandwich!.target.name, 'parseEvents');
    // The same total in the split as in the hot functions list.
    const listed = state.overview?.top.find((f) => f.name === 'parseEvents');
    if (listed !== undefined) assert.ok(Math.abs(listed.totalMs - state.flameSandwich!.target.totalMs) < 0.001);
    // The split as the webview drew it: the function's heading, its callers (inverted) and callees.
    // (null: a launcher without a browser, which cannot look into a webview.)
    const drawn = await browserAction<{ heading: string; callers: number; callees: number }>('sandwichSplit', {});
    if (drawn !== null) {
      assert.match(drawn.heading, /^parseEvents · self .* · total .* · every % is /);
      assert.ok(drawn.callers >= 2, `callers drawn: ${drawn.callers}`);
    }
    await screenshot('9-callers-callees');
  });
});
