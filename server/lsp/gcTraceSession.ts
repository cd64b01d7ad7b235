// The profile worker's part of issue 29: the --trace-gc output a user opened, kept beside the
// profile session (a CPU profile stays loaded; clearing ends both), shown with the CPU profile's
// GC share when both are of one run (server/profile/gcTrace/pairing.ts); and the editor's
// semi-space sweep, its saved runs read and compared by the same code as `hotframe record
// --semi-space` (server/profile/gcTrace/semiSpace.ts, semiSpaceText.ts).
import { basename, isAbsolute, relative } from 'node:path';

import { gcTraceOf, savedGcTraceOf } from '../profile/gcTrace/gcTraceFile';
import type { GcTraceSummary } from '../profile/gcTrace/gcTrace';
import { sameRun } from '../profile/gcTrace/pairing';
import { compareSemiSpaceRuns, type SemiSpaceRun } from '../profile/gcTrace/semiSpace';
import { semiSpaceText } from '../profile/gcTrace/semiSpaceText';
import { analyzeProfileFile } from '../profile/analysis/report';
import type { GcTraceView, ProfileSummary, SemiSpaceSweepParams, SemiSpaceSweepResult } from '../protocol/wire';

/** At most as many runs as `parseSemiSpaceSizes` allows. */
const MAX_RUNS = 12;

export class GcTraceSession {
  private trace: { path: string; summary: GcTraceSummary } | null = null;

  /** Reads `path` as a trace and keeps it; null (and the previous trace kept) when it is not one. */
  load(path: string, profile: ProfileSummary | null): GcTraceView | null {
    const summary = gcTraceOf(path);
    if (summary === null) return null;
    this.trace = { path, summary };
    return this.view(profile);
  }

  clear(): void {
    this.trace = null;
  }

  /** The trace as the view shows it, paired with `profile` (the CPU primary) when they are of one run. */
  view(profile: ProfileSummary | null): GcTraceView | null {
    const trace = this.trace;
    if (trace === null) return null;
    const paired = profile !== null && profile.unit === 'ms' && sameRun(trace.path, trace.summary.isolates, profile.path);
    return { name: basename(trace.path), path: trace.path, summary: trace.summary, cpuProfile: paired ? { name: profile.name, gcPercent: profile.gcPercent } : null };
  }
}

/** The sweep's runs (files the client's recording saved) read and compared; `roots` as for a profile load. */
export async function semiSpaceSweep(params: SemiSpaceSweepParams): Promise<SemiSpaceSweepResult> {
  const runs = Array.isArray(params.runs) ? params.runs.slice(0, MAX_RUNS) : [];
  const absolute = (p: unknown): p is string => typeof p === 'string' && isAbsolute(p);
  const measured: SemiSpaceRun[] = [];
  const saved = new Map<number, string[]>();
  const root = typeof params.root === 'string' ? params.root : '';
  for (const run of runs) {
    if (!absolute(run.tracePath) || typeof run.sizeMb !== 'number' || typeof run.wallMs !== 'number') throw new Error('semiSpaceSweep: each run needs sizeMb, wallMs and an absolute tracePath');
    const gc = savedGcTraceOf(run.tracePath);
    let cpuProfileGcPercent: number | null = null;
    if (absolute(run.profilePath)) {
      try {
        cpuProfileGcPercent = (await analyzeProfileFile(run.profilePath, { root })).report.categories.gc.percent;
      } catch {
        // A profile cut short (a process killed): the trace's figures stand alone, as in the CLI.
      }
    }
    measured.push({ sizeMb: run.sizeMb, wallMs: run.wallMs, exitCode: typeof run.exitCode === 'number' ? run.exitCode : null, gc, cpuProfileGcPercent });
    const files = Array.isArray(run.files) ? run.files.filter(absolute) : [];
    saved.set(run.sizeMb, files.map((f) => (root !== '' && !relative(root, f).startsWith('..') ? relative(root, f) : f)));
  }
  if (measured.length < 2) throw new Error(`semiSpaceSweep: ${measured.length} run(s); nothing to compare`);
  if (measured.every((m) => m.gc.collections === 0)) throw new Error('no --trace-gc line in the command\'s output (is it a Node program, and does it leave its stdout to Node?)');
  const comparison = compareSemiSpaceRuns(measured);
  return {
    enoughMb: comparison.enoughMb,
    rows: comparison.rows.map((r) => ({ sizeMb: r.sizeMb, gcPercent: r.gcPercent, scavenges: r.scavenges, meanPauseMs: r.meanPauseMs, p99PauseMs: r.p99PauseMs, maxPauseMs: r.maxPauseMs, wallMs: r.wallMs, cpuProfileGcPercent: r.cpuProfileGcPercent })),
    text: semiSpaceText(comparison, saved),
  };
}
