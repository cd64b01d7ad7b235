// What the e2e specs share: the demo workspace, bounded waiting on events, the extension's
// internal state, and screenshot requests to the launcher.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

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

export interface DebugState {
  profile: { name: string; path: string; samples: number; durationMs: number; gcPercent: number; unresolvedFiles: string[] } | null;
  baseline: { name: string } | null;
  lastError: string | null;
  statusBar: string | null;
  heat: Record<string, { lines: { line: number; bucket: number }[]; notes: { line: number; text: string }[] }>;
  overview: { hotFunctions: number; callSites: number; insights: string[]; unresolvedFiles: number } | null;
  flame: { title: string; mode: string; frames: number } | null;
}

export async function debugState(): Promise<DebugState> {
  return (await vscode.commands.executeCommand<DebugState>('hotframe._debugState'))!;
}

/**
 * Asks the launcher for a screenshot and waits until the file exists. The code-server launcher
 * sets HOTFRAME_SCREENSHOT_DIR and watches the extension host log for the marker line; other
 * launchers cannot take screenshots, so there is nothing to wait for.
 */
export async function screenshot(name: string): Promise<void> {
  const dir = process.env.HOTFRAME_SCREENSHOT_DIR;
  if (!dir) return;
  console.log(`HOTFRAME_SCREENSHOT ${name}`);
  const file = path.join(dir, `${name}.png`);
  await waitFor(`screenshot ${name}`, () => (fs.existsSync(file) ? true : undefined), [], 15_000);
}

export async function openInEditor(file: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  return vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
}
