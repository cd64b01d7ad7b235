// Joins static findings with measured profile cost ("findings ranked by what they cost"), the one
// join the CLI (analyze, its JSON and SARIF) and the editor use: the calls made on a finding's line
// (its call line: a statSync call costs what runs under it, however little the line's own
// statements take), else the line's own cost, else its enclosing function's total; the cost says
// which (`basis`).
import { resolve } from 'node:path';

import type { Finding, RuleId, Severity } from '../../rules/api';
import { formatMs, formatShare, formatWeight, percentOf, type ShareBasis } from '../shared/format';
import { analyzeProfileFile, type AnalysisOptions } from '../profile/analysis/report';
import type { CostTable, DeferredCost, FileCosts, FunctionCost, InsightId, ReportOptions } from '../profile/model/types';

export type { CostTable, DeferredCost, FileCosts };

/** What a finding's cost measures: the calls on its line (and the line's own time), the line alone, or its enclosing function. */
export type CostBasis = 'callLine' | 'line' | 'function';

export interface MeasuredCost {
  selfMs: number;
  totalMs: number;
  /** Which code `totalMs` is the cost of (absent in costs built before the basis was said: read as 'line'). */
  basis?: CostBasis;
  /** basis 'function': the enclosing function's name. */
  functionName?: string;
  /** totalMs as a share of the profile's CPU time (idle excluded), 0..100. */
  percent: number;
  /** Present when the finding's rule is about work the profile measured elsewhere (see DeferredCost). */
  deferred?: DeferredCost;
  /** Allocation profiles: selfMs/totalMs hold this weight (bytes, objects), not time. */
  unit?: 'bytes' | 'objects';
  /** What `percent` is of (the profile's; a merged capture's processes), named in every text of this cost. */
  shareBasis: ShareBasis;
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
  /** What `percent` is of (the allocation profile's). */
  shareBasis: ShareBasis;
  /** Which code `amount` is the allocation of (the allocation profile's own join). */
  basis?: CostBasis;
  functionName?: string;
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

/** "allocates 366 MiB in the calls on this line, 37.0% of allocated bytes". */
function describeAllocated(cost: AllocatedCost): string {
  return `allocates ${formatWeight(cost.amount, cost.unit)}${basisText(cost)}, ${formatShare(cost.percent, cost.shareBasis)}`;
}

/** " in the calls on this line", " on this line", " in its function handler": which code a figure is the cost of. */
function basisText(cost: Pick<MeasuredCost, 'basis' | 'functionName'>): string {
  switch (cost.basis) {
    case 'callLine':
      return ' in the calls on this line';
    case 'function':
      return ` in its function ${cost.functionName || '(anonymous)'}`;
    default:
      return ' on this line';
  }
}

/**
 * "1.90 s, 23.0% of CPU time, idle excluded", or with deferred work
 * "2.70 ms here; mongoose hydration after the query: 1.09 s, 12.3% of CPU time, idle excluded";
 * with an allocation profile joined, "...; allocates 366 MiB, 37.0% of allocated bytes".
 */
export function describeCost(cost: MeasuredCost): string {
  // Code that allocates heavily says how much (an allocation profile loaded).
  if (cost.unit !== undefined) return describeAllocated({ amount: cost.totalMs, percent: cost.percent, unit: cost.unit, shareBasis: cost.shareBasis, basis: cost.basis, functionName: cost.functionName });
  const allocated = cost.allocated === undefined ? '' : `; ${describeAllocated(cost.allocated)}`;
  const own = `${formatMs(cost.totalMs)}${basisText(cost)}, ${formatShare(cost.percent, cost.shareBasis)}`;
  if (cost.deferred === undefined) return own + allocated;
  const { label, ms, percent } = cost.deferred;
  return `${formatMs(cost.totalMs)}${basisText(cost)}; ${label} after the query: ${formatMs(ms)}, ${formatShare(percent, cost.shareBasis)}${allocated}`;
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
    const selfMs = lineCost?.selfMs ?? 0;
    // The calls made on the line, with everything under them (recorded by a V8 log, found in the
    // source for a .cpuprofile or an allocation profile), plus the line's own time.
    const callLine = costs.callLines.find((c) => c.line === line);
    if (callLine !== undefined && callLine.samples > 0) {
      const totalMs = selfMs + callLine.ms;
      return { selfMs, totalMs, percent: percent(totalMs), shareBasis: table.shareBasis, basis: 'callLine' };
    }
    // Library time charged to a call on this line belongs to the line too (execSync's spawn
    // cost), when the profile recorded the call's line rather than only its function.
    const calls = costs.callSites.filter((s) => s.line === line && s.exactLine === true);
    const lineSamples = (lineCost?.selfSamples ?? 0) + calls.reduce((sum, s) => sum + s.samples, 0);
    if (lineSamples > 0) {
      const totalMs = selfMs + calls.reduce((sum, s) => sum + s.ms, 0);
      return { selfMs, totalMs, percent: percent(totalMs), shareBasis: table.shareBasis, basis: 'line' };
    }
    if (finding.enclosingFunction === null) return null;
    const fn = enclosingCost(costs, finding.enclosingFunction);
    if (fn === null || fn.totalSamples === 0) return null;
    return { selfMs: fn.selfMs, totalMs: fn.totalMs, percent: percent(fn.totalMs), shareBasis: table.shareBasis, basis: 'function', functionName: fn.name };
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
      const { basis, functionName } = allocatedCost;
      const which = { ...(basis !== undefined ? { basis } : {}), ...(functionName !== undefined ? { functionName } : {}) };
      return { ...own, allocated: { amount: allocatedCost.totalMs, percent: allocatedCost.percent, unit: allocatedCost.unit, shareBasis: allocatedCost.shareBasis, ...which } };
    },
  };
}

export async function loadCostIndex(profilePath: string, options: ReportOptions | AnalysisOptions): Promise<CostIndex> {
  return costIndexOf((await analyzeProfileFile(profilePath, options)).costTable());
}
