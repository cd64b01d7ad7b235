// What one module tells the rest of the project (issue 22): the facts the project-wide queries
// (projectFacts.ts) are derived from, read from the module's tree without scopes or NodePaths.
// - exports: export name -> the local name bound to it, so another module's registration of
//   `ctrl.list` can be traced to the function `list` here;
// - handler uses: an imported function handed to a registration here (`router.get('/x', ctrl.list)`,
//   a route table `{ path: '/x', handler: ctrl.list }`, `bus.on('data', feed.onData)`,
//   `setInterval(jobs.tick, 5000)`): that export of the other module runs per request, per message
//   or per tick;
// - worker entries: modules started in another process or thread (`fork('./worker.js')`,
//   `new Worker(path.join(__dirname, 'w.js'))`, `cluster.setupPrimary({ exec })`): their code does
//   not run on this server's event loop.
// - globals and injections: `global.Git = require('./lib/git')` (typically in the entry script), and
//   project modules handed to another module's exported setter (`models.use(require('./git'))`, or
//   `models.use(Git)` by the global's name): the setter's module variable names that module.
// Facts are kept per top-level statement node: an editor's incremental parse hands back the nodes
// of statements an edit did not touch, so an edit re-reads only the statements it changed. Inside a
// long statement (a `module.exports = { ... }` of every method, an app factory), what each long
// function's subtree tells is kept per function node too: an edit inside one function revises the
// nodes that hold it (statementRevisions.ts), and only those are read again (issue 26).
import type * as t from '@babel/types';
import type { ExecutionKind, ImportBinding } from '../../../rules/api';
import { PerStatement } from '../statementRevisions';
import { forEachChild } from '../walk';
import { isRelative, relativePathOf, requiredModule, unwrapCompiledCallee, type ImportTable } from '../imports';
import { isFunctionNode, memberChain, propertyName, tableName } from '../functionNames';
import { isAdministrativePath, isAdministrativePathText, isAdministrativeRoute } from '../administrativeRoutes';
import {
  HTTP_CLIENT_NAME, HTTP_METHODS, LISTEN_METHODS, MESSAGE_EVENTS, ROUTER_NAME, STATE_CHANGING_METHODS, SUBSCRIBE_METHODS, acceptsClients, calleeProperty, isPathLike,
  isRouteChain, receiverName, routeSpecRegistration, routeTableEntry, strategyVerifyOf, stringValue,
} from '../registrationShapes';

/** An export of another module named as a handler here. */
export interface HandlerUse {
  /** As written (`./controllers/tasks`). */
  specifier: string;
  /** The export's name ('default' for the module itself). */
  exported: string;
  /**
   * `controllers.auth.login` of `controllers = require('./controllers')`: the member taken of that
   * export, which the project follows when the export is itself a module (ModuleFacts.moduleExports).
   */
  member?: string;
  kind: Extract<ExecutionKind, 'request' | 'message' | 'timer'>;
  /** setInterval's literal period, for kind 'timer'. */
  intervalMs: number | null;
  /** A route of a method that changes state (POST, PUT, PATCH, DELETE; ExecutionContext.changesState). */
  changesState?: boolean;
  /** An administrative route (ExecutionContext.occasional). */
  occasional?: boolean;
  /** A raw TCP or TLS server's connection handler (ExecutionContext.perConnection). */
  perConnection?: boolean;
  /** What the export returns is registered, not the export: it was called where it is registered (`makeHandler(options)`). */
  returned?: true;
}

/**
 * An export of another module called (not registered) by code that runs per request, per message
 * or per tick of a timer here, as the module's hot context found after its walk: the callee runs
 * in the caller's context.
 */
export interface CallUse extends HandlerUse {
  /** The caller's source delivers at a high rate (ExecutionContext.highRate). */
  highRate: boolean;
  /**
   * A method called on a dependency the caller's instance holds (`this.userService.x()`): the
   * field's name; `specifier` is then '' and `exported` the method (see calledExports.injectedCall).
   */
  receiver?: string;
  /** `new mod.Service()`: the export is a class and its constructor runs in the caller's context. */
  constructs?: boolean;
  /**
   * `app.strategy.check()`: a method called on a field; `specifier` is then '' and `exported` the
   * method, run on what the project sets that field to (ModuleFacts.fieldResults).
   */
  field?: string;
  /** `s.run()` of `const s = new mod.Service()`: the export is a class and this method of it runs in the caller's context. */
  instanceMethod?: string;
  /** `db.find()` of `const db = await mod.getDb()`: this method of the one class of the export's module that has it. */
  resultMethod?: string;
  /** `Notification.send()` of a class imported by name: this static method of the export. */
  staticMethod?: string;
  /**
   * `this.providerList[type].send()`: a method of an entry of a table of this name; `specifier` is
   * then '' and `exported` the method, run on each class whose instances the project stores in such
   * a table (ModuleFacts.tableInstances).
   */
  table?: string;
  /**
   * For kind 'timer': the caller's module serves requests, so its timer ticks on the serving
   * event loop and so does the export it calls (issue 22: a scheduler's tick in one module
   * running `exec('ps …')` through a helper of another).
   */
  fromServingModule?: boolean;
}

/**
 * A module of the project handed to an export of another one (`models.use(require('./git'))`): the
 * receiving module may keep it in a module variable (an injection through an exported setter).
 */
export interface ModuleInjection {
  /** The receiving module, as written. */
  specifier: string;
  /** Its export called. */
  exported: string;
  /** Which argument. */
  index: number;
  /** The module handed over, as written here ('' when it is handed over by a global's name). */
  module: string;
  /**
   * `models.use(Git)` where nothing in this module declares or imports `Git`: the module some other
   * module of the project sets as that global (`global.Git = require('./lib/git')`, ModuleFacts.globals).
   */
  global?: string;
}

export interface ModuleFacts {
  /** Export name -> local name (null when the export is not a plain local name: `exports.f = () => {}`). */
  readonly exports: ReadonlyMap<string, string | null>;
  readonly handlerUses: readonly HandlerUse[];
  /** Specifiers of modules this one starts as a child process or worker thread (relative, as written or rebuilt). */
  readonly workerEntries: readonly string[];
  /** Classes declared at module level: name -> the names of their instance methods. */
  readonly classes: readonly [string, string[]][];
  readonly injections: readonly ModuleInjection[];
  /** `global.Git = require('./lib/git')` (or `globalThis.`): the global's name and the module, as written. */
  readonly globals: readonly [string, string][];
  /**
   * Exports that are a module of the project (`module.exports = { auth: require('./auth') }`,
   * `exports.auth = require('./auth')`, `var api = { auth }; module.exports = api`): name and module, as written.
   */
  readonly moduleExports: readonly [string, string][];
  /**
   * A field set to what a project module's function returned (`this.db = makeDb()`,
   * `app.strategy = require(name)(app, config)` with `name` set to a relative path here): the
   * field's name, the module as written and the export called ('default' for the module itself).
   */
  readonly fieldResults: readonly [string, string, string][];
  /**
   * Instances of a project class kept in a table by key (a registry of providers or plugins:
   * `static monitorTypeList = { http: new HttpType() }`, `this.providerList[item.name] = item` for
   * each `item` of `[new Apprise(), new Slack()]`): the table's name, the class's module as written
   * and its export. Another module's `this.providerList[type].send()` runs `send` of each such class.
   */
  readonly tableInstances: readonly [string, string, string][];
  /**
   * The project modules it loads, as written: `require('./x')` and `import('./x')` anywhere in it,
   * `import … from './x'`, `export … from './x'`. They run in its process (the serving process's
   * modules: ProjectFacts.servingLoaderOf).
   */
  readonly requires: readonly string[];
}

interface StatementFacts {
  exports: [string, string | null][];
  handlerUses: HandlerUse[];
  workerEntries: string[];
  classes: [string, string[]][];
  injections: ModuleInjection[];
  globals: [string, string][];
  /** `x.k = require('./m')`, `var x = { k: require('./m') }` at module level: object, key, module (exports when x is what the module exports). */
  objectModules: [string, string, string][];
  /** Names this statement declares at module level (a global injection of such a name is a local one). */
  declared: string[];
  fieldResults: [string, string, string][];
  tableInstances: [string, string, string][];
  requires: string[];
}

/** Per statement node; the import table is part of the key (a changed import re-reads every statement). */
const memo = new PerStatement<{ importsKey: string; facts: StatementFacts }>();

/**
 * What the visit of one subtree found, in the visit's order: its facts, the fields it sets to a
 * call's result, and the relative paths it sets names to (both read against the whole statement).
 */
interface SubtreeFacts {
  facts: StatementFacts;
  fieldCalls: [string, t.Node][];
  paths: Map<string, string[]>;
  /** Locals set to an array or object of project classes' instances: their classes (module, export). */
  instanceLists: Map<string, [string, string][]>;
  /** Loop variables over a local (`for (const item of list)`, `list.forEach((item) => …)`): the local. */
  loopItems: Map<string, string>;
  /** A table's entry set to a local (`this.providerList[item.name] = item`): the table and the local. */
  tableItems: [string, string][];
}

/** Per function node inside a statement, kept while no edit revises it (the import table is part of the key). */
const subtreeMemo = new PerStatement<{ importsKey: string; found: SubtreeFacts }>();

/**
 * A function inside a statement is kept on its own from this many characters: a smaller one is read
 * again with what holds it (the cost of an entry would be most of a visit).
 */
const SUBTREE_MIN_LENGTH = 1000;

export function moduleFactsOf(program: t.Program, imports: ImportTable, importsKey: string): ModuleFacts {
  const exports = new Map<string, string | null>();
  const handlerUses: HandlerUse[] = [];
  const workerEntries: string[] = [];
  const classes: [string, string[]][] = [];
  const injections: ModuleInjection[] = [];
  const globals: [string, string][] = [];
  const objectModules: [string, string, string][] = [];
  const declared = new Set<string>();
  const fieldResults: [string, string, string][] = [];
  const tableInstances: [string, string, string][] = [];
  const requires = new Set<string>();
  for (const statement of program.body) {
    let kept = memo.get(statement);
    if (kept === undefined || kept.importsKey !== importsKey) {
      kept = { importsKey, facts: statementFactsOf(statement, imports, importsKey) };
      memo.set(statement, kept);
    }
    for (const [name, local] of kept.facts.exports) if (!exports.has(name) || exports.get(name) === null) exports.set(name, local);
    handlerUses.push(...kept.facts.handlerUses);
    workerEntries.push(...kept.facts.workerEntries);
    classes.push(...kept.facts.classes);
    injections.push(...kept.facts.injections);
    globals.push(...kept.facts.globals);
    objectModules.push(...kept.facts.objectModules);
    for (const name of kept.facts.declared) declared.add(name);
    fieldResults.push(...kept.facts.fieldResults);
    tableInstances.push(...kept.facts.tableInstances);
    for (const specifier of kept.facts.requires) requires.add(specifier);
  }
  // A name declared at module level is that module's own, not the global of the same name.
  const own = injections.filter((injection) => injection.global === undefined || !declared.has(injection.global));
  const holder = exports.get('default');
  const moduleExports = objectModules.filter(([object]) => object === 'module.exports' || object === 'exports' || object === holder)
    .map(([, key, module]): [string, string] => [key, module]);
  return { exports, handlerUses, workerEntries, classes, injections: own, globals, moduleExports, fieldResults, tableInstances, requires: [...requires] };
}

/** A module's facts as one string, to tell whether an edit changed what other modules derive from it. */
export function factsKey(facts: ModuleFacts): string {
  return JSON.stringify([[...facts.exports], facts.handlerUses, facts.workerEntries, facts.classes, facts.injections, facts.globals, facts.moduleExports, facts.fieldResults, facts.tableInstances, facts.requires]);
}

function emptyFacts(): StatementFacts {
  return {
    exports: [], handlerUses: [], workerEntries: [], classes: [], injections: [], globals: [], objectModules: [], declared: [], fieldResults: [], tableInstances: [], requires: [],
  };
}

function statementFactsOf(statement: t.Statement, imports: ImportTable, importsKey: string): StatementFacts {
  const facts = emptyFacts();
  if ((statement.type === 'ImportDeclaration' || statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportAllDeclaration')
    && statement.source && isRelative(statement.source.value)) facts.requires.push(statement.source.value);
  exportsOf(statement, facts.exports);
  objectModulesOf(statement, imports, facts.objectModules);
  classesOf(statement, facts.classes);
  // Fields set to a call's result, and the relative paths each name is set to (for `require(name)`).
  const found = emptyFound(facts);
  visitSubtree(statement, statement, imports, importsKey, found);
  for (const [field, callee] of found.fieldCalls) {
    for (const [specifier, exported] of calledModules(callee, imports, found.paths)) facts.fieldResults.push([field, specifier, exported]);
  }
  // `for (const item of list) this.providerList[item.name] = item`: the classes of `list`'s instances.
  for (const [table, local] of found.tableItems) {
    const list = found.loopItems.get(local);
    for (const [specifier, exported] of (list === undefined ? undefined : found.instanceLists.get(list)) ?? []) facts.tableInstances.push([table, specifier, exported]);
  }
  return facts;
}

/** Reads `node`'s subtree into `into`; a long function below `statement` from its kept reading when no edit revised it. */
function visitSubtree(node: t.Node, statement: t.Statement, imports: ImportTable, importsKey: string, into: SubtreeFacts): void {
  if (node !== statement && (node.end ?? 0) - (node.start ?? 0) >= SUBTREE_MIN_LENGTH && isFunctionNode(node)) {
    let kept = subtreeMemo.get(node);
    if (kept === undefined || kept.importsKey !== importsKey) {
      const own = emptyFound(emptyFacts());
      visitNode(node, statement, imports, importsKey, own);
      kept = { importsKey, found: own };
      subtreeMemo.set(node, kept);
    }
    appendFound(into, kept.found);
    return;
  }
  visitNode(node, statement, imports, importsKey, into);
}

function emptyFound(facts: StatementFacts): SubtreeFacts {
  return { facts, fieldCalls: [], paths: new Map(), instanceLists: new Map(), loopItems: new Map(), tableItems: [] };
}

function visitNode(node: t.Node, statement: t.Statement, imports: ImportTable, importsKey: string, into: SubtreeFacts): void {
  const facts = into.facts;
  tableFacts(node, imports, into);
  if (node.type === 'CallExpression' || node.type === 'NewExpression') callFacts(node, imports, facts);
  const loaded = loadedModule(node);
  if (loaded !== null) facts.requires.push(loaded);
  else if (node.type === 'ObjectExpression') routeTableFacts(node, imports, facts);
  else if (node.type === 'AssignmentExpression') {
    globalFacts(node, facts);
    const field = node.operator === '=' && node.left.type === 'MemberExpression' ? propertyName(node.left.property, node.left.computed) : null;
    const value = node.right.type === 'AwaitExpression' ? node.right.argument : node.right;
    if (field !== null && value.type === 'CallExpression') into.fieldCalls.push([field, value.callee]);
    if (node.left.type === 'Identifier') notePaths(into.paths, node.left.name, node.right);
  } else if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.init) notePaths(into.paths, node.id.name, node.init);
  declaredBy(node, facts.declared);
  forEachChild(node, (child) => visitSubtree(child, statement, imports, importsKey, into));
}

function notePaths(paths: Map<string, string[]>, name: string, value: t.Node): void {
  const found = relativeLiterals(value, 0);
  if (found.length > 0) paths.set(name, [...(paths.get(name) ?? []), ...found]);
}

/** `found` read after what `into` holds, as one visit of both would have: every list in order, each name's paths after its earlier ones. */
function appendFound(into: SubtreeFacts, found: SubtreeFacts): void {
  const facts = into.facts as unknown as Record<string, unknown[]>;
  for (const [key, list] of Object.entries(found.facts as unknown as Record<string, unknown[]>)) {
    const target = facts[key];
    for (const item of list) target.push(item);
  }
  for (const call of found.fieldCalls) into.fieldCalls.push(call);
  for (const [name, classes] of found.instanceLists) into.instanceLists.set(name, [...(into.instanceLists.get(name) ?? []), ...classes]);
  for (const [item, list] of found.loopItems) into.loopItems.set(item, list);
  for (const entry of found.tableItems) into.tableItems.push(entry);
  for (const [name, paths] of found.paths) into.paths.set(name, [...(into.paths.get(name) ?? []), ...paths]);
}

/** Entries of an object or array literal looked at, at most (a bound on the work per literal). */
const MAX_TABLE_ENTRIES = 256;

/** `new Apprise()`, `new types.Http(options)` of a project module's class: its module as written and its export. */
function instanceClass(node: t.Node, imports: ImportTable): [string, string] | null {
  if (node.type !== 'NewExpression') return null;
  const named = importedExport(node.callee, imports);
  return named === null || named.member !== undefined ? null : [named.specifier, named.exported];
}

/** The classes of the instances an object's values or an array's elements are (`{ http: new HttpType() }`, `[new A(), new B()]`); empty for any other value. */
function instancesIn(node: t.Node, imports: ImportTable): [string, string][] {
  if (node.type !== 'ArrayExpression' && node.type !== 'ObjectExpression') return NO_INSTANCES;
  let found: [string, string][] = NO_INSTANCES;
  const entries = node.type === 'ArrayExpression' ? node.elements : node.properties;
  for (let i = 0; i < entries.length && i < MAX_TABLE_ENTRIES; i++) {
    const entry = entries[i];
    const value = entry?.type === 'ObjectProperty' ? entry.value : entry;
    if (value?.type !== 'NewExpression') continue;
    const instance = instanceClass(value, imports);
    if (instance === null) continue;
    if (found === NO_INSTANCES) found = [];
    found.push(instance);
  }
  return found;
}

const NO_INSTANCES: [string, string][] = [];

/**
 * Tables of project classes' instances (ModuleFacts.tableInstances), and what the statement's end
 * resolves: locals set to instances, loops over them, a table's entry set to a loop's item.
 */
function tableFacts(node: t.Node, imports: ImportTable, into: SubtreeFacts): void {
  switch (node.type) {
    case 'AssignmentExpression': {
      if (node.operator !== '=') return;
      const left = node.left;
      if (left.type === 'MemberExpression' && left.computed) {
        // `Registry.monitorTypeList['tailscale'] = new TailType()`, `this.providerList[item.name] = item`.
        const name = tableName(left.object);
        if (name === null) return;
        const instance = instanceClass(node.right, imports);
        if (instance !== null) into.facts.tableInstances.push([name, ...instance]);
        else if (node.right.type === 'Identifier') into.tableItems.push([name, node.right.name]);
      } else noteTable(into, tableName(left), instancesIn(node.right, imports));
      return;
    }
    case 'VariableDeclarator': {
      if (node.id.type !== 'Identifier' || !node.init) return;
      const classes = instancesIn(node.init, imports);
      noteTable(into, node.id.name, classes);
      if (classes.length > 0) into.instanceLists.set(node.id.name, classes);
      return;
    }
    case 'ClassProperty':
    case 'ObjectProperty':
      // `static monitorTypeList = { http: new HttpType() }`, `{ providers: [new A()] }`.
      if (node.value) noteTable(into, propertyName(node.key, node.computed), instancesIn(node.value, imports));
      return;
    case 'ForOfStatement': {
      if (node.right.type !== 'Identifier') return;
      const item = node.left.type === 'VariableDeclaration' ? node.left.declarations[0]?.id : node.left;
      if (item?.type === 'Identifier') into.loopItems.set(item.name, node.right.name);
      return;
    }
    case 'CallExpression': {
      // `list.forEach((item) => …)`.
      const callee = node.callee;
      if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier' || propertyName(callee.property, callee.computed) !== 'forEach') return;
      const fn = node.arguments[0];
      const item = fn !== undefined && isFunctionNode(fn) ? (fn as t.Function).params[0] : undefined;
      if (item?.type === 'Identifier') into.loopItems.set(item.name, callee.object.name);
      return;
    }
    default:
  }
}

/** A table named `name` set to instances of these classes. */
function noteTable(into: SubtreeFacts, name: string | null, classes: readonly [string, string][]): void {
  if (name !== null) for (const [specifier, exported] of classes) into.facts.tableInstances.push([name, specifier, exported]);
}

/** The project module a `require('./x')` or `import('./x')` loads, as written; null for anything else. */
function loadedModule(node: t.Node): string | null {
  const required = node.type === 'CallExpression' ? requiredModule(node) : null;
  if (required !== null) return isRelative(required) ? required : null;
  const dynamic = node.type === 'ImportExpression' ? node.source
    : node.type === 'CallExpression' && node.callee.type === 'Import' ? node.arguments[0] : null;
  const specifier = dynamic ? stringValue(dynamic) : null;
  return specifier !== null && isRelative(specifier) ? specifier : null;
}

/** The relative module paths a value may be: `'./tokens'`, `c ? './a' : './b'`, `env.X || './a'` (other parts aside). */
function relativeLiterals(node: t.Node, depth: number): string[] {
  if (depth > 3) return [];
  const value = stringValue(node);
  if (value !== null) return isRelative(value) ? [value] : [];
  if (node.type === 'ConditionalExpression') return [...relativeLiterals(node.consequent, depth + 1), ...relativeLiterals(node.alternate, depth + 1)];
  if (node.type === 'LogicalExpression') return [...relativeLiterals(node.left, depth + 1), ...relativeLiterals(node.right, depth + 1)];
  return [];
}

/**
 * The project modules' functions a callee calls, as module and export: `require('./m')(...)`,
 * `require(name)(...)` with `name` set to relative paths in the statement, an imported function,
 * `m.create(...)` of a whole imported module, `(0, m_1.default)(...)`.
 */
function calledModules(callee: t.Node, imports: ImportTable, paths: ReadonlyMap<string, string[]>): [string, string][] {
  const called = unwrapCompiledCallee(callee);
  const required = requiredModule(called);
  if (required !== null) return isRelative(required) ? [[required, 'default']] : [];
  if (called.type === 'CallExpression' && called.callee.type === 'Identifier' && called.callee.name === 'require'
    && called.arguments.length === 1 && called.arguments[0].type === 'Identifier') {
    return [...new Set(paths.get(called.arguments[0].name) ?? [])].map((path): [string, string] => [path, 'default']);
  }
  const named = importedExport(called, imports);
  return named === null || named.member !== undefined ? [] : [[named.specifier, named.exported]];
}

/** `module.exports = { a, b: c }`, `module.exports = f`, `exports.a = ...`, `export function a`, `export { a as b }`. */
function exportsOf(statement: t.Statement, out: [string, string | null][]): void {
  if (statement.type === 'ExportNamedDeclaration') {
    const declaration = statement.declaration;
    if (declaration?.type === 'FunctionDeclaration' && declaration.id) out.push([declaration.id.name, declaration.id.name]);
    else if (declaration?.type === 'VariableDeclaration') {
      for (const d of declaration.declarations) if (d.id.type === 'Identifier') out.push([d.id.name, d.id.name]);
    } else if (declaration?.type === 'ClassDeclaration' && declaration.id) out.push([declaration.id.name, declaration.id.name]);
    if (statement.source) return;
    for (const spec of statement.specifiers) {
      if (spec.type !== 'ExportSpecifier') continue;
      const name = spec.exported.type === 'Identifier' ? spec.exported.name : spec.exported.value;
      out.push([name, spec.local.name]);
    }
    return;
  }
  if (statement.type === 'ExportDefaultDeclaration') {
    const declaration = statement.declaration;
    if (declaration.type === 'Identifier') out.push(['default', declaration.name]);
    else if ((declaration.type === 'FunctionDeclaration' || declaration.type === 'ClassDeclaration') && declaration.id) out.push(['default', declaration.id.name]);
    return;
  }
  if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression') return;
  const { left, right } = statement.expression;
  const target = exportTarget(left);
  if (target === null) return;
  if (target === 'default') {
    if (right.type === 'Identifier') out.push(['default', right.name]);
    else if (right.type === 'ObjectExpression') {
      for (const prop of right.properties) {
        if (prop.type === 'SpreadElement') continue;
        const key = propertyName(prop.key, prop.computed);
        if (key === null) continue;
        out.push([key, prop.type === 'ObjectProperty' && prop.value.type === 'Identifier' ? prop.value.name : null]);
      }
    } else if ((right.type === 'FunctionExpression' || right.type === 'ClassExpression') && right.id) out.push(['default', right.id.name]);
    return;
  }
  out.push([target, right.type === 'Identifier' ? right.name : null]);
}

/** A value that is a project module: `require('./m')`, or a local bound to one by `require`/import of its default. */
function projectModuleOf(node: t.Node, imports: ImportTable): string | null {
  const required = requiredModule(node);
  if (required !== null) return isRelative(required) ? required : null;
  if (node.type !== 'Identifier') return null;
  const origin = imports.get(node.name);
  return origin && isProjectSpecifier(origin) && (origin.imported === 'default' || origin.namespace) ? origin.source : null;
}

/** See StatementFacts.objectModules: `module.exports = { k: require('./m') }`, `exports.k = m`, `var api = { k: m }`, `api.k = m`. */
function objectModulesOf(statement: t.Statement, imports: ImportTable, out: [string, string, string][]): void {
  const fromObject = (object: string, value: t.Node): void => {
    if (value.type !== 'ObjectExpression') return;
    for (const prop of value.properties) {
      if (prop.type !== 'ObjectProperty') continue;
      const key = propertyName(prop.key, prop.computed);
      const module = projectModuleOf(prop.value, imports);
      if (key !== null && module !== null) out.push([object, key, module]);
    }
  };
  if (statement.type === 'VariableDeclaration') {
    for (const d of statement.declarations) if (d.id.type === 'Identifier' && d.init) fromObject(d.id.name, d.init);
    return;
  }
  if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression') return;
  // `module.exports = exports = { ... }`: the innermost assignment holds the value.
  let { left, right } = statement.expression;
  while (right.type === 'AssignmentExpression') right = right.right;
  if (exportTarget(left) === 'default') {
    fromObject('module.exports', right);
    return;
  }
  if (left.type !== 'MemberExpression') return;
  const key = propertyName(left.property, left.computed);
  const object = left.object.type === 'Identifier' ? left.object.name : exportTarget(left.object) === 'default' ? 'module.exports' : null;
  const module = projectModuleOf(right, imports);
  if (key !== null && object !== null && module !== null) out.push([object, key, module]);
}

/**
 * `class A {}`, `export (default) class A {}`, `const A = class {}` (compilers emit
 * `let A = class A {}` for decorated classes), `exports.A = class A {}`: with their instance
 * methods (methods and function-valued fields; not static, not accessors, not the constructor).
 */
function classesOf(statement: t.Statement, out: [string, string[]][]): void {
  let declaration: t.Node = statement;
  if ((statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') && statement.declaration) declaration = statement.declaration;
  if (declaration.type === 'ExpressionStatement') declaration = declaration.expression;
  const push = (node: t.Class, parent: t.Node | null): void => {
    const name = classNameOf(node, parent);
    if (name !== null) out.push([name, methodsOf(node.body)]);
  };
  if (declaration.type === 'ClassDeclaration') push(declaration, null);
  else if (declaration.type === 'VariableDeclaration') {
    for (const d of declaration.declarations) if (d.init?.type === 'ClassExpression') push(d.init, d);
  } else if (declaration.type === 'AssignmentExpression' && declaration.right.type === 'ClassExpression') push(declaration.right, declaration);
}

/**
 * The name a class is known by in its module, given the node around it: the variable it
 * initialises (`const A = class B {}` is A), its own name, else the export slot it is assigned
 * to (`exports.A = class {}`); null for `module.exports = class {}` and other anonymous classes.
 * The hot context names the classes whose methods it records the same way.
 */
export function classNameOf(node: t.Class, parent: t.Node | null): string | null {
  if (parent?.type === 'VariableDeclarator') return parent.id.type === 'Identifier' ? parent.id.name : null;
  if (node.id) return node.id.name;
  if (parent?.type !== 'AssignmentExpression') return null;
  const slot = exportTarget(parent.left);
  return slot === 'default' ? null : slot;
}

function methodsOf(body: t.ClassBody): string[] {
  const names: string[] = [];
  for (const member of body.body) {
    if (member.type === 'ClassMethod' && member.kind === 'method' && !member.static) {
      const name = propertyName(member.key, member.computed);
      if (name !== null) names.push(name);
    } else if (member.type === 'ClassProperty' && !member.static && member.value && isFunctionNode(member.value)) {
      const name = propertyName(member.key, member.computed);
      if (name !== null) names.push(name);
    }
  }
  return names;
}

/** 'default' for `module.exports`, the name for `exports.x` / `module.exports.x`, else null. */
export function exportTarget(left: t.Node): string | null {
  if (left.type !== 'MemberExpression') return null;
  const object = left.object;
  const property = propertyName(left.property, left.computed);
  if (object.type === 'Identifier' && object.name === 'module' && property === 'exports') return 'default';
  if (property === null) return null;
  if (object.type === 'Identifier' && object.name === 'exports') return property;
  if (object.type === 'MemberExpression' && object.object.type === 'Identifier' && object.object.name === 'module'
    && propertyName(object.property, object.computed) === 'exports') return property;
  return null;
}

/** The other module's export an expression names: `ctrl.list`, a destructured `list`, `require('./c').list`. */
function importedExport(node: t.Node, imports: ImportTable): { specifier: string; exported: string; member?: string } | null {
  // `router.use('/admin', require('./admin'))`: the module itself, required where it is mounted.
  const inline = requiredModule(node);
  if (inline !== null) return isRelative(inline) ? { specifier: inline, exported: 'default' } : null;
  if (node.type === 'Identifier') {
    const origin = imports.get(node.name);
    return origin && isProjectSpecifier(origin) ? { specifier: origin.source, exported: origin.namespace ? 'default' : origin.imported } : null;
  }
  if (node.type !== 'MemberExpression') return null;
  const property = propertyName(node.property, node.computed);
  if (property === null) return null;
  const object = node.object;
  if (object.type === 'Identifier') {
    const origin = imports.get(object.name);
    // The whole module (namespace, `require`, CJS default): its member is its export.
    if (origin && isProjectSpecifier(origin) && origin.imported === 'default') return { specifier: origin.source, exported: property };
    return null;
  }
  // `controllers.auth.login`: a member of that module's export `auth` (followed when `auth` is a module).
  if (object.type === 'MemberExpression' && object.object.type === 'Identifier') {
    const inner = propertyName(object.property, object.computed);
    const origin = imports.get(object.object.name);
    if (inner !== null && origin && isProjectSpecifier(origin) && origin.imported === 'default') return { specifier: origin.source, exported: inner, member: property };
    return null;
  }
  const required = requiredModule(object);
  return required !== null && isRelative(required) ? { specifier: required, exported: property } : null;
}

function isProjectSpecifier(origin: ImportBinding): boolean {
  return isRelative(origin.source);
}

/** Handler arguments, looking into arrays and wrapper calls (`asyncHandler(ctrl.list)`), as the hot context does. */
function handlerArgs(args: readonly t.Node[], out: t.Node[] = [], depth = 0): t.Node[] {
  for (const arg of args) {
    if (arg.type === 'ArrayExpression') handlerArgs(arg.elements.filter((e): e is t.Expression => e !== null), out, depth);
    else if (isFactoryCall(arg) && depth < 2) {
      // `asyncHandler(ctrl.list)`, `makeHandler(options)`: what is passed may be the handler, and so may what the call returns.
      out.push(arg);
      handlerArgs(arg.arguments, out, depth + 1);
    }
    else out.push(arg);
  }
  return out;
}

/** A call whose result may be a handler: not a `require()`, not `fn.bind(x)` (which is `fn` itself). */
function isFactoryCall(node: t.Node): node is t.CallExpression {
  return node.type === 'CallExpression' && calleeProperty(node.callee) !== 'bind' && requiredModule(node) === null;
}

/**
 * The export of another module a handler argument registers: the export itself, or, for a call of
 * one (`ctrl.list(service)`, `makeHandler(options)`), the function the export returns.
 */
function handlerOrigin(arg: t.Node, imports: ImportTable): (ReturnType<typeof importedExport> & { returned?: true }) | null {
  if (!isFactoryCall(arg)) return importedExport(arg, imports);
  const origin = importedExport(arg.callee, imports);
  return origin === null ? null : { ...origin, returned: true };
}

function useAll(args: readonly t.Node[], kind: HandlerUse['kind'], intervalMs: number | null, imports: ImportTable, facts: StatementFacts,
  changesState = false, occasional = false, perConnection = false): void {
  for (const arg of handlerArgs(args)) {
    const origin = handlerOrigin(arg, imports);
    if (origin === null) continue;
    const use: HandlerUse = { ...origin, kind, intervalMs };
    if (changesState) use.changesState = true;
    if (occasional) use.occasional = true;
    if (perConnection) use.perConnection = true;
    facts.handlerUses.push(use);
  }
}

function callFacts(node: t.CallExpression | t.NewExpression, imports: ImportTable, facts: StatementFacts): void {
  const { callee, arguments: args } = node;
  const entry = workerEntryOf(node, imports);
  if (entry !== null) {
    facts.workerEntries.push(entry);
    return;
  }
  if (node.type !== 'CallExpression') return;
  if (callee.type === 'Identifier') {
    if (callee.name === 'setInterval' && !imports.has('setInterval')) {
      const ms = args[1]?.type === 'NumericLiteral' ? args[1].value : null;
      useAll(args.slice(0, 1), 'timer', ms, imports, facts);
    }
    return;
  }
  const property = calleeProperty(callee);
  if (property === null || (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression')) return;
  injectionFacts(callee, args, imports, facts);
  const verify = strategyVerifyOf(callee, args);
  if (verify !== null) {
    useAll([verify], 'request', null, imports, facts);
    return;
  }
  const spec = routeSpecRegistration(property, receiverName(callee), args);
  if (spec !== null) {
    useAll([spec.handler], 'request', null, imports, facts, STATE_CHANGING_METHODS.has(spec.method.toLowerCase()),
      spec.path !== null && isAdministrativePathText(spec.path));
    return;
  }
  if (HTTP_METHODS.has(property) || property === 'use') {
    const receiver = receiverName(callee);
    if (receiver !== null && HTTP_CLIENT_NAME.test(receiver)) return;
    const routed = isRouteChain(callee.object) || (args.length > 0 && isPathLike(args[0])) || (receiver !== null && ROUTER_NAME.test(receiver)) || property === 'use';
    if (!routed) return;
    useAll(args.filter((a) => !isPathLike(a) && a.type !== 'StringLiteral' && a.type !== 'ObjectExpression'), 'request', null, imports, facts,
      STATE_CHANGING_METHODS.has(property), isAdministrativeRoute(args));
    return;
  }
  if (LISTEN_METHODS.has(property)) {
    const event = stringValue(args[0]);
    if (event === 'request') useAll(args.slice(1), 'request', null, imports, facts);
    else if (event !== null && MESSAGE_EVENTS.has(event)) useAll(args.slice(1), 'message', null, imports, facts);
    // `io.on('connection', onConnection)`: once per client connection (hotContext.ts reads the same).
    else if (event === 'connection' && acceptsClients(memberChain(callee.object))) {
      useAll(args.slice(1), 'request', null, imports, facts, false, false, true);
    }
    return;
  }
  if (SUBSCRIBE_METHODS.has(property) || property === 'consume') useAll(args.slice(1), 'message', null, imports, facts);
}

/**
 * `models.use(require('./git'))`, `models.use(git)` of `const git = require('./git')`: a project
 * module handed to another's export; `models.use(Git)` of a name nothing here imports: the module
 * a `global.Git = require(...)` elsewhere names (resolved over the project, when exactly one does).
 */
function injectionFacts(callee: t.Node, args: readonly t.Node[], imports: ImportTable, facts: StatementFacts): void {
  const receiver = importedExport(callee, imports);
  if (receiver === null || receiver.exported === 'default' || receiver.member !== undefined) return;
  args.forEach((arg, index) => {
    let module = requiredModule(arg);
    if (arg.type === 'Identifier') {
      const origin = imports.get(arg.name);
      if (origin && origin.imported === 'default') module = origin.source;
      else if (origin === undefined && arg.name !== 'undefined') facts.injections.push({ ...receiver, index, module: '', global: arg.name });
    }
    if (module !== null && isRelative(module)) facts.injections.push({ ...receiver, index, module });
  });
}

/** `global.Git = require('./lib/git')`, `globalThis.db = require('./db')`: a project module every module may name. */
function globalFacts(node: t.AssignmentExpression, facts: StatementFacts): void {
  const { left, right } = node;
  if (node.operator !== '=' || left.type !== 'MemberExpression' || left.object.type !== 'Identifier') return;
  if (left.object.name !== 'global' && left.object.name !== 'globalThis') return;
  const name = propertyName(left.property, left.computed);
  const module = requiredModule(right);
  if (name !== null && module !== null && isRelative(module)) facts.globals.push([name, module]);
}

/**
 * The names a node declares: its declarations, `var`s and function parameters, wherever they are in
 * the statement (a function's own `Git` parameter or `var` hides the global there; counting it for
 * the whole module keeps the injection out rather than guess the scope).
 */
function declaredBy(node: t.Node, names: string[]): void {
  if (node.type === 'VariableDeclarator') addPattern(node.id, names);
  else if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) names.push(node.id.name);
  else if (node.type === 'ImportDeclaration') for (const spec of node.specifiers) names.push(spec.local.name);
  else if (node.type === 'CatchClause') addPattern(node.param, names);
  if (isFunctionNode(node)) for (const param of (node as t.Function).params) addPattern(param, names);
}

/** The names a binding pattern declares. (Module level, not a closure per node: every node of every module comes through declaredBy.) */
function addPattern(pattern: t.Node | null | undefined, names: string[]): void {
  if (!pattern) return;
  if (pattern.type === 'Identifier') names.push(pattern.name);
  else if (pattern.type === 'ObjectPattern') for (const p of pattern.properties) addPattern(p.type === 'RestElement' ? p.argument : p.value, names);
  else if (pattern.type === 'ArrayPattern') for (const e of pattern.elements) addPattern(e, names);
  else if (pattern.type === 'AssignmentPattern') addPattern(pattern.left, names);
  else if (pattern.type === 'RestElement') addPattern(pattern.argument, names);
}

/**
 * A route table entry: an object literal with a route path among its values and an imported
 * function among them (`{ method: 'GET', path: '/tasks', handler: tasks.list }`).
 */
function routeTableFacts(node: t.ObjectExpression, imports: ImportTable, facts: StatementFacts): void {
  let routed = false;
  let changesState = false;
  let occasional = false;
  const handlers: t.Node[] = [];
  for (const prop of node.properties) {
    if (prop.type !== 'ObjectProperty') continue;
    const value = prop.value;
    // `{ method: 'POST', path: '/x', handler }`: a route of a method that changes state.
    if (propertyName(prop.key, prop.computed) === 'method' && value.type === 'StringLiteral' && STATE_CHANGING_METHODS.has(value.value.toLowerCase())) changesState = true;
    if ((value.type === 'StringLiteral' || value.type === 'TemplateLiteral') && isPathLike(value)) {
      routed = true;
      if (isAdministrativePath(value)) occasional = true;
    }
    else if (value.type === 'Identifier' || value.type === 'MemberExpression') handlers.push(value);
    else if (value.type === 'ArrayExpression' || value.type === 'CallExpression') handlers.push(...handlerArgs([value]));
  }
  // `{ path: 'GET /admin/mail', fn: mail.show }`: the route written as one string.
  const entry = routeTableEntry(node);
  if (entry !== null && !routed) {
    routed = true;
    changesState = STATE_CHANGING_METHODS.has(entry.method.toLowerCase());
    occasional = entry.path !== null && isAdministrativePathText(entry.path);
  }
  if (!routed) return;
  for (const handler of handlers) {
    if (isFunctionNode(handler)) continue;
    const origin = handlerOrigin(handler, imports);
    if (origin === null) continue;
    const use: HandlerUse = { ...origin, kind: 'request', intervalMs: null };
    if (changesState) use.changesState = true;
    if (occasional) use.occasional = true;
    facts.handlerUses.push(use);
  }
}

/** `fork(x)` (child_process), `new Worker(x)` (worker_threads), `cluster.setupPrimary({ exec: x })`: x as a relative specifier. */
function workerEntryOf(node: t.CallExpression | t.NewExpression, imports: ImportTable): string | null {
  const callee = node.callee;
  const member = callee.type === 'MemberExpression' ? propertyName(callee.property, callee.computed) : null;
  const moduleOf = (n: t.Node): string | null => {
    if (n.type === 'Identifier') return imports.get(n.name)?.source ?? null;
    return requiredModule(n);
  };
  let arg: t.Node | undefined;
  if (node.type === 'CallExpression') {
    if (callee.type === 'Identifier' && callee.name === 'fork' && imports.get('fork')?.source === 'child_process') arg = node.arguments[0];
    else if (member === 'fork' && callee.type === 'MemberExpression' && moduleOf(callee.object) === 'child_process') arg = node.arguments[0];
    else if ((member === 'setupPrimary' || member === 'setupMaster') && callee.type === 'MemberExpression' && moduleOf(callee.object) === 'cluster') {
      const options = node.arguments[0];
      if (options?.type === 'ObjectExpression') {
        for (const prop of options.properties) {
          if (prop.type === 'ObjectProperty' && propertyName(prop.key, prop.computed) === 'exec') arg = prop.value;
        }
      }
    }
  } else {
    const isWorker = (callee.type === 'Identifier' && imports.get(callee.name)?.source === 'worker_threads')
      || (member === 'Worker' && callee.type === 'MemberExpression' && moduleOf(callee.object) === 'worker_threads');
    if (isWorker) arg = node.arguments[0];
  }
  return arg === undefined ? null : relativePathOf(arg);
}
