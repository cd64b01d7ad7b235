// The Routes section of the editor's view (issue 25): the primary CPU profile's time per route of
// the workspace's registrations, computed in the profile worker once per loaded profile.
import type { AnalyzedProfile } from '../profile/analysis/report';
import { routeInputsOf, routeReportOf } from '../profile/routes/routeCost';
import { projectRouteMap } from '../static/project/routeMap';
import type { RouteNotes } from '../protocol/wire';
import { patternsOf, withRequestCounts } from '../profile/routes/requestCounts';
import { readServingLog } from '../profile/readers/readServingLog';

let last: { analyzed: AnalyzedProfile; roots: string; report: RouteNotes | null } | null = null;

/**
 * Null without a CPU profile, without a workspace folder, or when the folders cannot be read.
 * With `profileFile` recorded by Hotframe (its serving notes beside it), each route's requests too.
 */
export function routesOfWorkspace(analyzed: AnalyzedProfile | null, roots: readonly string[], profileFile?: string): RouteNotes | null {
  if (analyzed === null || analyzed.report.unit !== 'ms' || roots.length === 0) return null;
  const key = JSON.stringify([roots, profileFile ?? null]);
  if (last?.analyzed === analyzed && last.roots === key) return last.report;
  let report: RouteNotes | null = null;
  try {
    const map = projectRouteMap(roots);
    const costs = routeReportOf(routeInputsOf(analyzed, map));
    // Notes that cannot be used count no requests (the CLI says why on stderr).
    const log = profileFile === undefined ? null : readServingLog(profileFile);
    report = {
      report: log === null || 'error' in log ? costs : withRequestCounts(costs, patternsOf(map.routes), log.requests, log.requestsSeen),
      handlers: map.handlers.map((h) => ({ route: h.route, file: h.file, startLine: h.range.startLine, endLine: h.range.endLine })),
    };
  } catch {
    report = null; // a folder that went away: no section rather than a failed overview
  }
  last = { analyzed, roots: key, report };
  return report;
}
