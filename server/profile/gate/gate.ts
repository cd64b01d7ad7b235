// The performance gate's model: given several CPU profiles of each side (repeated runs of one
// workload), which functions and lines got slower by more than the noise between runs and by more
// than the user's threshold. Pure: profiles in, verdicts out.
//
// Every figure is a rate in ms of CPU per second (ms/s, the unit of `hotframe diff`), each run's
// ms measured against the rest of the same run and put back at the baseline's pace (pace.ts), so
// that what the machine does to the whole run cancels. A key (a function, or a source line) absent
// from a run spent 0 ms there. A change is a *candidate* when its point estimate passes both thresholds (at least
// `minMs` ms/s, and at least `threshold` of the before rate); each candidate's interval comes from
// the (studentized) bootstrap over runs, at a confidence adjusted for how many candidates were tested
// (Bonferroni), so that one trial with dozens of noisy lines still fails on noise at most 1 - confidence
// of the time. A candidate is a change only when the exact rank-sum test (rankSum.ts) also rejects
// "same code" at that adjusted level: the bootstrap's interval at such extreme levels, read off 10 runs
// a side, missed bimodal and drifting runs (on real recordings, same-code trials failed in 1-3%),
// while the rank test's false-alarm rate is at most its level whatever the runs' distribution. A
// change whose whole interval lies above zero is a regression, below zero an improvement; the gate
// fails on a regression only.
//
// The test is in two stages. Functions first (and lines of no known function); then the lines of
// the functions found changed, to say where in them, at the same confidence shared among those
// lines. A line's self time is part of its function's, and how V8 shares a function's samples among
// its lines moves from one run to the next with the code it compiled, while the function's total
// does not: tested with the functions, those lines were most of the same-code trials that failed
// on real recordings, and their number widened every interval (Bonferroni). A line that got slower
// inside a function that did not is not reported; the function's CPU did not change. Under no
// change at all the second stage runs only after a false first-stage verdict, so the chance of any
// false regression stays at most 1 - confidence.
import type { Category, ProfileReport } from '../model/types';
import { seededRandom } from '../../shared/seededRandom';
import { bootstrapDifference, mean, type Interval } from './bootstrap';
import { rankSumP } from './rankSum';
import { functionKey, isMeasuredFunction, pacedRates, runTotals, type RunFigures, type RunTotals } from './pace';

export const GATE_UNIT = 'ms/s' as const;

export interface GateOptions {
  /** Smallest relative change that matters, 0.1 = 10% of the before rate. */
  threshold: number;
  /** Smallest absolute change that matters, in ms/s. */
  minMs: number;
  /** Confidence of the test over all candidates together, e.g. 0.95. */
  confidence: number;
  resamples: number;
  seed: number;
}

export const DEFAULT_GATE_OPTIONS: GateOptions = { threshold: 0.1, minMs: 5, confidence: 0.995, resamples: 10_000, seed: 1 };

export interface GateChange {
  kind: 'function' | 'line';
  /** The function's name (functions only). */
  name?: string;
  category?: Category;
  file: string;
  line: number;
  /** Mean rate over the runs of each side, ms/s. */
  before: number;
  after: number;
  delta: number;
  /** delta / before; null when the before rate is 0 (new code). */
  relative: number | null;
  /** The interval of `delta`, at `confidence`. */
  interval: Interval;
  /** The rank-sum test's two-sided p-value of this change (at most 1 - `confidence`: it is significant). */
  p: number;
  /** The confidence of `interval`: `confidence` shared among the candidates of its stage (functions, or lines of changed functions). */
  confidence: number;
  /** Measured against the rest of each run and put back at the baseline's pace (server/profile/gate/pace.ts); false: plain ms/s, the rest being too small. */
  paced: boolean;
}

export interface GateResult {
  unit: typeof GATE_UNIT;
  runs: { before: number; after: number };
  options: GateOptions;
  /** Functions (and lines of no known function) whose point estimate passed both thresholds, each tested. */
  candidates: number;
  /** The confidence each of those is tested at: 1 - (1 - confidence) / candidates. */
  adjustedConfidence: number;
  /** Lines of the functions found changed whose point estimate passed both thresholds, each tested at 1 - (1 - confidence) / lineCandidates. */
  lineCandidates: number;
  /** Slower, significant and above the thresholds: biggest first. */
  regressions: GateChange[];
  /** Faster, significant and above the thresholds: biggest first. */
  improvements: GateChange[];
  failed: boolean;
}

interface Series {
  kind: 'function' | 'line';
  name?: string;
  category?: Category;
  file: string;
  line: number;
  /** The function whose self time this is: the function itself, or the one a line is in (null: none known). */
  own: string | null;
  /** ms and samples per run, 0 where a run did not see it. */
  before: RunFigures[];
  after: RunFigures[];
}

/**
 * The function a line is in: of the functions of its file, the one declared last at or above it.
 * A line after a nested function's end is given to the nested function; the cost of that is a
 * slightly larger rest for its figure, never a wrong verdict on another key.
 */
function ownerOf(file: string, line: number, declared: Map<string, { line: number; key: string }[]>): string | null {
  let best: { line: number; key: string } | null = null;
  for (const f of declared.get(file) ?? []) if (f.line <= line && (best === null || f.line > best.line)) best = f;
  return best === null ? null : best.key;
}

/** Every function's self ms and samples and every line's, per run, with 0 where a run did not see it. */
function seriesOf(before: readonly ProfileReport[], after: readonly ProfileReport[]): Series[] {
  const series = new Map<string, Series>();
  const declared = new Map<string, { line: number; key: string }[]>();
  for (const report of [...before, ...after]) {
    for (const f of report.functions) {
      if (!isMeasuredFunction(f) || f.file === '') continue;
      const list = declared.get(f.file) ?? [];
      if (!list.some((d) => d.key === functionKey(f))) list.push({ line: f.line, key: functionKey(f) });
      declared.set(f.file, list);
    }
  }
  const zeros = (n: number): RunFigures[] => Array.from({ length: n }, () => ({ ms: 0, samples: 0 }));
  const add = (key: string, make: () => Omit<Series, 'before' | 'after'>, side: 'before' | 'after', run: number, ms: number, samples: number): void => {
    let entry = series.get(key);
    if (entry === undefined) {
      entry = { ...make(), before: zeros(before.length), after: zeros(after.length) };
      series.set(key, entry);
    }
    entry[side][run].ms += ms;
    entry[side][run].samples += samples;
  };
  const collect = (reports: readonly ProfileReport[], side: 'before' | 'after'): void => {
    reports.forEach((report, run) => {
      for (const f of report.functions) {
        if (!isMeasuredFunction(f)) continue;
        const key = functionKey(f);
        add(key, () => ({ kind: 'function', name: f.name, category: f.category, file: f.file, line: f.line, own: key }), side, run, f.selfMs, f.selfSamples);
      }
      for (const l of report.lines) {
        add(`l\u0000${l.file}\u0000${l.line}`, () => ({ kind: 'line', file: l.file, line: l.line, own: ownerOf(l.file, l.line, declared) }), side, run, l.selfMs, l.selfSamples);
      }
    });
  };
  collect(before, 'before');
  collect(after, 'after');
  return [...series.values()];
}

function passesThresholds(beforeMean: number, delta: number, options: GateOptions): boolean {
  if (Math.abs(delta) < options.minMs) return false;
  return beforeMean === 0 || Math.abs(delta) / beforeMean >= options.threshold;
}

const bySize = (a: GateChange, b: GateChange): number => Math.abs(b.delta) - Math.abs(a.delta) || a.file.localeCompare(b.file) || a.line - b.line;

/** Passes over the changes: each leaves one more change found (the largest) out of every run's rest. */
const MAX_PASSES = 6;

interface Verdict {
  candidates: number;
  adjustedConfidence: number;
  lineCandidates: number;
  regressions: GateChange[];
  improvements: GateChange[];
  /** The functions found changed (their own, for lines), each with the size of its change: |after / before - 1|, Infinity for new code. */
  changed: Map<string, number>;
}

interface Rated {
  s: Series;
  before: number[];
  after: number[];
  paced: boolean;
}

/** 1 - (1 - confidence) / count: each of `count` tests at this level, all of them together at `confidence` (Bonferroni). */
function shared(confidence: number, count: number): number {
  return count === 0 ? confidence : 1 - (1 - confidence) / count;
}

function judge(series: readonly Series[], runs: { before: RunTotals[]; after: RunTotals[] }, changed: ReadonlySet<string>, options: GateOptions): Verdict {
  const rated: Rated[] = series.map((s) => ({ s, ...pacedRates(s, runs, s.own, changed) }));
  const candidates = rated.filter((r) => passesThresholds(mean(r.before), mean(r.after) - mean(r.before), options));
  const random = seededRandom(options.seed);
  const regressions: GateChange[] = [];
  const improvements: GateChange[] = [];
  const found = new Map<string, number>();
  const test = (list: readonly Rated[], confidence: number): void => {
    for (const { s, before, after, paced } of list) {
      // The exact test first: it is cheap, and a change it does not show is none, whatever the interval.
      const p = rankSumP(before, after);
      if (p > 1 - confidence) continue;
      const beforeMean = mean(before);
      const delta = mean(after) - beforeMean;
      const interval = bootstrapDifference(before, after, confidence, options.resamples, random);
      const change: GateChange = {
        kind: s.kind,
        ...(s.name !== undefined ? { name: s.name } : {}),
        ...(s.category !== undefined ? { category: s.category } : {}),
        file: s.file,
        line: s.line,
        before: beforeMean,
        after: mean(after),
        delta,
        relative: beforeMean > 0 ? delta / beforeMean : null,
        interval,
        p,
        confidence,
        paced,
      };
      const significant = interval.low > 0 ? regressions : interval.high < 0 ? improvements : null;
      if (significant === null) continue;
      significant.push(change);
      if (s.own !== null) {
        const size = beforeMean > 0 ? Math.abs(delta / beforeMean) : Infinity;
        found.set(s.own, Math.max(found.get(s.own) ?? 0, size));
      }
    }
  };
  const first = candidates.filter((r) => r.s.kind === 'function' || r.s.own === null);
  const adjustedConfidence = shared(options.confidence, first.length);
  test(first, adjustedConfidence);
  const lines = candidates.filter((r) => r.s.kind === 'line' && r.s.own !== null && found.has(r.s.own));
  test(lines, shared(options.confidence, lines.length));
  return { candidates: first.length, adjustedConfidence, lineCandidates: lines.length, regressions, improvements, changed: found };
}

export function runGate(before: readonly ProfileReport[], after: readonly ProfileReport[], options: GateOptions = DEFAULT_GATE_OPTIONS): GateResult {
  for (const report of [...before, ...after]) {
    if (report.unit !== 'ms') throw new RangeError('the gate compares CPU profiles; an allocation profile has no time to compare');
  }
  const series = seriesOf(before, after);
  const runs = { before: before.map(runTotals), after: after.map(runTotals) };
  // The first pass measures each function against the rest of its run. A function that grew makes
  // every other function's share of the run fall: those are found "faster" too. So the changes
  // found are left out of the rest one at a time, the largest relative change first (the one that
  // grew is diluted least), and the functions are judged again: the others, measured against code
  // that did not change, are then found unchanged and stay in the rest. Leaving every change found
  // out at once emptied the rest of its biggest functions, and what was left (under a quarter of a
  // run: plain ms/s) was too noisy to see a 20% slowdown. It ends when a pass finds nothing new
  // to leave out, or after MAX_PASSES.
  const changed = new Set<string>();
  let verdict = judge(series, runs, changed, options);
  for (let pass = 1; pass < MAX_PASSES; pass++) {
    let next: string | null = null;
    for (const [key, size] of verdict.changed) if (!changed.has(key) && (next === null || size > verdict.changed.get(next)!)) next = key;
    if (next === null) break;
    changed.add(next);
    verdict = judge(series, runs, changed, options);
  }
  return {
    unit: GATE_UNIT,
    runs: { before: before.length, after: after.length },
    options,
    candidates: verdict.candidates,
    adjustedConfidence: verdict.adjustedConfidence,
    lineCandidates: verdict.lineCandidates,
    regressions: verdict.regressions.sort(bySize),
    improvements: verdict.improvements.sort(bySize),
    failed: verdict.regressions.length > 0,
  };
}
