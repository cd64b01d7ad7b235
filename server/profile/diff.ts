// Compares two profiles of the same code (before/after a change). Profiles rarely last equally
// long, so every figure is a rate: milliseconds of CPU per second of profile ("ms/s"); 1000 ms/s
// is one core fully busy. Functions and lines are matched by name and resolved location.
import { diffTrees, toFlameNodes, DEFAULT_MIN_FRACTION } from './flameTree';
import type { AnalyzedProfile } from './report';
import type { Category, FlameNode, ProfileFormat, ProfileReport } from './types';

export const DIFF_UNIT = 'ms/s' as const;

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
  unit: typeof DIFF_UNIT;
  before: ProfileSide;
  after: ProfileSide;
  /** Biggest self change first (ties: biggest total change). */
  functions: FunctionDelta[];
  /** Biggest change first. */
  lines: LineDelta[];
}

/** ms -> ms per second of a profile lasting durationMs. */
function rate(ms: number, durationMs: number): number {
  return durationMs > 0 ? (ms * 1000) / durationMs : 0;
}

function side(report: ProfileReport): ProfileSide {
  return { format: report.format, samples: report.samples, durationMs: report.durationMs };
}

export function diffReports(before: ProfileReport, after: ProfileReport): ProfileDiff {
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
    unit: DIFF_UNIT,
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
  const scale = before.profile.durationMs > 0 ? after.profile.durationMs / before.profile.durationMs : 0;
  const tree = diffTrees(after.mergedTree(onlyMyCode), before.mergedTree(onlyMyCode), scale);
  return toFlameNodes(tree, { rootName: 'all', minFraction, withDelta: true });
}
