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
 * Every reference of the variable is a `.length` read or a truthiness test (formio:
 * `if (!actions || !actions.length) throw ...`), and at least one reads the length.
 */
function onlyLengthReads(id: NodePath, context: RuleContext): boolean {
  if (id.node.type !== 'Identifier') return false;
  const binding = context.bindingOf(id, id.node.name);
  if (!binding || !binding.constant || binding.referencePaths.length === 0) return false;
  return binding.referencePaths.some((reference) => isLengthRead(reference) !== null) &&
    binding.referencePaths.every((reference) => isLengthRead(reference) !== null || isTruthinessTest(reference));
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

/** The finding's fixes, or null when the query's result is used for more than its length. */
function countFixes(query: ModelQuery, context: RuleContext): Fix[] | null {
  const count = countCallText(query, context);
  const title = 'Count in the database with countDocuments()';
  if (query.then !== null) {
    // M.find(q).then(docs => docs.length)
    const callback = query.then.get('arguments')[0];
    if (!callback || !(callback.isArrowFunctionExpression() || callback.isFunctionExpression())) return null;
    const param: NodePath | undefined = (callback as NodePath<t.ArrowFunctionExpression | t.FunctionExpression>).get('params.0') as NodePath | undefined;
    if (!param?.node || !onlyLengthReads(param, context)) return null;
    const body = callback.node.body;
    const direct = body.type === 'MemberExpression' && memberName(body) === 'length' &&
      body.object.type === 'Identifier' && param.node.type === 'Identifier' && body.object.name === param.node.name;
    if (!direct || count === null || callback.node.async) return [];
    return replace(title, query.call.node.start, query.then.node.end, count);
  }
  if (query.callback !== null) {
    // Model.find(q, (err, docs) => res.json({ count: docs.length })): no fix offered, the callback's
    // parameter would change meaning.
    const param = query.callback.get('params')[1];
    return param?.node && onlyLengthReads(param, context) ? [] : null;
  }
  const parent = valueRoot(query.end).parentPath;
  if (!parent?.isAwaitExpression()) return null;
  const length = isLengthRead(parent);
  if (length !== null) return count === null ? [] : replace(title, length.node.start, length.node.end, `(await ${count})`); // (await M.find(q)).length
  const declarator = valueRoot(parent).parentPath;
  if (declarator?.isVariableDeclarator() && declarator.node.init === valueRoot(parent).node && onlyLengthReads(declarator.get('id'), context)) {
    return []; // const docs = await M.find(q); ... docs.length — renaming the variable's meaning is left to the author
  }
  return null;
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
      countByLoading: '{{model}}.{{method}}() loads and hydrates every matching document only to take .length{{where}}; use {{model}}.countDocuments().',
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
          const fixes = countFixes(query, context);
          if (fixes === null) return;
          context.report({
            // Model.find(q, (err, docs) => ...): the `Model.find` part, not the whole callback.
            node: query.callback !== null && query.chained.length === 0 ? path.node.callee : path.node,
            messageId: 'countByLoading',
            data: { model: modelLabel(query.model, context.source), method: query.method, where: '' },
            fixes,
            describe: (hot: HotContext) => ({ where: whereItRuns(hot.contextOf(path)) }),
          });
        },
      },
    };
  },
};

export default mongooseCountByLoading;
