// What the activity-bar tree shows: its sections and rows (hot functions, user call sites with
// the library cost beneath them, insights, files not found locally) and each row's label,
// description, tooltip, icon and target. No vscode import (unit-tested); client/views.ts turns
// the rows into TreeItems.
import * as path from 'node:path';
import type { OverviewResult } from '../../server/protocol/wire';
import type { AttributedLibraryCost, CallSite, FunctionCost, Insight, RouteCost } from '../../server/protocol/wire';
import { gcTraceHeading, gcTraceRows, type GcTraceRow } from './gcTrace';
import { formatCost, formatCostShort, formatMs, formatPerRequest, PER_REQUEST_OF, percentOf, type ShareBasis } from '../../server/shared/format';

/** Items per section: a review starts with the top of the list; the flame graph has the rest. */
export const MAX_ITEMS = 15;

export type SectionId = 'functions' | 'callSites' | 'insights' | 'routes' | 'unresolved' | 'gcTrace';

export type OverviewNode =
  | { kind: 'section'; id: SectionId; label: string; count: number; /** Shown instead of the bare count, when the count alone would misread (Routes: "2 of 16 ran"). */ description?: string }
  | { kind: 'function'; value: FunctionCost }
  | { kind: 'callSite'; value: CallSite }
  | { kind: 'library'; value: AttributedLibraryCost }
  | { kind: 'insight'; value: Insight }
  | { kind: 'route'; value: RouteCost }
  | { kind: 'noRoute'; ms: number; percent: number; unmatched?: number; /** A recording's request windows charged what they could (RouteReport.requestWindows). */ windows?: { overlappedMs: number } }
  | { kind: 'unresolved'; file: string }
  | { kind: 'message'; label: string }
  | { kind: 'gcTrace'; row: GcTraceRow }
  | { kind: 'more'; count: number };

/** One row as drawn: VS Code's TreeItem fields, without VS Code's types. */
export interface OverviewRow {
  label: string;
  description?: string;
  tooltip?: string;
  /** The tooltip is shown as markdown (its text escaped), as VS Code does for insights. */
  markdownTooltip?: boolean;
  collapsible: 'none' | 'collapsed' | 'expanded';
  /** A codicon id. */
  icon?: string;
  /** What a click does: open a source line, or show the flame graph. */
  target?: { open: { file: string; line: number } } | { flameGraph: true };
}

function capped(nodes: OverviewNode[]): OverviewNode[] {
  if (nodes.length <= MAX_ITEMS) return nodes;
  return [...nodes.slice(0, MAX_ITEMS), { kind: 'more', count: nodes.length - MAX_ITEMS }];
}

/** Idle time is not a cost to review; GC and native frames are, so they stay listed. */
function busyFunctions(o: OverviewResult): FunctionCost[] {
  return o.hotFunctions.filter((f) => f.category !== 'idle');
}

function location(file: string, line: number): string {
  return line > 0 ? `${file}:${line}` : file;
}

function openTarget(file: string, line: number): OverviewRow['target'] {
  // Frames such as `node:internal/...` or native code have no file to open.
  return path.isAbsolute(file) ? { open: { file, line } } : undefined;
}

/** A row for a place in the source (a function, a call site, a library function): a click opens it. */
function placeRow(name: string, at: { file: string; line: number }, icon: string, description: string, tooltip: string): OverviewRow {
  return { label: name || '(anonymous)', description, tooltip, collapsible: 'none', icon, target: openTarget(at.file, at.line) };
}

/** "self 1.20 ms · total 42.0 ms · 4.20% CPU", the editor note's figures. */
export function functionDescription(f: FunctionCost, basis: ShareBasis): string {
  return `self ${formatMs(f.selfMs)} · total ${formatCostShort(f.totalMs, f.totalPercent, basis)}`;
}

export function functionTooltip(f: FunctionCost, basis: ShareBasis): string {
  return [
    location(f.file, f.line),
    `self ${formatCost(f.selfMs, f.selfPercent, basis)}`,
    `total ${formatCost(f.totalMs, f.totalPercent, basis)}`,
    `${f.selfSamples} self samples, ${f.totalSamples} total (${f.category})`,
  ].join('\n');
}

/** The children of `node` (the sections at the top). */
export function overviewChildren(o: OverviewResult, node?: OverviewNode): OverviewNode[] {
  if (!node) {
    const gcTrace: OverviewNode[] = o.gcTrace !== undefined ? [{ kind: 'section', id: 'gcTrace', label: gcTraceHeading(o.gcTrace).label, count: o.gcTrace.summary.collections }] : [];
    // A GC trace opened with no profile loaded: its section alone.
    if (o.profile === null) return gcTrace;
    const sections: OverviewNode[] = [
      { kind: 'section', id: 'functions', label: 'Hot functions', count: busyFunctions(o).length },
      { kind: 'section', id: 'callSites', label: 'User call sites', count: o.callSites.length },
      { kind: 'section', id: 'insights', label: 'Insights', count: o.insights.length },
    ];
    if (o.routes !== undefined && o.routes.routes.length > 0) {
      // The count is of the routes listed (those that ran), said against the routes the source registers: "0 of 16 ran" above a lone (no route) row.
      const ran = routesThatRan(o.routes).length;
      sections.push({ kind: 'section', id: 'routes', label: 'Routes', count: ran, description: `${ran.toLocaleString('en-US')} of ${o.routes.routes.length.toLocaleString('en-US')} ran` });
    }
    const unresolved = o.profile?.unresolvedCount ?? 0;
    if (unresolved > 0) sections.push({ kind: 'section', id: 'unresolved', label: 'Unresolved files', count: unresolved });
    return [...sections, ...gcTrace];
  }
  switch (node.kind) {
    case 'section':
      return sectionChildren(node.id, o);
    case 'callSite':
      return node.value.libraries.map((value) => ({ kind: 'library', value }));
    default:
      return [];
  }
}

/** The routes the Routes section lists: those that ran or received requests (a registered route with neither says nothing here). */
function routesThatRan(routes: NonNullable<OverviewResult['routes']>): NonNullable<OverviewResult['routes']>['routes'] {
  return routes.routes.filter((r) => r.ms > 0 || (r.requests ?? 0) > 0);
}

function sectionChildren(id: SectionId, o: OverviewResult): OverviewNode[] {
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
    case 'routes': {
      const routes = o.routes;
      if (routes === undefined) return [];
      // The routes that ran or received requests, then the share of no route: a registered route with neither says nothing here.
      const ran: OverviewNode[] = routesThatRan(routes).map((value) => ({ kind: 'route', value }));
      return [...capped(ran), {
        kind: 'noRoute',
        ms: routes.noRoute.ms,
        percent: routes.noRoute.percent,
        ...(routes.requests !== undefined ? { unmatched: routes.requests.unmatched } : {}),
        ...(routes.requestWindows !== undefined ? { windows: { overlappedMs: routes.requestWindows.overlappedMs } } : {}),
      }];
    }
    case 'gcTrace':
      return o.gcTrace !== undefined ? gcTraceRows(o.gcTrace, o.profile).map((row) => ({ kind: 'gcTrace', row })) : [];
    case 'unresolved': {
      // The summary lists the costliest files; the rest are counted.
      const listed = o.profile?.unresolvedFiles ?? [];
      const rest = (o.profile?.unresolvedCount ?? listed.length) - listed.length;
      const files: OverviewNode[] = listed.map((file) => ({ kind: 'unresolved', file }));
      return rest > 0 ? [...files, { kind: 'message', label: `${rest} more, with fewer samples (hotframe profile FILE --format json lists every one)` }] : files;
    }
  }
}

/** How `node` is drawn, with the figures of `o` (null: nothing loaded). */
export function overviewRow(node: OverviewNode, o: OverviewResult | null): OverviewRow {
  const cpuMs = o?.profile?.cpuMs ?? 0;
  // What every share is of, as the loaded profile says (allocation profiles: bytes or objects, never time; a merged capture: all its processes).
  const basis: ShareBasis = o?.profile?.shareBasis ?? { unit: o?.profile?.unit ?? 'ms' };
  const unit = basis.unit;
  const weight = (value: number, percent: number | null): string => formatCostShort(value, percent ?? 0, basis);
  switch (node.kind) {
    case 'section':
      if (node.id === 'gcTrace' && o?.gcTrace !== undefined) {
        const heading = gcTraceHeading(o.gcTrace);
        return { label: heading.label, description: heading.description, tooltip: heading.tooltip, collapsible: 'expanded' };
      }
      return {
        label: node.label,
        description: node.description ?? String(node.count),
        // Call sites expand into their libraries: start folded so the insights stay in view.
        collapsible: node.id === 'unresolved' || node.id === 'callSites' ? 'collapsed' : 'expanded',
        ...(node.id === 'unresolved' ? { tooltip: 'Frames name these files, but they were not found locally. Add a hotframe.pathMappings entry.' } : {}),
      };
    case 'function': {
      const f = node.value;
      // The label is the name only: numbers go in the description, which VS Code shows beside
      // it, and in full in the tooltip, so a narrow view never cuts a figure off.
      if (unit === 'ms') return placeRow(f.name, f, 'symbol-function', functionDescription(f, basis), functionTooltip(f, basis));
      const inferred = f.inferred === true ? ' (placed by its name: no URL in the profile)' : '';
      return placeRow(f.name, f, 'symbol-function', `allocates ${weight(f.totalMs, f.totalPercent ?? 0)}`, `${location(f.file, f.line)}${inferred}\nself ${weight(f.selfMs, f.selfPercent ?? 0)}, total ${weight(f.totalMs, f.totalPercent ?? 0)}`);
    }
    case 'callSite': {
      const c = node.value;
      const beneath = unit === 'ms' ? `Library time beneath this call: ${formatCost(c.ms, c.percent, basis)}, ${c.samples} samples` : `Allocated in libraries beneath this call: ${weight(c.ms, c.percent)}`;
      const row = placeRow(c.function, c, 'call-outgoing', `${weight(c.ms, c.percent)} · ${path.basename(c.file)}:${c.line}`, `${location(c.file, c.line)}\n${beneath}`);
      return c.libraries.length ? { ...row, collapsible: 'collapsed' } : row;
    }
    case 'library': {
      const l = node.value;
      const percent = cpuMs > 0 ? percentOf(l.ms, cpuMs) : null;
      const counted = unit === 'ms' ? `, ${l.samples} samples` : '';
      return placeRow(l.name, l, 'package', `${formatCostShort(l.ms, percent, basis)} · ${l.category}`, `${location(l.file, l.line)}\n${formatCost(l.ms, percent, basis)} under this call${counted} (${l.category})`);
    }
    case 'insight': {
      const i = node.value;
      return {
        label: i.title,
        description: formatCostShort(i.ms, i.percent, i.shareBasis),
        tooltip: `${formatCost(i.ms, i.percent, i.shareBasis)}\n\n${i.message}`,
        markdownTooltip: true,
        collapsible: 'none',
        icon: 'lightbulb',
        target: i.location ? openTarget(i.location.file, i.location.line) : undefined,
      };
    }
    case 'route': {
      // "GET /v1/tasks  289 ms · 3.74% CPU": a click opens where the route is registered.
      const r = node.value;
      const at = r.registeredAt[0];
      const where = r.registeredAt.map((w) => location(w.file, w.line)).join('\n');
      const shared = r.shared === true ? '\nOne handler serves these routes: their samples cannot be told apart.' : '';
      // A Hotframe recording counted its requests: "40 requests · 7.20 ms/request".
      const served = r.requests !== undefined ? formatPerRequest(r.ms, r.requests) : null;
      const windowed = r.byRequestWindowsMs !== undefined ? `\n${formatMs(r.byRequestWindowsMs)} of it by its requests' windows: samples with no endpoint route on the stack (HTTP work, middleware, GC) while only this route's requests were open (with the thread's clock: in the loop's ticks around them)` : '';
      const unsampled = r.unsampledMs !== undefined ? `\n+ ${formatMs(r.unsampledMs)} of the main thread's CPU, by its own clock, that no sample shows (the kernel's side of the loop's polls and socket reads) while only this route's requests were open: not in the figure or its share` : '';
      return {
        label: r.route,
        description: formatCostShort(r.ms, r.percent, basis) + (served !== null ? ` · ${served}` : ''),
        tooltip: `${formatCost(r.ms, r.percent, basis)} with this route's handler or middleware on the stack${windowed}${unsampled}${served !== null ? `\n${served} (ms/request = ${PER_REQUEST_OF})` : ''}\nregistered at ${where}${shared}`,
        collapsible: 'none',
        icon: r.kind === 'message' ? 'mail' : 'globe',
        target: at !== undefined ? openTarget(at.file, at.line) : undefined,
      };
    }
    case 'noRoute':
      return {
        label: '(no route)',
        description: formatCostShort(node.ms, node.percent, basis) + (node.unmatched !== undefined ? ` · ${node.unmatched.toLocaleString('en-US')} unmatched requests` : ''),
        tooltip: `${formatCost(node.ms, node.percent, basis)} with no route's handler or middleware on the stack (timers, start-up, framework code before a handler, GC)${node.unmatched !== undefined ? `\n${node.unmatched.toLocaleString('en-US')} request(s) matched no route's method and path (a 404, or a route the source analysis did not find)` : ''}${node.windows !== undefined ? `\nnor inside the request windows of one route alone (${formatMs(node.windows.overlappedMs)} fell while requests of several routes were open)` : ''}`,
        collapsible: 'none',
        icon: 'circle-slash',
      };
    case 'unresolved':
      return { label: node.file, collapsible: 'none', icon: 'question' };
    case 'message':
      return { label: node.label, collapsible: 'none' };
    case 'gcTrace':
      return { label: node.row.label, description: node.row.description, tooltip: node.row.tooltip, icon: node.row.icon, collapsible: 'none' };
    case 'more':
      return { label: `${node.count} more…`, tooltip: 'Everything is in the flame graph', collapsible: 'none', target: { flameGraph: true } };
  }
}
