// Joins static findings with measured profile cost ("findings ranked by what they cost"): the
// cost of a finding's line when the line has samples, else of its enclosing function.
import { resolve } from 'node:path';

import type { Finding } from '../../rules/api';
import { analyzeProfileFile, type AnalysisOptions } from './report';
import type { CallSite, FunctionCost, LineCost, ReportOptions } from './types';

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

/** Everything measured in one local file. */
export interface FileCosts {
  lines: LineCost[];
  functions: FunctionCost[];
  callSites: CallSite[];
}

/** Per-file costs of a whole profile; plain data, so it can cross from the profile worker. */
export interface CostTable {
  samples: number;
  files: Record<string, FileCosts>;
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
  const percent = (samples: number): number => (table.samples > 0 ? (samples / table.samples) * 100 : 0);
  return {
    costOf(filePath, finding) {
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
        return { selfMs, totalMs: selfMs + calls.reduce((sum, s) => sum + s.ms, 0), percent: percent(lineSamples) };
      }
      if (finding.enclosingFunction === null) return null;
      const fn = enclosingCost(costs, finding.enclosingFunction);
      if (fn === null || fn.totalSamples === 0) return null;
      return { selfMs: fn.selfMs, totalMs: fn.totalMs, percent: percent(fn.totalSamples) };
    },
  };
}

export async function loadCostIndex(profilePath: string, options: ReportOptions | AnalysisOptions): Promise<CostIndex> {
  return costIndexOf((await analyzeProfileFile(profilePath, options)).costTable());
}
