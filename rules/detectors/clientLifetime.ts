// What becomes of a connection client once the code that creates it has run: closed again, dropped,
// or kept. A pure model over the AST, asked by connection-per-request: a client created while
// handling a request is a connection per request only when that handling closes or drops it. One
// that is stored (a module-level variable, a cache keyed by its options, a field of a long-lived
// object, a map) is created once per key and reused, however often the code that creates it runs:
// an administrator adding a server at run time is not per-request work.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { LocalBinding } from '../api';
import { memberName, unwrapExpression, valueRoot } from './mongooseModels';

/**
 * 'closed': a close method is called on it in the code followed; 'dropped': every use is a method
 * call or a read on it, and no reference outlives the code; 'unproven': it is stored, returned to
 * code not followed, or handed to a function that may keep it.
 */
export type ClientFate = 'closed' | 'dropped' | 'unproven';

/** Methods that end a client's connection (redis, ioredis, pg, mysql, mongodb, net, agents). */
const CLOSE_METHODS = new Set(['quit', 'disconnect', 'end', 'close', 'destroy', 'destroySoon', 'release']);
/**
 * Methods that answer the client itself (or a promise of it), or an object holding it (mongodb's
 * `client.db()`, `db.collection()`): keeping their result keeps the client.
 */
const HOLDER_METHODS = new Set(['connect', 'on', 'once', 'addListener', 'prependListener', 'setMaxListeners', 'setEncoding',
  'setTimeout', 'setNoDelay', 'setKeepAlive', 'ref', 'unref', 'db', 'collection']);
/** How far a returned client is followed into callers (and through local variables). */
const MAX_DEPTH = 4;

interface Bindings {
  bindingOf(path: NodePath, name: string): LocalBinding | undefined;
}

function combine(a: ClientFate, b: ClientFate): ClientFate {
  if (a === 'unproven' || b === 'unproven') return 'unproven';
  return a === 'closed' || b === 'closed' ? 'closed' : 'dropped';
}

/**
 * The fate of the client whose value is `created` (a `new Redis()`, a `createClient()` call): where
 * its value goes, and, for a node-style connect (`MongoClient.connect(url, (err, client) => ...)`),
 * where the callback's client goes.
 */
export function clientFate(created: NodePath<t.CallExpression | t.NewExpression>, scope: Bindings): ClientFate {
  let fate = fateOf(created, scope, 0);
  for (const argument of created.get('arguments')) {
    if (!(argument.isFunctionExpression() || argument.isArrowFunctionExpression())) continue;
    // (err, client): the parameters after the error; a connect listener `() => ...` has none.
    const params = (argument as NodePath<t.FunctionExpression | t.ArrowFunctionExpression>).get('params');
    for (const param of params.slice(1)) fate = combine(fate, fateOfParam(param, scope, 1));
  }
  return fate;
}

function fateOfParam(param: NodePath, scope: Bindings, depth: number): ClientFate {
  return param.isIdentifier() ? fateOfName(param, param, scope, depth) : 'unproven';
}

function fateOf(value: NodePath, scope: Bindings, depth: number): ClientFate {
  if (depth > MAX_DEPTH) return 'unproven';
  const root = valueRoot(value);
  const parent = root.parentPath;
  if (!parent) return 'unproven';
  const node = root.node;
  if (parent.isExpressionStatement()) return 'dropped';
  if (parent.isAwaitExpression()) return fateOf(parent, scope, depth + 1);
  if (parent.isMemberExpression() && parent.node.object === node) return fateAsObject(parent, scope, depth);
  if (parent.isVariableDeclarator() && parent.node.init === node) {
    const id = parent.get('id');
    return id.isIdentifier() ? fateOfName(id, root, scope, depth) : 'unproven';
  }
  if (parent.isAssignmentExpression() && parent.node.right === node && parent.node.operator === '=') {
    // `this.clients[id] = client`, `cache.x = client`: a field of something that outlives the code.
    const left = parent.get('left');
    return left.isIdentifier() ? fateOfName(left, root, scope, depth) : 'unproven';
  }
  if (parent.isReturnStatement() || (parent.isArrowFunctionExpression() && parent.node.body === node)) {
    return fateOfReturn(parent, scope, depth);
  }
  if (parent.isObjectProperty() && parent.node.value === node && isAgentOptionOfCall(parent)) return 'dropped';
  // An argument (`map.set(key, client)`, `resolve(client)`), an element, a property, a condition:
  // what holds it then is not followed.
  return 'unproven';
}

/** `http.get({ agent: new http.Agent() })`: an agent made for one outgoing request and dropped with it. */
function isAgentOptionOfCall(property: NodePath<t.ObjectProperty>): boolean {
  const key = property.node.key;
  const named = (!property.node.computed && key.type === 'Identifier' && key.name === 'agent') || (key.type === 'StringLiteral' && key.value === 'agent');
  if (!named) return false;
  const object = property.parentPath;
  if (!object?.isObjectExpression()) return false;
  const call = valueRoot(object).parentPath;
  return call !== null && (call.isCallExpression() || call.isNewExpression()) && call.node.arguments.includes(valueRoot(object).node as t.Expression);
}

/** `client.m(...)` or `client.x`: a close, a method answering the client again, or a use. */
function fateAsObject(member: NodePath<t.MemberExpression>, scope: Bindings, depth: number): ClientFate {
  const name = memberName(member.node);
  const call = member.parentPath;
  const isCall = call?.isCallExpression() === true && (call.node as t.CallExpression).callee === member.node;
  if (!isCall) {
    // `client.x = v` sets a field of the client; `client.status` reads one: neither keeps it.
    return 'dropped';
  }
  if (name !== null && CLOSE_METHODS.has(name)) return 'closed';
  // `await createClient().connect()` answers the client (redis 4): follow it further.
  if (name !== null && HOLDER_METHODS.has(name)) return fateOf(call as NodePath, scope, depth + 1);
  if (name === 'then') {
    // `MongoClient.connect(url).then((client) => ...)`: the client is the callback's parameter.
    const callback = (call as NodePath<t.CallExpression>).get('arguments')[0];
    if (!callback || !(callback.isFunctionExpression() || callback.isArrowFunctionExpression())) return 'unproven';
    const param = (callback as NodePath<t.FunctionExpression | t.ArrowFunctionExpression>).get('params')[0];
    return param ? fateOfParam(param, scope, depth + 1) : 'dropped';
  }
  return 'dropped';
}

/**
 * A variable holding the client: module-level or declared outside the function that assigns it, it
 * outlives the call (a cache); a local one is followed through every reference.
 */
function fateOfName(id: NodePath<t.Identifier>, assigned: NodePath, scope: Bindings, depth: number): ClientFate {
  const binding = scope.bindingOf(id, id.node.name);
  if (!binding || binding.topLevel) return 'unproven';
  if (ownerOf(binding.path) !== ownerOf(assigned)) return 'unproven';
  let fate: ClientFate = 'dropped';
  for (const reference of binding.referencePaths) {
    if (reference.node === id.node) continue;
    const parent = reference.parentPath;
    // Written again (`client = client || x`), or its identifier on the left of an assignment.
    if (parent?.isAssignmentExpression() && parent.node.left === reference.node) return 'unproven';
    fate = combine(fate, fateOfReference(reference, scope, depth));
    if (fate === 'unproven') return fate;
  }
  return fate;
}

/** The function a declaration or an expression belongs to (a parameter's is its function); null at module level. */
function ownerOf(path: NodePath): t.Node | null {
  return path.isFunction() ? path.node : path.getFunctionParent()?.node ?? null;
}

/** One read of the variable: a use on the client, or where the value goes next. */
function fateOfReference(reference: NodePath, scope: Bindings, depth: number): ClientFate {
  const root = valueRoot(reference);
  const parent = root.parentPath;
  if (parent?.isMemberExpression() && parent.node.object === root.node) return fateAsObject(parent, scope, depth + 1);
  // `if (client)`, `!client`: a test keeps nothing.
  if (parent?.isUnaryExpression() && parent.node.operator === '!') return 'dropped';
  if ((parent?.isIfStatement() || parent?.isConditionalExpression()) && (parent.node as t.IfStatement).test === root.node) return 'dropped';
  if (parent?.isExpressionStatement()) return 'dropped';
  return fateOf(reference, scope, depth + 1);
}

/** A client returned from a function: its fate in each caller of this module, when every use is a call. */
function fateOfReturn(returnOrArrow: NodePath, scope: Bindings, depth: number): ClientFate {
  const fn = returnOrArrow.isArrowFunctionExpression() ? returnOrArrow : returnOrArrow.getFunctionParent();
  if (!fn) return 'unproven';
  let name: string | null = null;
  if (fn.isFunctionDeclaration() && fn.node.id) name = fn.node.id.name;
  const holder = fn.parentPath;
  if (holder?.isVariableDeclarator() && holder.node.init === fn.node && holder.node.id.type === 'Identifier') name = holder.node.id.name;
  const binding = name === null ? undefined : scope.bindingOf(holder ?? fn, name);
  // A method, an exported function, one handed elsewhere: its callers are not all here.
  if (!binding || !binding.constant || binding.referencePaths.length === 0) return 'unproven';
  let fate: ClientFate = 'dropped';
  for (const reference of binding.referencePaths) {
    const call = reference.parentPath;
    if (!call?.isCallExpression() || unwrapExpression(call.node.callee) !== reference.node) return 'unproven';
    fate = combine(fate, fateOf(call, scope, depth + 1));
    if (fate === 'unproven') return fate;
  }
  return fate;
}
