// The language server's profile half: loads profiles in the profile worker (progress, cancel,
// one-line failures that keep the previous state), answers the hotframe/* requests, and owns
// the hover. The main thread keeps only the per-file cost table, so `costOf` stays synchronous.
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { ErrorCodes, LSPErrorCodes, MarkupKind, ResponseError, WorkDoneProgress } from 'vscode-languageserver';
import type { Connection, Hover, Position } from 'vscode-languageserver';

import type { Finding } from '../../rules/api';
import { costIndexOf, joinAllocationCosts, type CostIndex, type CostTable, type MeasuredCost } from '../join/costIndex';
import { formatAmount, formatCost, percentOf } from '../shared/format';
import { uriToPath } from '../shared/paths';
import { oneLine } from '../profile/analysis/session';
import { Requests, type FileHeatParams, type LoadProfileParams } from '../protocol/lsp';
import type { FileHeat, FlameGraphParams, Insight, LineDetail, ProfileSummary, SemiSpaceSweepParams, StallLine } from '../protocol/wire';
import type { SandwichParams } from '../protocol/wire';
import { routeHover, routeNotesIn } from './routeNotes';
import { withCallLineFindings, type LineFinding } from './callLineFindings';
import { WorkerRequests, type WorkerSandwichParams } from '../protocol/worker';
import { ProfileChannel } from './profileChannel';
import { DEFAULT_SETTINGS, readPathMappings, type HotframeSettings } from './settings';

/** A diagnostic the profile raises on its own (GC share, hot normalizeSpawnArguments...). */
export interface InsightDiagnostic {
  line: number; // 1-based
  message: string;
  insightId: string;
  /** A finding of this rule on the same line carries the insight instead of a second diagnostic. */
  rule?: string;
  /** The measured cost, for the finding that carries it: "1.20 s (14.0% of CPU time, idle excluded)". */
  cost: string;
}

export interface ProfileFeatures {
  /** Measured cost of the code a finding sits in, or null (no profile, or not hot). */
  costOf(filePath: string, finding: Finding): MeasuredCost | null;
  /** The `hotframe.hotThresholdPercent` in force. */
  hotThresholdPercent(): number;
  /** Insights of the loaded profile that land in this file. */
  insightsFor(filePath: string): InsightDiagnostic[];
  /** Lines of this file that event-loop stalls of the loaded profile are named by, and the threshold they were found with. */
  stallsFor?(filePath: string): { thresholdMs: number; lines: StallLine[] };
}

function failure(error: unknown): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestFailed, oneLine(error));
}

/** What `ask` answers (a request to the profile worker); its failure, in one line, as the client's RequestFailed error. */
async function workerAnswer<R>(ask: () => Promise<R>): Promise<R> {
  try {
    return await ask();
  } catch (error) {
    throw failure(error);
  }
}

function invalid(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, message);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** Checks what the client sent; it crossed a process boundary and may be anything. */
function loadParams(raw: unknown, warn: (line: string) => void): LoadProfileParams {
  const params = raw as Partial<LoadProfileParams> & { workDoneToken?: unknown } | null;
  if (params === null || typeof params !== 'object') throw invalid('loadProfile: expected {path, role, pathMappings, roots}');
  if (typeof params.path !== 'string' || !isAbsolute(params.path)) throw invalid(`loadProfile: path must be an absolute file path, got ${JSON.stringify(params.path)}`);
  if (params.role !== 'primary' && params.role !== 'baseline' && params.role !== 'allocation') throw invalid(`loadProfile: role must be 'primary', 'baseline' or 'allocation'`);
  const mappings = readPathMappings(params.pathMappings, warn);
  const roots = isStringArray(params.roots) ? params.roots : [];
  const token = typeof params.workDoneToken === 'string' || typeof params.workDoneToken === 'number' ? params.workDoneToken : undefined;
  // Both name a part of the file: a pprof sample type, a trace's thread; bounded like every input.
  const sampleType = typeof params.sampleType === 'string' && params.sampleType.length <= 200 ? params.sampleType : undefined;
  const thread = typeof params.thread === 'string' && params.thread.length <= 200 ? params.thread : undefined;
  return {
    path: params.path,
    role: params.role,
    pathMappings: mappings,
    roots,
    workDoneToken: token,
    ...(sampleType !== undefined ? { sampleType } : {}),
    ...(thread !== undefined ? { thread } : {}),
  };
}

/** Checks a sandwich question; it crossed a process boundary and may be anything. */
function sandwichParams(raw: unknown): SandwichParams {
  const params = raw as Partial<SandwichParams> | null;
  const isLine = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
  if (params === null || typeof params !== 'object' || typeof params.file !== 'string' || !isAbsolute(params.file) || params.file.length > 4096 || !isLine(params.line)) {
    throw invalid('sandwich: expected {file (an absolute path), line, column?, name?}');
  }
  if (params.column !== undefined && !isLine(params.column)) throw invalid('sandwich: column must be a 1-based integer');
  if (params.name !== undefined && (typeof params.name !== 'string' || params.name.length > 500)) throw invalid('sandwich: name must be a string of at most 500 characters');
  return { file: resolve(params.file), line: params.line, ...(params.column !== undefined ? { column: params.column } : {}), ...(params.name !== undefined ? { name: params.name } : {}) };
}

/**
 * Markdown-escapes text from the profile (function names, paths). Never inside a code span:
 * there a backslash is literal, and the hover would show "\`Task\.find\`".
 */
function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');
}

/** The hover text for one measured line. Every share is of the loaded profile's denominator (`detail.shareBasis`), named in each figure. */
export function hoverMarkdown(detail: LineDetail): string {
  const parts: string[] = [];
  const basis = detail.shareBasis;
  const unit = basis.unit;
  const amount = (value: number): string => formatAmount(value, unit);
  // Our own figures carry no markdown syntax; only names and paths from the profile are escaped.
  const share = (ms: number): string => formatCost(ms, percentOf(ms, detail.cpuMs), basis);
  if (detail.line !== null) {
    parts.push(`**Hotframe** · this line: ${unit === 'ms' ? '' : 'allocates '}self ${share(detail.line.selfMs)}`);
  } else {
    parts.push('**Hotframe**');
  }
  if (detail.callLine !== null) {
    const call = detail.callLine;
    const how = call.found === 'fromSource' ? ' (the one call to it in this function, found in the source)' : '';
    const calls = call.calls ?? [];
    const verb = unit === 'ms' ? '' : ' allocate';
    if (calls.length >= 2) {
      // Each call on the line its own figure; together once per sample (they differ when one runs under another).
      const each = calls.map((c) => `**${md(c.callee || '(anonymous)')}** ${share(c.ms)}`).join(', ');
      parts.push(`calls on this line${verb}: ${each}; together ${share(call.ms)}`);
    } else if (call.untold === true) {
      parts.push(`calls on this line${verb}: ${share(call.ms)}, in **${md(call.callee || '(anonymous)')}** and below (the profile shows one callee for more calls written here: the others were inlined or not sampled)`);
    } else {
      parts.push(`this call${unit === 'ms' ? '' : ' allocates'}: ${share(call.ms)}, in **${md(call.callee || '(anonymous)')}** and below${how}`);
    }
  }
  for (const { cost, callers, callees } of detail.functions) {
    const inferred = cost.inferred === true ? ' (placed by its name: the profile recorded no URL)' : '';
    parts.push(`**${md(cost.name || '(anonymous)')}**${unit === 'ms' ? '' : ' allocates'}: self ${share(cost.selfMs)}, total ${share(cost.totalMs)}${inferred}`);
    if (callers.length > 0) parts.push(`callers: ${callers.map((e) => `${md(e.name || '(anonymous)')} ${amount(e.ms)}`).join(', ')}`);
    if (callees.length > 0) parts.push(`callees: ${callees.map((e) => `${md(e.name || '(anonymous)')} ${amount(e.ms)}`).join(', ')}`);
  }
  for (const site of detail.callSites) {
    const libraries = site.libraries
      .slice(0, 4)
      .map((l) => `${md(l.name || '(anonymous)')} ${amount(l.ms)}`)
      .join(', ');
    const where = site.exactLine === true ? 'calls on this line' : `calls in **${md(site.function || '(anonymous)')}**`;
    parts.push(`${where} ${unit === 'ms' ? `spent ${formatCost(site.ms, site.percent, basis)}` : `allocated ${share(site.ms)}`} in libraries: ${libraries}`);
  }
  return parts.join('\n\n');
}

/**
 * Registers the hotframe/* requests and the hover provider. `onProfileChanged` lets the
 * diagnostics side revalidate open documents when a profile is loaded or cleared. `settings`
 * gives the settings in force (server/lsp/settings.ts; the defaults when absent). `isTrusted` is the workspace's
 * trust: in an untrusted one nm never runs and the (workspace-set) path mappings are ignored.
 */
export function registerProfileFeatures(
  connection: Connection,
  onProfileChanged: () => void,
  settings: () => HotframeSettings = () => DEFAULT_SETTINGS,
  isTrusted: () => boolean = () => true,
  /** The hover's paragraph about the findings under a position (server/lsp/findingHover.ts), said before the profile's figures. */
  findingHover: (uri: string, position: Position) => string | null = () => null,
  /** The static findings of one local file (open or on disk in the workspace), for the callers' call lines of a sandwich. */
  findingsIn: (filePath: string) => readonly LineFinding[] = () => [],
): ProfileFeatures {
  let primary: { summary: ProfileSummary; table: CostTable; index: CostIndex; insights: Insight[] } | null = null;
  /** An allocation profile joined to the CPU primary: `index` is the joined one, findings also say what their code allocates. */
  let allocation: { summary: ProfileSummary; index: CostIndex } | null = null;
  /** The running load per role: a newer load of the same role aborts it. */
  const loading = new Map<string, AbortController>();

  const script = join(__dirname, 'profileWorker.js');
  // No built worker beside this module (under tsx): the session is served on this thread.
  const backend = new ProfileChannel(existsSync(script) ? script : null, (reason) => {
    connection.console.error(`hotframe: ${reason}; load the profile again`);
    primary = null;
    allocation = null;
    onProfileChanged();
  });

  connection.onRequest(Requests.loadProfile, async (untrusted, token) => {
    const params = loadParams(untrusted, (line) => connection.console.warn(line));
    loading.get(params.role)?.abort();
    const controller = new AbortController();
    loading.set(params.role, controller);
    const cancel = token.onCancellationRequested(() => controller.abort());
    const progress = params.workDoneToken;
    let reported = -1;
    const report = (fraction: number): void => {
      const percentage = Math.min(100, Math.max(0, Math.round(fraction * 100)));
      if (progress === undefined || percentage === reported) return;
      reported = percentage;
      void connection.sendProgress(WorkDoneProgress.type, progress, { kind: 'report', percentage, message: `${percentage}%` });
    };
    if (progress !== undefined) {
      void connection.sendProgress(WorkDoneProgress.type, progress, { kind: 'begin', title: 'Loading profile', cancellable: true, percentage: 0 });
    }
    try {
      const trusted = isTrusted();
      const result = await backend.request(
        WorkerRequests.load,
        {
          path: params.path,
          role: params.role,
          roots: params.roots,
          pathMappings: trusted ? params.pathMappings : [],
          nativeSymbols: trusted,
          stallThresholdMs: settings().stallThresholdMs,
          ...(params.sampleType !== undefined ? { sampleType: params.sampleType } : {}),
          ...(params.thread !== undefined ? { thread: params.thread } : {}),
        },
        controller.signal,
        report,
      );
      // A cancel that arrives after the worker committed the profile is too late: the worker
      // holds the new profile now, so this thread and the client take it too.
      if (params.role === 'primary' && result.costTable !== null) {
        primary = { summary: result.summary, table: result.costTable, index: costIndexOf(result.costTable), insights: result.insights };
        // Another CPU profile ends the join (the worker dropped its allocation profile too).
        allocation = null;
      } else if (params.role === 'allocation' && result.costTable !== null && primary !== null) {
        allocation = { summary: result.summary, index: joinAllocationCosts(primary.index, costIndexOf(result.costTable)) };
        // The GC insight now names who allocates (the worker joined them).
        primary = { ...primary, insights: result.insights };
      }
      onProfileChanged();
      return result.summary;
    } catch (error) {
      // A cancelled load resolves without a result; the previous profile stays.
      if (controller.signal.aborted) return null;
      throw failure(error);
    } finally {
      cancel.dispose();
      if (loading.get(params.role) === controller) loading.delete(params.role);
      if (progress !== undefined) void connection.sendProgress(WorkDoneProgress.type, progress, { kind: 'end' });
    }
  });

  connection.onRequest(Requests.clearProfile, async () => {
    for (const controller of loading.values()) controller.abort();
    await backend.request(WorkerRequests.clear, {});
    primary = null;
    allocation = null;
    onProfileChanged();
    return null;
  });

  connection.onRequest(Requests.fileHeat, (untrusted): FileHeat => {
    const uri = (untrusted as Partial<FileHeatParams> | null)?.uri;
    if (typeof uri !== 'string') throw invalid('fileHeat: expected {uri}');
    const current = primary;
    if (current === null) return { profile: null, lines: [], functions: [], callSites: [], callLines: [] };
    const costs = uri.startsWith('file:') ? current.table.files[resolve(uriToPath(uri))] : undefined;
    return {
      profile: current.summary,
      lines: (costs?.lines ?? []).map((l) => ({ line: l.line, selfMs: l.selfMs, selfSamples: l.selfSamples, percent: l.percent })),
      functions: (costs?.functions ?? [])
        .filter((f) => f.line > 0)
        .map((f) => ({ name: f.name, line: f.line, column: Math.max(1, f.column), selfMs: f.selfMs, totalMs: f.totalMs, percent: f.totalPercent ?? 0, ...(f.inferred === true ? { inferred: true } : {}) })),
      callSites: costs?.callSites ?? [],
      callLines: (costs?.callLines ?? []).map((c) => ({
        line: c.line,
        callee: c.callee,
        ms: c.ms,
        percent: c.percent,
        found: c.found,
        ...(c.calls !== undefined ? { calls: c.calls } : {}),
        ...(c.untold === true ? { untold: true } : {}),
      })),
      ...(current.table.routes !== undefined ? { routes: routeNotesIn(current.table.routes, uri.startsWith('file:') ? resolve(uriToPath(uri)) : '') } : {}),
      ...(costs?.stalls !== undefined && costs.stalls.length > 0 ? { stalls: { thresholdMs: current.table.stallThresholdMs ?? 0, lines: costs.stalls } } : {}),
    };
  });

  connection.onRequest(Requests.flameGraph, async (untrusted) => {
    const params = untrusted as Partial<FlameGraphParams> | null;
    const mode = params?.mode;
    if (mode !== 'normal' && mode !== 'inverted' && mode !== 'diff') throw invalid(`flameGraph: mode must be normal, inverted or diff`);
    const minFraction = typeof params?.minFraction === 'number' && params.minFraction >= 0 && params.minFraction < 1 ? params.minFraction : undefined;
    return workerAnswer(() => backend.request(WorkerRequests.flame, { mode, onlyMyCode: params?.onlyMyCode === true, minFraction }));
  });

  connection.onRequest(Requests.comparisonText, async () => {
    return workerAnswer(() => backend.request(WorkerRequests.comparisonText, {}));
  });

  connection.onRequest(Requests.sandwich, async (untrusted) => {
    const params: WorkerSandwichParams = sandwichParams(untrusted);
    return workerAnswer(async () => withCallLineFindings(await backend.request(WorkerRequests.sandwich, params), findingsIn));
  });

  connection.onRequest(Requests.overview, async () => {
    return workerAnswer(() => backend.request(WorkerRequests.overview, {}));
  });

  connection.onRequest(Requests.loadGcTrace, async (untrusted) => {
    const path = (untrusted as { path?: unknown } | null)?.path;
    if (typeof path !== 'string' || !isAbsolute(path)) throw invalid(`loadGcTrace: path must be an absolute file path, got ${JSON.stringify(path)}`);
    return workerAnswer(() => backend.request(WorkerRequests.loadGcTrace, { path }));
  });

  connection.onRequest(Requests.semiSpaceSweep, async (untrusted) => {
    const params = untrusted as Partial<SemiSpaceSweepParams> | null;
    if (params === null || typeof params !== 'object' || !Array.isArray(params.runs) || typeof params.root !== 'string') throw invalid('semiSpaceSweep: expected {runs, root}');
    const { runs, root } = { runs: params.runs, root: params.root };
    return workerAnswer(() => backend.request(WorkerRequests.semiSpaceSweep, { runs, root }));
  });

  /** The profile's figures for the hovered line, or null. */
  const profileHover = async (uri: string, position: Position): Promise<string | null> => {
    const current = primary;
    if (current === null || !uri.startsWith('file:')) return null;
    const file = resolve(uriToPath(uri));
    const costs = current.table.files[file];
    const line = position.line + 1;
    // Most hovers land on unmeasured lines: answer those without a round trip to the worker.
    if (costs === undefined || !(costs.lines.some((l) => l.line === line) || costs.functions.some((f) => f.line === line) || costs.callSites.some((s) => s.line === line) || costs.callLines.some((c) => c.line === line))) {
      return null;
    }
    try {
      const detail = await backend.request(WorkerRequests.lineDetail, { file, line });
      return detail === null ? null : hoverMarkdown(detail);
    } catch {
      return null;
    }
  };

  connection.onHover(async (params): Promise<Hover | null> => {
    const findings = findingHover(params.textDocument.uri, params.position);
    // Under a finding, the route its code serves (the handler's extent holds the line), when the profile's routes know it.
    const routes = primary?.table.routes;
    const served = findings === null || routes === undefined || !params.textDocument.uri.startsWith('file:') ? null : routeHover(routes, resolve(uriToPath(params.textDocument.uri)), params.position.line + 1, md);
    const parts = [findings, served, await profileHover(params.textDocument.uri, params.position)];
    const value = parts.filter((part): part is string => part !== null).join('\n\n');
    return value === '' ? null : { contents: { kind: MarkupKind.Markdown, value } };
  });

  return {
    costOf: (filePath, finding) => (allocation ?? primary)?.index.costOf(filePath, finding) ?? null,
    hotThresholdPercent: () => settings().hotThresholdPercent,
    stallsFor: (filePath) => {
      const table = primary?.table;
      return { thresholdMs: table?.stallThresholdMs ?? 0, lines: table?.files[resolve(filePath)]?.stalls ?? [] };
    },
    insightsFor: (filePath) => {
      const file = resolve(filePath);
      return (primary?.insights ?? [])
        .filter((insight) => insight.location !== null && insight.location.file === file)
        .map((insight) => ({
          line: insight.location?.line ?? 1,
          message: `${insight.title}: ${insight.message}`,
          insightId: insight.id,
          rule: insight.rule,
          cost: formatCost(insight.ms, insight.percent, insight.shareBasis),
        }));
    },
  };
}
