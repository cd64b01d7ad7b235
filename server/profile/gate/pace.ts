// What a run's figures are measured against. On a shared machine the ms of a CPU profile measure
// the machine as much as the code, in two ways:
// - V8's sampler charges each sample the wall time since the previous one, so when the process
//   loses its core for 30 ms the next sample's function is charged 30 ms it did not run: lumps
//   that land on one function at random. Counting samples instead counts the times the thread was
//   found running (a descheduled thread is sampled once when it resumes), CPU time in units of the
//   sampling interval.
// - A slower machine (neighbours on the other core, a lower clock) makes every function of the run
//   take more samples together. That cancels in a ratio: each function's (and line's) samples over
//   the samples of the rest of the same run — its CPU (idle excluded) minus the function itself and
//   minus the functions found changed. A function made 20% slower is then 20% more of the rest of
//   its run, and the others, whose share of the whole fell only because it grew, keep their ratio.
// The ratios are put back in ms of CPU per second at the baseline's pace (the rest's mean ms/s over
// the runs before), so the gate speaks the profile's unit. Where the rest of a run holds under a
// quarter of its CPU there is too little left to measure the pace by, and a profile without sample
// counts has nothing to count: those figures stay plain ms/s (`paced` false).
import type { FunctionCost, ProfileReport } from '../model/types';
import { perSecond } from '../../shared/format';

/** The least share of a run's CPU its rest must hold to stand for the machine's pace. */
export const MIN_REST_SHARE = 0.25;

/** One run as the reference needs it: its CPU in ms and samples, its duration, each function's self samples by key. */
export interface RunTotals {
  cpuMs: number;
  cpuSamples: number;
  durationMs: number;
  functionSamples: Map<string, number>;
}

/** One function's or line's figures per run. */
export interface RunFigures {
  ms: number;
  samples: number;
}

export function functionKey(f: Pick<FunctionCost, 'name' | 'file' | 'line' | 'column' | 'category'>): string {
  return `f\u0000${f.name}\u0000${f.file}\u0000${f.line}\u0000${f.column}\u0000${f.category}`;
}

/** Functions that are not time in code: idle is not CPU, (program) is V8's own. */
export function isMeasuredFunction(f: Pick<FunctionCost, 'category'>): boolean {
  return f.category !== 'idle' && f.category !== 'program';
}

export function runTotals(report: ProfileReport): RunTotals {
  const functionSamples = new Map<string, number>();
  for (const f of report.functions) {
    if (isMeasuredFunction(f)) functionSamples.set(functionKey(f), (functionSamples.get(functionKey(f)) ?? 0) + f.selfSamples);
  }
  const idleSamples = report.categories?.idle?.samples ?? 0;
  return { cpuMs: report.cpuMs, cpuSamples: Math.max(0, report.samples - idleSamples), durationMs: report.durationMs, functionSamples };
}

/**
 * Each run's figure for one function or line, in ms/s at the baseline's pace, or its plain ms/s
 * (`paced` false). `own` is the function whose time the figure is part of (the function itself,
 * or the one a line is in; null: none known, the figure itself is left out), left out of the rest
 * with every function in `changed`.
 */
export function pacedRates(
  figures: { before: readonly RunFigures[]; after: readonly RunFigures[] },
  runs: { before: readonly RunTotals[]; after: readonly RunTotals[] },
  own: string | null,
  changed: ReadonlySet<string>,
): { before: number[]; after: number[]; paced: boolean } {
  const rest = (run: RunTotals, itself: RunFigures): number => {
    let left = run.cpuSamples - (own === null ? itself.samples : (run.functionSamples.get(own) ?? 0));
    for (const key of changed) if (key !== own) left -= run.functionSamples.get(key) ?? 0;
    return left;
  };
  const restBefore = runs.before.map((run, i) => rest(run, figures.before[i]));
  const restAfter = runs.after.map((run, i) => rest(run, figures.after[i]));
  const enough = (rests: number[], sideRuns: readonly RunTotals[]): boolean => rests.every((r, i) => r > 0 && r >= MIN_REST_SHARE * sideRuns[i].cpuSamples);
  if (!enough(restBefore, runs.before) || !enough(restAfter, runs.after)) {
    return { before: figures.before.map((f, i) => perSecond(f.ms, runs.before[i].durationMs)), after: figures.after.map((f, i) => perSecond(f.ms, runs.after[i].durationMs)), paced: false };
  }
  // The baseline's pace: the rest's mean rate over the runs before, in ms/s (its share of the run's samples, of the run's CPU ms).
  const pace = mean(restBefore.map((r, i) => perSecond((runs.before[i].cpuMs * r) / runs.before[i].cpuSamples, runs.before[i].durationMs)));
  return { before: figures.before.map((f, i) => (f.samples / restBefore[i]) * pace), after: figures.after.map((f, i) => (f.samples / restAfter[i]) * pace), paced: true };
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}
