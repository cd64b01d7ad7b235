// Seed 001's experiment in one step: the same workload run once per `--max-semi-space-size`, each
// run's --trace-gc read (gcTrace.ts), and the runs set side by side: GC share of the run's wall
// time, Scavenge count, pauses, the workload's own wall time; then the smallest size past which a
// larger young generation stops paying. Pure: the runs' figures in, the comparison out (the runs
// themselves are started by server/cli/semiSpaceCommand.ts).
//
// The team's own reading (16 → 64 MB: 27.5% → 7.14%; 64 → 128: 7.14% → 6.71%, with Scavenge pauses
// doubled; 256: 5.99%) is the rule written down: a size is enough when no larger size tried lowers
// the GC share by KNEE_POINTS points of wall time or more (64 MB there). Comparing with every larger
// size, not only the next, keeps one noisy run from ending the search early.
import type { GcTraceSummary } from './gcTrace';

/** Below this many points of wall time, a larger semi-space is not worth its longer pauses. */
export const KNEE_POINTS = 2;
export { parseSemiSpaceSizes } from '../../shared/semiSpaceRun';

/** What one run of the workload at one size measured. */
export interface SemiSpaceRun {
  sizeMb: number;
  /** From the command's start to its end, as the runner measured it. */
  wallMs: number;
  /** The exit code, or null when a signal ended it. */
  exitCode: number | null;
  gc: GcTraceSummary;
  /** The CPU profile's own GC share (% of its CPU time, idle excluded), when one was recorded. */
  cpuProfileGcPercent: number | null;
}

export interface SemiSpaceRow {
  sizeMb: number;
  wallMs: number;
  exitCode: number | null;
  /** GC pauses and incremental marking over the run's wall time (per isolate), 0..100. */
  gcPercent: number;
  gcMs: number;
  collections: number;
  scavenges: number;
  meanPauseMs: number;
  p99PauseMs: number;
  maxPauseMs: number;
  /** Scavenge pauses alone: the ones a larger semi-space makes longer. */
  scavengeMeanPauseMs: number;
  scavengeMaxPauseMs: number;
  cpuProfileGcPercent: number | null;
}

export interface SemiSpaceComparison {
  rows: SemiSpaceRow[];
  /** The smallest size no larger size beats by KNEE_POINTS or more; null when GC still improved at the largest size tried. */
  enoughMb: number | null;
  kneePoints: number;
  /** Runs that did not end with code 0: their figures are of a different workload. */
  failedSizes: number[];
}

/** Collections V8 names Scavenge (the young generation's copying collector). */
function isScavenge(kind: string): boolean {
  return kind === 'Scavenge' || kind.startsWith('Scavenge ');
}

export function rowOf(run: SemiSpaceRun): SemiSpaceRow {
  const { gc } = run;
  const gcMs = gc.totalPauseMs + gc.incrementalMs;
  const scavenge = gc.byKind.filter((k) => isScavenge(k.kind));
  const scavenges = scavenge.reduce((a, k) => a + k.count, 0);
  const scavengePauseMs = scavenge.reduce((a, k) => a + k.totalPauseMs, 0);
  // Several isolates (a wrapper such as npm, workers) each had the whole wall time.
  const isolates = Math.max(1, gc.isolates.length);
  return {
    sizeMb: run.sizeMb,
    wallMs: run.wallMs,
    exitCode: run.exitCode,
    gcPercent: run.wallMs > 0 ? (gcMs / (run.wallMs * isolates)) * 100 : 0,
    gcMs,
    collections: gc.collections,
    scavenges,
    meanPauseMs: gc.meanPauseMs,
    p99PauseMs: gc.p99PauseMs,
    maxPauseMs: gc.maxPauseMs,
    scavengeMeanPauseMs: scavenges > 0 ? scavengePauseMs / scavenges : 0,
    scavengeMaxPauseMs: scavenge.reduce((a, k) => Math.max(a, k.maxPauseMs), 0),
    cpuProfileGcPercent: run.cpuProfileGcPercent,
  };
}

export function compareSemiSpaceRuns(runs: readonly SemiSpaceRun[]): SemiSpaceComparison {
  const rows = [...runs].sort((a, b) => a.sizeMb - b.sizeMb).map(rowOf);
  const enough = rows.find((row, i) => rows.slice(i + 1).every((larger) => row.gcPercent - larger.gcPercent < KNEE_POINTS));
  // The largest size is "enough" only by default: nothing larger was tried.
  const enoughMb = enough !== undefined && enough !== rows.at(-1) ? enough.sizeMb : null;
  return { rows, enoughMb, kneePoints: KNEE_POINTS, failedSizes: rows.filter((r) => r.exitCode !== 0).map((r) => r.sizeMb) };
}
