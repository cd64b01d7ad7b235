// The activity-bar tree: hot functions, user call sites (with the library cost beneath them),
// insights, and the files the profile names that were not found locally.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HotframeContext } from './ctx';
import { Requests } from '../server/protocol/lsp';
import type { AttributedLibraryCost, CallSite, FunctionCost, Insight, OverviewResult } from '../server/protocol/wire';
import { formatCost, formatCostShort, formatMs, formatPercent, formatWeight, percentOf } from '../server/shared/format';

export const OPEN_LOCATION_COMMAND = 'hotframe._openLocation';
/** Items per section: a review starts with the top of the list; the flame graph has the rest. */
const MAX_ITEMS = 15;

type SectionId = 'functions' | 'callSites' | 'insights' | 'unresolved';

export type OverviewNode =
  | { kind: 'section'; id: SectionId; label: string; count: number }
  | { kind: 'function'; value: FunctionCost }
  | { kind: 'callSite'; value: CallSite }
  | { kind: 'library'; value: AttributedLibraryCost }
  | { kind: 'insight'; value: Insight }
  | { kind: 'unresolved'; file: string }
  | { kind: 'message'; label: string }
  | { kind: 'more'; count: number };

function openCommand(file: string, line: number): vscode.Command | undefined {
  // Frames such as `node:internal/...` or native code have no file to open.
  if (!path.isAbsolute(file)) return undefined;
  return { title: 'Open', command: OPEN_LOCATION_COMMAND, arguments: [file, line] };
}

function capped(nodes: OverviewNode[]): OverviewNode[] {
  if (nodes.length <= MAX_ITEMS) return nodes;
  return [...nodes.slice(0, MAX_ITEMS), { kind: 'more', count: nodes.length - MAX_ITEMS }];
}

/** Idle time is not a cost to review; GC and native frames are, so they stay listed. */
function busyFunctions(o: OverviewResult): FunctionCost[] {
  return o.hotFunctions.filter((f) => f.category !== 'idle');
}

/** "self 1.20 ms · total 42.0 ms · 4.20% CPU", the editor note's figures. */
export function functionDescription(f: FunctionCost): string {
  return `self ${formatMs(f.selfMs)} · total ${formatCostShort(f.totalMs, f.totalPercent)}`;
}

export function functionTooltip(f: FunctionCost): string {
  return [
    location(f.file, f.line),
    `self ${formatCost(f.selfMs, f.selfPercent)}`,
    `total ${formatCost(f.totalMs, f.totalPercent)}`,
    `${f.selfSamples} self samples, ${f.totalSamples} total (${f.category})`,
  ].join('\n');
}

function location(file: string, line: number): string {
  return line > 0 ? `${file}:${line}` : file;
}

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

  /** The data the tree shows, for `hotframe._debugState`. */
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
    if (this.ctx.profile) {
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
    const o = this.overview;
    if (!o) return [];
    if (!node) {
      const sections: OverviewNode[] = [
        { kind: 'section', id: 'functions', label: 'Hot functions', count: busyFunctions(o).length },
        { kind: 'section', id: 'callSites', label: 'User call sites', count: o.callSites.length },
        { kind: 'section', id: 'insights', label: 'Insights', count: o.insights.length },
      ];
      const unresolved = o.profile?.unresolvedFiles.length ?? 0;
      if (unresolved > 0) sections.push({ kind: 'section', id: 'unresolved', label: 'Unresolved files', count: unresolved });
      return sections;
    }
    switch (node.kind) {
      case 'section':
        return this.sectionChildren(node.id, o);
      case 'callSite':
        return node.value.libraries.map((value) => ({ kind: 'library', value }));
      default:
        return [];
    }
  }

  private sectionChildren(id: SectionId, o: OverviewResult): OverviewNode[] {
    const empty = (label: string): OverviewNode[] => [{ kind: 'message', label }];
    switch (id) {
      case 'functions': {
        const busy = busyFunctions(o);
        return busy.length ? capped(busy.map((value) => ({ kind: 'function', value }))) : empty('No samples outside idle');
      }
      case 'callSites':
        return o.callSites.length ? capped(o.callSites.map((value) => ({ kind: 'callSite', value }))) : empty('No library cost attributed');
      case 'insights':
        return o.insights.length ? o.insights.map((value) => ({ kind: 'insight', value })) : empty('Nothing stands out');
      case 'unresolved':
        return (o.profile?.unresolvedFiles ?? []).map((file) => ({ kind: 'unresolved', file }));
    }
  }

  getTreeItem(node: OverviewNode): vscode.TreeItem {
    const None = vscode.TreeItemCollapsibleState.None;
    const cpuMs = this.overview?.profile?.cpuMs ?? 0;
    // Allocation profiles: every figure in bytes (or objects), never as time.
    const unit = this.overview?.profile?.unit ?? 'ms';
    const weight = (value: number, percent: number | null): string => (unit === 'ms' ? formatCostShort(value, percent) : `${formatWeight(value, unit)} · ${formatPercent(percent ?? 0)} of ${unit}`);
    switch (node.kind) {
      case 'section': {
        // Call sites expand into their libraries: start folded so the insights stay in view.
        const folded = node.id === 'unresolved' || node.id === 'callSites';
        const item = new vscode.TreeItem(node.label, folded ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
        item.description = String(node.count);
        // No explicit id: VS Code's own handles (label and position) keep the expansion state,
        // without the registration race of fixed ids across refreshes (microsoft/vscode#71698).
        if (node.id === 'unresolved') item.tooltip = 'Frames name these files, but they were not found locally. Add a hotframe.pathMappings entry.';
        return item;
      }
      case 'function': {
        const f = node.value;
        const item = new vscode.TreeItem(f.name || '(anonymous)', None);
        // The label is the name only: numbers go in the description, which VS Code shows beside
        // it, and in full in the tooltip, so a narrow view never cuts a figure off.
        item.description = unit === 'ms' ? functionDescription(f) : `allocates ${weight(f.totalMs, f.totalPercent ?? 0)}`;
        item.tooltip = unit === 'ms' ? functionTooltip(f) : `${location(f.file, f.line)}${f.inferred === true ? ' (placed by its name: no URL in the profile)' : ''}\nself ${weight(f.selfMs, f.selfPercent ?? 0)}, total ${weight(f.totalMs, f.totalPercent ?? 0)}`;
        item.iconPath = new vscode.ThemeIcon('symbol-function');
        item.command = openCommand(f.file, f.line);
        return item;
      }
      case 'callSite': {
        const c = node.value;
        const item = new vscode.TreeItem(c.function || '(anonymous)', c.libraries.length ? vscode.TreeItemCollapsibleState.Collapsed : None);
        item.description = `${weight(c.ms, c.percent)} · ${path.basename(c.file)}:${c.line}`;
        item.tooltip = unit === 'ms' ? `${location(c.file, c.line)}\nLibrary time beneath this call: ${formatCost(c.ms, c.percent)}, ${c.samples} samples` : `${location(c.file, c.line)}\nAllocated in libraries beneath this call: ${weight(c.ms, c.percent)}`;
        item.iconPath = new vscode.ThemeIcon('call-outgoing');
        item.command = openCommand(c.file, c.line);
        return item;
      }
      case 'library': {
        const l = node.value;
        const item = new vscode.TreeItem(l.name || '(anonymous)', None);
        const percent = cpuMs > 0 ? percentOf(l.ms, cpuMs) : null;
        item.description = `${formatCostShort(l.ms, percent)} · ${l.category}`;
        item.tooltip = `${location(l.file, l.line)}\n${formatCost(l.ms, percent)} under this call, ${l.samples} samples (${l.category})`;
        item.iconPath = new vscode.ThemeIcon('package');
        item.command = openCommand(l.file, l.line);
        return item;
      }
      case 'insight': {
        const i = node.value;
        const item = new vscode.TreeItem(i.title, None);
        item.description = formatCostShort(i.ms, i.percent);
        item.tooltip = new vscode.MarkdownString().appendText(`${formatCost(i.ms, i.percent)}\n\n${i.message}`);
        item.iconPath = new vscode.ThemeIcon('lightbulb');
        if (i.location) item.command = openCommand(i.location.file, i.location.line);
        return item;
      }
      case 'unresolved': {
        const item = new vscode.TreeItem(node.file, None);
        item.iconPath = new vscode.ThemeIcon('question');
        return item;
      }
      case 'message':
        return new vscode.TreeItem(node.label, None);
      case 'more': {
        const item = new vscode.TreeItem(`${node.count} more…`, None);
        item.tooltip = 'Everything is in the flame graph';
        item.command = { title: 'Show Flame Graph', command: 'hotframe.showFlameGraph' };
        return item;
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
