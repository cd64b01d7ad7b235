// Entry point of the static engine: source text -> parse -> one traversal (hot context + all
// rules) -> findings. Used by the language server, the CLI and the rule tests.
import traverseModule, { type Visitor } from '@babel/traverse';
import type * as t from '@babel/types';
import type {
  Finding,
  HotContext,
  ImportBinding,
  ModuleSummary,
  ProjectView,
  RuleContext,
  RuleId,
  RuleLevel,
  RuleModule,
  RuleVisitor,
  ServingKind,
  Severity,
} from '../../rules/api';
import { allRules } from '../../rules/index';
import { BindingResolver } from './bindings';
import { blankSegments, isStackOverflow, lineAt, overflowingSegments, topLevelSegments, withHalfTheStack } from './deepNesting';
import { readDisableDirectives, isDisabled } from './disableComments';
import { fileSkipOf } from './fileGuards';
import { createHotContextCollector, svelteKitRouteFile, type FunctionSpan, type ProjectContext } from './hotContext';
import { moduleFactsOf, type CallUse, type ModuleFacts } from './project/moduleFacts';
import { collectImports, moduleMemberOf, qualifiedNameOf, type InjectedModule, type NameLookups } from './imports';
import { traverseBelow } from './lazyPaths';
import { parseSource, scriptProblems } from './parse';
import type { StaticDocument } from './staticDocument';
import { fixesOf, newHost, newRecord, type RecordedReport, type StatementRecord } from './statementRecords';
import { walkFile, type StatementHooks } from './walk';

export interface AnalyzeInput {
  filePath: string;
  text: string;
  /** Per-rule level overrides; a rule absent here runs at its default severity. */
  levels?: Partial<Record<RuleId, RuleLevel>>;
  /**
   * Cross-module facts (mongoose models imported from other files, exports other modules register
   * as handlers, workers they start). Defaults to "knows nothing".
   */
  project?: ProjectAnalysis;
  /** The rules to run; defaults to every rule in rules/index.ts. */
  rules?: readonly RuleModule[];
  /**
   * The editor document this text is a version of, whose state the analysis updates: its
   * incremental parser (whose ASTs reuse the nodes of the previous version) and its binding
   * resolver. Without one (the command line) the file is parsed whole and resolved afresh.
   */
  document?: StaticDocument;
}

export interface ParseProblem {
  message: string;
  line: number; // 1-based
  column: number; // 0-based
}

export type SkipReason = 'binary' | 'minified' | 'too-large' | 'browser';

export interface AnalysisResult {
  findings: Finding[];
  /** Syntax errors Babel recovered from; findings still cover what parsed. */
  parseErrors: ParseProblem[];
  /** Set when the file was not analyzed at all (binary, a line over 10k chars, over 2 MB). */
  skipped: { reason: SkipReason; message: string } | null;
  /** A rule that threw: contained here, never propagated. */
  ruleErrors: { ruleId: RuleId; message: string }[];
}

// @babel/traverse is CommonJS; under esbuild/tsx the default import may arrive wrapped.
type TraverseFn = typeof traverseModule;
const traverse: TraverseFn =
  (traverseModule as unknown as { default?: TraverseFn }).default ?? traverseModule;

/** The project as the engine sees it: the rules' view, and where the engine records what this module tells the others. */
export interface ProjectAnalysis extends ProjectView {
  /** This module's facts, read from the tree being analyzed (the project-wide queries derive from them). */
  noteModule?(filePath: string, facts: ModuleFacts): void;
  /** The other modules' exports this module's hot code calls, found by its analysis (they run in the caller's context). */
  noteCalls?(filePath: string, calls: readonly CallUse[]): void;
  /** Whether this module's analysis found that it serves (a server, listen(), a route, a message handler): the serving process's modules derive from it. */
  noteServes?(filePath: string, serves: ServingKind | null): void;
  /**
   * Project modules other modules hand to this module's exported setters (`models.use(require('./git'))`):
   * a module variable only such a setter assigns names that module. Part of the import table, so
   * of every key the import table is part of (module facts, statement records).
   */
  injectedInto?(filePath: string): readonly InjectedModule[];
}

const NO_PROJECT: ProjectAnalysis = { moduleAt: () => null };

/** One rule's run over one file: its visitor, whether it has failed. */
interface RuleRun {
  rule: RuleModule;
  severity: Severity;
  failed: boolean;
  visitor: RuleVisitor | null;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Wraps every visitor function of a rule so a throw disables that rule only. */
function guardVisitor(run: RuleRun, visitor: Visitor, onError: (run: RuleRun, error: unknown) => void): Visitor {
  type VisitFn = (this: unknown, path: unknown, state: unknown) => void;
  // Babel calls visitor functions as fn.call(state, path, state); no rest array per call.
  const guard = (fns: unknown[]): VisitFn[] => fns.map((fn) => function (this: unknown, path: unknown, state: unknown) {
    if (run.failed) return;
    try {
      (fn as VisitFn).call(this, path, state);
    } catch (error) {
      onError(run, error);
    }
  });
  const exploded = traverse.visitors.explode(visitor) as Record<string, unknown>;
  const guarded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(exploded)) {
    // Top-level `enter` / `exit` (every node) stay arrays of functions after explode.
    if ((key === 'enter' || key === 'exit') && Array.isArray(value)) {
      guarded[key] = guard(value);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const phases = value as { enter?: unknown; exit?: unknown };
    const wrapped: Record<string, unknown[]> = {};
    for (const phase of ['enter', 'exit'] as const) {
      const fns = phases[phase];
      if (Array.isArray(fns)) wrapped[phase] = guard(fns);
    }
    guarded[key] = wrapped;
  }
  // Exploded already (real node types, arrays of functions): told so, as traverse.visitors.merge
  // marks what it returns, so that the merge does not explode and verify it a second time.
  Object.defineProperty(guarded, '_exploded', { value: true });
  Object.defineProperty(guarded, '_verified', { value: true });
  return guarded as Visitor;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
/** Each message template split once: text, then (key, placeholder as written, text) per placeholder. */
const templateParts = new Map<string, string[]>();

function fillMessage(template: string, data: Record<string, string | number>): string {
  let parts = templateParts.get(template);
  if (parts === undefined) {
    parts = [];
    let from = 0;
    for (const match of template.matchAll(PLACEHOLDER)) {
      parts.push(template.slice(from, match.index), match[1], match[0]);
      from = (match.index ?? 0) + match[0].length;
    }
    parts.push(template.slice(from));
    templateParts.set(template, parts);
  }
  let message = '';
  for (let i = 0; i + 1 < parts.length; i += 3) {
    const key = parts[i + 1];
    message += parts[i] + (Object.prototype.hasOwnProperty.call(data, key) ? String(data[key]) : parts[i + 2]);
  }
  return message + parts[parts.length - 1];
}

/**
 * The functions of a file (in source order, as the walk meets them) with, for each, the index of
 * the innermost function around it (-1 at module level): a finding finds its function by a binary
 * search and a few steps outward instead of a scan of every function before it.
 */
interface FunctionIndex {
  functions: readonly FunctionSpan[];
  parents: Int32Array;
}

function functionIndexOf(functions: readonly FunctionSpan[]): FunctionIndex {
  const parents = new Int32Array(functions.length);
  const open: number[] = [];
  for (let i = 0; i < functions.length; i++) {
    // Spans nest: whatever ends before this one starts is closed.
    while (open.length > 0 && functions[open[open.length - 1]].end < functions[i].end) open.pop();
    parents[i] = open.length > 0 ? open[open.length - 1] : -1;
    open.push(i);
  }
  return { functions, parents };
}

/**
 * The innermost named function holding [start, end). Code that only anonymous functions hold gets
 * the innermost one as '(anonymous)' rather than "module level".
 */
function enclosingFunctionOf({ functions, parents }: FunctionIndex, start: number, end: number): Finding['enclosingFunction'] {
  // The last function starting at or before `start`: the innermost holding the range, or one
  // nested in it (functions nest), so the holders are it and its outer functions.
  let last = -1;
  for (let lo = 0, hi = functions.length - 1; lo <= hi;) {
    const mid = (lo + hi) >> 1;
    if (functions[mid].start <= start) {
      last = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  let innermost: FunctionSpan | null = null;
  for (let i = last; i >= 0; i = parents[i]) {
    const fn = functions[i];
    if (fn.end < end) continue;
    innermost ??= fn;
    if (fn.name !== null) return { name: fn.name, line: fn.line, column: fn.column };
  }
  return innermost === null ? null : { name: '(anonymous)', line: innermost.line, column: innermost.column };
}

function rangeOf(node: t.Node): Finding['range'] | null {
  if (node.start == null || node.end == null || !node.loc) return null;
  return {
    start: node.start,
    end: node.end,
    loc: {
      start: { line: node.loc.start.line, column: node.loc.start.column },
      end: { line: node.loc.end.line, column: node.loc.end.column },
    },
  };
}

export function analyzeSource(input: AnalyzeInput): AnalysisResult {
  const result = analyzeOnce(input);
  if (!overflowed(result)) return result;
  // Nesting too deep for the recursive parser or walk: analyze the file without the statements
  // that overflow on their own, so one crafted statement does not cost the file its findings.
  const fresh = { ...input, document: undefined };
  const overflows = (start: number, end: number): boolean => withHalfTheStack(() => overflowed(analyzeOnce({ ...fresh, text: input.text.slice(start, end) })));
  const bad = overflowingSegments(topLevelSegments(input.text), overflows);
  if (bad.length === 0) return result;
  const contained = analyzeOnce({ ...fresh, text: blankSegments(input.text, bad) });
  const notAnalyzed = bad.map(({ start, end }) => {
    const line = lineAt(input.text, start);
    const last = lineAt(input.text, end - 1);
    return { message: `Not analyzed: nested too deeply (lines ${line}-${last})`, line, column: 0 };
  });
  contained.parseErrors = [...notAnalyzed, ...contained.parseErrors].sort((a, b) => a.line - b.line || a.column - b.column);
  return contained;
}

/** The parser, the walk or a rule ran out of stack. */
function overflowed(result: AnalysisResult): boolean {
  return result.parseErrors.some((problem) => isStackOverflow(problem.message)) || result.ruleErrors.some((error) => isStackOverflow(error.message));
}

function analyzeOnce(input: AnalyzeInput): AnalysisResult {
  const result: AnalysisResult = { findings: [], parseErrors: [], skipped: null, ruleErrors: [] };
  const skip = fileSkipOf(input.text, input.filePath);
  if (skip) {
    result.skipped = skip;
    return result;
  }
  const document = input.document;
  const parsed = document !== undefined ? document.parser.parse(input.filePath, input.text) : parseSource(input.filePath, input.text);
  result.parseErrors = scriptProblems(input.filePath, input.text, parsed);
  const ast = parsed.ast;
  if (!ast) return result;
  // Nodes may come from an earlier analysis (an incremental parse): the document's binding
  // resolver updates what it knows of the file, and paths are fetched anew (Babel's cached
  // NodePaths are kept: NodePath.get sets their parent, container and key again).
  const bindings = document?.bindings ?? new BindingResolver();
  bindings.startAnalysis(ast);
  const program = ast.program;
  const body = program.body;

  const project = input.project ?? NO_PROJECT;
  const imports = collectImports(program, injectedInto(project, input.filePath));
  const projectContext = projectContextOf(project, input.filePath, program, imports);
  const rules = input.rules ?? allRules;
  // What the rules' contexts read: for a document, one object its reused reports' callbacks also see.
  const records = document?.records ?? null;
  const host = records?.host ?? newHost();
  host.text = input.text;
  host.imports = imports;
  host.project = project;
  const registeredFrom = [...new Set(projectContext.registrations.map((registration) => registration.registeredIn))].sort().join('\n');
  records?.start(program, { rules, levels: JSON.stringify(input.levels ?? {}), project, imports: importsKey(imports), registeredFrom }, document?.parser.lastReplaced);

  const importOf = (name: string): ImportBinding | null => host.imports.get(name) ?? null;
  /** The statement being walked and its record, which the rules' reports go to. */
  let walking: { statement: t.Node; record: StatementRecord } | null = null;
  // The project as the rules see it: asked once per module per analysis, and what it tells is
  // recorded with each statement that asked.
  const answers = new Map<string, ModuleSummary | null>();
  const moduleAt = (specifier: string): ModuleSummary | null => {
    let summary = answers.get(specifier);
    if (summary === undefined) {
      summary = project.moduleAt(input.filePath, specifier);
      answers.set(specifier, summary);
    }
    return summary;
  };
  host.moduleAt = (specifier) => {
    const summary = moduleAt(specifier);
    if (walking !== null) walking.record.modules.set(specifier, summary);
    return summary;
  };
  const filePath = input.filePath;
  const recordedProject: ProjectView = {
    moduleAt: (fromFile, specifier) => (fromFile === filePath ? host.moduleAt(specifier) : host.project.moduleAt(fromFile, specifier)),
    // This module's registrations only: what the rules may ask of it is part of the records' key (registeredFrom).
    registrationsOf: (file) => (file === filePath ? projectContext.registrations : []),
    // Not part of the records' key: a manifest's change reaches a file's findings when it is analyzed again.
    dependenciesOf: (file) => host.project.dependenciesOf?.(file) ?? new Set<string>(),
  };
  const names: NameLookups = { importOf, bindingOf: (path, name) => bindings.bindingOf(path, name) };
  const collector = createHotContextCollector(importOf, bindings, svelteKitRouteFile(filePath));

  const onError = (run: RuleRun, error: unknown): void => {
    if (run.failed) return;
    run.failed = true;
    result.ruleErrors.push({ ruleId: run.rule.meta.id, message: errorText(error) });
  };

  const runs: RuleRun[] = [];
  const visitors: Visitor[] = [collector.visitor];
  for (const rule of rules) {
    const level = input.levels?.[rule.meta.id] ?? rule.meta.defaultSeverity;
    if (level === 'off') continue;
    const run: RuleRun = { rule, severity: level, failed: false, visitor: null };
    runs.push(run);
    const ruleId = rule.meta.id;
    const context: RuleContext = {
      filePath: input.filePath,
      get source() {
        return host.text;
      },
      project: recordedProject,
      importOf,
      bindingOf: names.bindingOf,
      moduleMemberOf: (path, callee) => moduleMemberOf(path, callee, names),
      qualifiedNameOf: (path, callee) => qualifiedNameOf(path, callee, names),
      traverseBelow,
      dependsOn: (node) => {
        if (walking !== null && records !== null) records.dependsOn(walking.record, walking.statement, node, body);
      },
      report: (descriptor) => {
        if (walking === null) throw new Error('report() outside the traversal');
        if (records === null) walking.record.reports.push({ ruleId, descriptor, anchors: null });
        else records.anchor(walking.record, ruleId, descriptor, body);
      },
    };
    try {
      run.visitor = rule.create(context);
      visitors.push(guardVisitor(run, run.visitor.visitor, onError));
    } catch (error) {
      onError(run, error);
    }
  }

  // One walk for the collector and every rule, over the statements that need it; an unchanged
  // statement of a document brings its record instead. NodePaths are made only where a visitor needs one.
  const walked: StatementRecord[] = [];
  // The command line analyzes a file once: one record for the whole file, and nothing kept.
  const hooks: StatementHooks | undefined = records === null ? undefined : {
    enter: (statement) => {
      const kept = records.reusable(statement, ast, bindings, moduleAt);
      if (kept !== null) {
        collector.reuseSegment(kept.segment);
        walked.push(kept);
        return false;
      }
      const record = newRecord(collector.startSegment());
      walking = { statement, record };
      bindings.recorder = records.recorderFor(record);
      return true;
    },
    exit: (statement) => {
      const current = walking;
      walking = null;
      bindings.recorder = null;
      if (current === null) return;
      walked.push(current.record);
      records.keep(statement, current.record);
    },
  };
  if (records === null) {
    walking = { statement: program, record: newRecord(collector.startSegment()) };
    walked.push(walking.record);
  }
  let stopped = false;
  try {
    walkFile(ast, traverse.visitors.merge(visitors), bindings, hooks);
  } catch (error) {
    // Not a rule's fault (those are wrapped): e.g. nesting too deep for a recursive walk.
    stopped = true;
    result.parseErrors.push({ message: `Analysis stopped: ${errorText(error)}`, line: 1, column: 0 });
  } finally {
    walking = null;
    bindings.recorder = null;
  }
  if (stopped) {
    records?.clear();
    return result;
  }
  const hot: HotContext = collector.finish(projectContext);
  try {
    project.noteCalls?.(filePath, collector.callsOut());
    project.noteServes?.(filePath, collector.servesItself());
  } catch {
    // What the project learns from this module is a bonus: the module's own findings stand without it.
  }
  const functions = functionIndexOf(collector.functions());
  const directives = readDisableDirectives(ast.comments);

  const runOf = new Map(runs.map((run) => [run.rule.meta.id, run]));
  for (const record of walked) {
    for (const report of record.reports) {
      const run = runOf.get(report.ruleId);
      if (run === undefined || run.failed) continue;
      try {
        const finding = findingOf(run, report, hot, functions);
        if (finding !== null && !isDisabled(directives, finding)) result.findings.push(finding);
      } catch (error) {
        onError(run, error);
      }
    }
  }
  // A rule that failed may have left a statement half recorded.
  if (result.ruleErrors.length > 0) records?.clear();
  else records?.commit(program);
  const failed = new Set(runs.filter((run) => run.failed).map((run) => run.rule.meta.id));
  if (failed.size > 0) result.findings = result.findings.filter((finding) => !failed.has(finding.ruleId));
  result.findings.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end || a.ruleId.localeCompare(b.ruleId));
  return result;
}

/** A report made into a finding against this version's hot context; null when it says nothing here. */
function findingOf(run: RuleRun, report: RecordedReport, hot: HotContext, functions: FunctionIndex): Finding | null {
  const descriptor = report.descriptor;
  if (descriptor.when && !descriptor.when(hot)) return null;
  const messageId = descriptor.messageIdOf ? descriptor.messageIdOf(hot) : descriptor.messageId;
  if (messageId === null) return null;
  const range = rangeOf(descriptor.node);
  if (!range) return null;
  const data = { ...descriptor.data, ...descriptor.describe?.(hot) };
  const template = run.rule.meta.messages[messageId];
  if (template === undefined) throw new Error(`unknown messageId '${messageId}'`);
  const frequency = (descriptor.evidenceOf ? descriptor.evidenceOf(hot) : descriptor.evidence) === 'frequency';
  const finding: Finding = {
    ruleId: run.rule.meta.id,
    messageId,
    message: fillMessage(template, data),
    // Quiet without evidence: what needs frequency to matter is a hint until a profile measures it hot.
    severity: frequency ? 'hint' : run.severity,
    range,
    fixes: fixesOf(report),
    enclosingFunction: enclosingFunctionOf(functions, range.start, range.end),
  };
  if (frequency) {
    finding.evidence = 'frequency';
    finding.severityWhenHot = run.severity;
  }
  return finding;
}

/**
 * What the project-wide analysis says of this module, after recording what this version of it
 * tells the others (its facts are re-read only for statements an edit changed).
 */
function projectContextOf(project: ProjectAnalysis, filePath: string, program: t.Program, imports: ReadonlyMap<string, ImportBinding>): ProjectContext {
  try {
    if (project.noteModule !== undefined) project.noteModule(filePath, moduleFactsOf(program, imports, importsKey(imports)));
    return {
      registrations: project.registrationsOf?.(filePath) ?? [],
      startedAsWorker: project.startedAsWorker?.(filePath) ?? false,
      // Asked only when a rule asks about a periodic timer: the answer walks the project's modules.
      servingLoader: () => {
        try {
          return project.servingLoaderOf?.(filePath) ?? null;
        } catch {
          return null;
        }
      },
    };
  } catch {
    return { registrations: [], startedAsWorker: false, servingLoader: () => null };
  }
}

function injectedInto(project: ProjectAnalysis, filePath: string): readonly InjectedModule[] {
  try {
    return project.injectedInto?.(filePath) ?? [];
  } catch {
    return [];
  }
}

/** The file's imports as one string: a change to them changes what every statement's names mean. */
function importsKey(imports: ReadonlyMap<string, ImportBinding>): string {
  let key = '';
  for (const [name, binding] of imports) key += `${name}\0${binding.source}\0${binding.imported}\0${binding.namespace}\n`;
  return key;
}
