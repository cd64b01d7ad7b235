// Compare in the real editor (issue 23.6): the loaded profile is the BEFORE and the user picks the
// AFTER in the open dialog; the comparison's text summary ("Hotframe comparison.txt") must read
// exactly as `hotframe diff BEFORE AFTER` prints it for that pair (the CLI bundle run here); the
// flame page's swap button reverses the comparison, and the summary with it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browserAction, debugState, demoFile, demoRoot, EXTENSION_ID, screenshot, waitFor, type DebugState } from './workbench';

const SUMMARY_SCHEME = 'hotframe-comparison';

async function stateWhen(what: string, ready: (s: DebugState) => boolean, timeoutMs = 30_000): Promise<DebugState> {
  return waitFor(what, async () => {
    const state = await debugState();
    return ready(state) ? state : undefined;
  }, [], timeoutMs);
}

/** What `hotframe diff BEFORE AFTER --root <workspace>` prints, from the CLI bundle of this checkout. */
function cliDiff(before: string, after: string): string {
  const repo = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
  // The machine's node, as a user's shell would run it (not the extension host's).
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const run = spawnSync('node', [path.join(repo, 'dist', 'cli.js'), 'diff', before, after, '--root', demoRoot()], { cwd: demoRoot(), encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(run.status, 0, `hotframe diff failed: ${run.stderr}`);
  return run.stdout;
}

/** The comparison's text document once it holds the comparison of `before` → `after`. */
function summaryOf(before: string, after: string): Promise<string> {
  const heading = `before: ${before} (`;
  return waitFor(`the comparison summary of ${before} → ${after}`, () => {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === SUMMARY_SCHEME);
    const text = doc?.getText();
    return text?.startsWith(heading) && text.includes(`\nafter:  ${after} (`) ? text : undefined;
  }, [vscode.workspace.onDidChangeTextDocument, vscode.workspace.onDidOpenTextDocument]);
}

describe('compare (the loaded profile is the BEFORE, swap, the text summary)', function () {
  this.timeout(120_000);
  const before = (): string => demoFile('profiles', 'before.cpuprofile');
  const after = (): string => demoFile('profiles', 'after.cpuprofile');

  it('compares the loaded before.cpuprofile with a picked after.cpuprofile; the summary reads as hotframe diff', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const opened = await vscode.commands.executeCommand<{ name: string } | null>('hotframe.openProfile', before());
    assert.equal(opened?.name, 'before.cpuprofile');
    let baseline: { name: string } | null | undefined;
    if (process.env.HOTFRAME_E2E_ACTIONS) {
      // As a person would: Compare With Profile… with no argument, the AFTER typed into the open dialog.
      const pending = vscode.commands.executeCommand<{ name: string } | null>('hotframe.compareProfile');
      const dialog = await browserAction<{ title: string }>('answerQuickInput', { value: after() });
      assert.match(dialog?.title ?? '', /^Compare before\.cpuprofile \(before\) with…/);
      // Bounded: a dialog that stays open fails here, with a picture of it, not at mocha's timeout.
      baseline = await waitFor('the open dialog to close and the comparison to load', () => Promise.resolve(pending), [], 30_000).catch(async (error: unknown) => {
        await screenshot('compare-dialog-open');
        throw error;
      });
    } else {
      // No browser to answer the dialog (@vscode/test-electron): both sides named, before first.
      baseline = await vscode.commands.executeCommand<{ name: string } | null>('hotframe.compareProfile', before(), after());
    }
    assert.equal(baseline?.name, 'before.cpuprofile');
    const state = await stateWhen('the diff of before → after', (s) => s.flame?.mode === 'diff' && s.flame.title === 'before.cpuprofile → after.cpuprofile');
    assert.equal(state.profile?.name, 'after.cpuprofile');
    assert.equal(state.baseline?.name, 'before.cpuprofile');
    const text = await summaryOf('before.cpuprofile', 'after.cpuprofile');
    assert.equal(text, cliDiff(before(), after()));
    await screenshot('4-compare-summary');
  });

  it('swaps with the flame page button: after.cpuprofile becomes the BEFORE, the summary reads as hotframe diff reversed', async () => {
    if (process.env.HOTFRAME_E2E_ACTIONS) await browserAction('clickInWebview', { text: 'Swap before/after' });
    else await vscode.commands.executeCommand('hotframe.swapComparison');
    const state = await stateWhen('the swapped diff', (s) => s.flame?.mode === 'diff' && s.flame.title === 'after.cpuprofile → before.cpuprofile');
    assert.equal(state.profile?.name, 'before.cpuprofile');
    assert.equal(state.baseline?.name, 'after.cpuprofile');
    assert.match(state.statusBarTooltip ?? '', /Comparing: after\.cpuprofile \(before\) → before\.cpuprofile \(after\)/);
    const text = await summaryOf('after.cpuprofile', 'before.cpuprofile');
    assert.equal(text, cliDiff(after(), before()));
    // The same document, refreshed in place: one summary tab, not two.
    assert.equal(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === SUMMARY_SCHEME).length, 1);
  });

  it('swaps back with hotframe.swapComparison', async () => {
    await vscode.commands.executeCommand('hotframe.swapComparison');
    await stateWhen('the diff of before → after again', (s) => s.flame?.mode === 'diff' && s.flame.title === 'before.cpuprofile → after.cpuprofile' && s.baseline?.name === 'before.cpuprofile');
    assert.equal(await summaryOf('before.cpuprofile', 'after.cpuprofile'), cliDiff(before(), after()));
    await vscode.commands.executeCommand('hotframe.clearProfile');
    await stateWhen('no profile', (s) => s.profile === null && s.baseline === null);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
