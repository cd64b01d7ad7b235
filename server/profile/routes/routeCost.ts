// Cost per route (issue 25): each CPU sample charged to the route whose handler or middleware is
// on its stack, the innermost one winning (express runs a route's handler inside the `next()` of
// the middleware before it, so the handler is nearer the top). A frame is a handler's when its
// function starts inside the handler's extent: the handler itself, and the closures written in it
// (a `.then` callback, the continuation after an `await`, which V8 shows as the async function
// itself resuming); callees anywhere are charged through the stack. A sample with no handler's
// frame on its stack is "(no route)", never guessed. One exception, where the order of samples says
// more than their stacks: a garbage-collector sample of a `.cpuprofile` has no JS stack at all, and
// it collects what the code that ran just before allocated, so it is charged to the route of the
// sample before it (a V8 log's GC ticks keep their stack and need no such rule). With a Hotframe
// recording's request windows, samples with no endpoint route on their stack are charged to the
// route whose requests alone were open (requestWindows.ts). Pure: the profile's tree, its samples
// in order, the route map and the requests in.
import { percentOf, type ShareBasis } from '../../shared/format';
import type { RouteCost, RouteReport } from '../../protocol/wire';
import { chargeByRequestWindows } from './requestWindows';
import { chargeUnsampledCpu, type ThreadClock } from './unsampledCpu';

export type { RouteCost, RouteReport };

/** The label of samples no route's code is on. */
export const NO_ROUTE = '(no route)';

/** A function's extent: lines 1-based, columns 0-based. */
export interface HandlerExtent {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface RouteHandler {
  route: string;
  kind: 'request' | 'message';
  file: string;
  range: HandlerExtent;
}

export interface RouteInputs {
  tree: { count: number; parent: Int32Array; func: Int32Array; selfMs: Float64Array };
  /** The samples in recording order (formats that keep it): which node each landed on, when. */
  timeline?: { node: Int32Array; atMs: Float64Array; endMs: number };
  /** Where a profile function starts (local file, 1-based line and column as the readers give them), whether it is idle, and whether it is the garbage collector. */
  functionAt: (func: number) => { file: string; line: number; column: number; idle: boolean; gc?: boolean } | null;
  handlers: readonly RouteHandler[];
  /** Every route registered, in the map's order, with where (listed even at 0 ms); `match.method` 'USE' for middleware. */
  routes: readonly { route: string; kind: 'request' | 'message'; registeredAt: { file: string; line: number }[]; match?: { method: string } }[];
  /** The profile's CPU time, idle excluded: the denominator of every share. */
  cpuMs: number;
  /** What every share is of (the profile's report). */
  shareBasis: ShareBasis;
  unresolvedHandlers: number;
}

function contains(range: HandlerExtent, line: number, column: number): boolean {
  if (line < range.startLine || line > range.endLine) return false;
  if (line === range.startLine && column < range.startColumn) return false;
  if (line === range.endLine && column > range.endColumn) return false;
  return true;
}

function size(range: HandlerExtent): number {
  return (range.endLine - range.startLine) * 1e6 + (range.endColumn - range.startColumn);
}

/** Route(s) of the innermost handler extent holding a position; several routes when one function serves several. */
export class HandlerLookup {
  private readonly byFile = new Map<string, RouteHandler[]>();

  constructor(handlers: readonly RouteHandler[]) {
    for (const h of handlers) {
      const list = this.byFile.get(h.file) ?? [];
      list.push(h);
      this.byFile.set(h.file, list);
    }
  }

  /** The label of the route(s) whose handler holds (line, column 1-based) of `file`, or null. */
  routeAt(file: string, line: number, column: number): string | null {
    const list = this.byFile.get(file);
    if (list === undefined) return null;
    // V8 gives a function's position somewhere in its header (the `function` keyword, its name or
    // its parameters' parenthesis): the innermost extent that holds it.
    const col0 = Math.max(0, column - 1);
    let best: number | null = null;
    const routes = new Set<string>();
    for (const h of list) {
      if (!contains(h.range, line, col0)) continue;
      const s = size(h.range);
      if (best === null || s < best) {
        best = s;
        routes.clear();
      }
      if (s === best) routes.add(h.route);
    }
    return routes.size === 0 ? null : [...routes].sort().join(' | ');
  }
}

/** The route each tree node's sample is charged to (-1: none), as indexes into `labels`. */
export function routeOfNodes(inputs: Pick<RouteInputs, 'tree' | 'functionAt' | 'handlers'>): { labels: string[]; nodeRoute: Int32Array } {
  const { tree } = inputs;
  const lookup = new HandlerLookup(inputs.handlers);
  const labels: string[] = [];
  const labelIndex = new Map<string, number>();
  const byFunc = new Map<number, number>();
  const nodeRoute = new Int32Array(tree.count).fill(-1);
  for (let n = 1; n < tree.count; n++) {
    const f = tree.func[n];
    let own = byFunc.get(f);
    if (own === undefined) {
      own = -1;
      const at = f < 0 ? null : inputs.functionAt(f);
      const label = at === null || at.file === '' ? null : lookup.routeAt(at.file, at.line, at.column);
      if (label !== null) {
        own = labelIndex.get(label) ?? labels.length;
        if (own === labels.length) {
          labels.push(label);
          labelIndex.set(label, own);
        }
      }
      byFunc.set(f, own);
    }
    const parent = tree.parent[n];
    nodeRoute[n] = own !== -1 ? own : parent >= 0 ? nodeRoute[parent] : -1;
  }
  return { labels, nodeRoute };
}

/** The route a tree node's sample is charged to (null: none), for the stalls' `route`. */
export function nodeRoutes(inputs: Pick<RouteInputs, 'tree' | 'functionAt' | 'handlers'>): (node: number) => string | null {
  const { labels, nodeRoute } = routeOfNodes(inputs);
  return (node) => (node >= 0 && node < nodeRoute.length && nodeRoute[node] !== -1 ? labels[nodeRoute[node]] : null);
}

/** A request of a Hotframe recording: its window (ms since the profile's start) and the endpoint routes its method and path matched. */
export interface RequestSpan {
  startMs: number;
  endMs: number | null;
  routes: readonly string[];
}

/**
 * The report; with `requests` (a Hotframe recording's, on this profile's own clock) and the
 * samples' order, what no endpoint route's frame claims is charged by the requests' windows.
 */
export function routeReportOf(inputs: RouteInputs, requests?: readonly RequestSpan[], threadClock?: ThreadClock): RouteReport {
  const { tree, cpuMs } = inputs;
  const { labels, nodeRoute } = routeOfNodes(inputs);
  // A route no frame was sampled of can still own requests: a row for it.
  const partsSeen = new Set(labels.flatMap((label) => label.split(' | ')));
  if (requests !== undefined) for (const r of requests) for (const route of r.routes) if (!partsSeen.has(route)) {
    partsSeen.add(route);
    labels.push(route);
  }
  const ms = new Float64Array(labels.length);
  let routedMs = 0;
  const idleFunc = new Map<number, boolean>();
  const isIdle = (node: number): boolean => {
    const f = tree.func[node];
    if (f < 0) return false;
    let idle = idleFunc.get(f);
    if (idle === undefined) {
      idle = inputs.functionAt(f)?.idle === true;
      idleFunc.set(f, idle);
    }
    return idle;
  };
  for (let n = 1; n < tree.count; n++) {
    const r = nodeRoute[n];
    if (r === -1 || tree.selfMs[n] === 0 || isIdle(n)) continue;
    ms[r] += tree.selfMs[n];
    routedMs += tree.selfMs[n];
  }
  const sampleRow = chargeCollections(inputs, nodeRoute, ms);
  if (sampleRow !== null) routedMs += sampleRow.chargedMs;
  const registered = new Map(inputs.routes.map((r) => [r.route, r]));
  const windowMs = new Float64Array(labels.length);
  let unsampledMs: Float64Array | null = null;
  let windows: RouteReport['requestWindows'];
  if (requests !== undefined && sampleRow !== null && inputs.timeline !== undefined) {
    const { timeline } = inputs;
    const middleware = labels.map((label) => label.split(' | ').every((part) => registered.get(part)?.match?.method.toUpperCase() === 'USE'));
    const idle = new Uint8Array(timeline.node.length);
    for (let i = 0; i < idle.length; i++) {
      const n = timeline.node[i];
      if (n >= 0 && n < tree.count && isIdle(n)) idle[i] = 1;
    }
    // The rows whose label names a route: itself, or the routes one handler serves joined.
    const rowsByRoute = new Map<string, number[]>();
    labels.forEach((label, i) => {
      for (const part of label.split(' | ')) rowsByRoute.set(part, [...(rowsByRoute.get(part) ?? []), i]);
    });
    const rowsOf = (route: string): number[] => rowsByRoute.get(route) ?? [];
    const samples = { atMs: timeline.atMs, endMs: timeline.endMs, row: sampleRow.rows, idle, middleware: (row: number) => middleware[row] === true, rowCount: labels.length };
    const spans = requests.map((r) => ({ startMs: r.startMs, endMs: r.endMs, candidates: [...new Set(r.routes.flatMap(rowsOf))] }));
    const charge = chargeByRequestWindows(samples, spans);
    for (let i = 0; i < labels.length; i++) {
      ms[i] = Math.max(0, ms[i] + charge.gained[i] - charge.given[i]);
      windowMs[i] = charge.gained[i];
    }
    routedMs += charge.fromNoRouteMs;
    windows = { chargedMs: charge.fromNoRouteMs + charge.given.reduce((a, b) => a + b, 0), overlappedMs: charge.overlappedMs, requests: charge.requests, placed: charge.ownedRequests };
    if (threadClock !== undefined) {
      const unsampled = chargeUnsampledCpu(threadClock, samples, spans, charge.owners);
      unsampledMs = unsampled.perRow;
      // The samples around the windows in the clock's spans charged to a route, with no endpoint route's frame: its figure.
      for (let i = 0; i < labels.length; i++) {
        const around = unsampled.aroundPerRow[i];
        const given = unsampled.aroundGiven[i];
        ms[i] = Math.max(0, ms[i] + around - given);
        windowMs[i] += around;
        windows.chargedMs += around;
      }
      routedMs += unsampled.aroundPerRow.reduce((a, b) => a + b, 0) - unsampled.aroundGiven.reduce((a, b) => a + b, 0);
      windows.unsampled = { threadMs: unsampled.threadMs, unsampledMs: unsampled.unsampledMs, chargedMs: unsampled.perRow.reduce((a, b) => a + b, 0) };
    }
  }
  const costs: RouteCost[] = [];
  const seen = new Set<string>();
  labels.forEach((label, i) => {
    const parts = label.split(' | ');
    for (const part of parts) seen.add(part);
    const first = registered.get(parts[0]);
    costs.push({
      route: label,
      kind: first?.kind ?? 'request',
      ms: ms[i],
      percent: percentOf(ms[i], cpuMs),
      registeredAt: parts.flatMap((p) => registered.get(p)?.registeredAt ?? []),
      ...(parts.length > 1 ? { shared: true } : {}),
      ...(windowMs[i] > 0 ? { byRequestWindowsMs: windowMs[i] } : {}),
      ...(unsampledMs !== null && unsampledMs[i] > 0 ? { unsampledMs: unsampledMs[i] } : {}),
    });
  });
  for (const r of inputs.routes) {
    if (!seen.has(r.route)) costs.push({ route: r.route, kind: r.kind, ms: 0, percent: 0, registeredAt: r.registeredAt });
  }
  costs.sort((a, b) => b.ms - a.ms || a.route.localeCompare(b.route));
  const noRouteMs = Math.max(0, cpuMs - routedMs);
  return {
    cpuMs,
    shareBasis: inputs.shareBasis,
    routes: costs,
    noRoute: { ms: noRouteMs, percent: percentOf(noRouteMs, cpuMs) },
    unresolvedHandlers: inputs.unresolvedHandlers,
    ...(windows !== undefined ? { requestWindows: windows } : {}),
  };
}

/**
 * Charges each stackless garbage-collector sample (no route on its stack) to the route of the
 * sample before it, through a run of such samples. Answers each sample's row after that rule
 * (-1: none) and the ms charged; null without the samples' order (pprof), when nothing is
 * charged: they stay (no route).
 */
function chargeCollections(inputs: RouteInputs, nodeRoute: Int32Array, ms: Float64Array): { rows: Int32Array; chargedMs: number } | null {
  const { timeline, tree } = inputs;
  if (timeline === undefined) return null;
  const gcNode = new Uint8Array(tree.count);
  for (let n = 1; n < tree.count; n++) if (nodeRoute[n] === -1 && tree.func[n] >= 0 && inputs.functionAt(tree.func[n])?.gc === true) gcNode[n] = 1;
  let charged = 0;
  let before = -1;
  const count = timeline.node.length;
  const rows = new Int32Array(count).fill(-1);
  for (let i = 0; i < count; i++) {
    const n = timeline.node[i];
    if (n < 0 || n >= tree.count) {
      before = -1;
      continue;
    }
    if (gcNode[n] === 0) {
      before = nodeRoute[n];
      rows[i] = before;
      continue;
    }
    if (before === -1) continue;
    rows[i] = before;
    const lasted = (i + 1 < count ? timeline.atMs[i + 1] : timeline.endMs) - timeline.atMs[i];
    if (lasted > 0) {
      ms[before] += lasted;
      charged += lasted;
    }
  }
  return { rows, chargedMs: charged };
}

/** What routeReportOf needs of an analyzed profile (report.ts's AnalyzedProfile has these fields). */
export interface AnalyzedForRoutes {
  profile: { tree: RouteInputs['tree']; timeline?: RouteInputs['timeline'] };
  index: { canonicalOf: Int32Array; functions: readonly { file: string; line: number; column: number; category: string; resolved: boolean }[] };
  report: { cpuMs: number; shareBasis: ShareBasis };
}

/** The inputs of routeReportOf from an analyzed profile and the project's route map. */
export function routeInputsOf(analyzed: AnalyzedForRoutes, map: Pick<RouteInputs, 'handlers' | 'routes' | 'unresolvedHandlers'>): RouteInputs {
  const { index } = analyzed;
  return {
    tree: analyzed.profile.tree,
    ...(analyzed.profile.timeline !== undefined ? { timeline: analyzed.profile.timeline } : {}),
    functionAt: (func) => {
      const f = index.functions[index.canonicalOf[func]];
      if (f === undefined) return null;
      return { file: f.resolved ? f.file : '', line: f.line, column: f.column, idle: f.category === 'idle', gc: f.category === 'gc' };
    },
    handlers: map.handlers,
    routes: map.routes,
    unresolvedHandlers: map.unresolvedHandlers,
    cpuMs: analyzed.report.cpuMs,
    shareBasis: analyzed.report.shareBasis,
  };
}
