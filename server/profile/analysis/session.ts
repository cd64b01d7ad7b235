// The profile session: the primary and baseline analyses a user has loaded, and the answers to
// questions about them (flame graph, overview, one line's detail). Pure logic, no transport: the
// profile worker (server/lsp/profileWorker.ts) serves it over the worker's message port.
import { basename } from 'node:path';

import type { FlameGraphParams, FlameGraphResult, LineDetail, LoadedProfile, OverviewResult, ProfileRole, ProfileSummary } from '../../protocol/wire';
import { diffFlameTree } from './diff';
import { gcPercent } from './insights';
import { ProfileInputError } from '../readers/profileInputError';
import { analyzeProfileFile, type AnalysisOptions, type AnalyzedProfile } from './report';

const HOT_FUNCTIONS = 100;

/** A one-line message for the user; untrusted text stays one line. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split(/\r?\n/)[0].trim() || 'unknown error';
}

export class ProfileSession {
  private primary: { path: string; analyzed: AnalyzedProfile } | null = null;
  private baseline: { path: string; analyzed: AnalyzedProfile } | null = null;

  /** Loads a profile; on any failure (or abort) the previous state is kept. */
  async load(path: string, role: ProfileRole, options: AnalysisOptions, signal?: AbortSignal, onProgress?: (fraction: number) => void, pick: { sampleType?: string; thread?: string } = {}): Promise<LoadedProfile> {
    let analyzed: AnalyzedProfile;
    try {
      analyzed = await analyzeProfileFile(path, options, { signal, onProgress: (fraction) => onProgress?.(fraction * 0.8), sampleType: pick.sampleType, thread: pick.thread });
      // Analysis is synchronous: let an abort posted meanwhile arrive before committing.
      await new Promise<void>((done) => setImmediate(done));
      signal?.throwIfAborted();
    } catch (error) {
      if (signal?.aborted === true) throw new Error('cancelled');
      if (error instanceof ProfileInputError) throw error;
      throw new Error(`${basename(path)}: ${oneLine(error)}`);
    }
    onProgress?.(1);
    const entry = { path, analyzed };
    if (role === 'baseline') this.baseline = entry;
    else {
      // Opening another profile ends a comparison: the old "before" says nothing about the new one.
      this.primary = entry;
      this.baseline = null;
    }
    return {
      summary: summaryOf(path, analyzed),
      costTable: role === 'primary' ? analyzed.costTable() : null,
      insights: role === 'primary' ? analyzed.report.insights : [],
    };
  }

  clear(): void {
    this.primary = null;
    this.baseline = null;
  }

  flame(params: FlameGraphParams): FlameGraphResult {
    const primary = this.primary;
    if (primary === null) throw new ProfileInputError('no profile loaded: open a .cpuprofile or V8 log first');
    const minFraction = params.minFraction ?? undefined;
    if (params.mode === 'diff') {
      const baseline = this.baseline;
      if (baseline === null) throw new ProfileInputError('no baseline profile loaded: use Compare to pick the "before" profile');
      const files = new Set([...primary.analyzed.openableFiles(), ...baseline.analyzed.openableFiles()]);
      return {
        title: `${basename(baseline.path)} → ${basename(primary.path)}`,
        mode: 'diff',
        unit: flameUnit(primary.analyzed),
        cpuMs: primary.analyzed.report.cpuMs,
        root: diffFlameTree(baseline.analyzed, primary.analyzed, params.onlyMyCode, minFraction),
        openableFiles: [...files].sort(),
      };
    }
    return {
      title: basename(primary.path),
      mode: params.mode,
      unit: flameUnit(primary.analyzed),
      cpuMs: primary.analyzed.report.cpuMs,
      root: primary.analyzed.flame(params.mode, params.onlyMyCode, minFraction),
      openableFiles: primary.analyzed.openableFiles(),
    };
  }

  overview(): OverviewResult {
    const report = this.primary?.analyzed.report;
    return {
      profile: this.primary === null ? null : summaryOf(this.primary.path, this.primary.analyzed),
      baseline: this.baseline === null ? null : summaryOf(this.baseline.path, this.baseline.analyzed),
      hotFunctions: report?.functions.slice(0, HOT_FUNCTIONS) ?? [],
      callSites: report?.callSites.slice(0, HOT_FUNCTIONS) ?? [],
      insights: report?.insights ?? [],
    };
  }

  lineDetail(file: string, line: number): LineDetail | null {
    return this.primary?.analyzed.lineDetail(file, line) ?? null;
  }
}

/** Flame values are ms for CPU profiles, the weight itself (bytes, objects) for allocation profiles. */
function flameUnit(analyzed: AnalyzedProfile): FlameGraphResult['unit'] {
  return analyzed.report.unit;
}

function summaryOf(path: string, analyzed: AnalyzedProfile): ProfileSummary {
  const { report } = analyzed;
  return {
    name: basename(path),
    path,
    format: report.format,
    unit: report.unit,
    notes: report.notes,
    ...(report.sampleTypes !== undefined ? { sampleTypes: report.sampleTypes } : {}),
    samples: report.samples,
    durationMs: report.durationMs,
    cpuMs: report.cpuMs,
    gcPercent: gcPercent(analyzed.aggregates),
    unresolvedFiles: report.unresolvedFiles,
    warnings: report.warnings,
    ...(analyzed.profile.threads !== undefined ? { threads: analyzed.profile.threads, thread: analyzed.profile.thread } : {}),
  };
}
