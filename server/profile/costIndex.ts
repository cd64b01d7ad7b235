// CONTRACT STUB: joins static findings with measured profile cost ("findings ranked by what
// they cost"). Being written (issue 3); the signatures below are fixed.
import type { Finding } from '../../rules/api';
import type { ReportOptions } from './types';

export interface MeasuredCost {
  selfMs: number;
  totalMs: number;
  /** Total share of the profile's samples, 0..100. */
  percent: number;
}

export interface CostIndex {
  /** Cost of the code a finding sits in (its line, else its enclosing function), or null. */
  costOf(filePath: string, finding: Pick<Finding, 'range' | 'enclosingFunction'>): MeasuredCost | null;
}

export async function loadCostIndex(profilePath: string, options: ReportOptions): Promise<CostIndex> {
  void profilePath;
  void options;
  throw new Error('loadCostIndex: not implemented yet');
}
