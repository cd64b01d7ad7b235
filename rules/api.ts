// The contract between the static engine and the rule modules (rules/*.ts): the only door
// between them. Rules reach the engine through RuleContext (names, imports, the hot context,
// traversal below a node) and the project index through ProjectView; the engine learns what rules
// keep of other modules through a ModuleSummarizer (registered in rules/index.ts). Pure types: no
// `vscode` import, nothing that does I/O, no import of the engine (it implements this contract).
// Positions follow Babel: lines are 1-based, columns 0-based, offsets are UTF-16 indexes into the
// source text.
import type { NodePath, Visitor } from '@babel/traverse';
import type * as t from '@babel/types';

export type RuleId =
  | 'date-now-hot-path'
  | 'spawn-without-env'
  | 'blocking-sync-call'
  | 'mongoose-missing-lean'
  | 'mongoose-count-by-loading'
  | 'serial-heavy-middleware'
  | 'connection-per-request';

export type Severity = 'error' | 'warning' | 'information' | 'hint';
export type RuleLevel = Severity | 'off';

/** Which incident in shared/seeds a rule comes from, with the figures its docs quote. */
export interface IncidentRef {
  /** Internal: which write-up in shared/seeds (never shown to a user). */
  seed: '000' | '001' | '002' | '003' | '004';
  /**
   * The incident in the user's words, with its figures ("In a production incident, ..."): the
   * hover's second paragraph, the setting's description, SARIF's fullDescription. Messages stay
   * short and never tell the story.
   */
  summary: string;
}

export interface RuleMeta {
  id: RuleId;
  /** One sentence: what the rule flags. */
  description: string;
  defaultSeverity: Severity;
  incident: IncidentRef;
  /**
   * Message templates by id; `{{name}}` placeholders are filled from `data`. One or two sentences
   * in the user's words: what runs how often, what it costs, the fix. No incident story (that is
   * `incident.summary`), and no mention of a profile (ESLint shows these messages, and has none).
   */
  messages: Record<string, string>;
  /** True when at least some findings carry a safe quick fix. */
  fixable: boolean;
}

export interface SourcePosition {
  line: number; // 1-based
  column: number; // 0-based
}

export interface SourceRange {
  start: number; // offset
  end: number; // offset
  loc: { start: SourcePosition; end: SourcePosition };
}

/** One replacement of [start, end) by text, in offsets of the analyzed source. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
  /**
   * True when applying the fix cannot change what the program computes, so a tool may apply it
   * unasked (ESLint's `--fix`). Fixes that change behaviour on purpose (a minimal env for a child,
   * lean documents without virtuals) are offered, never applied unasked.
   */
  safe?: boolean;
}

export interface Finding {
  ruleId: RuleId;
  messageId: string;
  message: string;
  severity: Severity;
  range: SourceRange;
  /** Quick fixes specific to the rule (the disable-comment fixes are added by the engine). */
  fixes: Fix[];
  /** 'frequency' when the finding needs the code to run often to matter (see ReportDescriptor.evidence). */
  evidence?: 'code' | 'frequency';
  /**
   * For a 'frequency' finding (shown as a hint): the rule's level, which it takes once a loaded
   * profile measures its code hot. Absent for findings the code alone proves.
   */
  severityWhenHot?: Severity;
  /**
   * The innermost named function containing the finding, so that profile costs can be joined
   * onto it (by the profile engine). Null at module level.
   */
  enclosingFunction: { name: string; line: number; column: number } | null;
}

/** Why a piece of code runs often. Ordered from hottest to coldest in `HOTNESS_ORDER`. */
export type ExecutionKind = 'request' | 'message' | 'timer' | 'unknown' | 'startup' | 'signal';
export const HOTNESS_ORDER: readonly ExecutionKind[] = ['request', 'message', 'timer', 'unknown', 'startup', 'signal'];

export interface ExecutionContext {
  kind: ExecutionKind;
  /** Function names from the registered handler down to the code, e.g. ['onMessage', 'getTimestamp']. */
  via: string[];
  /** Where the handler was registered (for messages such as "per message, via getTimestamp()"). */
  registeredAt: SourcePosition | null;
  /** For kind 'timer': the literal interval in ms when it is known. */
  timerIntervalMs: number | null;
  /**
   * For kind 'timer': it repeats (setInterval, a timeout that reschedules itself, a schedule),
   * whether or not its interval is known; false for a one-shot timeout or setImmediate.
   */
  periodic: boolean;
  /** True when the node sits inside a loop body within its function. */
  inLoop: boolean;
  /**
   * True when the function runs once per item of something the handler iterates: it is reached
   * through a call inside a loop, or is a callback of forEach/map/filter/reduce/..., on the way
   * from the registration.
   */
  perItem: boolean;
  /**
   * For kind 'message': the source is the service's traffic (a pub/sub `message`, a socket or
   * stream `data`, a queue consumer, Kafka's eachMessage, a server's per-connection callbacks, a
   * Node-RED node's input), not an in-process event bus, a subscription whose source the code does
   * not show (`bus.onMessage(fn)`), a child's IPC message or an interactive terminal.
   */
  highRate: boolean;
  /**
   * The handler was recognised by its shape (an exported function with `(req, res)` parameters),
   * not seen registered on a server of this project: "per request" is then an assumption, and a
   * message says so.
   */
  assumed: boolean;
  /**
   * For kind 'request': every route that reaches the code is registered for a method that changes
   * state (POST, PUT, PATCH, DELETE): it runs once per action that saves, uploads or removes
   * something, which the code does not show to be frequent (an admin save, an install), unlike a
   * route every page view or poll runs (GET, middleware, a server's request handler).
   */
  changesState: boolean;
  /**
   * The registration shows the code runs when someone administers the service or a process starts
   * or stops, not with its traffic: for kind 'request', every route that reaches it is an
   * administrative one (its path names administration, configuration, set-up or an install, or a
   * guard before its handler admits administrators only); for kind 'message', its source is IPC
   * with a parent or a child process.
   */
  occasional: boolean;
  /**
   * For kind 'request': the handler is a raw TCP or TLS server's connection handler
   * (`net.createServer((socket) => …)`), run once per client connection, not per HTTP request.
   */
  perConnection: boolean;
  /**
   * For kind 'message': the source is a child process's output (its stdout or stderr), whose
   * lines a branch may test for a banner (see server/static/textMatchBranches.ts).
   */
  childOutput?: boolean;
}

/** What a module serves: requests (a server, listen(), a route) or only messages (a broker's, a socket's). */
export type ServingKind = 'requests' | 'messages';

/** A module of the project that serves, and what it serves; `via`: the module that loads both it and the module asking, when the serving module does not load that one itself. */
export interface ServingLoader {
  file: string;
  serves: ServingKind;
  via?: string;
}

/**
 * What the one traversal learned about where code runs. Only valid once traversal is complete,
 * which is why rules query it from inside `report({ when, describe, messageIdOf })`.
 */
export interface HotContext {
  /** The hottest context the node can run in (a function reached from several places takes the hottest). */
  contextOf(path: NodePath): ExecutionContext;
  /** The module registers request or message handlers, creates a server or calls listen(). */
  readonly servesRequests: boolean;
  /**
   * The module is started by another module of the project as a child process or worker thread
   * and serves no requests itself: what blocks here blocks that worker, not the server's event loop.
   */
  readonly inWorker: boolean;
  /**
   * The module serves nothing itself, but a module of the project that serves loads it in its
   * process (directly or through other modules): that module's path; else null. A periodic timer
   * here ticks on the serving event loop.
   */
  readonly servingLoader: ServingLoader | null;
}

/**
 * What rules keep of another module of the project: one field per project fact, each computed by
 * a collector that rules register (rules/index.ts `summarizeModule`).
 */
export interface ModuleSummary {
  /** Export names bound to mongoose models ('default' for `module.exports =` / `export default`). */
  mongooseModelExports: ReadonlySet<string>;
}

/** An export of a module that another module of the project registers as a handler. */
export interface ProjectRegistration {
  /** The export's name ('default': the module itself). */
  exported: string;
  /** The module-level name the export is bound to in its own module, when it is a plain name. */
  local: string | null;
  kind: Extract<ExecutionKind, 'request' | 'message' | 'timer'>;
  /** setInterval's literal period, for kind 'timer'. */
  intervalMs: number | null;
  /** The file that registers it. */
  registeredIn: string;
  /**
   * Not handed to a registration but called from code that runs in one (a handler of another
   * module calls this export): the caller's source delivers at a high rate (see ExecutionContext.highRate).
   * Absent for a registration proper, whose message sources count as high-rate.
   */
  highRate?: boolean;
  /**
   * Not an export but a method of a class declared in the module, called on a dependency another
   * module's code holds (`this.userService.changePassword()` from a request handler).
   */
  method?: { className: string; name: string };
  /** A request handler reached only through routes of methods that change state (see ExecutionContext.changesState). */
  changesState?: boolean;
  /** Reached only through administrative routes or a child's IPC (see ExecutionContext.occasional). */
  occasional?: boolean;
  /** Reached from a raw TCP or TLS server's connection handler (see ExecutionContext.perConnection). */
  perConnection?: boolean;
  /** For kind 'timer': the registering module serves requests (its timer ticks on the serving event loop). */
  fromServingModule?: boolean;
  /**
   * The export is no name of its own but a member of the module-level object the module exports
   * whole (`var api = { show: function () {} }; module.exports = api`): that object's local name.
   */
  holder?: string;
  /** The export was called where it is registered (`app.get('/x', makeHandler(options))`): what it returns is the handler. */
  returned?: true;
}

/**
 * Read access to the rest of the project, for cross-module facts (cached by the caller). The
 * project-wide queries are optional: a view that knows only summaries (a single file) answers none.
 */
export interface ProjectView {
  moduleAt(fromFile: string, specifier: string): ModuleSummary | null;
  /** Exports of `filePath` that other modules register as request, message or timer handlers. */
  registrationsOf?(filePath: string): readonly ProjectRegistration[];
  /** `filePath` is started by another module as a child process or worker thread (`fork`, `new Worker`, `cluster.setupPrimary`). */
  startedAsWorker?(filePath: string): boolean;
  /** A module of the project that serves and loads `filePath` in its process (ProjectFacts.servingLoaderOf); null when none does. */
  servingLoaderOf?(filePath: string): ServingLoader | null;
  /** The runtime dependencies the nearest package.json above `filePath` declares (empty when none). */
  dependenciesOf?(filePath: string): ReadonlySet<string>;
}

/**
 * One module of the project as the project index hands it to the rules' collectors: its
 * top-level statements (no scopes, no traversal) and what it imports.
 */
export interface ProjectModule {
  readonly filePath: string;
  readonly program: t.Program;
  /** Module-level name -> import origin, as RuleContext#importOf. */
  importOf(localName: string): ImportBinding | null;
  /** The module name of `require('x')` (`node:` dropped), or null when `node` is not such a call. */
  requiredModule(node: t.Node | null | undefined): string | null;
  /**
   * The summary of the module `specifier` names, resolved from this one (for re-exports); null
   * for packages, unreadable files and a re-export cycle.
   */
  moduleAt(specifier: string): ModuleSummary | null;
}

/**
 * Computes a module's summary from its top-level statements. The project index reads, parses,
 * resolves and caches modules and cuts re-export cycles; it never knows what the facts mean.
 */
export type ModuleSummarizer = (module: ProjectModule) => ModuleSummary;

/** Where a local name comes from: `require('x')`, `import ... from 'x'`, with the member taken. */
export interface ImportBinding {
  source: string;
  /** Imported member ('default' for default/namespace/whole-module require, else the member name). */
  imported: string;
  namespace: boolean;
}

/** A call or `new` of a module's export: `cp.exec`, destructured `exec`, `require('child_process').exec`. */
export interface ModuleMember {
  source: string;
  member: string;
}

export interface ReportDescriptor {
  node: t.Node;
  messageId: string;
  data?: Record<string, string | number>;
  fixes?: Fix[];
  /** Evaluated after traversal, when the hot context is complete; report only if it returns true. */
  when?: (hot: HotContext) => boolean;
  /** Extra data added to the message after `when` has run, e.g. the path through helpers. */
  describe?: (hot: HotContext) => Record<string, string | number>;
  /**
   * The message, when it depends on where the code runs (once per item of a loop, once per
   * message): evaluated after traversal; null reports nothing. Overrides `messageId`.
   */
  messageIdOf?: (hot: HotContext) => string | null;
  /**
   * What the finding rests on. 'code': certain from the code alone (a spawn per request, counting
   * by loading). 'frequency': it only matters if the code runs often or the environment is large
   * (a clock read, an env copy); such findings are shown as hints, whatever the rule's level, and
   * their message says what would make them matter, until a loaded profile measures the code hot,
   * which raises them to the rule's level. Default 'code'.
   */
  evidence?: 'code' | 'frequency';
  /** The evidence, when it depends on where the code runs (evaluated after traversal); overrides `evidence`. */
  evidenceOf?: (hot: HotContext) => 'code' | 'frequency';
}

/** How a local name was declared (the kinds of Babel's Binding#kind). */
export type BindingKind = 'var' | 'let' | 'const' | 'hoisted' | 'param' | 'local' | 'module' | 'unknown';

/**
 * What a local name refers to, as Babel's Scope#getBinding answered it: the declaring node's path
 * (a VariableDeclarator, a function or class declaration, a parameter, an import specifier, a catch
 * clause, or the named function/class expression itself), where it is read, and whether it is ever
 * written after its declaration.
 */
export interface LocalBinding {
  readonly kind: BindingKind;
  readonly identifier: t.Identifier;
  readonly path: NodePath;
  /**
   * The declarator when the name is declared by `const`/`let`/`var x = …`, else null. Cheaper for
   * an editor than `path` to ask first: a null rests only on how the name is declared, so an edit
   * inside the declaring function does not make the asking statement's findings be made again.
   */
  readonly declarator: t.VariableDeclarator | null;
  /** Reads of the name, in source order (an `export` of the declaration counts as one, first). */
  readonly referencePaths: readonly NodePath[];
  /** False when the name is assigned, updated, deleted, redeclared, or declared with `var` in a loop. */
  readonly constant: boolean;
  /** Declared at module level. */
  readonly topLevel: boolean;
}

export interface RuleContext {
  readonly filePath: string;
  readonly source: string;
  readonly project: ProjectView;
  /** Local binding name -> import origin, for the whole module (collected before rules run). */
  importOf(localName: string): ImportBinding | null;
  /**
   * The declaration `name` refers to where `path` is; undefined for globals. Paths handed to rules
   * carry no Babel Scope (`path.scope` is unset): the engine resolves names itself, lazily.
   */
  bindingOf(path: NodePath, name: string): LocalBinding | undefined;
  /**
   * Which module export a callee designates where `path` is: through the import table for
   * module-level names, or a `require` inside a function; null for anything local or computed.
   * `import x from 'cjs'` counts as the whole module, as Node's CJS interop makes it.
   */
  moduleMemberOf(path: NodePath, callee: t.Node): ModuleMember | null;
  /**
   * A callee as `module:path`, e.g. `mongodb:MongoClient.connect` for `MongoClient.connect` with
   * `const { MongoClient } = require('mongodb')`, `ioredis:` for `new Redis()` with Redis the whole
   * module or its default export. Null when the root name is not an import.
   */
  qualifiedNameOf(path: NodePath, callee: t.Node): string | null;
  /**
   * `path.traverse(visitor, state)` for the paths the engine hands out (they carry no Scope, and
   * Babel refuses to traverse below a node without one). For a look below one node, such as a
   * factory's `return`; the file itself is traversed once, by the engine.
   */
  traverseBelow<S>(path: NodePath, visitor: Visitor<S>, state?: S): void;
  /**
   * What the rule decides about the top-level statement being visited also rests on `node`, in
   * another top-level statement that the rule read directly rather than through a name (a
   * neighbouring `app.use(...)` statement of a middleware chain). Names need no such call: what
   * `bindingOf` answers is tracked by the engine. The editor reuses a statement's findings while
   * the statement and what it rests on are unchanged.
   */
  dependsOn(node: t.Node): void;
  /**
   * Reports a finding. Call it while visiting the node's top-level statement: what depends on the
   * whole file (where code runs) goes in `when`, `describe` and `messageIdOf`, which the engine
   * evaluates after traversal, for this version of the file and every later one the statement
   * survives unchanged.
   */
  report(descriptor: ReportDescriptor): void;
}

/**
 * A rule's part of the one traversal. Rules keep no state from one top-level statement to the
 * next: in the editor, unchanged statements are not traversed again, and their reports are reused.
 */
export interface RuleVisitor {
  /** Babel visitor, merged with every other rule's so the file is traversed once. */
  visitor: Visitor;
}

export interface RuleModule {
  meta: RuleMeta;
  create(context: RuleContext): RuleVisitor;
}

/**
 * The documentation page of a rule, relative to the package root (docs/ ships in the VSIX and the
 * npm package); server/shared/docs.ts makes it a link that opens offline.
 */
export function ruleDocPath(id: RuleId): string {
  return `docs/rules/${id}.md`;
}
