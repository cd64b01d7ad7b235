// `hotframe profile FILE --routes [--root DIR]`: CPU time per route and message handler. The route
// map is read from the source files under --root (server/static/project/routeMap.ts), the samples
// charged by server/profile/routes/routeCost.ts; text or JSON. Routes and paths are written by the
// project's source and names by the profile (untrusted): control characters are escaped.
import { isAbsolute, relative } from 'node:path';

import { projectRouteMap } from '../static/project/routeMap';
import { formatMs, formatPercent, SHARE_OF, SHARE_OF_SHORT } from '../shared/format';
import { NO_ROUTE, nodeRoutes, routeInputsOf, routeReportOf, type AnalyzedForRoutes, type RouteReport } from '../profile/routes/routeCost';
import { printable } from './printable';

export function routeReportFor(analyzed: AnalyzedForRoutes, root: string): RouteReport {
  return routeReportOf(routeInputsOf(analyzed, projectRouteMap([root])));
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
  out.push(`${printable(name)}: ${formatMs(report.cpuMs)} of CPU time; ${routed.length.toLocaleString('en-US')} of ${report.routes.length.toLocaleString('en-US')} route(s) and message handler(s) under this root ran (shares: ${SHARE_OF})`);
  if (report.routes.length === 0) out.push('No route or message handler registration was found in the source under --root.');
  const rows = [...report.routes.slice(0, top).map((r) => ({
    label: printable(r.route),
    cost: `${formatMs(r.ms)} · ${formatPercent(r.percent)} ${SHARE_OF_SHORT}`,
    where: r.registeredAt.slice(0, 3).map((at) => printable(`${shown(at.file, root)}:${at.line}`)).join(', ') + (r.shared === true ? '  (one handler serves these routes)' : ''),
  })), { label: NO_ROUTE, cost: `${formatMs(report.noRoute.ms)} · ${formatPercent(report.noRoute.percent)} ${SHARE_OF_SHORT}`, where: 'no route\'s handler on the stack' }];
  const labelWidth = Math.min(60, Math.max(...rows.map((r) => r.label.length)));
  const costWidth = Math.max(...rows.map((r) => r.cost.length));
  for (const row of rows) out.push(`  ${pad(row.label, labelWidth)}  ${pad(row.cost, costWidth)}  ${row.where}`);
  if (report.routes.length > top) out.push(`  … ${(report.routes.length - top).toLocaleString('en-US')} more (--top)`);
  if (report.unresolvedHandlers > 0) out.push(`${report.unresolvedHandlers.toLocaleString('en-US')} handler(s) named in registrations are not functions of this project (a package's, or a dynamic expression): their time is charged to the route only through a project function of the route on the stack.`);
  return out.join('\n') + '\n';
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

export function routesJson(report: RouteReport, top: number): Record<string, unknown> {
  return {
    cpuMs: round(report.cpuMs),
    shareOf: SHARE_OF,
    routes: report.routes.slice(0, top).map((r) => ({ ...r, ms: round(r.ms), percent: round(r.percent) })),
    routeCount: report.routes.length,
    noRoute: { ms: round(report.noRoute.ms), percent: round(report.noRoute.percent) },
    unresolvedHandlers: report.unresolvedHandlers,
  };
}
