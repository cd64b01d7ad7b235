// The activity-bar tree: hot functions, user call sites (with the library cost beneath them),
// insights, and the files the profile names that were not found locally.
import * as vscode from 'vscode';
import type { HotframeContext } from './ctx';
import { Requests } from '../server/protocol/lsp';
import type { OverviewResult } from '../server/protocol/wire';
import { overviewChildren, overviewRow, type OverviewNode } from './presentation/overview';
import { noLinks } from './presentation/plainText';

export const OPEN_LOCATION_COMMAND = 'hotframe._openLocation';

const COLLAPSIBLE = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
} as const;

export class OverviewTree implements vscode.TreeDataProvider<OverviewNode>, vscode.Disposable {
  private overview: OverviewResult | null = null;
  private readonly changed = new vscode.EventEmitter<OverviewNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private pending: Promise<void> = Promise.resolve();
  /** Bumped by every refresh: only the newest load may apply its result and fire a change. */
  private generation = 0;

  constructor(private readonly ctx: HotframeContext) {
    this.subscription = ctx.onDidChangeProfile(() => void this.refresh());
  }

  /** The data the tree shows (read by the extension's API, client/api.ts). */
  get current(): OverviewResult | null {
    return this.overview;
  }

  refresh(): Promise<void> {
    this.pending = this.load();
    return this.pending;
  }

  /** Resolves when the last refresh has finished. */
  settle(): Promise<void> {
    return this.pending;
  }

  private async load(): Promise<void> {
    // Profiles loaded in quick succession overlap here. An older answer must not replace a newer
    // one, and a change event fired while the view still fetches children of the last one races
    // in VS Code (microsoft/vscode#71698: sections drawn expanded with no children).
    const generation = ++this.generation;
    let overview: OverviewResult | null = null;
    if (this.ctx.profile || this.ctx.gcTrace) {
      try {
        overview = await this.ctx.request(Requests.overview);
      } catch (error) {
        this.ctx.output.appendLine(`[overview] ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (generation !== this.generation) return;
    this.overview = overview;
    this.changed.fire(undefined);
  }

  getChildren(node?: OverviewNode): OverviewNode[] {
    return this.overview ? overviewChildren(this.overview, node) : [];
  }

  getTreeItem(node: OverviewNode): vscode.TreeItem {
    const row = overviewRow(node, this.overview);
    // No explicit id: VS Code's own handles (label and position) keep the expansion state,
    // without the registration race of fixed ids across refreshes (microsoft/vscode#71698).
    // Names, paths and insight titles come from the profile: no markdown link may form.
    const item = new vscode.TreeItem(noLinks(row.label), COLLAPSIBLE[row.collapsible]);
    if (row.description !== undefined) item.description = noLinks(row.description);
    if (row.tooltip !== undefined) item.tooltip = row.markdownTooltip ? new vscode.MarkdownString().appendText(row.tooltip) : noLinks(row.tooltip);
    if (row.icon !== undefined) item.iconPath = new vscode.ThemeIcon(row.icon);
    // Hot functions offer "Show Callers and Callees" (package.json's view/item/context).
    if (node.kind === 'function') item.contextValue = 'hotframe.function';
    if (row.target && 'open' in row.target) item.command = { title: 'Open', command: OPEN_LOCATION_COMMAND, arguments: [row.target.open.file, row.target.open.line] };
    else if (row.target) item.command = { title: 'Show Flame Graph', command: 'hotframe.showFlameGraph' };
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
