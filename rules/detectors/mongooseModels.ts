// "Is this expression a mongoose model?" — shared by the two mongoose rules (with scopes) and by
// the project facts collector mongooseModelExports.ts (top-level statements of other modules, no scopes).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { ExecutionContext, ImportBinding, ModuleSummary, RuleContext } from '../api';
import { viaText } from './viaText';

/** Strips parentheses and TypeScript-only wrappers that do not change the runtime value. */
export function unwrapExpression(node: t.Node): t.Node {
  let current = node;
  while (
    current.type === 'ParenthesizedExpression' ||
    current.type === 'TSAsExpression' ||
    current.type === 'TSSatisfiesExpression' ||
    current.type === 'TSNonNullExpression' ||
    current.type === 'TSTypeAssertion' ||
    current.type === 'TSInstantiationExpression'
  ) {
    current = current.expression;
  }
  return current;
}

/** The name of a non-computed member property (`a.b`, `a['b']`), else null. */
export function memberName(node: t.Node): string | null {
  if (node.type !== 'MemberExpression' && node.type !== 'OptionalMemberExpression') return null;
  const { property } = node;
  if (!node.computed && property.type === 'Identifier') return property.name;
  if (property.type === 'StringLiteral') return property.value;
  return null;
}

/** What a local name means for model detection: the mongoose module, its `model` function, or neither. */
export type MongooseRole = 'mongoose' | 'model' | null;

export function mongooseRoleOf(binding: ImportBinding | null, localName: string): MongooseRole {
  if (binding === null) return localName === 'mongoose' ? 'mongoose' : null; // a global `mongoose`
  if (binding.source !== 'mongoose') return null;
  if (binding.imported === 'default') return 'mongoose';
  if (binding.imported === 'model') return 'model';
  return null;
}

/** Receivers that `.model('X')` (the one-argument lookup) is known to be called on. */
const CONNECTION_NAME = /^(conn|connection|db|database)$|(Connection|Conn|Db)$/;

function isMongooseReceiver(node: t.Node, roleOf: (name: string) => MongooseRole): boolean {
  const target = unwrapExpression(node);
  if (target.type === 'Identifier') return roleOf(target.name) === 'mongoose' || CONNECTION_NAME.test(target.name);
  // require('mongoose').model('User', schema)
  if (target.type === 'CallExpression' && target.callee.type === 'Identifier' && target.callee.name === 'require') {
    const arg = target.arguments[0];
    return arg?.type === 'StringLiteral' && arg.value === 'mongoose';
  }
  // mongoose.connection.model('X'), this.db.model('X')
  const name = memberName(target);
  return name !== null && CONNECTION_NAME.test(name);
}

function isStringArgument(node: t.Node | undefined): boolean {
  return node !== undefined && (node.type === 'StringLiteral' || (node.type === 'TemplateLiteral' && node.expressions.length === 0));
}

/**
 * `mongoose.model('X', schema)`, `model('X', schema)` (imported from mongoose), `conn.model('X', schema)`,
 * the one-argument lookup `mongoose.model('X')`, and `mongoose.models.X`.
 */
export function isModelExpression(node: t.Node, roleOf: (name: string) => MongooseRole): boolean {
  const target = unwrapExpression(node);
  // `mongoose.models.User || mongoose.model('User', schema)`: the usual guard against redefinition.
  if (target.type === 'LogicalExpression' && target.operator !== '&&') {
    return isModelExpression(target.left, roleOf) || isModelExpression(target.right, roleOf);
  }
  if (target.type === 'MemberExpression') {
    // mongoose.models.User
    const object = unwrapExpression(target.object);
    return memberName(object) === 'models' && object.type === 'MemberExpression' && isMongooseReceiver(object.object, roleOf);
  }
  if (target.type !== 'CallExpression') return false;
  const callee = unwrapExpression(target.callee);
  const args = target.arguments;
  if (!isStringArgument(args[0])) return false;
  if (callee.type === 'Identifier') return roleOf(callee.name) === 'model';
  if (memberName(callee) !== 'model' || callee.type !== 'MemberExpression') return false;
  // Two arguments (name, schema) define a model on mongoose or a connection-like receiver, or on any
  // receiver when the second argument is a schema (`app.db.model('X', userSchema)`): Bookshelf's
  // registry also reads `ghostBookshelf.model('Tag', Tag)`. The one-argument lookup is only trusted
  // on mongoose itself or a connection-like receiver.
  if (isMongooseReceiver(callee.object, roleOf)) return true;
  return args.length >= 2 && looksLikeSchema(args[1]);
}

/** `new Schema(...)`, `new mongoose.Schema(...)`, `userSchema`, `models.schema`: a mongoose schema by its look. */
function looksLikeSchema(node: t.Node): boolean {
  const target = unwrapExpression(node);
  if (target.type === 'NewExpression') {
    const callee = unwrapExpression(target.callee);
    return (callee.type === 'Identifier' && callee.name === 'Schema') || memberName(callee) === 'Schema';
  }
  const name = target.type === 'Identifier' ? target.name : memberName(target);
  return name !== null && /schema$/i.test(name);
}

function roleResolver(context: RuleContext): (name: string) => MongooseRole {
  return (name) => mongooseRoleOf(context.importOf(name), name);
}

/** An imported binding used directly (`User.find`) or through a member (`models.User.find`). */
function importedExportOf(binding: ImportBinding, member: string | null, isEsmImport: boolean): string | null {
  if (member === null) {
    // `import * as ns` used directly is the namespace object, never a model.
    if (binding.namespace && isEsmImport) return null;
    return binding.imported;
  }
  // `require('./models').User`, `import models from './models'` + `models.User`, `import * as ns` + `ns.User`.
  return binding.imported === 'default' ? member : null;
}

const MAX_ALIAS_DEPTH = 4;

type DataLibrary = 'mongoose' | 'other' | 'unknown';

/**
 * Model detection for one rule run over one file: its rule context and the data library the file
 * uses, read once. A rule makes one in create(), so the memory lives exactly as long as the analysis.
 */
export class ModelFinder {
  private library: DataLibrary | null = null;

  constructor(readonly context: RuleContext) {}

  /**
   * The summary of an imported module. Asked of the project each time (the engine caches it per
   * analysis): each statement that rests on it must be seen asking.
   */
  moduleSummary(source: string): ModuleSummary | null {
    return this.context.project.moduleAt(this.context.filePath, source);
  }

  /**
   * Does the module import mongoose, or a data library whose `find` results are not mongoose
   * documents? A module that imports neither (a controller handed its models) takes its project's
   * word: mongoose when the package.json declares it and no other data library but the MongoDB
   * driver (which mongoose itself is built on, and apps list beside it for ObjectId).
   */
  dataLibraryOf(path: NodePath): DataLibrary {
    if (this.library === null) {
      const own = dataLibraryOfProgram(path);
      this.library = own === 'unknown' ? dataLibraryOfProject(this.context.project.dependenciesOf?.(this.context.filePath)) : own;
    }
    return this.library;
  }
}

/**
 * True when `path` (an expression) evaluates to a mongoose model: a local bound to a model
 * definition, an alias of one, an inline definition or lookup, or a name imported from a module
 * whose summary (through `context.project`) lists that export as a model.
 */
export function isModelPath(path: NodePath, models: ModelFinder, depth = 0): boolean {
  const context = models.context;
  const roleOf = roleResolver(context);
  const node = unwrapExpression(path.node);
  if (isModelExpression(node, roleOf)) return true;
  if (depth > MAX_ALIAS_DEPTH) return false;

  if (node.type === 'ThisExpression') return staticsKind(path) === 'static';
  if (node.type === 'MemberExpression' && unwrapExpression(node.object).type === 'ThisExpression') {
    const name = memberName(node);
    // `this.constructor` inside a document method is the document's model.
    if (name === 'constructor') return staticsKind(path) === 'method';
    return name !== null && isInjectedModel(path, name, context);
  }
  // `this.model('Task')` inside a static or a document method looks up a model.
  if (node.type === 'CallExpression' && memberName(unwrapExpression(node.callee)) === 'model' && node.arguments.length === 1) {
    const callee = unwrapExpression(node.callee);
    if (callee.type === 'MemberExpression' && unwrapExpression(callee.object).type === 'ThisExpression') return staticsKind(path) !== null;
  }

  let rootName: string | null = null;
  let member: string | null = null;
  if (node.type === 'Identifier') {
    rootName = node.name;
  } else if (node.type === 'MemberExpression') {
    const object = unwrapExpression(node.object);
    member = memberName(node);
    if (object.type === 'Identifier' && member !== null) rootName = object.name;
  }
  if (rootName === null) return false;

  const binding = context.bindingOf(path, rootName);
  if (!binding) return false;
  // `import User = require('./user')` (TypeScript) binds like an import.
  if (binding.kind === 'module' || binding.path.isTSImportEqualsDeclaration()) {
    const imported = context.importOf(rootName);
    return imported !== null && isImportedModel(models, imported, member, binding.kind === 'module');
  }
  const declarator = binding.path;
  if (!declarator.isVariableDeclarator()) return false;
  const init = declarator.node.init;
  if (!init) return false;
  const imported = context.importOf(rootName);
  if (imported !== null && binding.topLevel) {
    return isImportedModel(models, imported, member, false);
  }
  if (member !== null) return false;
  // `const Task = User` / `const M = mongoose.model('X', s)` inside a function.
  const initPath = declarator.get('init');
  return !Array.isArray(initPath) && initPath.node != null && declarator.node.id.type === 'Identifier'
    && isModelPath(initPath as NodePath, models, depth + 1);
}

/**
 * NestJS: `constructor(@InjectModel(User.name) private userModel: Model<User>)` makes
 * `this.userModel` a model inside that class.
 */
function isInjectedModel(path: NodePath, property: string, context: RuleContext): boolean {
  const owner = path.findParent((p) => p.isClassBody());
  if (!owner?.isClassBody()) return false;
  for (const member of owner.node.body) {
    if (member.type !== 'ClassMethod' || member.kind !== 'constructor') continue;
    for (const param of member.params) {
      if (param.type !== 'TSParameterProperty' || param.parameter.type !== 'Identifier' || param.parameter.name !== property) continue;
      return (param.decorators ?? []).some((decorator) => {
        const call = unwrapExpression(decorator.expression);
        if (call.type !== 'CallExpression') return false;
        const callee = unwrapExpression(call.callee);
        return callee.type === 'Identifier' && context.importOf(callee.name)?.source === '@nestjs/mongoose' && context.importOf(callee.name)?.imported === 'InjectModel';
      });
    }
  }
  return false;
}

function isImportedModel(models: ModelFinder, imported: ImportBinding, member: string | null, isEsmImport: boolean): boolean {
  const exportName = importedExportOf(imported, member, isEsmImport);
  if (exportName === null) return false;
  return models.moduleSummary(imported.source)?.mongooseModelExports.has(exportName) === true;
}

/** `schema.statics.x = fn`, `schema.static('x', fn)`, `statics: { x() {} }` — and the same for methods. */
function schemaBucketOf(fn: NodePath): 'static' | 'method' | null {
  const bucket = (name: string | null): 'static' | 'method' | null =>
    name === 'statics' || name === 'static' ? 'static' : name === 'methods' || name === 'method' ? 'method' : null;
  let holder = fn.parentPath;
  if (!holder) return null;
  // schema.statics.findRecent = function () {...}
  if (holder.isAssignmentExpression() && holder.node.right === fn.node) {
    const left = unwrapExpression(holder.node.left);
    return left.type === 'MemberExpression' ? bucket(memberName(unwrapExpression(left.object))) : null;
  }
  // schema.static('findRecent', function () {...})
  if (holder.isCallExpression() && holder.node.arguments[1] === fn.node) return bucket(memberName(unwrapExpression(holder.node.callee)));
  // { findRecent() {...} } or { findRecent: function () {...} } inside statics/methods objects
  if (fn.isObjectMethod()) holder = fn;
  else if (!holder.isObjectProperty() || holder.node.value !== fn.node) return null;
  const object = holder.parentPath;
  const owner = object?.parentPath;
  if (!object?.isObjectExpression() || !owner) return null;
  // schema.statics = { ... }, schema.static({ ... }), new Schema(def, { statics: { ... } })
  if (owner.isAssignmentExpression() && owner.node.right === object.node) return bucket(memberName(unwrapExpression(owner.node.left)));
  if (owner.isCallExpression() && owner.node.arguments[0] === object.node) return bucket(memberName(unwrapExpression(owner.node.callee)));
  if (owner.isObjectProperty() && owner.node.value === object.node && !owner.node.computed) {
    const key = owner.node.key;
    return bucket(key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : null);
  }
  return null;
}

/** What `this` is where `path` sits: a model (inside schema statics), a document (methods), or unknown. */
export function staticsKind(path: NodePath): 'static' | 'method' | null {
  // Arrow functions take `this` from where they are written.
  const fn = path.findParent((p) => p.isFunction() && !p.isArrowFunctionExpression());
  return fn ? schemaBucketOf(fn) : null;
}

/** Libraries with their own `find`/`findOne` (plain results): the unresolved-model guesses stay off in their files. */
const OTHER_DATA_LIBRARIES = /^(mongodb|monk|mongojs|sequelize|sequelize-typescript|typeorm|objection|bookshelf|knex|waterline|sails|@prisma\/client|@mikro-orm\/.*|@nestjs\/(sequelize|typeorm)|nedb|@seald-io\/nedb|lowdb|loki|lokijs|dynamoose)$/;

function requireSource(node: t.Node | null | undefined): string | null {
  const target = node ? unwrapExpression(node) : null;
  if (target?.type !== 'CallExpression' || target.callee.type !== 'Identifier' || target.callee.name !== 'require') return null;
  const arg = target.arguments[0];
  return arg?.type === 'StringLiteral' ? arg.value : null;
}

/** Which data library the module of `path` imports, read from its top-level statements. */
function dataLibraryOfProgram(path: NodePath): DataLibrary {
  const program = path.findParent((p) => p.isProgram());
  let found = false;
  let mongoose = false;
  for (const statement of program?.isProgram() ? program.node.body : []) {
    const sources: (string | null)[] = [];
    if (statement.type === 'ImportDeclaration' && !isBsonTypesImport(statement)) sources.push(statement.source.value);
    if (statement.type === 'VariableDeclaration') {
      for (const d of statement.declarations) {
        if (isBsonTypesRequire(d)) continue;
        sources.push(requireSource(d.init), d.init?.type === 'MemberExpression' ? requireSource(d.init.object) : null);
      }
    }
    if (sources.some((source) => source !== null && OTHER_DATA_LIBRARIES.test(source))) found = true;
    if (sources.includes('mongoose') || sources.includes('@nestjs/mongoose')) mongoose = true;
  }
  // A mongoose module that also imports the driver (for ObjectId, say) is still a mongoose module.
  return mongoose ? 'mongoose' : found ? 'other' : 'unknown';
}

/** The driver's BSON value types: a module that takes only these from `mongodb` makes ids, it runs no query through the driver. */
const BSON_TYPES = new Set(['ObjectId', 'ObjectID', 'Binary', 'Decimal128', 'Long', 'Timestamp', 'Double', 'Int32', 'UUID', 'BSON']);

/** `import { ObjectId } from 'mongodb'`. */
function isBsonTypesImport(statement: t.ImportDeclaration): boolean {
  return statement.source.value === 'mongodb' && statement.specifiers.length > 0 && statement.specifiers.every((specifier) =>
    specifier.type === 'ImportSpecifier' && BSON_TYPES.has(specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value));
}

/** `const { ObjectId } = require('mongodb')`, `const ObjectId = require('mongodb').ObjectId`. */
function isBsonTypesRequire(declarator: t.VariableDeclarator): boolean {
  const init = declarator.init;
  if (init?.type === 'MemberExpression') return requireSource(init.object) === 'mongodb' && BSON_TYPES.has(memberName(init) ?? '');
  if (requireSource(init) !== 'mongodb' || declarator.id.type !== 'ObjectPattern' || declarator.id.properties.length === 0) return false;
  return declarator.id.properties.every((property) => property.type === 'ObjectProperty' && BSON_TYPES.has(propertyKey(property) ?? ''));
}

function propertyKey(property: t.ObjectProperty): string | null {
  if (property.computed) return null;
  return property.key.type === 'Identifier' ? property.key.name : property.key.type === 'StringLiteral' ? property.key.value : null;
}

/** What a project's declared dependencies say of its data library (see ModelFinder#dataLibraryOf). */
function dataLibraryOfProject(dependencies: ReadonlySet<string> | undefined): DataLibrary {
  if (dependencies === undefined || !(dependencies.has('mongoose') || dependencies.has('@nestjs/mongoose'))) return 'unknown';
  for (const name of dependencies) if (name !== 'mongodb' && OTHER_DATA_LIBRARIES.test(name)) return 'unknown';
  return 'mongoose';
}

/** Names that say "a mongoose model" when the analysis cannot resolve the value: `list.model`, `submissionModel`, `db.models[name]`. */
const MODEL_NAME = /(^model$|Model$|^models$)/;
/** Receivers of the MongoDB driver or similar, whose `find()` returns a cursor of plain objects. */
const COLLECTION_NAME = /coll(ection)?s?$|^(cursor|bucket)$/i;

/** `users` for `users`, `db.users`, `db.collection('users')` → `collection`: the last name of a receiver. */
function receiverName(node: t.Node): string | null {
  const target = unwrapExpression(node);
  if (target.type === 'Identifier') return target.name;
  if (target.type === 'CallExpression') return memberName(unwrapExpression(target.callee)) ?? (target.callee.type === 'Identifier' ? target.callee.name : null);
  return memberName(target);
}

/**
 * An expression the analysis cannot resolve, but that real mongoose code names unmistakably:
 * `req.list.model`, `keystone.list('X').model`, `formio.resources.form.model`, `submissionModel`,
 * `this.userModel`, `db.models[name]`, `models.User`, `formio.mongoose.model('form')`.
 */
function looksLikeModel(node: t.Node): boolean {
  const target = unwrapExpression(node);
  if (target.type === 'Identifier') return /.Model$/.test(target.name);
  if (target.type === 'MemberExpression') {
    const name = memberName(target);
    if (name !== null) {
      if (MODEL_NAME.test(name) && name !== 'models') return true;
      // models.User / db.models.User
      const object = unwrapExpression(target.object);
      return /^[A-Z]/.test(name) && (memberName(object) === 'models' || (object.type === 'Identifier' && object.name === 'models'));
    }
    // db.models[name], mongoose.models[name]
    const object = unwrapExpression(target.object);
    return memberName(object) === 'models' || (object.type === 'Identifier' && object.name === 'models');
  }
  if (target.type === 'CallExpression') {
    // formio.mongoose.model('form'), conn.model(name): a lookup by name on mongoose or a connection.
    const callee = unwrapExpression(target.callee);
    if (memberName(callee) !== 'model' || callee.type !== 'MemberExpression' || target.arguments.length !== 1) return false;
    const receiver = unwrapExpression(callee.object);
    const receiverName = receiver.type === 'Identifier' ? receiver.name : memberName(receiver);
    return receiverName !== null && (receiverName === 'mongoose' || CONNECTION_NAME.test(receiverName));
  }
  return false;
}

/** Test-runner blocks: code inside them checks data once per test run, it never serves a request. */
const TEST_BLOCKS = new Set(['it', 'test', 'describe', 'before', 'after', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll']);

/** True when `path` sits in a function handed to `it(...)`, `describe(...)`, `beforeEach(...)` and the like. */
export function insideTestBlock(path: NodePath): boolean {
  return path.findParent((p) => {
    if (!p.isFunction()) return false;
    const call = p.parentPath;
    if (!call?.isCallExpression() || !call.node.arguments.includes(p.node as t.Expression)) return false;
    // it(...), and it.only(...) / describe.skip(...) through their object.
    const callee = unwrapExpression(call.node.callee);
    const root = callee.type === 'MemberExpression' ? unwrapExpression(callee.object) : callee;
    return root.type === 'Identifier' && TEST_BLOCKS.has(root.name);
  }) !== null;
}

/** Names of one-time work: an installer, a migration, a seed, a setup step (issue 11: "one-time work is not per-request work"). */
const ONE_TIME_NAME = /^(install|uninstall|setup|seed|migrate|migration|upgrade|bootstrap)([A-Z_]|$)/i;

/** The name a function is known by: its own, its variable's, or its property's. */
function functionName(fn: NodePath): string | null {
  const node = fn.node as t.Function;
  if ((node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression') && node.id) return node.id.name;
  if (node.type === 'ObjectMethod' || node.type === 'ClassMethod') return node.key.type === 'Identifier' ? node.key.name : null;
  const holder = fn.parentPath;
  if (holder?.isVariableDeclarator() && holder.node.id.type === 'Identifier') return holder.node.id.name;
  if (holder?.isObjectProperty() && holder.node.key.type === 'Identifier') return holder.node.key.name;
  return null;
}

/** True when `path` sits in a function named as one-time work (`function install(next) {...}`, `seedDatabase`). */
export function insideOneTimeWork(path: NodePath): boolean {
  return path.findParent((p) => p.isFunction() && ONE_TIME_NAME.test(functionName(p) ?? '')) !== null;
}

/** A short label for messages: the model expression's source text, shortened when long. */
export function modelLabel(node: t.Node, source: string): string {
  const target = unwrapExpression(node);
  const text = target.start != null && target.end != null ? source.slice(target.start, target.end) : 'Model';
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > 40 ? `${oneLine.slice(0, 37)}...` : oneLine;
}

/** Model methods that read documents and hydrate them (unless lean). */
const READ_METHODS: Record<string, 'doc' | 'array'> = { find: 'array', findOne: 'doc', findById: 'doc', where: 'array' };

/** Query methods that keep the query a document read (they narrow or shape it). */
export const QUERY_BUILDERS = new Set([
  'sort', 'limit', 'skip', 'select', 'projection', 'populate', 'where', 'equals', 'in', 'nin', 'gt', 'gte',
  'lt', 'lte', 'ne', 'or', 'and', 'nor', 'regex', 'exists', 'elemMatch', 'size', 'all', 'slice', 'mod',
  'hint', 'collation', 'session', 'read', 'comment', 'maxTimeMS', 'batchSize', 'allowDiskUse', 'orFail',
  'byId', 'lean', 'setOptions', 'find', 'findOne', 'exec',
]);

/** A read query on a model and what is chained onto it. */
export interface ModelQuery {
  /** The model-method call, `User.find(q)`. */
  call: NodePath<t.CallExpression>;
  model: t.Node;
  method: string;
  /** Methods chained after the model call, in order (`exec` and `then` included). */
  chained: string[];
  lean: boolean;
  /** The outermost expression of the chain (before any `.then`): what is awaited or returned. */
  end: NodePath;
  /** The `.then(callback)` call ending the chain, if any. */
  then: NodePath<t.CallExpression> | null;
  /** The inline node-style callback that receives the result: `find(q, (err, docs) => ...)`, `.exec(cb)`. */
  callback: NodePath<t.ArrowFunctionExpression | t.FunctionExpression> | null;
  /** A single document (findOne/findById) or an array of them (find). */
  resultKind: 'doc' | 'array';
  /** Set when the chain continues with a method that is not a document read (count, cursor, ...). */
  other: string | null;
}

function hasLeanOption(args: readonly t.Node[]): boolean {
  return args.some((arg) => arg.type === 'ObjectExpression' && arg.properties.some((prop) =>
    prop.type === 'ObjectProperty' && !prop.computed &&
    ((prop.key.type === 'Identifier' && prop.key.name === 'lean') || (prop.key.type === 'StringLiteral' && prop.key.value === 'lean')) &&
    !(prop.value.type === 'BooleanLiteral' && !prop.value.value)));
}

/** Climbs parentheses and TS wrappers: the path whose parent consumes the value. */
export function valueRoot(path: NodePath): NodePath {
  let current = path;
  while (current.parentPath && unwrapExpression(current.parentPath.node) !== current.parentPath.node) current = current.parentPath;
  return current;
}

/** When `path` is the object of `path.m(...)`, the method name and the call, else null. */
export function methodCallOn(path: NodePath): { name: string; call: NodePath<t.CallExpression> } | null {
  const root = valueRoot(path);
  const member = root.parentPath;
  if (!member || !member.isMemberExpression() || member.node.object !== root.node) return null;
  const call = member.parentPath;
  if (!call || !call.isCallExpression() || call.node.callee !== member.node) return null;
  const name = memberName(member.node);
  return name === null ? null : { name, call };
}

/** Recognizes `<model>.find(...)` and friends at a call, and walks the query chain after it. */
export function modelQueryAt(call: NodePath<t.CallExpression>, models: ModelFinder): ModelQuery | null {
  const callee = unwrapExpression(call.node.callee);
  if (callee.type !== 'MemberExpression') return null;
  const method = memberName(callee);
  if (method === null || !Object.hasOwn(READ_METHODS, method)) return null;
  const calleePath = call.get('callee');
  const modelPath = calleePath.isMemberExpression() ? calleePath.get('object') : null;
  if (!modelPath || insideTestBlock(call) || insideOneTimeWork(call)) return null;
  const resolved = isModelPath(modelPath, models);
  const library = resolved ? 'mongoose' : models.dataLibraryOf(call);
  if (!resolved && (COLLECTION_NAME.test(receiverName(callee.object) ?? '') || library === 'other')) return null;

  const query: ModelQuery = {
    call, model: callee.object, method, chained: [], lean: hasLeanOption(call.node.arguments),
    end: call, then: null, callback: callbackArgument(call), resultKind: READ_METHODS[method], other: null,
  };
  for (let link = query.callback ? null : methodCallOn(call); link !== null; link = methodCallOn(query.end)) {
    const args = link.call.node.arguments;
    query.chained.push(link.name);
    if (link.name === 'then') {
      query.then = link.call;
      break;
    }
    const callback = link.name === 'exec' || link.name === 'find' || link.name === 'findOne' ? callbackArgument(link.call) : null;
    if (callback !== null) {
      // query.exec(function (err, docs) {...}), mongoose 3's query.sort(s).find(cb): the callback receives the documents.
      if (link.name === 'findOne') query.resultKind = 'doc';
      query.callback = callback;
      query.end = link.call;
      break;
    }
    if (!QUERY_BUILDERS.has(link.name)) {
      query.other = link.name;
      break;
    }
    if (link.name === 'lean') query.lean = !(args[0]?.type === 'BooleanLiteral' && !args[0].value);
    if (link.name === 'setOptions' && hasLeanOption(args)) query.lean = true;
    if (link.name === 'find') query.resultKind = 'array';
    if (link.name === 'findOne') query.resultKind = 'doc';
    query.end = link.call;
  }
  // A model the analysis could not resolve counts only when the code is unmistakably mongoose: the
  // chain uses what only mongoose queries have (`exec`, `populate`, `lean`), or the receiver is named
  // a model and the module imports mongoose or reads in node-callback style. A name alone is not
  // enough: Bookshelf and Sequelize code says `models.Post.findOne()` too.
  if (!resolved && !query.chained.some((name) => MONGOOSE_ONLY_METHODS.has(name)) &&
      !(looksLikeModel(callee.object) && (library === 'mongoose' || query.callback !== null))) return null;
  return query;
}

/** Query methods that the MongoDB driver's cursors and other ORMs do not have. */
const MONGOOSE_ONLY_METHODS = new Set(['exec', 'populate', 'lean']);

/** The node-style callback ending `Model.find(q, cb)` / `query.exec(cb)`, when written inline. */
function callbackArgument(call: NodePath<t.CallExpression>): NodePath<t.ArrowFunctionExpression | t.FunctionExpression> | null {
  const args = call.get('arguments');
  const last = args[args.length - 1];
  return last && (last.isFunctionExpression() || last.isArrowFunctionExpression()) ? last : null;
}

/**
 * " while handling a request (via listTasks)" and the like: mongoose rules apply anywhere, but say when
 * code is hot. Only what the analysis proved: the code is reached from a handler, not that every request runs it.
 */
export function whereItRuns(context: ExecutionContext): string {
  switch (context.kind) {
    case 'request': return ` while handling a ${context.perConnection ? 'connection' : 'request'}${viaText(context)}`;
    case 'message': return ` while handling a message${viaText(context)}`;
    case 'timer': return ` on a timer tick${viaText(context)}`;
    default: return '';
  }
}
