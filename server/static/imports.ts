// Where each module-level name comes from (`require` / `import`), read from the top-level
// statements only: a cheap scan before the traversal, so every rule can ask `importOf(name)`.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { ImportBinding, ModuleMember, RuleContext } from '../../rules/api';
import { propertyName } from './functionNames';
import { stringValue } from './registrationShapes';
import { PerStatement } from './statementRevisions';
import { forEachChild } from './walk';

export type ImportTable = ReadonlyMap<string, ImportBinding>;

/** `node:child_process` and `child_process` are the same module. */
export function normalizeModuleName(specifier: string): string {
  return specifier.startsWith('node:') ? specifier.slice(5) : specifier;
}

/**
 * `./x`, `../x`, `.` or `..`, or SvelteKit's `$lib/x` (its documented alias of the app's `src/lib`,
 * resolved by ProjectIndex.resolve): a module of the project, not a package.
 */
export function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..' || isLibAlias(specifier);
}

/** `$lib` or `$lib/x`: SvelteKit's alias of `src/lib`. */
export function isLibAlias(specifier: string): boolean {
  return specifier === '$lib' || specifier.startsWith('$lib/');
}

/** The module name of `require('x')`, or null when the expression is not such a call. */
export function requiredModule(node: t.Node | null | undefined): string | null {
  if (!node || node.type !== 'CallExpression') return null;
  const { callee, arguments: args } = node;
  if (callee.type !== 'Identifier' || callee.name !== 'require' || args.length !== 1) return null;
  const arg = args[0];
  if (arg.type === 'StringLiteral') return normalizeModuleName(arg.value);
  if (arg.type === 'TemplateLiteral' && arg.expressions.length === 0) {
    return normalizeModuleName(arg.quasis[0].value.cooked ?? arg.quasis[0].value.raw);
  }
  // `require(path.join(__dirname, 'routes', 'admin'))`, `require(__dirname + '/admin')`: a module of
  // the project named from this file's folder (issue 22: such requires hid what they load).
  return arg.type === 'SpreadElement' || arg.type === 'ArgumentPlaceholder' ? null : relativePathOf(arg);
}

function keyName(key: t.Node, computed: boolean): string | null {
  if (!computed && key.type === 'Identifier') return key.name;
  if (key.type === 'StringLiteral') return key.value;
  return null;
}

/**
 * Helpers TypeScript and Babel emit around a `require` of a whole module (`__importDefault`,
 * `__importStar`, `_interopRequireDefault`, `_interopRequireWildcard`; as `tslib_1.__importDefault`
 * with importHelpers): the value is the module, or an object whose `default` is the module.
 */
const INTEROP_HELPERS = new Set(['__importDefault', '__importStar', '_interopRequireDefault', '_interopRequireWildcard']);

/** `__importDefault(require('x'))` and its kin -> the `require('x')` call inside; null otherwise. */
function interopRequired(node: t.Node): t.Node | null {
  if (node.type !== 'CallExpression' || node.arguments.length < 1) return null;
  const callee = node.callee;
  const name = callee.type === 'Identifier' ? callee.name
    : callee.type === 'MemberExpression' ? keyName(callee.property, callee.computed) : null;
  if (name === null || !INTEROP_HELPERS.has(name)) return null;
  return requiredModule(node.arguments[0]) === null ? null : node.arguments[0];
}

/** `(0, x.f)`, `(x.f)`: the expression a compiled call calls (TypeScript and Babel emit `(0, m_1.f)(...)` for an imported `f`). */
export function unwrapCompiledCallee(node: t.Node): t.Node {
  let at = node;
  for (;;) {
    if (at.type === 'ParenthesizedExpression') at = at.expression;
    else if (at.type === 'SequenceExpression' && at.expressions.length === 2 && at.expressions[0].type === 'NumericLiteral') at = at.expressions[1];
    else return at;
  }
}

/** `require('x')`, `require('x').y`, `require('x')['y']` (or one wrapped by an interop helper) -> module and member taken. */
function requireOf(init: t.Expression): { source: string; member: string | null } | null {
  const interop = interopRequired(init);
  if (interop !== null) return { source: requiredModule(interop)!, member: null };
  const whole = requiredModule(init);
  if (whole !== null) return { source: whole, member: null };
  if (init.type === 'MemberExpression') {
    const source = requiredModule(init.object);
    const member = keyName(init.property, init.computed);
    if (source !== null && member !== null) return { source, member };
  }
  return null;
}

function addDeclarator(table: Map<string, ImportBinding>, declarator: t.VariableDeclarator): void {
  let init = declarator.init;
  // `await import('x')` is rare at top level; `require` is what services use. Unwrap TS `as`.
  while (init && (init.type === 'TSAsExpression' || init.type === 'TSNonNullExpression')) init = init.expression;
  if (!init) return;
  const origin = requireOf(init);
  if (!origin) return;
  const { id } = declarator;
  if (id.type === 'Identifier') {
    table.set(id.name, origin.member === null
      ? { source: origin.source, imported: 'default', namespace: true }
      : { source: origin.source, imported: origin.member, namespace: false });
    return;
  }
  if (id.type === 'ObjectPattern' && origin.member === null) {
    for (const prop of id.properties) {
      if (prop.type !== 'ObjectProperty') continue;
      const imported = keyName(prop.key, prop.computed);
      let value = prop.value;
      if (value.type === 'AssignmentPattern') value = value.left;
      if (imported !== null && value.type === 'Identifier') {
        table.set(value.name, { source: origin.source, imported, namespace: false });
      }
    }
  }
}

function addImport(table: Map<string, ImportBinding>, decl: t.ImportDeclaration): void {
  const source = normalizeModuleName(decl.source.value);
  for (const spec of decl.specifiers) {
    if (spec.type === 'ImportDefaultSpecifier') {
      table.set(spec.local.name, { source, imported: 'default', namespace: false });
    } else if (spec.type === 'ImportNamespaceSpecifier') {
      table.set(spec.local.name, { source, imported: 'default', namespace: true });
    } else {
      const imported = spec.imported.type === 'Identifier' ? spec.imported.name : spec.imported.value;
      table.set(spec.local.name, { source, imported, namespace: false });
    }
  }
}

/**
 * A module another module of the project hands to an export of this one (`models.use(require('./git'))`):
 * argument `index` of the export `setter` is the module `source` (a specifier relative to this module).
 */
export interface InjectedModule {
  setter: string;
  index: number;
  source: string;
}

/**
 * The statements of a function the module calls at once around its whole code (`(function (Auth) {
 * var passport = require('passport'); ... }(exports))`, `(function () {...}).call(this)`, `(() => {...})()`):
 * they run once, when the module loads, as its top-level statements do.
 */
export function moduleWrapperBody(statement: t.Statement): readonly t.Statement[] {
  if (statement.type !== 'ExpressionStatement') return [];
  let call: t.Node = statement.expression;
  if (call.type === 'UnaryExpression' && (call.operator === '!' || call.operator === 'void')) call = call.argument;
  if (call.type !== 'CallExpression') return [];
  let callee: t.Node = call.callee;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier'
    && (callee.property.name === 'call' || callee.property.name === 'apply')) callee = callee.object;
  if ((callee.type !== 'FunctionExpression' && callee.type !== 'ArrowFunctionExpression') || callee.body.type !== 'BlockStatement') return [];
  return callee.body.body;
}

export function collectImports(program: t.Program, injected: readonly InjectedModule[] = []): ImportTable {
  const table = new Map<string, ImportBinding>();
  // A wrapper's own requires after the module's top-level ones: a top-level name is not hidden by them.
  const statements = [...program.body, ...program.body.flatMap(moduleWrapperBody)];
  for (const statement of statements) {
    let node: t.Statement | t.Declaration = statement;
    if (node.type === 'ExportNamedDeclaration' && node.declaration) node = node.declaration;
    if (node.type === 'ImportDeclaration') {
      addImport(table, node);
    } else if (node.type === 'VariableDeclaration') {
      for (const declarator of node.declarations) addDeclarator(table, declarator);
    } else if (node.type === 'TryStatement') {
      // `let bcrypt; try { bcrypt = require('bcrypt'); } catch { bcrypt = require('bcryptjs'); }`: an
      // optional native module with a drop-in fallback; the name is the module the try block loads.
      for (const inner of node.block.body) {
        if (inner.type !== 'ExpressionStatement' || inner.expression.type !== 'AssignmentExpression') continue;
        const { left, right, operator } = inner.expression;
        if (operator !== '=' || left.type !== 'Identifier' || table.has(left.name)) continue;
        addDeclarator(table, { type: 'VariableDeclarator', id: left, init: right } as t.VariableDeclarator);
      }
    } else if (node.type === 'TSImportEqualsDeclaration' && node.moduleReference.type === 'TSExternalModuleReference') {
      table.set(node.id.name, {
        source: normalizeModuleName(node.moduleReference.expression.value),
        imported: 'default',
        namespace: true,
      });
    }
  }
  addLazyRequires(table, program, injected);
  return table;
}

/** The name a function is known by where it is defined: its id, its key in an object, the slot or variable it is assigned to. */
function definedName(fn: t.Node, parent: t.Node): string | null {
  if (parent.type === 'ObjectProperty' && parent.value === fn) return keyName(parent.key, parent.computed);
  if (parent.type === 'VariableDeclarator' && parent.init === fn) return parent.id.type === 'Identifier' ? parent.id.name : null;
  if (parent.type === 'AssignmentExpression' && parent.right === fn) {
    if (parent.left.type === 'Identifier') return parent.left.name;
    return parent.left.type === 'MemberExpression' ? keyName(parent.left.property, parent.left.computed) : null;
  }
  if (fn.type === 'ObjectMethod') return keyName(fn.key, fn.computed);
  return (fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression') && fn.id ? fn.id.name : null;
}

/**
 * `var bcrypt; function load() { if (!bcrypt) bcrypt = require('bcrypt'); }`: a module-level name
 * declared without a value and only ever assigned one module, loaded lazily on first use. It names
 * that module as a top-level `require` would; a name also assigned anything else names nothing.
 */
function addLazyRequires(table: Map<string, ImportBinding>, program: t.Program, injected: readonly InjectedModule[]): void {
  const candidates = new Set<string>();
  for (const statement of program.body) {
    if (statement.type !== 'VariableDeclaration' || statement.kind === 'const') continue;
    for (const declarator of statement.declarations) {
      if (!declarator.init && declarator.id.type === 'Identifier' && !table.has(declarator.id.name)) candidates.add(declarator.id.name);
    }
  }
  if (candidates.size === 0) return;
  /**
   * `gitmech = git` inside `use: function (git) {...}`, when another module calls this module's
   * `use` with a module of the project as that argument: the name is then that module (an
   * injection through an exported setter).
   */
  const injectedModule = (setter: SetterParameter): string | null => {
    const sources = new Set(injected.filter((i) => i.setter === setter.setter && i.index === setter.index).map((i) => i.source));
    return sources.size === 1 ? [...sources][0] : null;
  };
  const modules = new Map<string, string | null>();
  for (const statement of program.body) {
    for (const [name, values] of assignmentsOf(statement)) {
      if (!candidates.has(name)) continue;
      for (const value of values) {
        const whole = value === null ? null : typeof value === 'string' ? value : injectedModule(value);
        const before = modules.get(name);
        modules.set(name, whole !== null && (before === undefined || before === whole) ? whole : null);
      }
    }
  }
  for (const [name, source] of modules) {
    if (source !== null) table.set(name, { source, imported: 'default', namespace: true });
  }
}

/** A parameter of a function known by a name (a setter another module may call with a module). */
interface SetterParameter {
  setter: string;
  index: number;
}

/**
 * Per top-level statement: what each plain name it assigns is assigned, as far as a module can
 * be told from the statement alone: a required module, a parameter of the named function around
 * the assignment (resolved against the project's injections by addLazyRequires), or null for
 * anything else. Kept by statement node, as an editor's incremental parse keeps the nodes of
 * statements an edit did not touch (their positions move, not their contents), until an edit
 * inside the statement revises it (statementRevisions.ts): an edit then scans only the statements
 * it changed, not the whole file. The merge in addLazyRequires is order-free
 * (null absorbs, equal modules stay), so per-statement summaries give what one walk of the file gives.
 */
const assignedValues = new PerStatement<ReadonlyMap<string, readonly (string | SetterParameter | null)[]>>();

function assignmentsOf(statement: t.Statement): ReadonlyMap<string, readonly (string | SetterParameter | null)[]> {
  const kept = assignedValues.get(statement);
  if (kept !== undefined) return kept;
  const values = new Map<string, (string | SetterParameter | null)[]>();
  // The innermost function around the assignment decides which parameter a name is.
  const parameterOf = (right: t.Node, fn: { node: t.Node; name: string | null } | null): SetterParameter | null => {
    if (right.type !== 'Identifier' || fn === null || fn.name === null || !isFunctionLike(fn.node)) return null;
    const index = fn.node.params.findIndex((p) => p.type === 'Identifier' && p.name === right.name);
    return index === -1 ? null : { setter: fn.name, index };
  };
  // An explicit stack, not recursion: a long generated expression chain must not overflow the call stack.
  const stack: { node: t.Node; parent: t.Node | null; fn: { node: t.Node; name: string | null } | null }[] = [{ node: statement, parent: null, fn: null }];
  while (stack.length > 0) {
    const { node, parent, fn } = stack.pop()!;
    if (node.type === 'AssignmentExpression' && node.left.type === 'Identifier') {
      const name = node.left.name;
      const value = node.operator === '=' ? requiredModule(node.right) ?? parameterOf(node.right, fn) : null;
      let list = values.get(name);
      if (list === undefined) values.set(name, (list = []));
      list.push(value);
    }
    const inner = isFunctionLike(node) ? { node, name: parent === null ? null : definedName(node, parent) } : fn;
    forEachChild(node, (child) => {
      stack.push({ node: child, parent: node, fn: inner });
    });
  }
  assignedValues.set(statement, values);
  return values;
}

function isFunctionLike(node: t.Node): node is t.Function {
  return node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression'
    || node.type === 'ObjectMethod' || node.type === 'ClassMethod';
}

/** How names are resolved in the file analyzed: its import table and its bindings (the rule context's two lookups). */
export type NameLookups = Pick<RuleContext, 'importOf' | 'bindingOf'>;

/**
 * Where `name` as seen from `path` comes from: the module's import table for module-level names,
 * or a `require` inside a function (`const { execSync } = require('child_process')` in a helper).
 * Null for locals, parameters and globals.
 */
function originAt(path: NodePath, name: string, names: NameLookups): ImportBinding | null {
  const binding = names.bindingOf(path, name);
  if (!binding) return null;
  if (binding.topLevel) return names.importOf(name);
  const declarator = binding.path.node;
  if (declarator.type !== 'VariableDeclarator' || !declarator.init) return null;
  const local = new Map<string, ImportBinding>();
  addDeclarator(local, declarator);
  return local.get(name) ?? null;
}

/**
 * Which module export a callee designates, using the import table; null for anything local or
 * computed. `import x from 'cjs'` counts as the whole module, as Node's CJS interop makes it.
 */
export function moduleMemberOf(path: NodePath, node: t.Node, names: NameLookups): ModuleMember | null {
  const callee = unwrapCompiledCallee(node);
  if (callee.type === 'Identifier') {
    const origin = originAt(path, callee.name, names);
    if (!origin || origin.namespace || origin.imported === 'default') return null;
    return { source: origin.source, member: origin.imported };
  }
  if (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') return null;
  const member = keyName(callee.property, callee.computed);
  if (member === null) return null;
  const object = interopModuleOf(path, callee.object, names);
  if (object.type === 'Identifier') {
    const origin = originAt(path, object.name, names);
    if (!origin) return null;
    // `const { promises } = require('fs')` style members are not modules; only whole-module names.
    if (origin.namespace || origin.imported === 'default') return { source: origin.source, member };
    return null;
  }
  const required = requiredModule(object);
  return required === null ? null : { source: required, member };
}

/**
 * `m_1.default` of a whole imported module `m_1` is the module itself (a CommonJS module seen
 * through esModuleInterop / Babel's interop): `m_1` then; any other node as it is.
 */
function interopModuleOf(path: NodePath, node: t.Node, names: NameLookups): t.Node {
  if ((node.type !== 'MemberExpression' && node.type !== 'OptionalMemberExpression') || node.object.type !== 'Identifier') return node;
  if (keyName(node.property, node.computed) !== 'default') return node;
  const origin = originAt(path, node.object.name, names);
  return origin !== null && origin.namespace ? node.object : node;
}

/**
 * A callee as `module:path`, e.g. `mongodb:MongoClient.connect` for `MongoClient.connect` with
 * `const { MongoClient } = require('mongodb')`, `ioredis:` for `new Redis()` with Redis the whole
 * module or its default export. Null when the root name is not a module-level import.
 */
export function qualifiedNameOf(path: NodePath, callee: t.Node, names: NameLookups): string | null {
  const members: string[] = [];
  let node: t.Node = unwrapCompiledCallee(callee);
  for (let depth = 0; depth < 6 && (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression'); depth++) {
    const inner = interopModuleOf(path, node, names);
    if (inner !== node) {
      node = inner;
      break;
    }
    const name = keyName(node.property, node.computed);
    if (name === null) return null;
    members.unshift(name);
    node = node.object;
  }
  if (node.type === 'Identifier') {
    const origin = originAt(path, node.name, names);
    if (!origin) return null;
    const base = origin.namespace || origin.imported === 'default' ? [] : [origin.imported];
    return `${origin.source}:${[...base, ...members].join('.')}`;
  }
  const required = requiredModule(node);
  return required === null ? null : `${required}:${members.join('.')}`;
}

/** './w.js' from './w.js', `path.join(__dirname, 'w.js')`, `${__dirname}/w.js`, `require.resolve('./w')`, `new URL('./w.js', import.meta.url)`. */
export function relativePathOf(node: t.Node): string | null {
  const literal = stringValue(node);
  if (literal !== null) return isRelative(literal) ? literal : null;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 1 && node.expressions[0].type === 'Identifier'
    && node.expressions[0].name === '__dirname' && (node.quasis[0].value.cooked ?? '') === '') {
    const rest = node.quasis[1]?.value.cooked ?? '';
    return rest.startsWith('/') ? `.${rest}` : null;
  }
  if (node.type === 'NewExpression' && node.callee.type === 'Identifier' && node.callee.name === 'URL') {
    const first = stringValue(node.arguments[0]);
    return first !== null && isRelative(first) ? first : null;
  }
  if (node.type === 'BinaryExpression' && node.operator === '+' && node.left.type === 'Identifier' && node.left.name === '__dirname') {
    const rest = stringValue(node.right);
    return rest !== null && rest.startsWith('/') ? `.${rest}` : null;
  }
  if (node.type !== 'CallExpression') return null;
  const callee = node.callee;
  if (callee.type !== 'MemberExpression') return null;
  const member = propertyName(callee.property, callee.computed);
  if (member === 'resolve' && callee.object.type === 'Identifier' && callee.object.name === 'require') {
    const first = stringValue(node.arguments[0]);
    return first !== null && isRelative(first) ? first : null;
  }
  if (member !== 'join' && member !== 'resolve') return null;
  const [first, ...rest] = node.arguments;
  if (first?.type !== 'Identifier' || first.name !== '__dirname' || rest.length === 0) return null;
  const parts: string[] = [];
  for (const part of rest) {
    const value = stringValue(part);
    if (value === null || value.startsWith('/')) return null;
    parts.push(value.replace(/^\.\//, ''));
  }
  return `./${parts.join('/')}`;
}
