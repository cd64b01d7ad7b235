// The routes of a loaded profile in the editor (issue 25): the note on each registration line, and
// the route a finding's code serves, for its hover. Figures come from the profile worker's route
// report (server/profile/routes/routeCost.ts), written with the one formatter.
import { formatCost } from '../shared/format';
import type { RouteNote, RouteNotes } from '../protocol/wire';

/** The registrations in `file`, with their route's CPU time. */
export function routeNotesIn(routes: RouteNotes, file: string): RouteNote[] {
  const notes: RouteNote[] = [];
  for (const r of routes.report.routes) {
    for (const at of r.registeredAt) if (at.file === file) notes.push({ line: at.line, route: r.route, ms: r.ms, percent: r.percent });
  }
  return notes;
}

/** "Serves `GET /v1/tasks`: 289 ms (3.74% of CPU time, idle excluded) in this profile", for a line inside a handler; null elsewhere. */
export function routeHover(routes: RouteNotes, file: string, line: number, escapeMarkdown: (text: string) => string): string | null {
  let best: number | null = null;
  const served = new Set<string>();
  for (const h of routes.handlers) {
    if (h.file !== file || line < h.startLine || line > h.endLine) continue;
    const size = h.endLine - h.startLine;
    if (best === null || size < best) {
      best = size;
      served.clear();
    }
    if (size === best) served.add(h.route);
  }
  if (served.size === 0) return null;
  // One function serving several routes is one entry of the report, under the routes joined.
  const route = [...served].sort().join(' | ');
  const cost = routes.report.routes.find((r) => r.route === route);
  const figures = cost === undefined ? '' : `: ${formatCost(cost.ms, cost.percent, routes.report.shareBasis)} in this profile`;
  return `Serves ${escapeMarkdown(route)}${figures}.`;
}
