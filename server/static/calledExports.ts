// Which exports of the project's other modules a call calls (issue 22): the hot context notes them
// so that a callee in another module runs in its caller's context. Read from the call alone and
// the names it uses, so that what a walk records rests only on what the binding resolver tracks:
// - `f()` of an imported `f`; `mod.f()` of a whole imported module (require, namespace, CJS default);
//   `mod()` of a whole required module (its `module.exports`);
// - the forms compilers emit for those: `(0, mod_1.f)()` (TypeScript, Babel), `mod_1.default.f()`;
// - `require('./m').f()`, and a local bound to one of several required modules, chosen by a
//   condition (`const converter = soffice ? require('./LibreOffice') : require('./Abiword');
//   converter.convertFile()`): a call of that export in each of them.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { ImportBinding } from '../../rules/api';
import type { BindingResolver } from './bindings';
import { propertyName, tableName } from './functionNames';
import { isRelative, requiredModule, unwrapCompiledCallee } from './imports';

export interface CalledExport {
  /** The specifier as written (relative: a module of the project); '' for a call on an injected dependency. */
  source: string;
  exported: string;
  /**
   * A method called on a dependency the instance holds (`this.userService.changePassword()`):
   * the field's name, which the project resolves to the one class named so that has the method.
   */
  receiver?: string;
  /** `new mod.Service()`: the export is a class whose constructor runs in the caller's context. */
  constructs?: boolean;
  /** `app.strategy.check()`: a method of what the field holds (see fieldCall). */
  field?: string;
  /**
   * `const s = new mod.Service(); s.run()`: a method called on an instance of the export (a class,
   * or a constructor function with prototype methods); the method runs in the caller's context.
   */
  instanceMethod?: string;
  /**
   * `const db = await getDb(); db.find()`: a method called on what the export (a function) returned;
   * the project resolves it to the one class of the export's module that has the method.
   */
  resultMethod?: string;
  /**
   * `Notification.send()` of a class imported by name (`const { Notification } = require('./n')`):
   * that static method of the export.
   */
  staticMethod?: string;
  /**
   * `this.providerList[type].send()`: a method of an entry of a table of instances, chosen by key
   * at run time; the project resolves it to that method of each class whose instances some module
   * stores in a table of this name (ModuleFacts.tableInstances).
   */
  table?: string;
}

/** Conditional alternatives followed at most (a bound on the work per call). */
const MAX_DEPTH = 4;

/**
 * `Promise.promisifyAll(require('./m'))` (bluebird): an object with each function of the module
 * and its promise-returning twin `<name>Async`, which calls the function.
 */
function promisifiedModule(node: t.Node): t.Node | null {
  if (node.type !== 'CallExpression' || node.arguments.length === 0) return null;
  const callee = node.callee;
  const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? propertyName(callee.property, callee.computed) : null;
  return name === 'promisifyAll' ? node.arguments[0] : null;
}

/** The relative modules a value is (`require('./a')`, `c ? require('./a') : require('./b')`, a constant bound so); null when not only modules (null/undefined branches aside). */
function modulesOf(node: t.Node, path: NodePath, bindings: BindingResolver, depth: number, promisified?: { seen: boolean }): string[] | null {
  if (depth > MAX_DEPTH) return null;
  const required = requiredModule(node);
  if (required !== null) return isRelative(required) ? [required] : null;
  const wrapped = promisifiedModule(node);
  if (wrapped !== null) {
    if (promisified) promisified.seen = true;
    return modulesOf(wrapped, path, bindings, depth + 1, promisified);
  }
  switch (node.type) {
    case 'ParenthesizedExpression':
      return modulesOf(node.expression, path, bindings, depth + 1, promisified);
    case 'NullLiteral':
      return [];
    case 'CallExpression':
      // `require('./svc')(app)`, `factory(app)` of `const factory = require('./svc')`: what the
      // module's factory returns; its members are resolved in that module (ProjectFacts, HotContext).
      if (node.callee.type !== 'Identifier' && requiredModule(node.callee) === null) return null;
      return modulesOf(node.callee, path, bindings, depth + 1);
    case 'Identifier': {
      if (node.name === 'undefined') return [];
      const binding = bindings.bindingOf(path, node.name);
      const declarator = binding?.constant ? binding.declarator : null;
      if (declarator?.type !== 'VariableDeclarator' || !declarator.init) return null;
      return modulesOf(declarator.init, binding!.path, bindings, depth + 1, promisified);
    }
    case 'ConditionalExpression':
    case 'LogicalExpression': {
      const a = modulesOf(node.type === 'ConditionalExpression' ? node.consequent : node.left, path, bindings, depth + 1, promisified);
      const b = a && modulesOf(node.type === 'ConditionalExpression' ? node.alternate : node.right, path, bindings, depth + 1, promisified);
      return a && b ? [...a, ...b] : null;
    }
    default:
      return null;
  }
}

/** The exports of project modules that calling `callee` (at `path`) calls; empty when none is known. */
export function calledExports(
  path: NodePath, callee: t.Node, importOf: (local: string) => ImportBinding | null, bindings: BindingResolver,
): CalledExport[] {
  const called = unwrapCompiledCallee(callee);
  if (called.type === 'Identifier') {
    const origin = importOf(called.name);
    if (origin === null || !isRelative(origin.source)) return [];
    // `const info = require('./info'); info(opts)`: calling a whole required module calls its
    // `module.exports` (an ES namespace object cannot be called, so the name is a require's).
    return [{ source: origin.source, exported: origin.namespace ? 'default' : origin.imported }];
  }
  if (called.type !== 'MemberExpression') return [];
  const exported = propertyName(called.property, called.computed);
  if (exported === null) return [];
  let object: t.Node = called.object;
  // `mod_1.default.f()`: the module's default export is the module (esModuleInterop of CJS).
  if (object.type === 'MemberExpression' && object.object.type === 'Identifier' && propertyName(object.property, object.computed) === 'default') object = object.object;
  if (object.type === 'Identifier') {
    const origin = importOf(object.name);
    if (origin !== null) {
      if ((origin.imported !== 'default' && !origin.namespace) || !isRelative(origin.source)) return [];
      return [{ source: origin.source, exported }];
    }
  }
  const promisified = { seen: false };
  const modules = modulesOf(object, path, bindings, 0, promisified);
  if (modules === null) return [];
  // `utils.checkAsync()` of a promisified module runs its `check`.
  const runs = promisified.seen && /.Async$/.test(exported) ? exported.slice(0, -'Async'.length) : exported;
  return [...new Set(modules)].map((source) => ({ source, exported: runs }));
}

/**
 * `<holder>.<field>.<method>()` (also `?.` and `(0, a.b.c)()`): the method's and the field's names
 * and what holds the field; null for any other callee or a computed name. `injectedCall` and
 * `fieldCall` read the same shape.
 */
function methodOfField(callee: t.Node): { method: string; field: string; holder: t.Node } | null {
  const called = unwrapCompiledCallee(callee);
  if (called.type !== 'MemberExpression' && called.type !== 'OptionalMemberExpression') return null;
  const method = propertyName(called.property, called.computed);
  const holder = called.object;
  if (method === null || (holder.type !== 'MemberExpression' && holder.type !== 'OptionalMemberExpression')) return null;
  const field = propertyName(holder.property, holder.computed);
  return field === null ? null : { method, field, holder: holder.object };
}

/**
 * `this.<field>.<method>()`: a call on a dependency the instance holds, as services are handed to
 * controllers (constructor injection, `this.userService = userService`). Which class the field
 * holds is not known from this module; the project resolves it by the field's name (see
 * ProjectFacts). A leading underscore of the field is dropped (`this._userService`).
 */
export function injectedCall(callee: t.Node): CalledExport | null {
  const call = methodOfField(callee);
  if (call === null || call.holder.type !== 'ThisExpression') return null;
  const receiver = call.field.replace(/^_+/, '');
  return receiver === '' ? null : { source: '', exported: call.method, receiver };
}

/**
 * `x.run()` (or `x?.run()`, `(0, x.run)()`) of a local `x` bound once (`const x = ...`, or a `var`
 * never assigned again): the method's name, and the local's initial value with the path of its
 * declaration (where the names the value uses are resolved). Null for any other call.
 */
function methodOfConstantLocal(
  path: NodePath, callee: t.Node, bindings: BindingResolver,
): { method: string; init: t.Expression; declaredAt: () => NodePath } | null {
  const called = unwrapCompiledCallee(callee);
  if ((called.type !== 'MemberExpression' && called.type !== 'OptionalMemberExpression') || called.object.type !== 'Identifier') return null;
  const method = propertyName(called.property, called.computed);
  if (method === null) return null;
  const binding = bindings.bindingOf(path, called.object.name);
  // The declarator first: in the editor, asking for the binding's path makes this statement rest on
  // the whole declaring statement (statementRevisions.ts), so it is asked only by a caller that uses it.
  const declarator = binding?.constant ? binding.declarator : null;
  if (declarator?.type !== 'VariableDeclarator' || !declarator.init) return null;
  return { method, init: declarator.init, declaredAt: () => binding!.path };
}

/**
 * `<anything>.<field>.<method>()` (`app.securityStrategy.check()`, `this.db.query()`): a method of
 * what the field holds. Which module's function made it is not known here; the project resolves
 * it by the modules whose function's result some module sets that field to (ModuleFacts.fieldResults).
 */
export function fieldCall(callee: t.Node): CalledExport | null {
  const call = methodOfField(callee);
  return call === null ? null : { source: '', exported: call.method, field: call.field };
}

/**
 * `s.run()` of a local bound once to `new mod.Service(...)` (`const s = new mod.Service()`, or a
 * `var` never assigned again): the method `run` of the export `Service` of a project module.
 */
export function instanceCall(
  path: NodePath, callee: t.Node, importOf: (local: string) => ImportBinding | null, bindings: BindingResolver,
): CalledExport[] {
  const local = methodOfConstantLocal(path, callee, bindings);
  if (local?.init.type !== 'NewExpression') return [];
  return calledExports(local.declaredAt(), local.init.callee, importOf, bindings).map((c) => ({ ...c, instanceMethod: local.method }));
}

/**
 * `m.run()` of a local bound once to what a project module's function returned (`const m = await
 * getMongo()`, `const m = mod.connect()`): the method `run` of an object that module made.
 */
export function resultCall(
  path: NodePath, callee: t.Node, importOf: (local: string) => ImportBinding | null, bindings: BindingResolver,
): CalledExport[] {
  const local = methodOfConstantLocal(path, callee, bindings);
  if (local === null) return [];
  const init = local.init.type === 'AwaitExpression' ? local.init.argument : local.init;
  if (init.type !== 'CallExpression') return [];
  return calledExports(local.declaredAt(), init.callee, importOf, bindings)
    .filter((c) => c.receiver === undefined)
    .map((c) => ({ source: c.source, exported: c.exported, resultMethod: local.method }));
}

/**
 * `Notification.send()` of a class imported by name (`const { Notification } = require('./n')`,
 * `import { Notification } from './n'`): the static method `send` of that export. Null for any
 * other call (a whole module's member is calledExports').
 */
export function staticCall(callee: t.Node, importOf: (local: string) => ImportBinding | null): CalledExport | null {
  const called = unwrapCompiledCallee(callee);
  if ((called.type !== 'MemberExpression' && called.type !== 'OptionalMemberExpression') || called.object.type !== 'Identifier') return null;
  const method = propertyName(called.property, called.computed);
  const origin = importOf(called.object.name);
  if (method === null || origin === null || origin.namespace || origin.imported === 'default' || !isRelative(origin.source)) return null;
  return { source: origin.source, exported: origin.imported, staticMethod: method };
}

/** Methods that call the entry itself (a table of functions: dispatchTables.ts), not a method of it. */
const FUNCTION_METHODS = new Set(['call', 'apply', 'bind']);

/**
 * The table a computed member reads an entry of, by name: `this.providerList[type]` and
 * `Registry.monitorTypeList[type]` are `providerList` and `monitorTypeList`, `providers[type]` is
 * `providers`. Null for a literal key (one known entry) or another shape.
 */
export function tableNameOf(node: t.Node): string | null {
  if ((node.type !== 'MemberExpression' && node.type !== 'OptionalMemberExpression') || !node.computed) return null;
  const key = node.property;
  if (key.type === 'StringLiteral' || key.type === 'NumericLiteral' || key.type === 'TemplateLiteral') return null;
  return tableName(node.object);
}

/**
 * `this.providerList[type].send(msg)`, or `monitorType.check()` of `const monitorType =
 * Registry.monitorTypeList[this.type]`: the method `send` of whatever instance the table holds under
 * that key (a registry of plugins, providers or monitor types). Null for any other call.
 */
export function tableCall(path: NodePath, callee: t.Node, bindings: BindingResolver): CalledExport | null {
  const called = unwrapCompiledCallee(callee);
  if (called.type !== 'MemberExpression' && called.type !== 'OptionalMemberExpression') return null;
  const method = propertyName(called.property, called.computed);
  if (method === null || FUNCTION_METHODS.has(method)) return null;
  let entry: t.Node = called.object;
  if (entry.type === 'Identifier') {
    const local = methodOfConstantLocal(path, callee, bindings);
    if (local === null) return null;
    entry = local.init.type === 'AwaitExpression' ? local.init.argument : local.init;
  }
  const table = tableNameOf(entry);
  return table === null ? null : { source: '', exported: method, table };
}
