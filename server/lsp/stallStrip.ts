// The flame panel's strip of event-loop stalls (issue 25): the primary profile's stall report, the
// one `hotframe profile --stalls` prints (AnalyzedProfile.stalls, each stall naming the route the
// workspace's registrations say it served), with the timeline's length to place it on.
import type { AnalyzedProfile } from '../profile/analysis/report';
import type { StallStrip } from '../protocol/wire';
import { nodeRoutesOfWorkspace } from './routesOfWorkspace';

/** Undefined when no CPU profile is loaded or its format keeps no sample order. */
export function stallStripOf(analyzed: AnalyzedProfile | null, roots: readonly string[], thresholdMs: number): StallStrip | undefined {
  const timeline = analyzed?.profile.timeline;
  if (analyzed === null || timeline === undefined) return undefined;
  const report = analyzed.stalls(thresholdMs, nodeRoutesOfWorkspace(analyzed, roots));
  if (report === null) return undefined;
  const { lines: _lines, ...stalls } = report;
  return { ...stalls, runMs: timeline.endMs };
}
