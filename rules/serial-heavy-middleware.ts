// serial-heavy-middleware: a route chain whose middlewares await independent I/O one after
// another, or re-walk the same request data in several passes (seed 004's mdl.toJson(),
// mdl.fillCreator(), mdl.fillExecutor() chain).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { RuleContext, RuleModule } from './api';
import { memberName, unwrapExpression, valueRoot } from './detectors/mongooseModels';
import { isToolingFile } from './detectors/toolingFiles';

/** Registration methods of express / express.Router / koa-router / fastify. */
const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'all', 'head', 'options', 'use']);
/** Fastify route options whose values are hook functions or arrays of them. */
const FASTIFY_HOOKS = new Set(['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler']);
/** Calls that walk an array once each. */
const ITERATION_METHODS = new Set(['map', 'flatMap', 'forEach', 'filter', 'reduce', 'reduceRight', 'some', 'every', 'find', 'findIndex']);
/** Calls on a slot's value that change it in place. */
const MUTATING_METHODS = new Set(['push', 'unshift', 'splice', 'pop', 'shift', 'set', 'add', 'delete', 'clear', 'sort', 'reverse']);
/** Containers whose members are the slots middlewares pass data through (`res.locals.x`, `ctx.state.x`). */
const CONTAINERS = new Set(['locals', 'state']);
const MAX_FACTORY_DEPTH = 3;

type FunctionPath = NodePath<t.ArrowFunctionExpression | t.FunctionExpression | t.FunctionDeclaration | t.ObjectMethod>;

/** One middleware of a chain, resolved to the function that runs per request. */
interface Middleware {
  label: string;
  fn: FunctionPath;
  /** The registration call it belongs to (differs for consecutive `app.use()` statements). */
  registration: NodePath<t.CallExpression>;
}

/** What one middleware does with the request objects, as slots like `0.user` or `1.locals.tasks`. */
interface Effects {
  awaitsIo: boolean;
  /** It can end the request (responds, throws): an auth check or a rate limit must finish first. */
  gates: boolean;
  reads: Set<string>;
  writes: Set<string>;
  /** The request objects escape to code we cannot see: assume it reads and writes anything. */
  opaque: boolean;
  /** Slots walked by an iteration, with their display text (`res.locals.tasks`). */
  iterates: Map<string, string>;
}

function isFunctionPath(path: NodePath): path is FunctionPath {
  return path.isArrowFunctionExpression() || path.isFunctionExpression() || path.isFunctionDeclaration() || path.isObjectMethod();
}

function sourceText(node: t.Node, source: string): string {
  const text = node.start != null && node.end != null ? source.slice(node.start, node.end).replace(/\s+/g, ' ') : '?';
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** The function a binding holds: `function f() {}`, `const f = () => {}`, `const f = factory()`. */
function functionOfBinding(id: NodePath<t.Identifier>, depth: number, context: RuleContext): FunctionPath | null {
  const binding = context.bindingOf(id, id.node.name);
  if (!binding || !binding.constant) return null;
  const declaration = binding.path;
  if (isFunctionPath(declaration)) return declaration;
  if (!declaration.isVariableDeclarator()) return null;
  const init = declaration.get('init');
  return init.node ? functionOfValue(init as NodePath, depth + 1, context) : null;
}

/** `mdl.fillCreator` where `const mdl = { fillCreator() {...} }` (or `fillCreator: fn`). */
function functionOfProperty(member: NodePath<t.MemberExpression>, depth: number, context: RuleContext): FunctionPath | null {
  const object = member.get('object');
  const name = memberName(member.node);
  if (!object.isIdentifier() || name === null) return null;
  const binding = context.bindingOf(object, object.node.name);
  const declaration = binding?.path;
  if (!declaration?.isVariableDeclarator()) return null;
  const init = declaration.get('init');
  if (!init.isObjectExpression()) return null;
  for (const prop of init.get('properties')) {
    const key = prop.node.type === 'ObjectMethod' || prop.node.type === 'ObjectProperty' ? prop.node.key : null;
    const keyName = key?.type === 'Identifier' ? key.name : key?.type === 'StringLiteral' ? key.value : null;
    if (keyName !== name || (prop.node.type !== 'SpreadElement' && prop.node.computed)) continue;
    if (prop.isObjectMethod()) return prop;
    if (prop.isObjectProperty()) return functionOfValue(prop.get('value') as NodePath, depth + 1, context);
  }
  return null;
}

/** The function a factory returns: `() => (req, res, next) => ...` or `return function (req, res, next) {...}`. */
function returnedFunction(factory: FunctionPath, depth: number, context: RuleContext): FunctionPath | null {
  const body = factory.get('body');
  if (!Array.isArray(body) && !body.isBlockStatement()) return functionOfValue(body as NodePath, depth + 1, context);
  let found: FunctionPath | null = null;
  context.traverseBelow(factory, {
    Function(inner) {
      inner.skip(); // returns of nested functions are not the factory's
    },
    ReturnStatement(ret) {
      if (found !== null) return;
      const argument = ret.get('argument');
      if (argument.node) found = functionOfValue(argument as NodePath, depth + 1, context);
    },
  });
  return found;
}

/** Resolves an expression to the middleware function it denotes, within this module. */
function functionOfValue(path: NodePath, depth: number, context: RuleContext): FunctionPath | null {
  if (depth > MAX_FACTORY_DEPTH) return null;
  let value = path;
  while (unwrapExpression(value.node) !== value.node) value = value.get('expression') as NodePath;
  if (isFunctionPath(value)) return value;
  if (value.isIdentifier()) return functionOfBinding(value, depth, context);
  if (value.isMemberExpression()) return functionOfProperty(value, depth, context);
  if (value.isCallExpression()) {
    // A factory call: mdl.toJson(), checkRole('admin')
    const callee = value.get('callee');
    let factory: FunctionPath | null = null;
    if (callee.isIdentifier()) factory = functionOfBinding(callee, depth, context);
    else if (callee.isMemberExpression()) factory = functionOfProperty(callee, depth, context);
    return factory ? returnedFunction(factory, depth, context) : null;
  }
  return null;
}

function labelOf(path: NodePath, fn: FunctionPath, source: string): string {
  const node = unwrapExpression(path.node);
  if (node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression') {
    if (node.type === 'FunctionExpression' && node.id) return node.id.name;
    return `anonymous middleware (line ${fn.node.loc?.start.line ?? '?'})`;
  }
  return sourceText(node, source);
}

/** `const chain = [a, b]` used as `app.get(path, chain)`: the array literal. */
function arrayOfBinding(arg: NodePath, context: RuleContext): NodePath | null {
  if (!arg.isIdentifier()) return null;
  const binding = context.bindingOf(arg, arg.node.name);
  const declaration = binding?.path;
  if (!binding || !binding.constant || !declaration?.isVariableDeclarator()) return null;
  const init = declaration.get('init');
  return init.isArrayExpression() ? init : null;
}

/** The middleware expressions of a registration call, arrays and fastify hook options flattened. */
function middlewareArguments(call: NodePath<t.CallExpression>, context: RuleContext): NodePath[] {
  const out: NodePath[] = [];
  const seen = new Set<t.Node>(); // `const a = [a]` must not loop
  const add = (arg: NodePath): void => {
    if (seen.has(arg.node)) return;
    seen.add(arg.node);
    const node = unwrapExpression(arg.node);
    const array = arrayOfBinding(arg, context);
    if (arg.isSpreadElement()) {
      // app.get('/tasks', ...chain, handler): the spread array's elements join the chain in place.
      add(arg.get('argument') as NodePath);
    } else if (array !== null) {
      add(array);
    } else if (node.type === 'ArrayExpression') {
      for (const element of (arg as NodePath<t.ArrayExpression>).get('elements')) if (element.node) add(element as NodePath);
    } else if (node.type === 'ObjectExpression' && arg.isObjectExpression()) {
      for (const prop of arg.get('properties')) {
        if (!prop.isObjectProperty() || prop.node.computed) continue;
        const key = prop.node.key;
        if (key.type === 'Identifier' && FASTIFY_HOOKS.has(key.name)) add(prop.get('value') as NodePath);
      }
    } else if (node.type !== 'StringLiteral' && node.type !== 'TemplateLiteral' && node.type !== 'RegExpLiteral') {
      out.push(arg);
    }
  };
  for (const arg of call.get('arguments')) add(arg as NodePath);
  return out;
}

const PATH_TYPES = new Set(['StringLiteral', 'TemplateLiteral', 'RegExpLiteral', 'ArrayExpression']);

/** `router.route('/tasks').get(a, b)`: the path sits on the receiver. */
function isRouteReceiver(receiver: t.Node): boolean {
  return receiver.type === 'CallExpression' && memberName(unwrapExpression(receiver.callee)) === 'route' &&
    receiver.arguments[0] !== undefined && PATH_TYPES.has(unwrapExpression(receiver.arguments[0]).type);
}

/** The registration method and a key for "same app, same mount path", or null when the call is not a registration. */
function registrationMethod(call: t.CallExpression, source: string): { method: string; receiver: string } | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return null;
  const method = memberName(callee);
  if (method === null || !ROUTE_METHODS.has(method)) return null;
  const receiver = unwrapExpression(callee.object);
  const first = call.arguments[0];
  const hasPath = first !== undefined && PATH_TYPES.has(unwrapExpression(first).type);
  // A route needs a path (`map.get(key, ...)` is no route); `use` may go without one.
  if (method !== 'use' && !hasPath && !isRouteReceiver(receiver)) return null;
  // `app.use('/a', x)` and `app.use('/b', y)` never run for the same request.
  const mount = hasPath ? sourceText(first, source) : '';
  return { method, receiver: `${sourceText(receiver, source)} ${mount}` };
}

function middlewaresOf(call: NodePath<t.CallExpression>, source: string, context: RuleContext): Middleware[] {
  const out: Middleware[] = [];
  for (const arg of middlewareArguments(call, context)) {
    const fn = functionOfValue(arg, 0, context);
    // Error handlers (err, req, res, next) are not part of the normal chain.
    if (fn && fn.node.params.length <= 3) out.push({ label: labelOf(arg, fn, source), fn, registration: call });
  }
  return out;
}

/** `req.user`, `res.locals.tasks`, `ctx.state.user`: the slot a member chain rooted at parameter `index` names. */
interface SlotAccess {
  key: string;
  display: string;
  /** The member expression that names the slot, and the outermost member of the chain. */
  slot: NodePath;
  top: NodePath;
}

function slotAccessOf(reference: NodePath, index: number): SlotAccess | 'opaque' | null {
  const names: string[] = [reference.node.type === 'Identifier' ? reference.node.name : '?'];
  const keys: string[] = [String(index)];
  const members: NodePath[] = [];
  let current = valueRoot(reference);
  while (current.parentPath?.isMemberExpression() && current.parentPath.node.object === current.node) {
    const member = current.parentPath;
    const name = memberName(member.node);
    if (name === null) break; // req[key], res.locals.rows[i]
    const isCallee = member.parentPath?.isCallExpression() === true && (member.parentPath.node as t.CallExpression).callee === member.node;
    if (members.length === 0 && isCallee) return null; // res.json(), req.get(), ctx.throw(): framework calls
    names.push(name);
    keys.push(name);
    current = valueRoot(member);
    members.push(current);
  }
  if (members.length === 0) {
    // req[key] may be any slot; the bare parameter is handled by the caller.
    return valueRoot(reference).parentPath?.isMemberExpression() ? 'opaque' : null;
  }
  // `res.locals.tasks` / `ctx.state.user` are slots three deep; `req.user` / `ctx.body` two.
  const depth = CONTAINERS.has(keys[1]) ? 3 : 2;
  if (keys.length < depth) {
    // `res.locals` used whole: a computed member of it may be any slot.
    return valueRoot(members[members.length - 1]).parentPath?.isMemberExpression() ? 'opaque' : { key: keys.join('.'), display: names.join('.'), slot: current, top: current };
  }
  return { key: keys.slice(0, depth).join('.'), display: names.slice(0, depth).join('.'), slot: members[depth - 2], top: current };
}

/** Is `path` (a value) walked by an iteration: `x.map(...)`, `for (... of x)`, through one `const` alias? */
function isIterated(path: NodePath, context: RuleContext, aliasDepth = 0): boolean {
  const value = valueRoot(path);
  const parent = value.parentPath;
  if (!parent) return false;
  if ((parent.isForOfStatement() || parent.isForInStatement()) && parent.node.right === value.node) return true;
  if (parent.isMemberExpression() && parent.node.object === value.node) {
    const name = memberName(parent.node);
    const call = parent.parentPath;
    return name !== null && ITERATION_METHODS.has(name) && call?.isCallExpression() === true && (call.node as t.CallExpression).callee === parent.node;
  }
  if (aliasDepth === 0 && parent.isVariableDeclarator() && parent.node.init === value.node) {
    const id = parent.get('id');
    if (!id.isIdentifier()) return false;
    const binding = context.bindingOf(id, id.node.name);
    return binding?.referencePaths.some((ref) => isIterated(ref, context, 1)) === true;
  }
  return false;
}

function recordAccess(effects: Effects, access: SlotAccess, context: RuleContext): void {
  const parent = access.top.parentPath;
  const top = access.top.node;
  const assigned = parent?.isAssignmentExpression() && parent.node.left === top;
  const updated = parent?.isUpdateExpression() || (parent?.isUnaryExpression() && parent.node.operator === 'delete');
  const callee = parent?.isCallExpression() && parent.node.callee === top ? memberName(top) : null;
  if (assigned || updated) {
    effects.writes.add(access.key);
    // `req.user = x` replaces the slot; `req.user.name = x` and `req.count++` read it first.
    if (access.top !== access.slot || updated || (parent?.isAssignmentExpression() && parent.node.operator !== '=')) effects.reads.add(access.key);
    return;
  }
  effects.reads.add(access.key);
  if (callee !== null && MUTATING_METHODS.has(callee)) effects.writes.add(access.key);
  if (isIterated(access.slot, context)) effects.iterates.set(access.key, access.display);
}

/** Methods that answer the request (express res, koa ctx, fastify reply). */
const RESPONDING_METHODS = new Set(['send', 'json', 'jsonp', 'end', 'sendStatus', 'status', 'redirect', 'render', 'writeHead', 'sendFile', 'download', 'throw', 'assert', 'code']);

/** Does the middleware answer or abort the request somewhere (so later middlewares depend on it)? */
function mayEndRequest(fn: FunctionPath, requestNames: ReadonlySet<string>, context: RuleContext): boolean {
  let ends = false;
  context.traverseBelow(fn, {
    ThrowStatement() {
      ends = true;
    },
    CallExpression(path) {
      const callee = unwrapExpression(path.node.callee);
      const name = memberName(callee);
      if (callee.type !== 'MemberExpression' || name === null || !RESPONDING_METHODS.has(name)) return;
      const object = unwrapExpression(callee.object);
      if (object.type === 'Identifier' && requestNames.has(object.name)) ends = true;
    },
    AssignmentExpression(path) {
      // koa: `ctx.status = 401` / `ctx.body = ...` answers the request.
      const left = unwrapExpression(path.node.left);
      const name = memberName(left);
      if (left.type !== 'MemberExpression' || (name !== 'status' && name !== 'body')) return;
      const object = unwrapExpression(left.object);
      if (object.type === 'Identifier' && requestNames.has(object.name)) ends = true;
    },
  });
  return ends;
}

/** Does the function itself (not a nested callback) wait on I/O? */
function awaitsIo(fn: FunctionPath, paramNames: ReadonlySet<string>, context: RuleContext): boolean {
  let found = false;
  const isParamCall = (node: t.Node): boolean => {
    const target = unwrapExpression(node);
    if (target.type !== 'CallExpression') return false;
    const callee = unwrapExpression(target.callee);
    return callee.type === 'Identifier' && paramNames.has(callee.name); // await next()
  };
  context.traverseBelow(fn, {
    AwaitExpression(path) {
      const argument = unwrapExpression(path.node.argument);
      if (path.getFunctionParent() === fn && (argument.type === 'CallExpression' || argument.type === 'OptionalCallExpression') && !isParamCall(argument)) found = true;
    },
    CallExpression(path) {
      if (found || path.getFunctionParent() !== fn) return;
      const callee = unwrapExpression(path.node.callee);
      // A promise chain: load().then(...)
      if (callee.type === 'MemberExpression' && memberName(callee) === 'then' && unwrapExpression(callee.object).type === 'CallExpression') {
        found = true;
        return;
      }
      // Callback I/O that continues the chain from inside the callback: db.get(id, (err, row) => { ...; next(); })
      const callbacks = path.get('arguments').filter((arg) => arg.isFunction());
      for (const callback of callbacks) {
        context.traverseBelow(callback, {
          CallExpression(inner) {
            const innerCallee = unwrapExpression(inner.node.callee);
            if (innerCallee.type === 'Identifier' && paramNames.has(innerCallee.name) && context.bindingOf(fn, innerCallee.name) === context.bindingOf(inner, innerCallee.name)) found = true;
          },
        });
      }
    },
  });
  return found;
}

function effectsOf(fn: FunctionPath, context: RuleContext): Effects {
  const effects: Effects = { awaitsIo: false, gates: false, reads: new Set(), writes: new Set(), opaque: false, iterates: new Map() };
  const params = fn.get('params');
  const nextNames = new Set<string>();
  params.forEach((param, index) => {
    if (param.isObjectPattern()) {
      // ({ user }, res) => ...: reads of the destructured members.
      for (const prop of param.node.properties) {
        if (prop.type === 'ObjectProperty' && prop.key.type === 'Identifier' && !prop.computed) effects.reads.add(`${index}.${prop.key.name}`);
        else effects.opaque = true;
      }
      return;
    }
    if (!param.isIdentifier()) return;
    const binding = context.bindingOf(fn, param.node.name);
    if (!binding) return;
    // The last parameter of a 2- or 3-parameter middleware is `next`.
    if (index === params.length - 1 && params.length >= 2) nextNames.add(param.node.name);
    for (const reference of binding.referencePaths) {
      const access = slotAccessOf(reference, index);
      if (access === 'opaque') {
        effects.opaque = true;
      } else if (access !== null) {
        recordAccess(effects, access, context);
      } else if (!nextNames.has(param.node.name)) {
        escapeOf(reference, index, effects);
      }
    }
  });
  effects.awaitsIo = awaitsIo(fn, nextNames, context);
  effects.gates = mayEndRequest(fn, new Set(params.flatMap((p) => (p.isIdentifier() && !nextNames.has(p.node.name) ? [p.node.name] : []))), context);
  return effects;
}

/** The bare request object used as a value: destructured (reads) or handed to other code (opaque). */
function escapeOf(reference: NodePath, index: number, effects: Effects): void {
  const value = valueRoot(reference);
  const parent = value.parentPath;
  if (!parent) return;
  if (parent.isMemberExpression() && parent.node.object === value.node) return; // a framework call (res.json)
  if (parent.isVariableDeclarator() && parent.node.init === value.node) {
    const id = parent.node.id;
    if (id.type === 'ObjectPattern') {
      for (const prop of id.properties) {
        if (prop.type === 'ObjectProperty' && prop.key.type === 'Identifier' && !prop.computed) effects.reads.add(`${index}.${prop.key.name}`);
        else effects.opaque = true;
      }
      return;
    }
    effects.opaque = true; // an alias we do not follow
    return;
  }
  if (parent.isCallExpression() || parent.isNewExpression() || parent.isAssignmentExpression() || parent.isSpreadElement() ||
      parent.isObjectProperty() || parent.isArrayExpression() || parent.isReturnStatement()) {
    effects.opaque = true;
  }
}

/** Slots overlap when equal or one contains the other (`1.locals` vs `1.locals.user`). */
function overlaps(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) for (const y of b) if (x === y || x.startsWith(`${y}.`) || y.startsWith(`${x}.`)) return true;
  return false;
}

/** Can `b` (later in the chain) start together with `a`? */
function independent(a: Effects, b: Effects): boolean {
  if (a.opaque || b.opaque || a.gates) return false;
  return !overlaps(a.writes, b.reads) && !overlaps(b.writes, a.reads) && !overlaps(a.writes, b.writes);
}

function names(members: readonly Middleware[]): string {
  return members.map((m) => m.label).join(', ');
}

export const serialHeavyMiddleware: RuleModule = {
  meta: {
    id: 'serial-heavy-middleware',
    description: 'Flags routes that run two or more middlewares in series which each await independent I/O, or which each re-iterate the same request data.',
    defaultSeverity: 'warning',
    incident: {
      seed: '004',
      summary: 'In a production incident, a chain of express middlewares (toJson, fillCreator, fillExecutor, ...) ran one after another and walked the same data on every request; with the other fixes the task list went from about 6 s to 800 ms and pages loaded 8-10 times faster. Another pass over the data matters when the data is large.',
    },
    messages: {
      independentIo: 'Middlewares {{names}} each await independent I/O but run one after another for each request that passes through them; neither reads what the other writes, so start the I/O together (Promise.all in one middleware).',
      repeatedPasses: 'Middlewares {{names}} each iterate over the same {{data}} for each request that passes through them; compute it in one pass.',
    },
    fixable: false,
  },
  create(context) {
    // A test, script or benchmark serves nothing: its connections and middleware are not a service's.
    if (isToolingFile(context.filePath, context.project)) return { visitor: {} };
    /** Checks one chain (one route, or a run of consecutive `use` statements) and reports. */
    const checkChain = (chain: readonly Middleware[]): void => {
      if (chain.length < 2) return;
      const effects = new Map(chain.map((m) => [m, effectsOf(m.fn, context)] as const));
      const group: Middleware[] = [];
      for (const m of chain) {
        const mine = effects.get(m);
        if (mine?.awaitsIo && group.every((other) => independent(effects.get(other) as Effects, mine))) group.push(m);
      }
      if (group.length >= 2) {
        context.report({ node: group[0].registration.node, messageId: 'independentIo', data: { names: names(group) } });
      }
      const walkers = new Map<string, { display: string; members: Middleware[] }>();
      for (const m of chain) {
        for (const [key, display] of effects.get(m)?.iterates ?? []) {
          const entry = walkers.get(key) ?? { display, members: [] };
          if (!entry.members.includes(m)) entry.members.push(m);
          walkers.set(key, entry);
        }
      }
      const busiest = [...walkers.values()].filter((w) => w.members.length >= 2).sort((a, b) => b.members.length - a.members.length)[0];
      if (busiest) {
        // Another pass over an array costs as much as the array is long: quiet until a profile says so.
        context.report({ node: busiest.members[0].registration.node, messageId: 'repeatedPasses', data: { names: names(busiest.members), data: busiest.display }, evidence: 'frequency' });
      }
    };

    /** The `use` registration a statement is, on which receiver; null for any other statement. */
    const useOf = (statement: t.Node | undefined): string | null => {
      if (statement?.type !== 'ExpressionStatement' || statement.expression.type !== 'CallExpression') return null;
      const registration = registrationMethod(statement.expression, context.source);
      return registration?.method === 'use' ? registration.receiver : null;
    };

    /**
     * Consecutive `app.use(...)` statements on the same receiver form one chain, checked from its
     * first statement (any other statement between two `use` calls, or another app or mount path,
     * ends a chain). The statements read around it may be top-level ones of their own: the
     * findings rest on them (dependsOn).
     */
    const checkUseRun = (statement: NodePath<t.ExpressionStatement>, receiver: string): void => {
      const index = statement.key;
      const list = statement.container;
      if (typeof index !== 'number' || !Array.isArray(list)) {
        // A statement alone in its place (`if (dev) app.use(a, b)`) is a chain of its own.
        checkChain(middlewaresOf(statement.get('expression') as NodePath<t.CallExpression>, context.source, context));
        return;
      }
      const siblings = list as t.Node[];
      if (index > 0) {
        context.dependsOn(siblings[index - 1]);
        if (useOf(siblings[index - 1]) === receiver) return; // not the first of its chain
      }
      const run: Middleware[] = [];
      let next = index;
      for (; next < siblings.length && useOf(siblings[next]) === receiver; next++) {
        if (next > index) context.dependsOn(siblings[next]);
        const call = (next === index ? statement : statement.getSibling(next)).get('expression') as NodePath<t.CallExpression>;
        run.push(...middlewaresOf(call, context.source, context));
      }
      if (next < siblings.length) context.dependsOn(siblings[next]);
      checkChain(run);
    };

    return {
      visitor: {
        CallExpression(path) {
          const registration = registrationMethod(path.node, context.source);
          if (registration === null) return;
          const statement = path.parentPath;
          if (registration.method === 'use' && statement.isExpressionStatement()) {
            checkUseRun(statement, registration.receiver);
            return;
          }
          checkChain(middlewaresOf(path, context.source, context));
        },
      },
    };
  },
};

export default serialHeavyMiddleware;
