// Compares two profiles of the same code (before/after a change). Profiles rarely last equally
// long, so every figure is a rate: milliseconds of CPU per second of profile ("ms/s"); 1000 ms/s
// is one core fully busy. Allocation profiles (bytes, objects) are compared as they are: a heap
// profile has no duration, and what it holds is already the amount the workload allocated.
// Functions and lines are matched by name and resolved location.
import { diffTrees, toFlameNodes, DEFAULT_MIN_FRACTION } from './flameTree';
import type { AnalyzedProfile } from './report';
import { ProfileInputError } from '../readers/profileInputError';
import { perSecond } from '../../shared/format';
import type { Category, FlameNode, ProfileFormat, ProfileReport, WeightUnit } from '../model/types';

export const DIFF_UNIT = 'ms/s' as const;
export type DiffUnit = typeof DIFF_UNIT | 'bytes' | 'objects';

export interface FunctionDelta {
  name: string;
  file: string;
  line: number;
  category: Category;
  /** Self time before / after / change, in ms per second of profile. */
  beforeSelf: number;
  afterSelf: number;
  selfDelta: number;
  beforeTotal: number;
  afterTotal: number;
  totalDelta: number;
}

export interface LineDelta {
  file: string;
  line: number;
  before: number;
  after: number;
  delta: number;
}

export interface ProfileSide {
  format: ProfileFormat;
  samples: number;
  durationMs: number;
}

export interface ProfileDiff {
  /** ms/s for CPU profiles; bytes or objects, not rates, for allocation profiles. */
  unit: DiffUnit;
  before: ProfileSide;
  after: ProfileSide;
  /** Biggest self change first (ties: biggest total change). */
  functions: FunctionDelta[];
  /** Biggest change first. */
  lines: LineDelta[];
}

function side(report: ProfileReport): ProfileSide {
  return { format: report.format, samples: report.samples, durationMs: report.durationMs };
}

/** The unit both sides are compared in; profiles of different kinds do not compare. */
export function diffUnitOf(before: WeightUnit, after: WeightUnit): DiffUnit {
  if (before !== after) throw new ProfileInputError(`cannot compare a profile of ${before === 'ms' ? 'CPU time' : before} with one of ${after === 'ms' ? 'CPU time' : after}: compare profiles of one kind`);
  return before === 'ms' ? DIFF_UNIT : before;
}

export function diffReports(before: ProfileReport, after: ProfileReport): ProfileDiff {
  const unit = diffUnitOf(before.unit, after.unit);
  const rate = (value: number, durationMs: number): number => (unit === DIFF_UNIT ? perSecond(value, durationMs) : value);
  const functions = new Map<string, FunctionDelta>();
  const functionOf = (f: ProfileReport['functions'][number]): FunctionDelta => {
    const key = `${f.name}\u0000${f.file}\u0000${f.line}\u0000${f.column}\u0000${f.category}`;
    let delta = functions.get(key);
    if (delta === undefined) {
      delta = { name: f.name, file: f.file, line: f.line, category: f.category, beforeSelf: 0, afterSelf: 0, selfDelta: 0, beforeTotal: 0, afterTotal: 0, totalDelta: 0 };
      functions.set(key, delta);
    }
    return delta;
  };
  for (const f of before.functions) {
    const d = functionOf(f);
    d.beforeSelf += rate(f.selfMs, before.durationMs);
    d.beforeTotal += rate(f.totalMs, before.durationMs);
  }
  for (const f of after.functions) {
    const d = functionOf(f);
    d.afterSelf += rate(f.selfMs, after.durationMs);
    d.afterTotal += rate(f.totalMs, after.durationMs);
  }
  for (const d of functions.values()) {
    d.selfDelta = d.afterSelf - d.beforeSelf;
    d.totalDelta = d.afterTotal - d.beforeTotal;
  }
  const lines = new Map<string, LineDelta>();
  const lineOf = (file: string, line: number): LineDelta => {
    const key = `${file}\u0000${line}`;
    let delta = lines.get(key);
    if (delta === undefined) {
      delta = { file, line, before: 0, after: 0, delta: 0 };
      lines.set(key, delta);
    }
    return delta;
  };
  for (const l of before.lines) lineOf(l.file, l.line).before += rate(l.selfMs, before.durationMs);
  for (const l of after.lines) lineOf(l.file, l.line).after += rate(l.selfMs, after.durationMs);
  for (const l of lines.values()) l.delta = l.after - l.before;
  return {
    unit,
    before: side(before),
    after: side(after),
    functions: [...functions.values()].sort(
      (a, b) => Math.abs(b.selfDelta) - Math.abs(a.selfDelta) || Math.abs(b.totalDelta) - Math.abs(a.totalDelta) || a.name.localeCompare(b.name),
    ),
    lines: [...lines.values()].sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || a.file.localeCompare(b.file) || a.line - b.line),
  };
}

/**
 * The after profile's flame tree with `delta` on every node: ms it spent there minus what the
 * baseline spent at the same rate over the after profile's duration.
 */
export function diffFlameTree(before: AnalyzedProfile, after: AnalyzedProfile, onlyMyCode: boolean, minFraction = DEFAULT_MIN_FRACTION): FlameNode {
  const unit = diffUnitOf(before.report.unit, after.report.unit);
  // Allocation profiles compare bytes as they are; CPU profiles at the same rate.
  const scale = unit !== DIFF_UNIT ? 1 : before.profile.durationMs > 0 ? after.profile.durationMs / before.profile.durationMs : 0;
  const tree = diffTrees(after.mergedTree(onlyMyCode), before.mergedTree(onlyMyCode), scale);
  return toFlameNodes(tree, { rootName: 'all', minFraction, withDelta: true });
}
