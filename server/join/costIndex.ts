// Joins static findings with measured profile cost ("findings ranked by what they cost"): the
// cost of a finding's line when the line has samples, else of its enclosing function.
import { resolve } from 'node:path';

import type { Finding, RuleId, Severity } from '../../rules/api';
import { formatMs, formatPercent, formatShare, formatWeight, percentOf } from '../shared/format';
import { analyzeProfileFile, type AnalysisOptions } from '../profile/analysis/report';
import type { CostTable, DeferredCost, FileCosts, FunctionCost, InsightId, ReportOptions } from '../profile/model/types';

export type { CostTable, DeferredCost, FileCosts };

export interface MeasuredCost {
  selfMs: number;
  totalMs: number;
  /** totalMs as a share of the profile's CPU time (idle excluded), 0..100. */
  percent: number;
  /** Present when the finding's rule is about work the profile measured elsewhere (see DeferredCost). */
  deferred?: DeferredCost;
  /** Allocation profiles: selfMs/totalMs hold this weight (bytes, objects), not time. */
  unit?: 'bytes' | 'objects';
  /** An allocation profile joined to the CPU profile: what the same code allocated there. */
  allocated?: AllocatedCost;
}

/** What a finding's code allocated in an allocation profile loaded next to the CPU profile. */
export interface AllocatedCost {
  /** The code's total (it and what it called), in `unit`. */
  amount: number;
  /** Share of everything the allocation profile holds, 0..100. */
  percent: number;
  unit: 'bytes' | 'objects';
}

export interface CostIndex {
  /** Cost of the code a finding sits in (its line, else its enclosing function), or null. */
  costOf(filePath: string, finding: Pick<Finding, 'ruleId' | 'range' | 'enclosingFunction'>): MeasuredCost | null;
}

/** Rules whose cost lands after an await, and the insight that measures it. */
const DEFERRED_INSIGHT: Partial<Record<RuleId, InsightId>> = {
  'mongoose-missing-lean': 'mongoose-hydration',
  'mongoose-count-by-loading': 'mongoose-hydration',
};

/** The figure findings are ranked by: their own cost, or the deferred work they stand for if larger. */
export function rankingMs(cost: MeasuredCost | null | undefined): number {
  if (cost === null || cost === undefined) return -1;
  return Math.max(cost.totalMs, cost.deferred?.ms ?? 0);
}

/** The larger share a finding's code takes: of CPU time, of the deferred work, or of the bytes allocated (a joined allocation profile). */
export function rankingPercent(cost: MeasuredCost): number {
  return Math.max(cost.percent, cost.deferred?.percent ?? 0, cost.allocated?.percent ?? 0);
}

/** The share of CPU time at or above which a finding's code is hot, unless the user sets `hotframe.hotThresholdPercent`. */
export const DEFAULT_HOT_THRESHOLD_PERCENT = 1;

const RAISED: Record<Severity, Severity> = { hint: 'information', information: 'warning', warning: 'error', error: 'error' };

/**
 * A finding's severity once a profile has measured its code ("quiet without evidence, loud with
 * it"), the same in the editor and on the command line: when that code is hot, a finding that
 * needed frequency to matter (a hint until now) takes its rule's level, any other one step up.
 */
export function severityWithCost(finding: Pick<Finding, 'severity' | 'severityWhenHot'>, cost: MeasuredCost | null | undefined, hotThresholdPercent: number): Severity {
  if (cost == null || rankingPercent(cost) < hotThresholdPercent) return finding.severity;
  return finding.severityWhenHot ?? RAISED[finding.severity];
}

/** "allocates 366 MiB, 37.0% of allocated bytes". */
function describeAllocated(amount: number, percent: number, unit: 'bytes' | 'objects'): string {
  return `allocates ${formatWeight(amount, unit)}, ${formatPercent(percent)} of allocated ${unit}`;
}

/**
 * "1.90 s, 23.0% of CPU time, idle excluded", or with deferred work
 * "2.70 ms here; mongoose hydration after the query: 1.09 s, 12.3% of CPU time, idle excluded";
 * with an allocation profile joined, "...; allocates 366 MiB, 37.0% of allocated bytes".
 */
export function describeCost(cost: MeasuredCost): string {
  // Code that allocates heavily says how much (an allocation profile loaded).
  if (cost.unit !== undefined) return describeAllocated(cost.totalMs, cost.percent, cost.unit);
  const allocated = cost.allocated === undefined ? '' : `; ${describeAllocated(cost.allocated.amount, cost.allocated.percent, cost.allocated.unit)}`;
  const own = `${formatMs(cost.totalMs)}, ${formatShare(cost.percent)}`;
  if (cost.deferred === undefined) return own + allocated;
  const { label, ms, percent } = cost.deferred;
  return `${formatMs(cost.totalMs)} here; ${label} after the query: ${formatMs(ms)}, ${formatShare(percent)}${allocated}`;
}

function enclosingCost(costs: FileCosts, enclosing: NonNullable<Finding['enclosingFunction']>): FunctionCost | null {
  // Babel columns are 0-based, the profile's 1-based. V8 and Babel may disagree on where a
  // function starts on its line (keyword, name or parameters), so: same line, same name
  // first, then the nearest column.
  const column = enclosing.column + 1;
  let best: FunctionCost | null = null;
  let bestScore = Infinity;
  for (const fn of costs.functions) {
    if (fn.line !== enclosing.line || fn.category !== 'user') continue;
    const score = (fn.name === enclosing.name || fn.name.endsWith(`.${enclosing.name}`) ? 0 : 1_000_000) + Math.abs(fn.column - column);
    if (score < bestScore) {
      best = fn;
      bestScore = score;
    }
  }
  return best;
}

export function costIndexOf(table: CostTable): CostIndex {
  const percent = (ms: number): number => percentOf(ms, table.cpuMs);
  const withDeferred = (cost: MeasuredCost | null, ruleId: RuleId): MeasuredCost | null => {
    // Only code the profile saw running gets the deferred work: a query that never ran
    // cannot have caused it.
    const insight = DEFERRED_INSIGHT[ruleId];
    const deferred = insight === undefined ? undefined : table.deferred.find((d) => d.insight === insight);
    return cost === null || deferred === undefined ? cost : { ...cost, deferred };
  };
  const ownCost = (filePath: string, finding: Pick<Finding, 'range' | 'enclosingFunction'>): MeasuredCost | null => {
    const costs = table.files[resolve(filePath)];
    if (costs === undefined) return null;
    const line = finding.range.loc.start.line;
    const lineCost = costs.lines.find((l) => l.line === line);
    // Library time charged to a call on this line belongs to the line too (execSync's spawn
    // cost), when the profile recorded the call's line rather than only its function.
    const calls = costs.callSites.filter((s) => s.line === line && s.exactLine === true);
    const lineSamples = (lineCost?.selfSamples ?? 0) + calls.reduce((sum, s) => sum + s.samples, 0);
    if (lineSamples > 0) {
      const selfMs = lineCost?.selfMs ?? 0;
      const totalMs = selfMs + calls.reduce((sum, s) => sum + s.ms, 0);
      return { selfMs, totalMs, percent: percent(totalMs) };
    }
    if (finding.enclosingFunction === null) return null;
    const fn = enclosingCost(costs, finding.enclosingFunction);
    if (fn === null || fn.totalSamples === 0) return null;
    return { selfMs: fn.selfMs, totalMs: fn.totalMs, percent: percent(fn.totalMs) };
  };
  return {
    costOf: (filePath, finding) => {
      const cost = withDeferred(ownCost(filePath, finding), finding.ruleId);
      return cost === null || table.unit === undefined ? cost : { ...cost, unit: table.unit };
    },
  };
}

/**
 * A CPU profile's costs joined with an allocation profile of the same service: each finding
 * keeps its CPU cost and says what its code allocated (code the CPU profile did not sample
 * gets the allocation cost alone, as with an allocation profile on its own).
 */
export function joinAllocationCosts(cpu: CostIndex, allocation: CostIndex): CostIndex {
  return {
    costOf: (filePath, finding) => {
      const own = cpu.costOf(filePath, finding);
      const allocatedCost = allocation.costOf(filePath, finding);
      if (allocatedCost === null || allocatedCost.unit === undefined) return own;
      if (own === null) return allocatedCost;
      return { ...own, allocated: { amount: allocatedCost.totalMs, percent: allocatedCost.percent, unit: allocatedCost.unit } };
    },
  };
}

export async function loadCostIndex(profilePath: string, options: ReportOptions | AnalysisOptions): Promise<CostIndex> {
  return costIndexOf((await analyzeProfileFile(profilePath, options)).costTable());
}
