// Runs inside a real VS Code (code-server's extension host), started by bench/editor.bench.mjs
// through the e2e launcher (test/e2e/runInCodeServer.mjs, HOTFRAME_E2E_TESTS=dist/bench/editor.js).
// Each run opens a big profile the way a user does and times, by the machine's clock, from the
// public command to what the browser shows (the launcher watches the page's DOM, paintedAt in
// test/e2e/browserActions.mjs):
//  - heat: `hotframe.openProfile <file>` with a source file of the profile open, until the heat
//    note of a function is drawn in that editor;
//  - flame: `hotframe.showFlameGraph` with that profile loaded, until the webview has drawn frames.
// The extension's API (client/api.ts) then confirms what was drawn. One JSON line per run:
// `HOTFRAME_BENCH {...}`, read by the bench.
import * as vscode from 'vscode';
import { browserAction, debugState, demoFile, openInEditor, waitFor } from '../../test/e2e/suite/workbench';

const WAIT_MS = 120_000;

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (run this through bench/editor.bench.mjs)`);
  return value;
}

/** When the browser first showed it (and, for the flame graph, its webview page before the graph). */
async function paintedAt(what: 'heat' | 'flame', text = ''): Promise<{ at: number; shellAt: number }> {
  const answer = await browserAction<{ at: number | null; shellAt?: number }>('paintedAt', { what, text, timeoutMs: WAIT_MS });
  if (!answer) throw new Error('the bench needs the code-server launcher (HOTFRAME_E2E_ACTIONS)');
  if (answer.at === null) throw new Error(`the ${what} was not drawn within ${WAIT_MS / 1000} s`);
  return { at: answer.at, shellAt: answer.shellAt ?? answer.at };
}

async function once(run: number, profile: string, source: string): Promise<void> {
  // A fresh start each run: nothing loaded, no flame graph panel, only the source file shown.
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('hotframe.clearProfile');
  const editor = await openInEditor(source);
  const key = editor.document.uri.toString();
  await waitFor('no profile and no heat', async () => {
    const state = await debugState();
    return state.profile === null && state.heat[key] === undefined && state.flame === null ? true : undefined;
  });

  // Heat: the note on a function's declaration reads `name: self … · total …`.
  const heatStart = Date.now();
  const heatDrawn = paintedAt('heat', ': self ');
  const summary = await vscode.commands.executeCommand<{ name: string } | null>('hotframe.openProfile', profile);
  const loadedMs = Date.now() - heatStart;
  if (!summary) throw new Error(`hotframe.openProfile did not load ${profile}: ${(await debugState()).lastError ?? 'no error shown'}`);
  const heatMs = (await heatDrawn).at - heatStart;
  const heat = (await debugState()).heat[key];
  if (!heat || heat.notes.length === 0) throw new Error(`no heat on ${source} after the note was seen`);

  // Flame graph: from the command to frames in the webview.
  const flameStart = Date.now();
  const flameDrawn = paintedAt('flame');
  await vscode.commands.executeCommand('hotframe.showFlameGraph');
  const sentMs = Date.now() - flameStart;
  const drawn = await flameDrawn;
  const flameMs = drawn.at - flameStart;
  const webviewMs = drawn.shellAt - flameStart;
  const flame = (await debugState()).flame;
  if (!flame || flame.frames < 2) throw new Error('the flame graph panel holds no graph after it was drawn');

  console.log(`HOTFRAME_BENCH ${JSON.stringify({ run, loadedMs, heatMs, heatLines: heat.lines.length, sentMs, webviewMs, flameMs, flameFrames: flame.frames })}`);
}

export async function run(): Promise<void> {
  const profile = env('HOTFRAME_BENCH_PROFILE');
  // Relative to the workspace folder (the launcher opens a copy of the bench's workspace).
  const source = demoFile(env('HOTFRAME_BENCH_SOURCE'));
  const runs = Number(process.env.HOTFRAME_BENCH_RUNS ?? 3);
  for (let run = 1; run <= runs; run++) await once(run, profile, source);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('hotframe.clearProfile');
}
