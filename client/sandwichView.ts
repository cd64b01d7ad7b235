// The Callers and Callees view (issue 29) and its command, "Hotframe: Show Callers and Callees":
// from the editor (the function at the cursor), a hot function's row (its context menu) or a
// frame of the flame graph. The server answers (hotframe/sandwich); this view and the flame
// panel's split only show the answer. Names come from the profile: shown as text, never as links,
// and the rows' commands carry the server's file and line only.
import * as vscode from 'vscode';
import type { HotframeContext } from './ctx';
import type { FlamePanel } from './flamePanel';
import { Requests } from '../server/protocol/lsp';
import type { SandwichParams, SandwichResult } from '../server/protocol/wire';
import { noLinks } from './presentation/plainText';
import { sandwichChildren, sandwichRow, sandwichText, type SandwichNode } from './presentation/sandwich';
import { OPEN_LOCATION_COMMAND } from './views';

export const SANDWICH_VIEW_ID = 'hotframe.sandwich';
export const SANDWICH_COMMAND = 'hotframe.showCallersCallees';

const COLLAPSIBLE = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
} as const;

export class SandwichView implements vscode.TreeDataProvider<SandwichNode>, vscode.Disposable {
  private shown: SandwichResult | null = null;
  private readonly changed = new vscode.EventEmitter<SandwichNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(ctx: HotframeContext) {
    // Another profile (or none): the answer was about the old one.
    this.subscription = ctx.onDidChangeProfile(() => this.show(null));
  }

  /** What the view shows, as its rows read once expanded (the extension's API reports it); [] when empty. */
  get text(): string[] {
    return this.shown === null ? [] : sandwichText(this.shown);
  }

  show(result: SandwichResult | null): void {
    this.shown = result;
    this.changed.fire(undefined);
  }

  getChildren(node?: SandwichNode): SandwichNode[] {
    return this.shown === null ? [] : sandwichChildren(this.shown, node);
  }

  getTreeItem(node: SandwichNode): vscode.TreeItem {
    const row = sandwichRow(node, this.shown!);
    const item = new vscode.TreeItem(noLinks(row.label), COLLAPSIBLE[row.collapsible]);
    if (row.description !== undefined) item.description = noLinks(row.description);
    if (row.tooltip !== undefined) item.tooltip = noLinks(row.tooltip);
    if (row.icon !== undefined) item.iconPath = new vscode.ThemeIcon(row.icon);
    if (row.open !== undefined) item.command = { title: 'Open', command: OPEN_LOCATION_COMMAND, arguments: [row.open.file, row.open.line] };
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** The question an argument asks: a hot function's row, a frame ({file, line, name}), or none (the cursor). */
function questionOf(arg: unknown): SandwichParams | null {
  const record = typeof arg === 'object' && arg !== null ? (arg as Record<string, unknown>) : null;
  // A row of the Hotframe view: its node, as VS Code passes it to a context-menu command.
  const value = record?.kind === 'function' && typeof record.value === 'object' && record.value !== null ? (record.value as Record<string, unknown>) : record;
  if (value !== null && typeof value.file === 'string' && typeof value.line === 'number' && typeof value.name === 'string') {
    return { file: value.file, line: value.line, name: value.name || '(anonymous)' };
  }
  const editor = vscode.window.activeTextEditor;
  if (arg !== undefined || editor === undefined || editor.document.uri.scheme !== 'file') return null;
  const position = editor.selection.active;
  const word = editor.document.getWordRangeAtPosition(position, /[A-Za-z_$][\w$]*/);
  return {
    file: editor.document.uri.fsPath,
    line: position.line + 1,
    column: position.character + 1,
    ...(word !== undefined ? { name: editor.document.getText(word) } : {}),
  };
}

/** Asks the server, then shows the answer in the view and in the flame panel's split. */
export async function showSandwich(ctx: HotframeContext, view: SandwichView, flame: FlamePanel, arg: unknown): Promise<SandwichResult | null> {
  if (!ctx.profile) {
    ctx.showError('Hotframe: no profile loaded. Run "Hotframe: Open CPU Profile…" first.');
    return null;
  }
  const question = questionOf(arg);
  if (question === null) {
    ctx.showError('Hotframe: put the cursor on a function in a source file, or pick a hot function, to see its callers and callees.');
    return null;
  }
  try {
    const result = await ctx.request(Requests.sandwich, question);
    view.show(result);
    flame.showSandwich(result);
    void vscode.commands.executeCommand(`${SANDWICH_VIEW_ID}.focus`);
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.showError(`Hotframe: ${message.split('\n')[0]?.trim() || 'no callers and callees'}`);
    return null;
  }
}

export function registerSandwich(ctx: HotframeContext, view: SandwichView, flame: FlamePanel): vscode.Disposable[] {
  return [
    vscode.window.registerTreeDataProvider(SANDWICH_VIEW_ID, view),
    vscode.commands.registerCommand(SANDWICH_COMMAND, (arg: unknown) => showSandwich(ctx, view, flame, arg)),
  ];
}
