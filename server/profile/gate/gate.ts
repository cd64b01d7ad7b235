// The performance gate's model: given several CPU profiles of each side (repeated runs of one
// workload), which functions and lines got slower by more than the noise between runs and by more
// than the user's threshold. Pure: profiles in, verdicts out.
//
// Every figure is a rate, ms of CPU per second of profile (ms/s, as `hotframe diff` gives it), so
// runs of different lengths compare. A key (a function, or a source line) absent from a run spent
// 0 ms/s there. A change is a *candidate* when its point estimate passes both thresholds (at least
// `minMs` ms/s, and at least `threshold` of the before rate); each candidate's interval comes from
// the (studentized) bootstrap over runs, at a confidence adjusted for how many candidates were tested
// (Bonferroni), so that one trial with dozens of noisy lines still fails on noise at most 1 - confidence
// of the time. A candidate whose whole interval lies above zero is a regression, below zero an
// improvement; the gate fails on a regression only.
import type { Category, ProfileReport } from '../model/types';
import { perSecond } from '../../shared/format';
import { bootstrapDifference, mean, seededRandom, type Interval } from './bootstrap';

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

export const DEFAULT_GATE_OPTIONS: GateOptions = { threshold: 0.1, minMs: 5, confidence: 0.95, resamples: 10_000, seed: 1 };

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
  /** The interval of `delta` at `adjustedConfidence`. */
  interval: Interval;
}

export interface GateResult {
  unit: typeof GATE_UNIT;
  runs: { before: number; after: number };
  options: GateOptions;
  /** Changes whose point estimate passed both thresholds, each tested. */
  candidates: number;
  /** The confidence each candidate's interval is computed at: 1 - (1 - confidence) / candidates. */
  adjustedConfidence: number;
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
  before: number[];
  after: number[];
}

/** Every function's self rate and every line's rate, per run, with 0 where a run did not see it. */
function seriesOf(before: readonly ProfileReport[], after: readonly ProfileReport[]): Series[] {
  const series = new Map<string, Series>();
  const add = (key: string, make: () => Omit<Series, 'before' | 'after'>, side: 'before' | 'after', run: number, rate: number): void => {
    let entry = series.get(key);
    if (entry === undefined) {
      entry = { ...make(), before: new Array<number>(before.length).fill(0), after: new Array<number>(after.length).fill(0) };
      series.set(key, entry);
    }
    entry[side][run] += rate;
  };
  const collect = (reports: readonly ProfileReport[], side: 'before' | 'after'): void => {
    reports.forEach((report, run) => {
      for (const f of report.functions) {
        if (f.category === 'idle' || f.category === 'program') continue;
        add(`f\u0000${f.name}\u0000${f.file}\u0000${f.line}\u0000${f.column}\u0000${f.category}`, () => ({ kind: 'function', name: f.name, category: f.category, file: f.file, line: f.line }), side, run, perSecond(f.selfMs, report.durationMs));
      }
      for (const l of report.lines) {
        add(`l\u0000${l.file}\u0000${l.line}`, () => ({ kind: 'line', file: l.file, line: l.line }), side, run, perSecond(l.selfMs, report.durationMs));
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

export function runGate(before: readonly ProfileReport[], after: readonly ProfileReport[], options: GateOptions = DEFAULT_GATE_OPTIONS): GateResult {
  for (const report of [...before, ...after]) {
    if (report.unit !== 'ms') throw new RangeError('the gate compares CPU profiles; an allocation profile has no time to compare');
  }
  const candidates = seriesOf(before, after).filter((s) => passesThresholds(mean(s.before), mean(s.after) - mean(s.before), options));
  const adjustedConfidence = candidates.length === 0 ? options.confidence : 1 - (1 - options.confidence) / candidates.length;
  const random = seededRandom(options.seed);
  const regressions: GateChange[] = [];
  const improvements: GateChange[] = [];
  for (const s of candidates) {
    const beforeMean = mean(s.before);
    const delta = mean(s.after) - beforeMean;
    const interval = bootstrapDifference(s.before, s.after, adjustedConfidence, options.resamples, random);
    const change: GateChange = {
      kind: s.kind,
      ...(s.name !== undefined ? { name: s.name } : {}),
      ...(s.category !== undefined ? { category: s.category } : {}),
      file: s.file,
      line: s.line,
      before: beforeMean,
      after: mean(s.after),
      delta,
      relative: beforeMean > 0 ? delta / beforeMean : null,
      interval,
    };
    if (interval.low > 0) regressions.push(change);
    else if (interval.high < 0) improvements.push(change);
  }
  return {
    unit: GATE_UNIT,
    runs: { before: before.length, after: after.length },
    options,
    candidates: candidates.length,
    adjustedConfidence,
    regressions: regressions.sort(bySize),
    improvements: improvements.sort(bySize),
    failed: regressions.length > 0,
  };
}
