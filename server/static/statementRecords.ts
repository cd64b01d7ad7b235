// What an editor document keeps of each top-level statement between its analyses, so that an
// edit walks only the statements it touched: the reports the rules made while walking the
// statement (their `when`, `describe` and `messageIdOf` are asked again of each version's hot
// context), the statement's segment of the hot context, and what those rest on outside the
// statement. The incremental parser keeps an unchanged statement's nodes (moved, not remade), so
// a record is found by its statement's node (and its revision: an edit inside a long statement
// changes it in place, statementRevisions.ts); it is reused while nothing it rests on changed:
// - the names it looked up that left the statement (the file's bindings and globals): still the
//   same declaration, as constant as before, where their reads were listed, not read by a changed
//   statement, and where their declaration was read, not declared in a changed one; of a
//   declaration read only for its shape (which function it declares, whether it is a declarator),
//   that shape the same (BindingRecorder), so an edit inside a function leaves its callers' records;
// - the other top-level statements a rule read directly (RuleContext.dependsOn) still in place;
// - what the project told of the modules it asked about (another file saved or edited) the same;
// - the file's imports, the rules, their levels and the project view, for all records at once.
// Anything else a rule reads is below the statement's node, or the source text at its offsets.
import type * as t from '@babel/types';
import type { Fix, ImportBinding, ModuleSummary, ProjectView, ReportDescriptor, RuleId, RuleModule } from '../../rules/api';
import type { BindingRecord, BindingRecorder, BindingResolver } from './bindings';
import type { HotSegment } from './hotContext';
import { PerStatement } from './statementRevisions';
import { forEachChild } from './walk';

/** A report as the rule made it, with its fixes' offsets kept relative to the statements they edit. */
export interface RecordedReport {
  ruleId: RuleId;
  descriptor: ReportDescriptor;
  /** Per fix, per edit: the statement it edits and its offsets from that statement's start. */
  anchors: FixAnchor[][] | null;
}

interface FixAnchor {
  statement: t.Node;
  start: number;
  end: number;
}

interface NameDependency {
  /** The declaring identifier in the file's scope; null for a global. */
  identifier: t.Identifier | null;
  constant: boolean;
  /** Its reads were listed: a statement reading it that changed changes them. */
  references: boolean;
  /** Its declaration was read (any part of it): an edit of the statement declaring it changes what was read. */
  declaration: boolean;
  /**
   * Of its declaration, only its shape was read (BindingRecord.declaredFunction, .declarator): what
   * each check asks of the binding of a later version. An edit inside the declaring function keeps
   * its node (statementRevisions.ts), and what a caller recorded of it (a call's target) with it.
   */
  shape: Map<string, (now: BindingRecord) => boolean>;
}

export interface StatementRecord {
  readonly segment: HotSegment;
  readonly reports: RecordedReport[];
  readonly names: Map<string, NameDependency>;
  /** Other top-level statements the rules read directly. */
  readonly statements: Set<t.Node>;
  /** The project's answer per module specifier asked about. */
  readonly modules: Map<string, ModuleSummary | null>;
  /** A fix edits text no top-level statement holds: not kept. */
  unanchored: boolean;
}

/** What all records of a document rest on: when it changes, no record is reused. */
interface Settings {
  rules: readonly RuleModule[];
  levels: string;
  project: ProjectView;
  imports: string;
  /** The modules that register this one's exports: a rule may decide by them which visitor to run (rules/detectors/toolingFiles.ts). */
  registeredFrom: string;
}

export function newRecord(segment: HotSegment): StatementRecord {
  return { segment, reports: [], names: new Map(), statements: new Set(), modules: new Map(), unanchored: false };
}

/** The live values of the analysis of the moment, which rules' contexts read (a reused report's callbacks too). */
export interface AnalysisHost {
  text: string;
  imports: ReadonlyMap<string, ImportBinding>;
  project: ProjectView;
  /** The project's summary of a module this file imports, as this analysis asked it (and recorded who asked). */
  moduleAt(specifier: string): ModuleSummary | null;
}

/** The host of one analysis: the command line makes one per file, a document keeps its own. */
export function newHost(): AnalysisHost {
  return { text: '', imports: new Map(), project: { moduleAt: () => null }, moduleAt: () => null };
}

/**
 * A document's records and the state of its last analysis. The engine asks `reusable()` per
 * statement, records new ones with `recorderFor()` and `keep()`, and `commit()`s at the end.
 */
export class StatementRecords {
  /** By statement node, while the statement is not revised (an edit inside it, statementRevisions.ts). */
  private records = new PerStatement<StatementRecord>();
  private settings: Settings | null = null;
  /** The statements of the last analyzed version, to tell which ones an edit replaced. */
  private previousBody: readonly t.Statement[] = [];
  /** This analysis: its statements and the names that statements it replaced or added read. */
  private body = new Set<t.Node>();
  private mentioned: Set<string> | null = null;
  /** The statements an edit replaced or added, whose names are listed at the first record that needs them. */
  private changed: readonly t.Node[] = [];
  /** The statements of this analysis that have no record (new, or replaced by an edit). */
  private added: readonly t.Node[] = [];
  private reuse = false;
  /** How many top-level statements the last analysis walked and reused, for tests and measurements. */
  lastWalked = 0;
  lastReused = 0;
  readonly host: AnalysisHost = newHost();

  /** Forget every record (settings, project or a failed analysis). */
  clear(): void {
    this.records = new PerStatement();
    this.settings = null;
    this.previousBody = [];
  }

  /**
   * Starts an analysis of `program`; records made under other settings are dropped. `replaced`:
   * the old parts of statements the parse edited in place (IncrementalParser.lastReplaced).
   */
  start(program: t.Program, settings: Settings, replaced: readonly t.Node[] = []): void {
    const known = this.settings;
    const same = known !== null && known.rules === settings.rules && known.levels === settings.levels
      && known.project === settings.project && known.imports === settings.imports && known.registeredFrom === settings.registeredFrom;
    if (!same) this.records = new PerStatement();
    this.settings = settings;
    this.body = new Set(program.body);
    this.reuse = same;
    this.mentioned = null;
    this.changed = [];
    this.added = [];
    this.lastWalked = 0;
    this.lastReused = 0;
    if (!same) return;
    const added = program.body.filter((statement) => !this.records.has(statement));
    // A whole parse made every statement anew: nothing to reuse, nothing to compare.
    if (added.length === program.body.length) {
      this.reuse = false;
      return;
    }
    const removed = this.previousBody.filter((statement) => !this.body.has(statement));
    // Listing every name of a big changed statement costs as much as walking it again: done only
    // when a record that listed a name's reads is asked about (most are not). A statement edited
    // in place holds only its new text: the names of what the edit took out come from the old parts.
    this.changed = [...added, ...removed, ...replaced];
    this.added = added;
  }

  /**
   * Is this declaration in a statement this analysis walks anew? An edit inside a function re-parses
   * only a part of it (blockReparse.ts, nestedReparse.ts) and keeps the statement's other nodes, its
   * declarations included: what a record read of the declaration (a function below it, a value)
   * may have changed. A record that read only which function the name declares is asked whether
   * that is still the same node (an edit inside the function keeps it).
   */
  private declaredInAdded(identifier: t.Identifier): boolean {
    const start = identifier.start ?? -1;
    return this.added.some((statement) => (statement.start ?? 0) <= start && start < (statement.end ?? 0));
  }

  /** Whether a statement an edit replaced or added holds `name`; null when they nest too deep to list. */
  private isMentioned(name: string): boolean | null {
    if (this.mentioned === null) {
      const names = new Set<string>();
      try {
        for (const statement of this.changed) collectNames(statement, names);
      } catch {
        this.reuse = false; // nesting too deep to list: walk everything
        return null;
      }
      this.mentioned = names;
    }
    return this.mentioned.has(name);
  }

  /** The record of an unchanged statement, if what it rests on is unchanged too. */
  reusable(statement: t.Node, file: t.File, bindings: BindingResolver, moduleAt: (specifier: string) => ModuleSummary | null): StatementRecord | null {
    if (!this.reuse) return null;
    const record = this.records.get(statement);
    if (record === undefined || record.unanchored) return null;
    for (const other of record.statements) if (!this.body.has(other)) return null;
    for (const report of record.reports) {
      for (const edits of report.anchors ?? []) for (const edit of edits) if (!this.body.has(edit.statement)) return null;
    }
    for (const [name, dependency] of record.names) {
      const now = bindings.programBindingOf(file, name);
      if ((now?.identifier ?? null) !== dependency.identifier) return null;
      if (dependency.identifier !== null && this.declaredInAdded(dependency.identifier)) {
        if (dependency.declaration) return null;
        for (const stillSame of dependency.shape.values()) if (now === undefined || !stillSame(now)) return null;
      }
      if (now !== undefined && now.constant !== dependency.constant) return null;
      if (dependency.references && this.isMentioned(name) !== false) return null;
    }
    for (const [specifier, summary] of record.modules) {
      if (!sameSummary(moduleAt(specifier), summary)) return null;
    }
    this.lastReused++;
    return record;
  }

  /** Records what the bindings tell while `record`'s statement is walked. */
  recorderFor(record: StatementRecord): BindingRecorder {
    const note = (name: string, binding: BindingRecord | undefined): NameDependency => {
      let dependency = record.names.get(name);
      if (dependency === undefined) {
        dependency = { identifier: binding?.identifier ?? null, constant: binding?.constant ?? true, references: false, declaration: false, shape: new Map() };
        record.names.set(name, dependency);
      }
      return dependency;
    };
    return {
      lookedUp: note,
      readReferences: (binding) => {
        note(binding.identifier.name, binding).references = true;
      },
      readDeclaration: (binding) => {
        note(binding.identifier.name, binding).declaration = true;
      },
      readShape: (binding, what, stillSame) => {
        note(binding.identifier.name, binding).shape.set(what, stillSame);
      },
    };
  }

  /** A rule read another statement directly (RuleContext.dependsOn). */
  dependsOn(record: StatementRecord, walked: t.Node, node: t.Node, body: readonly t.Statement[]): void {
    const statement = statementAt(body, node.start ?? -1);
    if (statement !== null && statement !== walked) record.statements.add(statement);
  }

  /** Anchors a report's fixes to the statements they edit. */
  anchor(record: StatementRecord, ruleId: RuleId, descriptor: ReportDescriptor, body: readonly t.Statement[]): void {
    let anchors: FixAnchor[][] | null = null;
    if (descriptor.fixes !== undefined && descriptor.fixes.length > 0) {
      anchors = descriptor.fixes.map((fix) => fix.edits.map((edit) => {
        const statement = statementAt(body, edit.start);
        if (statement === null || edit.end > (statement.end ?? 0)) {
          record.unanchored = true;
          return { statement: body[0], start: 0, end: 0 };
        }
        const base = statement.start ?? 0;
        return { statement, start: edit.start - base, end: edit.end - base };
      }));
    }
    record.reports.push({ ruleId, descriptor, anchors });
  }

  keep(statement: t.Node, record: StatementRecord): void {
    this.records.set(statement, record);
    this.lastWalked++;
  }

  /** The analysis ended well: its statements are those the next edit is compared with. */
  commit(program: t.Program): void {
    this.previousBody = [...program.body];
  }
}

/** Two answers of the project about a module: the same facts (a summary is made anew when its file changes). */
function sameSummary(a: ModuleSummary | null, b: ModuleSummary | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  const first = a.mongooseModelExports;
  const second = b.mongooseModelExports;
  return first.size === second.size && [...first].every((name) => second.has(name));
}

/** A recorded report's fixes at this version's offsets. */
export function fixesOf(report: RecordedReport): Fix[] {
  const fixes = report.descriptor.fixes ?? [];
  if (report.anchors === null) return fixes;
  const anchors = report.anchors;
  return fixes.map((fix, i) => ({
    ...fix,
    edits: fix.edits.map((edit, j) => {
      const anchor = anchors[i][j];
      const base = anchor.statement.start ?? 0;
      return { ...edit, start: base + anchor.start, end: base + anchor.end };
    }),
  }));
}

/** The top-level statement holding `offset` (its end included), or null between statements. */
function statementAt(body: readonly t.Statement[], offset: number): t.Statement | null {
  let low = 0;
  let high = body.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const statement = body[middle];
    if ((statement.end ?? 0) < offset) low = middle + 1;
    else if ((statement.start ?? 0) > offset) high = middle - 1;
    else return statement;
  }
  return null;
}

/** Every identifier name in a statement (a superset of the names it reads). */
function collectNames(node: t.Node, into: Set<string>): void {
  if (node.type === 'Identifier' || node.type === 'JSXIdentifier') into.add(node.name);
  forEachChild(node, (child) => collectNames(child, into));
}
