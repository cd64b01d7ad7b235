// Follows an unexecuted mongoose query held in a variable to where it runs (issue 22):
// `let qry = User.find(q).skip(n).limit(m); qry = sortQuery(qry, by); qry.find(cb)`. Pure: it reads
// the tree through the rule's context and answers where the documents appear, or null when a use
// of the query is one it cannot follow (then the rule assumes the documents are needed).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { RuleContext } from '../api';
import { QUERY_BUILDERS, methodCallOn, unwrapExpression, valueRoot } from './mongooseModels';

/** Where the query's results appear. */
export type QueryRun =
  /** `qry.exec(cb)`, `qry.find(cb)`: the callback's second parameter holds the results. */
  | { kind: 'callback'; callback: NodePath<t.ArrowFunctionExpression | t.FunctionExpression>; resultKind: 'doc' | 'array' }
  /** `qry.then(cb)`, `qry.exec().then(cb)`: the callback's first parameter. */
  | { kind: 'then'; call: NodePath<t.CallExpression>; resultKind: 'doc' | 'array' }
  /** `await qry`, `await qry.exec()`: the awaited expression's value. */
  | { kind: 'value'; path: NodePath; resultKind: 'doc' | 'array' };

export interface QueryFlow {
  runs: QueryRun[];
  /** A step chained `.lean()`: the documents are plain already. */
  lean: boolean;
}

const MAX_REFERENCES = 32;

function inlineCallback(call: NodePath<t.CallExpression>): NodePath<t.ArrowFunctionExpression | t.FunctionExpression> | null {
  const args = call.get('arguments');
  const last = args[args.length - 1];
  return last && (last.isFunctionExpression() || last.isArrowFunctionExpression()) ? last : null;
}

/** `x = f(..., x, ...)` or `x = x.sort(...)`: the statement puts the (same) query back into `name`. */
function assignedBackTo(value: NodePath, name: string): boolean {
  const parent = valueRoot(value).parentPath;
  if (!parent?.isAssignmentExpression() || parent.node.operator !== '=' || parent.node.right !== valueRoot(value).node) return false;
  const left = unwrapExpression(parent.node.left);
  return left.type === 'Identifier' && left.name === name;
}

/**
 * Follows one read of the query variable through chained builders to where it runs; false when
 * the read leads somewhere the analysis cannot follow.
 */
function followRead(reference: NodePath, name: string, resultKind: 'doc' | 'array', flow: QueryFlow): boolean {
  let current: NodePath = reference;
  let kind = resultKind;
  let executed = false; // after `.exec()`: a promise of the results
  for (;;) {
    const link = methodCallOn(current);
    if (link === null) break;
    if (link.name === 'then') {
      flow.runs.push({ kind: 'then', call: link.call, resultKind: kind });
      return true;
    }
    if (executed) return false; // exec().catch(...) and the like: not followed
    const callback = link.name === 'exec' || link.name === 'find' || link.name === 'findOne' ? inlineCallback(link.call) : null;
    if (link.name === 'findOne') kind = 'doc';
    if (link.name === 'find') kind = 'array';
    if (callback !== null) {
      flow.runs.push({ kind: 'callback', callback, resultKind: kind });
      return true;
    }
    if (link.name === 'exec') {
      executed = true;
    } else if (!QUERY_BUILDERS.has(link.name) && link.name !== 'find' && link.name !== 'findOne') {
      return false;
    }
    if (link.name === 'lean') flow.lean = true;
    if (link.name === 'setOptions') return false;
    current = link.call;
  }
  const root = valueRoot(current);
  const parent = root.parentPath;
  if (!parent) return false;
  if (parent.isAwaitExpression()) {
    flow.runs.push({ kind: 'value', path: parent, resultKind: kind });
    return true;
  }
  if (executed) return false;
  // A builder step whose result is dropped (`qry.where(...)`: mongoose builders change the query in place).
  if (parent.isExpressionStatement()) return current !== reference;
  // `qry = qry.sort(s)`: the query goes back into the variable, whose other reads are followed.
  if (assignedBackTo(current, name)) return true;
  // `qry = sortQuery(qry, by)`: a helper that adds to the query and gives it back. The documents do
  // not exist yet, so the helper cannot use them; what it returns is followed as the same query.
  if (parent.isCallExpression() && parent.node.arguments.includes(root.node as t.Expression) && assignedBackTo(parent, name)) return true;
  return false;
}

/**
 * Where the query held by the variable `id` (a declarator's id or an assignment's left side) runs,
 * or null when one of its reads is not followed. A variable assigned a different value later is
 * followed the same way: `assignedBackTo` accepts only the query itself or a helper's return of it.
 */
export function followQueryVariable(id: NodePath, resultKind: 'doc' | 'array', context: RuleContext): QueryFlow | null {
  const node = id.node;
  if (node.type !== 'Identifier') return null;
  const binding = context.bindingOf(id, node.name);
  if (!binding || binding.referencePaths.length === 0 || binding.referencePaths.length > MAX_REFERENCES) return null;
  const flow: QueryFlow = { runs: [], lean: false };
  for (const reference of binding.referencePaths) {
    if (!followRead(reference, node.name, resultKind, flow)) return null;
  }
  return flow.runs.length > 0 ? flow : null;
}

/** The variable an unexecuted query expression is stored in (`const q = M.find()`, `q = M.find()`), if any. */
export function queryVariableOf(end: NodePath): NodePath | null {
  const root = valueRoot(end);
  const parent = root.parentPath;
  if (parent?.isVariableDeclarator() && parent.node.init === root.node) return parent.get('id');
  if (parent?.isAssignmentExpression() && parent.node.operator === '=' && parent.node.right === root.node &&
      unwrapExpression(parent.node.left).type === 'Identifier') return parent.get('left');
  return null;
}


/**
 * Where an unexecuted query expression runs when it is not stored (`build().exec(cb)`,
 * `await build().sort(s)`), or null when it is not followed.
 */
export function followQueryExpression(path: NodePath, resultKind: 'doc' | 'array'): QueryFlow | null {
  const flow: QueryFlow = { runs: [], lean: false };
  return followRead(path, '', resultKind, flow) && flow.runs.length > 0 ? flow : null;
}
