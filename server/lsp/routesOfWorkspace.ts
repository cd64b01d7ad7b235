// The Routes section of the editor's view (issue 25): the primary CPU profile's time per route of
// the workspace's registrations, computed in the profile worker once per loaded profile.
import type { AnalyzedProfile } from '../profile/analysis/report';
import { nodeRoutes, routeInputsOf, routeReportOf, type RouteInputs } from '../profile/routes/routeCost';
import { projectRouteMap } from '../static/project/routeMap';
import type { RouteNotes } from '../protocol/wire';
import { patternsOf, requestSpans, withRequestCounts } from '../profile/routes/requestCounts';
import { basename } from 'node:path';

import { readServingLogs } from '../profile/readers/readServingLog';
import { isFolder, profileFilesOf } from '../profile/analysis/mergedAnalysis';
import { processThreadOf } from '../profile/model/mergeProfiles';

interface WorkspaceRoutes {
  map: ReturnType<typeof projectRouteMap>;
  inputs: RouteInputs;
  notes: RouteNotes;
  /** The route each node of the profile served (what stalls name, as `profile --stalls` does). */
  routeOf: (node: number) => string | null;
}

let last: { analyzed: AnalyzedProfile; roots: string; routes: WorkspaceRoutes | null } | null = null;
let counted: { notes: RouteNotes; profileFile: string } | null = null;

function workspaceRoutes(analyzed: AnalyzedProfile | null, roots: readonly string[]): WorkspaceRoutes | null {
  if (analyzed === null || analyzed.report.unit !== 'ms' || roots.length === 0) return null;
  const key = JSON.stringify(roots);
  if (last?.analyzed === analyzed && last.roots === key) return last.routes;
  let routes: WorkspaceRoutes | null = null;
  try {
    const map = projectRouteMap(roots);
    const inputs = routeInputsOf(analyzed, map);
    routes = {
      map,
      inputs,
      notes: {
        report: routeReportOf(inputs),
        handlers: map.handlers.map((h) => ({ route: h.route, file: h.file, startLine: h.range.startLine, endLine: h.range.endLine })),
      },
      routeOf: nodeRoutes(inputs),
    };
  } catch {
    routes = null; // a folder that went away: no section rather than a failed overview
  }
  last = { analyzed, roots: key, routes };
  counted = null;
  return routes;
}

/** The profile files a loaded path stands for: itself, or a capture folder's files (those of the picked "pid:tid" only). */
function partsOf(profileFile: string, thread: string | undefined): string[] {
  if (!isFolder(profileFile)) return [profileFile];
  try {
    return profileFilesOf([profileFile]).filter((file) => thread === undefined || processThreadOf(basename(file)) === thread);
  } catch {
    return [];
  }
}

/**
 * Null without a CPU profile, without a workspace folder, or when the folders cannot be read.
 * With `profileFile` recorded by Hotframe (its serving notes beside it), each route's requests too;
 * for a capture folder (attach), the requests of every process kept (`thread`: the one picked);
 * notes that cannot be used count no requests (the CLI says why on stderr). With one file's notes
 * (on the profile's clock), the requests' windows charge what no route's frame claims, as
 * `profile --routes` does (the same routeReportFor steps).
 */
export function routesOfWorkspace(analyzed: AnalyzedProfile | null, roots: readonly string[], profileFile?: string, thread?: string): RouteNotes | null {
  const routes = workspaceRoutes(analyzed, roots);
  if (routes === null || profileFile === undefined) return routes?.notes ?? null;
  const key = `${profileFile}\u0000${thread ?? ''}`;
  if (counted?.profileFile === key) return counted.notes;
  const parts = partsOf(profileFile, thread);
  const log = parts.length === 0 ? null : readServingLogs(parts);
  let notes = routes.notes;
  if (log !== null && !('error' in log)) {
    const patterns = patternsOf(routes.map.routes);
    const report = parts.length === 1 && parts[0] === profileFile ? routeReportOf(routes.inputs, requestSpans(patterns, log.requests), log.threadCpu) : routes.notes.report;
    notes = { ...routes.notes, report: withRequestCounts(report, patterns, log.requests, log.requestsSeen) };
  }
  counted = { notes, profileFile: key };
  return notes;
}

/** The route each node of `analyzed` served, by the workspace's registrations; undefined when they are not known. */
export function nodeRoutesOfWorkspace(analyzed: AnalyzedProfile | null, roots: readonly string[]): ((node: number) => string | null) | undefined {
  return workspaceRoutes(analyzed, roots)?.routeOf;
}
