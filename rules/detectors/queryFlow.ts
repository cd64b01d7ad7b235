// Follows an unexecuted mongoose query to the one place it runs (issue 22): a query held in a
// variable and built in steps (`var qry = User.find(q).skip(n); qry.sort(s); qry = sortQuery(qry);
// qry.find(cb)`), or handed out by a helper and run by its caller (`byName().exec(cb)`). A pure
// model over the AST: it only answers where the documents appear, the rule decides what that use
// means. A use it cannot follow (the query handed to a function that does not give it back, stored,
// run twice, reassigned to something else) answers null, and the rule then stays quiet.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { RuleContext } from '../api';
import { QUERY_BUILDERS, memberName, methodCallOn, unwrapExpression, valueRoot } from './mongooseModels';

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
  /**
   * Functions of other modules (or methods) the query went through and came back from
   * (`qry = calipso.table.sortQuery(qry)`), as written: that they only add query steps is an
   * assumption the message must state.
   */
  assumedSteps: string[];
}

const MAX_REFERENCES = 32;
/** Steps that end the query or change what its results are: never followed through. */
const NOT_A_STEP = new Set(['exec', 'lean', 'setOptions', 'then', 'catch', 'cursor', 'stream', 'count', 'countDocuments']);

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

/** `param.sort(...).limit(...)` with query steps only (no lean, no exec), rooted at `param`. */
function isStepChainOn(node: t.Node, param: string): boolean {
  let current = unwrapExpression(node);
  while (current.type === 'CallExpression') {
    const callee = unwrapExpression(current.callee);
    const method = callee.type === 'MemberExpression' ? memberName(callee) : null;
    if (method === null || !QUERY_BUILDERS.has(method) || NOT_A_STEP.has(method)) return false;
    current = unwrapExpression((callee as t.MemberExpression).object);
  }
  return current.type === 'Identifier' && current.name === param;
}

/** A callee as written when it is a short dotted name (`calipso.table.sortQuery`), else null. */
function dottedName(node: t.Node): string | null {
  const current = unwrapExpression(node);
  let name: string | null = null;
  if (current.type === 'Identifier') name = current.name;
  else if (current.type === 'ThisExpression') name = 'this';
  else if (current.type === 'MemberExpression' && !current.computed && current.property.type === 'Identifier') {
    const object = dottedName(current.object);
    name = object === null ? null : `${object}.${current.property.name}`;
  }
  return name !== null && name.length <= 80 ? name : null;
}

/**
 * `sortQuery(qry, by)` where `sortQuery` is declared in this module: true when every `return` of
 * it gives back its parameter with query steps only; false when it does anything else (makes the
 * query lean, runs it, builds another). 'elsewhere' when the callee is not declared in the module
 * (a method, an import): what it does is not read.
 */
function helperGivesQueryBack(call: NodePath<t.CallExpression>, argumentIndex: number, context: RuleContext): boolean | 'elsewhere' {
  const callee = unwrapExpression(call.node.callee);
  if (callee.type !== 'Identifier') return 'elsewhere';
  const binding = context.bindingOf(call.get('callee'), callee.name);
  if (!binding) return 'elsewhere';
  let fn: NodePath | null = binding.path;
  if (fn.isVariableDeclarator()) fn = fn.get('init') as NodePath;
  if (context.importOf(callee.name) !== null) return 'elsewhere';
  if (!fn || !(fn.isFunctionDeclaration() || fn.isFunctionExpression() || fn.isArrowFunctionExpression())) return false;
  const param = (fn.node as t.Function).params[argumentIndex];
  if (param?.type !== 'Identifier') return false;
  const body = (fn.node as t.Function).body;
  if (body.type !== 'BlockStatement') return isStepChainOn(body, param.name);
  // Only a body of returns is read: any other statement may change the query in place.
  return body.body.length > 0 && body.body.every((statement) =>
    statement.type === 'ReturnStatement' && statement.argument != null && isStepChainOn(statement.argument, param.name));
}

/**
 * Follows one read of the query variable through chained builders to where it runs; false when
 * the read leads somewhere the analysis cannot follow.
 */
function followRead(reference: NodePath, name: string, resultKind: 'doc' | 'array', flow: QueryFlow, context: RuleContext): boolean {
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
    } else if (!QUERY_BUILDERS.has(link.name)) {
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
  if (executed || name === '') return false;
  // A builder step whose result is dropped (`qry.where(...)`: mongoose builders change the query in place).
  if (parent.isExpressionStatement()) return current !== reference;
  // `qry = qry.sort(s)`: the query goes back into the variable, whose other reads are followed.
  if (assignedBackTo(current, name)) return true;
  // `qry = sortQuery(qry, by)`: a function that adds to the query and gives it back. The documents
  // do not exist yet, so it cannot use them; what it returns is followed as the same query, when
  // its body shows only query steps, or as an assumption when it is declared elsewhere.
  if (parent.isCallExpression() && parent.node.arguments.includes(root.node as t.Expression) && assignedBackTo(parent, name)) {
    const givesBack = helperGivesQueryBack(parent, parent.node.arguments.indexOf(root.node as t.Expression), context);
    if (givesBack === 'elsewhere') {
      const written = dottedName(parent.node.callee);
      if (written === null) return false;
      flow.assumedSteps.push(written);
      return true;
    }
    return givesBack;
  }
  return false;
}

/**
 * Every assignment to `name` in the function (or program) around `from`. By name, not by binding:
 * a shadowing variable's assignments count too, which only makes the answer stricter. Null when
 * the name is updated (`x++`) or assigned in another form (`+=`, destructuring).
 */
function assignmentsTo(from: NodePath, name: string): t.AssignmentExpression[] | null {
  const around = from.getFunctionParent() ?? from.findParent((p) => p.isProgram());
  if (!around) return null;
  const found: t.AssignmentExpression[] = [];
  let other = false;
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) { for (const item of node) walk(item); return; }
    const typed = node as t.Node;
    if (typed.type === 'AssignmentExpression') {
      const left = unwrapExpression(typed.left);
      if (left.type === 'Identifier' && left.name === name) found.push(typed);
      else if (left.type !== 'Identifier' && left.type !== 'MemberExpression') other = true; // destructuring: not read here
    }
    if (typed.type === 'UpdateExpression' && typed.argument.type === 'Identifier' && typed.argument.name === name) other = true;
    for (const key of Object.keys(typed)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments' || key === 'extra') continue;
      walk((typed as unknown as Record<string, unknown>)[key]);
    }
  };
  walk(around.node);
  return other ? null : found;
}

/**
 * True when every assignment to the variable keeps the same query in it: the query itself (`qry =
 * User.find()`), its own steps (`qry = qry.sort(s)`) or a function's return of it (`qry =
 * sortQuery(qry)`; what that function does is checked where its read is followed).
 */
function onlyRebuilds(id: NodePath, name: string, query: t.Node | null): boolean {
  const assignments = assignmentsTo(id, name);
  if (assignments === null) return false;
  return assignments.every((assignment) => {
    if (assignment.operator !== '=') return false;
    const right = unwrapExpression(assignment.right);
    if (right === query) return true;
    if (right.type !== 'CallExpression') return false;
    if (right.arguments.some((arg) => arg.type === 'Identifier' && arg.name === name)) return true;
    const callee = unwrapExpression(right.callee);
    return callee.type === 'MemberExpression' && isStepChainOn(right, name);
  });
}

/**
 * Where the query held by the variable `id` (a declarator's id or an assignment's left side) runs,
 * or null when one of its uses is not followed, when it is assigned anything but the same query,
 * or when it runs more than once (no one result to follow).
 */
export function followQueryVariable(id: NodePath, resultKind: 'doc' | 'array', context: RuleContext): QueryFlow | null {
  const node = id.node;
  if (node.type !== 'Identifier') return null;
  const binding = context.bindingOf(id, node.name);
  if (!binding || binding.referencePaths.length === 0 || binding.referencePaths.length > MAX_REFERENCES) return null;
  const query = id.parentPath?.isAssignmentExpression() ? unwrapExpression(id.parentPath.node.right) : null;
  if (!binding.constant && !onlyRebuilds(id, node.name, query)) return null;
  const flow: QueryFlow = { runs: [], lean: false, assumedSteps: [] };
  for (const reference of binding.referencePaths) {
    if (!followRead(reference, node.name, resultKind, flow, context)) return null;
  }
  return flow.runs.length === 1 ? flow : null;
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
export function followQueryExpression(path: NodePath, resultKind: 'doc' | 'array', context: RuleContext): QueryFlow | null {
  const flow: QueryFlow = { runs: [], lean: false, assumedSteps: [] };
  return followRead(path, '', resultKind, flow, context) && flow.runs.length > 0 ? flow : null;
}
