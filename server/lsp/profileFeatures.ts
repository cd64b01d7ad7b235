// CONTRACT STUB: the language server's profile half (load in a worker, heat, flame graph,
// overview, hover, ranked diagnostics). Being written; the signatures below are fixed.
import type { Connection } from 'vscode-languageserver';
import type { Finding } from '../../rules/api';

import type { MeasuredCost } from '../profile/costIndex';

/** A diagnostic the profile raises on its own (GC share, hot normalizeSpawnArguments...). */
export interface InsightDiagnostic {
  line: number; // 1-based
  message: string;
  insightId: string;
}

export interface ProfileFeatures {
  /** Measured cost of the code a finding sits in, or null (no profile, or not hot). */
  costOf(filePath: string, finding: Finding): MeasuredCost | null;
  /** The `hotframe.hotThresholdPercent` in force. */
  hotThresholdPercent(): number;
  /** Insights of the loaded profile that land in this file. */
  insightsFor(filePath: string): InsightDiagnostic[];
}

/**
 * Registers the hotframe/* requests and the hover provider. `onProfileChanged` lets the
 * diagnostics side revalidate open documents when a profile is loaded or cleared.
 */
export function registerProfileFeatures(connection: Connection, onProfileChanged: () => void): ProfileFeatures {
  void connection;
  void onProfileChanged;
  return { costOf: () => null, hotThresholdPercent: () => 1, insightsFor: () => [] };
}
