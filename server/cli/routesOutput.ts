// `hotframe profile FILE --routes [--root DIR]`: CPU time per route and message handler. The route
// map is read from the source files under --root (server/static/project/routeMap.ts), the samples
// charged by server/profile/routes/routeCost.ts; text or JSON. Routes and paths are written by the
// project's source and names by the profile (untrusted): control characters are escaped.
import { isAbsolute, relative } from 'node:path';

import { projectRouteMap } from '../static/project/routeMap';
import { formatCostShort, formatMs, formatPerRequest, PER_REQUEST_OF, shareOfText } from '../shared/format';
import { NO_ROUTE, nodeRoutes, routeInputsOf, routeReportOf, type AnalyzedForRoutes, type RouteCost, type RouteReport } from '../profile/routes/routeCost';
import { printable } from './printable';
import { patternsOf, requestSpans, withRequestCounts, type RequestTally } from '../profile/routes/requestCounts';
import { readServingLogs, servingLogPath } from '../profile/readers/readServingLog';

/**
 * The route report of a profile; with `profileFile` recorded by Hotframe (its serving notes
 * beside it), each route's requests too, and (one file: its notes are on the profile's clock) the
 * samples no route's frame claims charged by the requests' windows; with several files (a capture
 * merged), the requests of them all. Notes that cannot be used are said on stderr.
 */
export function routeReportFor(analyzed: AnalyzedForRoutes, root: string, profileFile?: string | readonly string[]): RouteReport {
  const map = projectRouteMap([root]);
  const inputs = routeInputsOf(analyzed, map);
  const files = profileFile === undefined ? [] : typeof profileFile === 'string' ? [profileFile] : profileFile;
  const log = files.length === 0 ? null : readServingLogs(files);
  if (log === null) return routeReportOf(inputs);
  if ('error' in log) {
    process.stderr.write(`hotframe: ${files.length === 1 ? `${printable(servingLogPath(files[0]!))}: ` : ''}${printable(log.error)}; requests are not counted\n`);
    return routeReportOf(inputs);
  }
  const patterns = patternsOf(map.routes);
  const report = files.length === 1 ? routeReportOf(inputs, requestSpans(patterns, log.requests), log.threadCpu) : routeReportOf(inputs);
  return withRequestCounts(report, patterns, log.requests, log.requestsSeen);
}

/** The route each node of the profile served, from the routes under `root` (for --stalls). */
export function nodeRoutesFor(analyzed: AnalyzedForRoutes, root: string): (node: number) => string | null {
  return nodeRoutes(routeInputsOf(analyzed, projectRouteMap([root])));
}

function shown(file: string, root: string): string {
  return isAbsolute(file) && !relative(root, file).startsWith('..') ? relative(root, file) : file;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** "GET /v1/tasks  289 ms · 3.74% CPU   src/app.js:12". */
export function routesText(name: string, report: RouteReport, top: number, root: string): string {
  const out: string[] = [];
  const routed = report.routes.filter((r) => r.ms > 0);
  out.push(`${printable(name)}: ${formatMs(report.cpuMs)} of CPU time; ${routed.length.toLocaleString('en-US')} of ${report.routes.length.toLocaleString('en-US')} route(s) and message handler(s) under this root ran (shares: ${shareOfText(report.shareBasis)})`);
  if (report.routes.length === 0) out.push('No route or message handler registration was found in the source under --root.');
  const tally = report.requests;
  // With a Hotframe recording's notes: the requests each route received, and its CPU time per request.
  const served = (r: RouteCost): string => (tally === undefined ? '' : r.requests === undefined ? (r.kind === 'request' ? 'requests not counted' : '') : formatPerRequest(r.ms, r.requests));
  const rows = [...report.routes.slice(0, top).map((r) => ({
    label: printable(r.route),
    cost: formatCostShort(r.ms, r.percent, report.shareBasis),
    served: served(r),
    where: r.registeredAt.slice(0, 3).map((at) => printable(`${shown(at.file, root)}:${at.line}`)).join(', ') + (r.shared === true ? '  (one handler serves these routes)' : '') +
      (r.byRequestWindowsMs !== undefined ? `  (${formatMs(r.byRequestWindowsMs)} of it by its requests' windows)` : '') +
      (r.unsampledMs !== undefined ? `  (+ ${formatMs(r.unsampledMs)} of the thread's CPU no sample shows)` : ''),
  })), {
    label: NO_ROUTE,
    cost: formatCostShort(report.noRoute.ms, report.noRoute.percent, report.shareBasis),
    served: tally === undefined ? '' : `${tally.unmatched.toLocaleString('en-US')} unmatched request${tally.unmatched === 1 ? '' : 's'}`,
    where: 'no route\'s handler on the stack',
  }];
  const labelWidth = Math.min(60, Math.max(...rows.map((r) => r.label.length)));
  const costWidth = Math.max(...rows.map((r) => r.cost.length));
  const servedWidth = Math.max(...rows.map((r) => r.served.length));
  for (const row of rows) out.push(`  ${pad(row.label, labelWidth)}  ${pad(row.cost, costWidth)}  ${servedWidth > 0 ? pad(row.served, servedWidth) + '  ' : ''}${row.where}`);
  if (report.routes.length > top) out.push(`  … ${(report.routes.length - top).toLocaleString('en-US')} more (--top)`);
  if (report.unresolvedHandlers > 0) out.push(`${report.unresolvedHandlers.toLocaleString('en-US')} handler(s) named in registrations are not functions of this project (a package's, or a dynamic expression): their time is charged to the route only through a project function of the route on the stack.`);
  if (tally !== undefined) out.push(...requestNotes(tally));
  const windows = report.requestWindows;
  if (windows !== undefined) {
    out.push(`Request windows: ${formatMs(windows.chargedMs)} of samples with no endpoint route's frame on the stack (Node's HTTP work, middleware, GC) were charged to the one route whose requests alone were open then (with the thread's clock, in the loop's ticks around them too); ` +
      `${formatMs(windows.overlappedMs)} fell while requests of several routes (or of a route not known) were open and stay where their stacks put them. ${windows.placed.toLocaleString('en-US')} of ${windows.requests.toLocaleString('en-US')} request(s) had a known route.`);
    if (windows.unsampled !== undefined) out.push(unsampledNote(windows.unsampled));
  }
  return out.join('\n') + '\n';
}

/** The thread's CPU clock against the samples: what no sample shows, and where it went. */
export function unsampledNote(u: { threadMs: number; unsampledMs: number; chargedMs: number }): string {
  return `Thread clock: the main thread spent ${formatMs(u.threadMs)} on a CPU while profiled; ${formatMs(u.unsampledMs)} of it no sample shows (the kernel's side of the event loop's polls and socket reads, sampled as idle). ` +
    `${formatMs(u.chargedMs)} of that fell while only one route's requests were open and is shown beside that route as "+", not in its figure or its share.`;
}

/** What the request counts are, and what they leave out. */
function requestNotes(tally: RequestTally): string[] {
  const n = (count: number): string => count.toLocaleString('en-US');
  const out = [`Requests: ${n(tally.received)} received by the recorded process's HTTP servers; ms/request = ${PER_REQUEST_OF}. Unmatched: no endpoint route's method and path matched (a 404, or a route the source analysis did not find).`];
  if (tally.kept < tally.received) out.push(`Only the first ${n(tally.kept)} requests were noted one by one: the other ${n(tally.received - tally.kept)} are in no route's count.`);
  if (tally.several > 0) out.push(`${n(tally.several)} request(s) matched several routes and are counted for each.`);
  if (tally.unreadRoutes > 0) out.push(`${n(tally.unreadRoutes)} route(s) have a path pattern that cannot be read (a regular expression, a path built at run time): their requests are not counted.`);
  if (tally.unchecked > 0) out.push(`${n(tally.unchecked)} request(s) were not matched: too many distinct paths to match against the routes.`);
  return out;
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

export function routesJson(report: RouteReport, top: number): Record<string, unknown> {
  return {
    cpuMs: round(report.cpuMs),
    shareOf: shareOfText(report.shareBasis),
    routes: report.routes.slice(0, top).map((r) => ({
      ...r,
      ms: round(r.ms),
      percent: round(r.percent),
      ...(r.msPerRequest !== undefined ? { msPerRequest: round(r.msPerRequest) } : {}),
      ...(r.unsampledMs !== undefined ? { unsampledMs: round(r.unsampledMs) } : {}),
    })),
    routeCount: report.routes.length,
    noRoute: { ms: round(report.noRoute.ms), percent: round(report.noRoute.percent) },
    unresolvedHandlers: report.unresolvedHandlers,
    ...(report.requests !== undefined ? { requests: report.requests, perRequestOf: PER_REQUEST_OF } : {}),
    ...(report.requestWindows?.unsampled !== undefined
      ? { threadCpu: { threadMs: round(report.requestWindows.unsampled.threadMs), unsampledMs: round(report.requestWindows.unsampled.unsampledMs), chargedToRoutesMs: round(report.requestWindows.unsampled.chargedMs) } }
      : {}),
  };
}
