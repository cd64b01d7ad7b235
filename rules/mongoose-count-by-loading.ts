// mongoose-count-by-loading: documents loaded (and hydrated) only to read `.length`, where the
// database could count them (seed 004's count endpoint: TTFB ~5 s -> 197 ms).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { ExecutionKind, Fix, HotContext, RuleContext, RuleModule } from './api';
import { ModelFinder, memberName, modelLabel, modelQueryAt, unwrapExpression, valueRoot, whereItRuns, type ModelQuery } from './detectors/mongooseModels';
import { isToolingFile } from './detectors/toolingFiles';

/** Chained methods a count can drop without changing the number (they shape or order documents). */
const COUNT_NEUTRAL_METHODS = new Set(['exec', 'lean', 'select', 'projection', 'sort', 'populate', 'then', 'session', 'comment', 'maxTimeMS']);

/** True when `path` (a value) is only the object of a non-computed `.length` read. */
function isLengthRead(path: NodePath): NodePath<t.MemberExpression> | null {
  const value = valueRoot(path);
  const member = value.parentPath;
  if (!member?.isMemberExpression() || member.node.object !== value.node || memberName(member.node) !== 'length' || member.node.computed) return null;
  const parent = member.parentPath;
  // `docs.length = 0` writes; `docs.length` inside `delete` or `++` is not a count either.
  if (parent?.isAssignmentExpression() && parent.node.left === member.node) return null;
  if (parent?.isUpdateExpression() || (parent?.isUnaryExpression() && parent.node.operator === 'delete')) return null;
  return member;
}

/** `!docs`, `docs && ...`, `if (docs)`: a truthiness test (always true for an array) reads no document. */
function isTruthinessTest(path: NodePath): boolean {
  const value = valueRoot(path);
  const parent = value.parentPath;
  if (parent?.isUnaryExpression() && parent.node.operator === '!') return true;
  if (parent?.isLogicalExpression() && parent.node.left === value.node) return true;
  if (!parent || !(parent.isIfStatement() || parent.isConditionalExpression())) return false;
  return (parent.node as t.IfStatement | t.ConditionalExpression).test === value.node;
}

/**
 * The `.length` reads of the variable when every reference is one of them or a truthiness test
 * (formio: `if (!actions || !actions.length) throw ...`) and at least one reads the length; else null.
 */
function onlyLengthReads(id: NodePath, context: RuleContext): NodePath<t.MemberExpression>[] | null {
  if (id.node.type !== 'Identifier') return null;
  const binding = context.bindingOf(id, id.node.name);
  if (!binding || !binding.constant || binding.referencePaths.length === 0) return null;
  const reads: NodePath<t.MemberExpression>[] = [];
  for (const reference of binding.referencePaths) {
    const read = isLengthRead(reference);
    if (read !== null) reads.push(read);
    else if (!isTruthinessTest(reference)) return null;
  }
  return reads.length > 0 ? reads : null;
}

/** Operators comparing a length with 0 (or 1) that only tell empty from not empty. */
const EMPTINESS_COMPARISONS: Record<string, readonly number[]> = {
  '===': [0], '==': [0], '!==': [0], '!=': [0], '>': [0], '<=': [0], '>=': [1], '<': [1],
};

/**
 * `!docs.length`, `if (docs.length)`, `docs.length === 0`, `docs.length > 0`: the length only
 * tells whether any document matched, not how many.
 */
function isEmptinessTest(read: NodePath): boolean {
  const value = valueRoot(read);
  const parent = value.parentPath;
  if (!parent) return false;
  if (parent.isUnaryExpression() && parent.node.operator === '!') return true;
  if (parent.isLogicalExpression()) return isEmptinessTest(parent);
  if (parent.isIfStatement() || parent.isConditionalExpression() || parent.isWhileStatement()) {
    return (parent.node as t.IfStatement).test === value.node;
  }
  if (parent.isBinaryExpression() && parent.node.left === value.node) {
    const right = parent.node.right;
    return right.type === 'NumericLiteral' && (EMPTINESS_COMPARISONS[parent.node.operator] ?? []).includes(right.value);
  }
  return false;
}

/** `M.countDocuments(<filter>)` for a fixable query, else null (options, limits, spread arguments). */
function countCallText(query: ModelQuery, context: RuleContext): string | null {
  if (query.method !== 'find' || !query.chained.every((name) => COUNT_NEUTRAL_METHODS.has(name))) return null;
  const args = query.call.node.arguments;
  // find(filter, projection, options): options may carry limit/skip, which a count would ignore.
  if (args.length > 2 || args.some((arg) => arg.type === 'SpreadElement')) return null;
  const model = query.model;
  if (model.start == null || model.end == null) return null;
  const filter = args[0];
  const filterText = filter && filter.start != null && filter.end != null ? context.source.slice(filter.start, filter.end) : '';
  return `${context.source.slice(model.start, model.end)}.countDocuments(${filterText})`;
}

// Safe: the count of the same filter is the number `.length` read (limits and skips are never fixed).
function replace(title: string, start: number | null | undefined, end: number | null | undefined, text: string): Fix[] {
  return start == null || end == null ? [] : [{ title, edits: [{ start, end, text }], safe: true }];
}

/** The finding's fixes and the `.length` reads, or null when the query's result is used for more than its length. */
interface CountUse {
  fixes: Fix[];
  reads: NodePath[];
}

function countFixes(query: ModelQuery, context: RuleContext): CountUse | null {
  const count = countCallText(query, context);
  const title = 'Count in the database with countDocuments()';
  if (query.then !== null) {
    // M.find(q).then(docs => docs.length)
    const callback = query.then.get('arguments')[0];
    if (!callback || !(callback.isArrowFunctionExpression() || callback.isFunctionExpression())) return null;
    const param: NodePath | undefined = (callback as NodePath<t.ArrowFunctionExpression | t.FunctionExpression>).get('params.0') as NodePath | undefined;
    const reads = param?.node ? onlyLengthReads(param, context) : null;
    if (reads === null) return null;
    const body = callback.node.body;
    const direct = body.type === 'MemberExpression' && memberName(body) === 'length' &&
      body.object.type === 'Identifier' && param?.node.type === 'Identifier' && body.object.name === param.node.name;
    if (!direct || count === null || callback.node.async) return { fixes: [], reads };
    return { fixes: replace(title, query.call.node.start, query.then.node.end, count), reads };
  }
  if (query.callback !== null) {
    // Model.find(q, (err, docs) => res.json({ count: docs.length })): no fix offered, the callback's
    // parameter would change meaning.
    const param = query.callback.get('params')[1];
    const reads = param?.node ? onlyLengthReads(param, context) : null;
    return reads === null ? null : { fixes: [], reads };
  }
  const parent = valueRoot(query.end).parentPath;
  if (!parent?.isAwaitExpression()) return null;
  const length = isLengthRead(parent);
  if (length !== null) {
    // (await M.find(q)).length
    return { fixes: count === null ? [] : replace(title, length.node.start, length.node.end, `(await ${count})`), reads: [length] };
  }
  const declarator = valueRoot(parent).parentPath;
  if (declarator?.isVariableDeclarator() && declarator.node.init === valueRoot(parent).node) {
    // const docs = await M.find(q); ... docs.length — renaming the variable's meaning is left to the author
    const reads = onlyLengthReads(declarator.get('id'), context);
    return reads === null ? null : { fixes: [], reads };
  }
  return null;
}

/** The options argument of `find(filter, projection, options)` (a trailing callback is not one). */
function optionsArgument(query: ModelQuery): t.Node | null {
  const args = query.call.node.arguments.filter((arg) => query.callback === null || arg !== query.callback.node);
  return args.length > 2 ? args[2] : null;
}

/** The value of a non-computed `key` of an object literal, or null. */
function literalProperty(object: t.ObjectExpression, key: string): t.Node | null {
  for (const prop of object.properties) {
    if (prop.type !== 'ObjectProperty' || prop.computed) continue;
    const name = prop.key.type === 'Identifier' ? prop.key.name : prop.key.type === 'StringLiteral' ? prop.key.value : null;
    if (name === key) return prop.value;
  }
  return null;
}

/** A name that says "several ids" (`ids`, `memberIds`, `idList`): mongoose casts an array under `_id` to `$in`. */
const PLURAL_NAME = /(ids|s|list|array|set)$/i;

/** The last name of an identifier or member chain (`req.params.id` -> `id`), else null. */
function lastName(node: t.Node): string | null {
  return node.type === 'Identifier' ? node.name : node.type === 'MemberExpression' ? memberName(node) : null;
}

/**
 * One id, as far as the code shows: a literal, a singular name (`id`, `req.params.taskId`), or a
 * singular conversion of singular names (`new ObjectId(id)`, `idToBson(actionId)`). An object value
 * (`{ $in: [...] }`), an array, or a name that says several ids can match more.
 */
function isOneId(node: t.Node): boolean {
  const value = node.type === 'TSAsExpression' || node.type === 'TSNonNullExpression' ? node.expression : node;
  if (value.type === 'StringLiteral' || value.type === 'NumericLiteral' || value.type === 'TemplateLiteral') return true;
  if (value.type === 'CallExpression' || value.type === 'NewExpression') {
    const callee = lastName(unwrapExpression(value.callee));
    return callee !== null && !PLURAL_NAME.test(callee) && value.arguments.length > 0 && value.arguments.every((arg) => arg.type !== 'SpreadElement' && isOneId(arg));
  }
  const name = lastName(value);
  return name !== null && !PLURAL_NAME.test(name);
}

/** `filter._id = v` / `filter['_id'] = v` as a statement: the value, else null. */
function idAssignedIn(statement: t.Statement, name: string): t.Node | null {
  if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression' || statement.expression.operator !== '=') return null;
  const left = statement.expression.left;
  if (left.type !== 'MemberExpression' || left.object.type !== 'Identifier' || left.object.name !== name) return null;
  const key = left.computed ? (left.property.type === 'StringLiteral' ? left.property.value : null) : memberName(left);
  return key === '_id' ? statement.expression.right : null;
}

/**
 * `const query = { ... }; ... query._id = idToBson(id); ... M.find(query)`: the `_id` values the
 * filter variable holds when the query runs. Read from its object literal and from assignments to
 * its `_id` in statements that run before the call in every case (earlier statements of a block
 * that holds it). Null when the filter is not such a variable.
 */
function assignedIds(filter: NodePath, context: RuleContext): t.Node[] | null {
  if (!filter.isIdentifier()) return null;
  const binding = context.bindingOf(filter, filter.node.name);
  if (!binding || !binding.path.isVariableDeclarator()) return null;
  const init = binding.path.node.init;
  if (init?.type !== 'ObjectExpression') return null;
  const ids: t.Node[] = [];
  const literal = literalProperty(init, '_id');
  if (literal !== null) ids.push(literal);
  for (let at: NodePath | null = filter; at && at !== binding.path.parentPath?.parentPath; at = at.parentPath) {
    const block = at.parentPath;
    if (!block || !(block.isBlockStatement() || block.isProgram()) || !at.isStatement()) continue;
    const body = (block.node as t.BlockStatement | t.Program).body;
    for (const statement of body.slice(0, body.indexOf(at.node as t.Statement))) {
      const id = idAssignedIn(statement, filter.node.name);
      if (id !== null) ids.push(id);
    }
  }
  // Any other write to its `_id` (in a branch, a loop) must be one id too, or the bound is not known.
  for (const reference of binding.referencePaths) {
    const member = reference.parentPath;
    if (!member?.isMemberExpression() || member.node.object !== reference.node) continue;
    const key = member.node.computed ? (member.node.property.type === 'StringLiteral' ? member.node.property.value : null) : memberName(member.node);
    const write = member.parentPath;
    if (key !== '_id' || !write?.isAssignmentExpression() || write.node.left !== member.node) continue;
    if (write.node.operator !== '=' || !isOneId(write.node.right)) return null;
  }
  return ids;
}

/**
 * `find({ _id: id, ... })`, or a filter variable given one `_id`: an equality on `_id` matches at
 * most one document.
 */
function matchesOneById(query: ModelQuery, context: RuleContext): boolean {
  const filter = query.call.get('arguments')[0];
  if (!filter) return false;
  if (filter.node.type === 'ObjectExpression') {
    const id = literalProperty(filter.node, '_id');
    return id !== null && isOneId(id);
  }
  const ids = assignedIds(filter, context);
  return ids !== null && ids.length > 0 && ids.every(isOneId);
}

/**
 * What bounds the number of documents the query loads, as far as the code shows: 'one' (an `_id`
 * equality), 'limit' (a `.limit()` step or a `limit` option), 'options' (an options argument the
 * analysis cannot read, which may hold a limit), or null: every matching document is loaded.
 * A `skip` alone bounds nothing (every document after the offset is loaded).
 */
function boundOf(query: ModelQuery, context: RuleContext): 'one' | 'limit' | 'options' | null {
  if (matchesOneById(query, context)) return 'one';
  if (query.chained.includes('limit')) return 'limit';
  const options = optionsArgument(query);
  if (options === null) return null;
  if (options.type === 'NullLiteral' || (options.type === 'Identifier' && options.name === 'undefined')) return null;
  if (options.type !== 'ObjectExpression' || options.properties.some((prop) => prop.type === 'SpreadElement')) return 'options';
  return literalProperty(options, 'limit') !== null ? 'limit' : null;
}

/** The words for what the query loads: hydrated unless lean, every match unless bounded. */
const LOADS: Record<'one' | 'limit' | 'options' | 'all', string> = {
  one: 'the document matching its _id (at most one)',
  limit: 'the matching documents up to its limit',
  options: 'the matching documents (its options argument, not read here, may limit them)',
  all: 'every matching document',
};

/** `.skip(n)` or a `skip` option: the documents before the offset are not loaded. */
function skips(query: ModelQuery): boolean {
  const options = optionsArgument(query);
  return query.chained.includes('skip') || (options?.type === 'ObjectExpression' && literalProperty(options, 'skip') !== null);
}

function loadsText(query: ModelQuery, bound: 'one' | 'limit' | 'options' | null): string {
  const what = bound === null && skips(query) ? 'every matching document after its skip() offset' : LOADS[bound ?? 'all'];
  return query.lean ? `loads ${what}` : `loads and hydrates ${what}`;
}

/**
 * Loading every matching document to count them costs as much as the collection is large, however
 * rarely it runs: the code alone proves it while serving (seed 004's count endpoint). A read bounded
 * to one document or to a page, or one that runs only at start-up, costs little unless it runs
 * often: a hint until a profile measures it.
 */
function isCertainCount(bound: 'one' | 'limit' | 'options' | null, kind: ExecutionKind): boolean {
  return bound === null && kind !== 'startup' && kind !== 'signal';
}

/** What would make an uncertain finding matter, said in the hint. */
function mattersText(bound: 'one' | 'limit' | 'options' | null): string {
  return bound === 'one' ? ' It matters only when this runs often.' : ' It matters when the read returns many documents or runs often.';
}

export const mongooseCountByLoading: RuleModule = {
  meta: {
    id: 'mongoose-count-by-loading',
    description: 'Flags mongoose queries that load every matching document only to take `.length`; use `countDocuments()` instead.',
    defaultSeverity: 'warning',
    incident: {
      seed: '004',
      summary: 'In a production incident, a count endpoint loaded and hydrated every document to count them; counting in the database cut its time to first byte from about 5 s to 197 ms.',
    },
    messages: {
      countByLoading: '{{model}}.{{method}}() {{loads}} only to take .length{{where}}; use {{model}}.countDocuments().{{matters}}',
      existsByLoading: '{{model}}.{{method}}() {{loads}} only to test whether any matched (its .length is only tested against zero){{where}}; use {{model}}.exists() or {{model}}.countDocuments().{{matters}}',
    },
    fixable: true,
  },
  create(context) {
    // A test, a migration script or a CLI reads once, with data it chose: not a service's cost (rules/detectors/toolingFiles.ts).
    if (isToolingFile(context.filePath, context.project)) return { visitor: {} };
    const models = new ModelFinder(context);
    return {
      visitor: {
        CallExpression(path) {
          const query = modelQueryAt(path, models);
          if (query === null || query.other !== null || query.resultKind !== 'array') return;
          const use = countFixes(query, context);
          if (use === null) return;
          const bound = boundOf(query, context);
          const base = {
            // Model.find(q, (err, docs) => ...): the `Model.find` part, not the whole callback.
            node: query.callback !== null && query.chained.length === 0 ? path.node.callee : path.node,
            messageId: use.reads.every(isEmptinessTest) ? 'existsByLoading' : 'countByLoading',
            data: { model: modelLabel(query.model, context.source), method: query.method, loads: loadsText(query, bound), where: '', matters: '' },
            fixes: use.fixes,
          };
          const certain = (hot: HotContext): boolean => isCertainCount(bound, hot.contextOf(path).kind);
          context.report({
            ...base,
            when: certain,
            describe: (hot: HotContext) => ({ where: whereItRuns(hot.contextOf(path)) }),
          });
          context.report({
            ...base,
            evidence: 'frequency',
            when: (hot: HotContext) => !certain(hot),
            describe: (hot: HotContext) => ({ where: whereItRuns(hot.contextOf(path)), matters: mattersText(bound) }),
          });
        },
      },
    };
  },
};

export default mongooseCountByLoading;
