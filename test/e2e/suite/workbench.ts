// What the e2e specs share: the demo workspace, bounded waiting on events, what the extension
// shows (read through the API its activate() returns, client/api.ts), and screenshot requests
// to the launcher.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HotframeApi } from '../../../client/api';
import type { FlameNode } from '../../../server/protocol/wire';

export const EXTENSION_ID = 'hotframe.hotframe';

export function demoRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the e2e suite needs the demo workspace (examples/demo-app) open');
  return folder.uri.fsPath;
}

export function demoFile(...parts: string[]): string {
  return path.join(demoRoot(), ...parts);
}

/**
 * Resolves when `probe` returns a value other than undefined, re-checking whenever `events` fire
 * (and every 250 ms, for state that has no event). Rejects with `what` after `timeoutMs`.
 */
export function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, events: vscode.Event<unknown>[] = [], timeoutMs = 20_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    let last: unknown;
    const subscriptions: vscode.Disposable[] = [];
    const finish = (error: Error | null, value?: T): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(poll);
      subscriptions.forEach((s) => s.dispose());
      if (error) reject(error);
      else resolve(value as T);
    };
    const check = async (): Promise<void> => {
      try {
        const value = await probe();
        if (value !== undefined) finish(null, value);
      } catch (error) {
        last = error;
      }
    };
    const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`)), timeoutMs);
    const poll = setInterval(() => void check(), 250);
    for (const event of events) subscriptions.push(event(() => void check()));
    void check();
  });
}

export interface HotFunction {
  name: string;
  file: string;
  line: number;
  selfMs: number;
  totalMs: number;
}

export interface DebugState {
  profile: { name: string; path: string; samples: number; durationMs: number; gcPercent: number; unresolvedFiles: string[] } | null;
  baseline: { name: string } | null;
  allocation: { name: string; unit: string } | null;
  lastError: string | null;
  lastWarning: string | null;
  statusBar: string | null;
  statusBarTooltip: string | null;
  heat: Record<string, { lines: { line: number; bucket: number }[]; callLines?: { line: number; bucket: number }[]; notes: { line: number; text: string }[] }>;
  overview: { hotFunctions: number; top: HotFunction[]; callSites: number; insights: string[]; unresolvedFiles: number } | null;
  flame: { title: string; mode: string; frames: number; unit: string } | null;
  profileHintShown: boolean;
  recording: { active: boolean; status: string | null };
  sandwichView: string[];
  flameSandwich: { target: { name: string; totalMs: number } } | null;
}

/** The extension's API (the value its activate() returned); activates it when needed. */
export async function hotframeApi(): Promise<HotframeApi> {
  const extension = vscode.extensions.getExtension<HotframeApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed in this window`);
  return extension.isActive ? extension.exports : extension.activate();
}

/** Frames in a flame graph, the root included. */
function countFrames(root: FlameNode): number {
  let count = 0;
  const stack = [root];
  for (let next = stack.pop(); next; next = stack.pop()) {
    count++;
    stack.push(...next.children);
  }
  return count;
}

/** What the extension shows now, once its decorations and view have caught up. */
export async function debugState(): Promise<DebugState> {
  const state = await (await hotframeApi()).state();
  const { overview, flame } = state;
  return {
    ...state,
    overview: overview && {
      hotFunctions: overview.hotFunctions.length,
      top: overview.hotFunctions.slice(0, 5).map(({ name, file, line, selfMs, totalMs }) => ({ name, file, line, selfMs, totalMs })),
      callSites: overview.callSites.length,
      insights: overview.insights.map((i) => i.id),
      unresolvedFiles: overview.profile?.unresolvedCount ?? 0,
    },
    flame: flame && { title: flame.title, mode: flame.mode, frames: countFrames(flame.root), unit: flame.unit },
  };
}

let actionSequence = 0;

/**
 * Asks the launcher for something only the browser can do and waits for its answer. The
 * code-server launcher sets HOTFRAME_E2E_ACTIONS and watches the extension host log for the
 * marker line; other launchers (@vscode/test-electron) have no browser: the result is null.
 */
export async function browserAction<T>(
  kind: 'screenshot' | 'flameFrames' | 'dblclickFrame' | 'clickNotificationButton' | 'notificationLinks' | 'answerQuickInput' | 'clickTreeItem' | 'clickInWebview' | 'frameTooltip' | 'treeItemText' | 'paintedAt' | 'quickPickRows' | 'stallStrip' | 'hoverText' | 'sandwichSplit', args: Record<string, unknown> = {}): Promise<T | null> {
  const dir = process.env.HOTFRAME_E2E_ACTIONS;
  if (!dir) return null;
  const id = `${++actionSequence}-${kind}`;
  console.log(`HOTFRAME_ACTION ${JSON.stringify({ ...args, id, kind })}`);
  const file = path.join(dir, `${id}.json`);
  // An action that waits in the browser (timeoutMs) gets that long on top.
  const answerMs = 30_000 + (typeof args.timeoutMs === 'number' ? args.timeoutMs : 0);
  const result = await waitFor(`the launcher's answer to ${kind}`, () => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as T & { error?: string }) : undefined), [], answerMs);
  if (result.error) throw new Error(result.error);
  return result;
}

export async function screenshot(name: string): Promise<void> {
  await browserAction('screenshot', { name });
}

export async function openInEditor(file: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  return vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
}

export interface ExpectedFinding {
  file: string;
  line: number; // 1-based
  rule: string;
}

/**
 * The findings the demo promises, read from its trailing `// expect: rule-a, rule-b` comments,
 * so the demo's files and this suite cannot disagree about line numbers.
 */
export async function expectedFindings(): Promise<ExpectedFinding[]> {
  const files = await vscode.workspace.findFiles('**/*.{js,cjs,mjs,ts}', '**/node_modules/**');
  const found: ExpectedFinding[] = [];
  for (const uri of files) {
    const lines = fs.readFileSync(uri.fsPath, 'utf8').split('\n');
    lines.forEach((text, index) => {
      const marker = /\/\/\s*expect:\s*([\w-]+(?:\s*,\s*[\w-]+)*)\s*$/.exec(text);
      if (!marker) return;
      for (const rule of marker[1]!.split(',')) found.push({ file: uri.fsPath, line: index + 1, rule: rule.trim() });
    });
  }
  return found.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

export function hotframeDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'hotframe');
}

export function diagnosticCode(d: vscode.Diagnostic): string {
  const code = d.code;
  return typeof code === 'object' && code !== null ? String(code.value) : String(code);
}

/** Waits until the file's hotframe diagnostics satisfy `done`, re-checking on each change. */
export function waitForDiagnostics(uri: vscode.Uri, what: string, done: (list: vscode.Diagnostic[]) => boolean, timeoutMs = 30_000): Promise<vscode.Diagnostic[]> {
  return waitFor(
    what,
    () => {
      const list = hotframeDiagnostics(uri);
      return done(list) ? list : undefined;
    },
    [vscode.languages.onDidChangeDiagnostics],
    timeoutMs,
  );
}
