// Follows a mongoose query held in a variable to the one place it runs:
// `var qry = User.find(q).skip(n).limit(m); qry.sort(s); qry.exec(function (err, users) {...})`.
// A pure model over the AST: it only answers "where do the results appear", the rule decides
// what that use means. Anything it cannot follow (the query handed to another function, stored,
// returned, run twice, made lean) answers null, so the rule stays quiet.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import { memberName, unwrapExpression, valueRoot } from './mongooseModels';

/** Query methods that narrow or shape the query and return it (mongoose queries also change in place). */
const BUILDERS = new Set([
  'sort', 'limit', 'skip', 'select', 'projection', 'where', 'equals', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'ne',
  'or', 'and', 'nor', 'regex', 'exists', 'elemMatch', 'size', 'all', 'slice', 'hint', 'collation', 'comment',
  'maxTimeMS', 'batchSize', 'allowDiskUse', 'read', 'session',
]);
/** Methods that run the query: with a node-style callback, or returning a promise (exec). */
const RUNNERS = new Set(['exec', 'find', 'findOne']);

/** Where the held query's results appear. */
export type HeldRun =
  /** `qry.exec(function (err, docs) {...})`: the callback's second parameter. */
  | { kind: 'callback'; param: NodePath }
  /** `qry.exec().then(docs => ...)`: the callback's first parameter. */
  | { kind: 'then'; param: NodePath }
  /** `await qry`, `await qry.exec()`: the expression whose value is the result. */
  | { kind: 'value'; path: NodePath };

interface Scope {
  bindingOf(path: NodePath, name: string): { readonly referencePaths: readonly NodePath[]; readonly constant: boolean } | undefined;
}

/**
 * Assignments to `name` anywhere in the function (or program) around `from`. By name, not by
 * binding: a shadowing variable's assignments are counted too, which only makes the answer stricter.
 */
function assignmentsTo(from: NodePath, name: string): t.AssignmentExpression[] | null {
  const around = from.getFunctionParent() ?? from.findParent((p) => p.isProgram());
  if (!around) return null;
  const found: t.AssignmentExpression[] = [];
  let updated = false;
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) { for (const item of node) walk(item); return; }
    const typed = node as t.Node;
    if (typed.type === 'AssignmentExpression' && typed.left.type === 'Identifier' && typed.left.name === name) found.push(typed);
    if (typed.type === 'UpdateExpression' && typed.argument.type === 'Identifier' && typed.argument.name === name) updated = true;
    for (const key of Object.keys(typed)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments' || key === 'extra') continue;
      walk((typed as unknown as Record<string, unknown>)[key]);
    }
  };
  walk(around.node);
  return updated ? null : found;
}

function inlineFunction(node: t.Node | undefined): boolean {
  return node?.type === 'FunctionExpression' || node?.type === 'ArrowFunctionExpression';
}

/** `qry.m(...)` at a reference: the call and the method name, or null. */
function methodAt(reference: NodePath): { name: string; call: NodePath<t.CallExpression> } | null {
  const member = reference.parentPath;
  if (!member?.isMemberExpression() || member.node.object !== reference.node) return null;
  const call = member.parentPath;
  if (!call?.isCallExpression() || call.node.callee !== member.node) return null;
  const name = memberName(member.node);
  return name === null ? null : { name, call };
}

/**
 * `qry = qry.sort(s).limit(n)`: a reassignment whose value is builders chained on the same
 * variable. Returns the reference it starts from, or null when the new value is anything else.
 */
function selfRebuildRoot(assignment: t.AssignmentExpression, name: string): t.Node | null {
  if (assignment.operator !== '=') return null;
  let current = unwrapExpression(assignment.right);
  while (current.type === 'CallExpression') {
    const callee = unwrapExpression(current.callee);
    const method = memberName(callee);
    if (callee.type !== 'MemberExpression' || method === null || !BUILDERS.has(method)) return null;
    current = unwrapExpression(callee.object);
  }
  return current.type === 'Identifier' && current.name === name && current !== unwrapExpression(assignment.right) ? current : null;
}

/** The run site of a reference, or 'builder' for an in-place builder call, or null when not followed. */
function runAt(reference: NodePath): HeldRun | 'builder' | null {
  const parent = reference.parentPath;
  if (parent?.isAwaitExpression()) return { kind: 'value', path: parent };
  const method = methodAt(reference);
  if (method === null) return null;
  const args = method.call.node.arguments;
  if (BUILDERS.has(method.name)) {
    // `qry.sort(s);` as a statement: mongoose changes the query in place.
    return valueRoot(method.call).parentPath?.isExpressionStatement() === true ? 'builder' : null;
  }
  if (!RUNNERS.has(method.name)) return null;
  const last = args[args.length - 1];
  if (inlineFunction(last)) {
    const fn = method.call.get('arguments')[args.length - 1] as NodePath<t.FunctionExpression | t.ArrowFunctionExpression>;
    const param = fn.get('params')[1];
    return param ? { kind: 'callback', param } : null;
  }
  // `qry.find(cond)` without a callback only narrows; only exec() runs it without one.
  if (method.name !== 'exec' || args.length > 0) return null;
  const then = methodAt(valueRoot(method.call));
  if (then !== null && then.name === 'then') {
    const callback = then.call.get('arguments')[0];
    if (!callback || !inlineFunction(callback.node)) return null;
    const param = (callback as NodePath<t.FunctionExpression>).get('params')[0];
    return param ? { kind: 'then', param } : null;
  }
  return { kind: 'value', path: method.call };
}

/**
 * When the query expression `end` (not yet run) initializes a variable: the single place the
 * variable's query runs, when every other use only adds builders to it; 'unfollowed' when the
 * variable is used any other way (the results are then unknown). Null when `end` is not held.
 */
export function heldQueryRun(end: NodePath, scope: Scope): HeldRun | 'unfollowed' | null {
  const root = valueRoot(end);
  const declarator = root.parentPath;
  if (!declarator?.isVariableDeclarator() || declarator.node.init !== root.node) return null;
  const run = followHeld(declarator, scope);
  return run ?? 'unfollowed';
}

function followHeld(declarator: NodePath<t.VariableDeclarator>, scope: Scope): HeldRun | null {
  const id = declarator.get('id');
  if (!id.isIdentifier()) return null;
  const binding = scope.bindingOf(id, id.node.name);
  if (!binding) return null;
  const rebuildRoots = new Set<t.Node>();
  // A `var` may be reassigned anywhere in its function: every assignment must rebuild the same query.
  const violations = binding.constant ? [] : assignmentsTo(declarator, id.node.name);
  // Reassigned in a way not seen here (an update, a loop's var): not followed.
  if (violations === null || (!binding.constant && violations.length === 0)) return null;
  for (const violation of violations) {
    const start = selfRebuildRoot(violation, id.node.name);
    if (start === null) return null;
    rebuildRoots.add(start);
  }
  let run: HeldRun | null = null;
  for (const reference of binding.referencePaths) {
    if (rebuildRoots.has(reference.node)) continue;
    const found = runAt(reference);
    if (found === null) return null;
    if (found === 'builder') continue;
    if (run !== null) return null; // run twice: not one result to follow
    run = found;
  }
  return run;
}
