// mongoose-count-by-loading: documents loaded (and hydrated) only to read `.length`, where the
// database could count them (seed 004's count endpoint: TTFB ~5 s -> 197 ms).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { Fix, HotContext, RuleContext, RuleModule } from './api';
import { ModelFinder, memberName, modelLabel, modelQueryAt, valueRoot, whereItRuns, type ModelQuery } from './detectors/mongooseModels';

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

/** Query methods and options that bound or offset what is loaded: "every matching document" would not hold. */
const BOUNDING = new Set(['limit', 'skip']);

/** What the query loads, in the message's words: hydrated unless lean, every match unless bounded. */
function loadsText(query: ModelQuery): string {
  const args = query.call.node.arguments;
  // find(filter, projection, options): options not read here may limit or skip.
  const callbackInCall = query.callback !== null && args.includes(query.callback.node);
  const bounded = query.chained.some((name) => BOUNDING.has(name)) || args.length - (callbackInCall ? 1 : 0) > 2;
  const what = bounded ? 'the matching documents (as bounded by the query)' : 'every matching document';
  return query.lean ? `loads ${what}` : `loads and hydrates ${what}`;
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
      countByLoading: '{{model}}.{{method}}() {{loads}} only to take .length{{where}}; use {{model}}.countDocuments().',
      existsByLoading: '{{model}}.{{method}}() {{loads}} only to test whether any matched (its .length is only tested against zero){{where}}; use {{model}}.exists() or {{model}}.countDocuments().',
    },
    fixable: true,
  },
  create(context) {
    const models = new ModelFinder(context);
    return {
      visitor: {
        CallExpression(path) {
          const query = modelQueryAt(path, models);
          if (query === null || query.other !== null || query.resultKind !== 'array') return;
          const use = countFixes(query, context);
          if (use === null) return;
          context.report({
            // Model.find(q, (err, docs) => ...): the `Model.find` part, not the whole callback.
            node: query.callback !== null && query.chained.length === 0 ? path.node.callee : path.node,
            messageId: use.reads.every(isEmptinessTest) ? 'existsByLoading' : 'countByLoading',
            data: { model: modelLabel(query.model, context.source), method: query.method, loads: loadsText(query), where: '' },
            fixes: use.fixes,
            describe: (hot: HotContext) => ({ where: whereItRuns(hot.contextOf(path)) }),
          });
        },
      },
    };
  },
};

export default mongooseCountByLoading;
