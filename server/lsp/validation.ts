// Diagnostics for open documents: analyzed on open and on every change, published for the
// version that was analyzed. An analysis that changes what the project says of another open
// document (an edit removes the route that registered its handler) analyzes that one again too,
// as the command line's passes do, up to MAX_PROJECT_DEPTH documents deep. A change that is already received but not yet applied supersedes
// the pending validation (no stale publish, no timers). A rule error, a parse failure or an
// unanalyzable file is logged with one line and never takes the server down.
import type { Connection, Diagnostic, TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';

import type { Finding, ProjectView } from '../../rules/api';
import { SOURCE_LANGUAGE_IDS } from '../protocol/lsp';
import { isSourceFile, uriToPath } from '../shared/paths';
import { analyzeSource } from '../static/engine';
import type { AnalysisResult, ParseProblem } from '../static/engine';
import { StaticDocument } from '../static/staticDocument';
import { buildDiagnostics } from './diagnostics';
import type { ProfileFeatures } from './profileFeatures';
import type { HotframeSettings } from './settings';

/** The outcome of the last validation of one document, kept for code actions and re-ranking. */
export interface ValidatedDocument {
  uri: string;
  version: number;
  filePath: string;
  /** The text that was analyzed, frozen (fix offsets refer to it). */
  snapshot: TextDocument;
  findings: Finding[];
  parseErrors: ParseProblem[];
  diagnostics: Diagnostic[];
}

/** The project's cross-module facts, kept fresh as files change. */
export interface LiveProject extends ProjectView {
  invalidate(filePath: string): void;
  /** What the project says of a file, as one string (server/static/projectAnswers.ts). */
  answerKey(filePath: string): string;
}

/**
 * How many times one edit's effect on other documents is followed (A's edit changes B's answer,
 * whose analysis changes C's): as many passes as the command line makes (fileAnalysis.ts).
 */
const MAX_PROJECT_DEPTH = 3;

export interface ValidatorDeps {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  settings: () => HotframeSettings;
  project: LiveProject;
  profile: ProfileFeatures;
  /** True when a didChange newer than `version` has been read from the wire but not applied yet. */
  newerVersionQueued: (uri: string, version: number) => boolean;
}

const SOURCE_LANGUAGES: ReadonlySet<string> = new Set(SOURCE_LANGUAGE_IDS);

/** Documents the rules speak about: by language id, or by extension for clients that send other ids. */
export function isAnalyzable(document: TextDocument): boolean {
  return SOURCE_LANGUAGES.has(document.languageId) || isSourceFile(uriToPath(document.uri));
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

export class Validator {
  /** Documents to analyze, each with how many analyses of others led to it (0: its own change). */
  private readonly pending = new Map<string, number>();
  /** Per analyzed document: what the project said of it when it was analyzed. */
  private readonly answers = new Map<string, string>();
  private scheduled = false;
  private readonly results = new Map<string, ValidatedDocument>();
  /** Per open document: its last AST and scopes, so that an edit re-parses and re-resolves only the statements it touched. */
  private readonly parsers = new Map<string, StaticDocument>();
  /** The last problem line logged per document, so a problem is logged once, not on every keystroke. */
  private readonly logged = new Map<string, string>();

  constructor(private readonly deps: ValidatorDeps) {}

  /** Validate `uri` once the messages already received have been applied. */
  request(uri: string, depth = 0): void {
    this.pending.set(uri, Math.min(depth, this.pending.get(uri) ?? depth));
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Settings or project changed: analyze every open document again. */
  requestAll(): void {
    for (const document of this.deps.documents.all()) this.request(document.uri);
  }

  /** The profile changed: costs and insights differ, findings do not; republish from the cache. */
  republishAll(): void {
    for (const result of this.results.values()) {
      const current = this.deps.documents.get(result.uri);
      if (current === undefined || current.version !== result.version) continue;
      result.diagnostics = this.diagnosticsFor(result.filePath, result.findings, result.parseErrors, result.snapshot);
      this.publish(result.uri, result.version, result.diagnostics);
    }
  }

  /** The document was closed: forget it and clear its diagnostics. */
  forget(uri: string): void {
    this.pending.delete(uri);
    this.answers.delete(uri);
    this.results.delete(uri);
    this.parsers.delete(uri);
    this.logged.delete(uri);
    void this.deps.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** The last validation of exactly this version, or undefined when it is stale or pending. */
  resultFor(uri: string, version: number): ValidatedDocument | undefined {
    const result = this.results.get(uri);
    return result !== undefined && result.version === version ? result : undefined;
  }

  /** Validates one pending document per macrotask, so requests and newer changes get in between. */
  private flush(): void {
    this.scheduled = false;
    const [next] = this.pending;
    if (next === undefined) return;
    const [uri, depth] = next;
    this.pending.delete(uri);
    const document = this.deps.documents.get(uri);
    // A superseded version is dropped: its own didChange requests validation once it is applied.
    if (document !== undefined && !this.deps.newerVersionQueued(uri, document.version) && isAnalyzable(document)) {
      this.validate(document);
      if (depth < MAX_PROJECT_DEPTH) this.requestChangedAnswers(uri, depth + 1);
    }
    if (this.pending.size > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private validate(document: TextDocument): void {
    const { uri, version } = document;
    const filePath = uriToPath(uri);
    const snapshot = TextDocument.create(uri, document.languageId, version, document.getText());
    const parser = this.parserFor(uri);
    let analysis: AnalysisResult;
    try {
      analysis = analyzeSource({
        filePath,
        text: snapshot.getText(),
        levels: this.deps.settings().rules,
        project: this.deps.project,
        document: parser,
      });
    } catch (error) {
      // The engine contains rule errors itself; this is the last line of defence.
      this.logOnce(uri, `hotframe: analysis of ${filePath} failed: ${errorText(error)}`, 'error');
      this.results.delete(uri);
      this.parsers.delete(uri); // its tree may be half updated
      this.publish(uri, version, []);
      return;
    }
    if (analysis.skipped !== null) {
      this.logOnce(uri, `hotframe: skipped ${filePath} (${analysis.skipped.reason}): ${analysis.skipped.message}`, 'info');
    } else if (analysis.ruleErrors.length > 0) {
      const errors = analysis.ruleErrors.map((e) => `${e.ruleId}: ${errorText(e.message)}`).join('; ');
      this.logOnce(uri, `hotframe: rule error in ${filePath}: ${errors}`, 'error');
    } else {
      this.logged.delete(uri);
    }
    this.answers.set(uri, this.deps.project.answerKey(filePath));
    const diagnostics = this.diagnosticsFor(filePath, analysis.findings, analysis.parseErrors, snapshot);
    this.results.set(uri, { uri, version, filePath, snapshot, findings: analysis.findings, parseErrors: analysis.parseErrors, diagnostics });
    this.publish(uri, version, diagnostics);
  }

  /** Requests the other analyzed documents whose project answer is no longer the one they were analyzed with. */
  private requestChangedAnswers(analyzed: string, depth: number): void {
    for (const [uri, answer] of this.answers) {
      if (uri === analyzed || this.pending.has(uri)) continue;
      const result = this.results.get(uri);
      if (result !== undefined && this.deps.project.answerKey(result.filePath) !== answer) this.request(uri, depth);
    }
  }

  private parserFor(uri: string): StaticDocument {
    let parser = this.parsers.get(uri);
    if (parser === undefined) {
      parser = new StaticDocument();
      this.parsers.set(uri, parser);
    }
    return parser;
  }

  private diagnosticsFor(filePath: string, findings: Finding[], parseErrors: ParseProblem[], snapshot: TextDocument): Diagnostic[] {
    try {
      return buildDiagnostics(filePath, findings, parseErrors, this.deps.profile, (line) => lineLength(snapshot, line));
    } catch (error) {
      // A failing profile lookup must not hide the static findings.
      this.deps.connection.console.error(`hotframe: profile ranking failed for ${filePath}: ${errorText(error)}`);
      return buildDiagnostics(filePath, findings, parseErrors, NO_PROFILE, (line) => lineLength(snapshot, line));
    }
  }

  private publish(uri: string, version: number, diagnostics: Diagnostic[]): void {
    const current = this.deps.documents.get(uri);
    if (current === undefined || current.version !== version) return;
    void this.deps.connection.sendDiagnostics({ uri, version, diagnostics });
  }

  private logOnce(uri: string, line: string, level: 'info' | 'error'): void {
    if (this.logged.get(uri) === line) return;
    this.logged.set(uri, line);
    if (level === 'error') this.deps.connection.console.error(line);
    else this.deps.connection.console.info(line);
  }
}

const NO_PROFILE: ProfileFeatures = { costOf: () => null, hotThresholdPercent: () => 100, insightsFor: () => [] };

function lineLength(document: TextDocument, line: number): number {
  if (line < 0 || line >= document.lineCount) return 0;
  const text = document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  return text.replace(/\r?\n$/, '').length;
}
