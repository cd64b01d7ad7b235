// What one module says about routes and message handlers (issue 25): each registration with its
// method, path, receiver and the functions it hands over, the routers it mounts under a prefix,
// and where its named functions are, so that routeMap.ts can join modules into one map of
// "this function serves that route". Read from the tree alone (no scopes), like moduleFacts.ts.
// Shapes: express/koa-router/fastify `x.get('/p', ...fns)`, `x.route('/p').get(fn)`,
// `x.use(['/prefix',] ...fns | router)`, `x.route({ method, url, handler })`,
// `http.createServer(fn)`, `server.on('request', fn)`, `sub.on('message' | 'data' | ..., fn)`,
// `sub.subscribe('channel', fn)`. Routers built in a function (`module.exports = (db) => { const
// router = Router(); router.get('/', list); return router; }`, mounted as `app.use('/x', make(db))`):
// the name each function returns, and handlers named by a function declared in the function that
// registers them (`function list(req, res) {}` beside `router.get('/', list)`).
import type * as t from '@babel/types';
import { forEachChild } from '../walk';
import { isRelative, requiredModule, type ImportTable } from '../imports';
import { isFunctionNode, memberChain, propertyName } from '../functionNames';
import { exportTarget } from './moduleFacts';
import { jobProcessor } from '../scheduledWork';
import {
  HTTP_CLIENT_NAME, HTTP_METHODS, LISTEN_METHODS, MESSAGE_EVENTS, ROUTER_NAME, SERVER_MODULES, SUBSCRIBE_METHODS, acceptsClients, calleeProperty, isClientEvent,
  isMessageSubscriptionMethod, isPathLike, isSocketParameterName, receiverName, routeSpecRegistration, stringValue,
} from '../registrationShapes';

/** A function's extent in its file: lines 1-based, columns 0-based (Babel's). */
export interface SourceRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

/** A function handed to a registration, as written. */
export type HandlerRef =
  | { kind: 'inline'; range: SourceRange }
  | { kind: 'local'; name: string }
  | { kind: 'imported'; specifier: string; exported: string }
  /** What a call of a local function or an export returns (`app.get('/x', makeHandler(options))`). */
  | { kind: 'made'; by: Extract<HandlerRef, { kind: 'local' | 'imported' }> };

export interface RouteRegistration {
  kind: 'request' | 'message';
  /** 'GET', 'POST', ..., 'ALL', 'USE' (middleware), 'REQUEST' (an http server's handler), 'MESSAGE'. */
  method: string;
  /** The path as written ('(dynamic)' when not a literal), the channel or event of a message handler, or null. */
  path: string | null;
  /** The object registered on (`router` in `router.get`), which a mount may prefix. */
  receiver: string | null;
  /** The registration's line (1-based). */
  line: number;
  handlers: HandlerRef[];
}

/** `x.use('/prefix', y)` where y may be a router (decided by routeMap.ts, which sees y's module). */
export interface UseCandidate {
  receiver: string | null;
  prefix: string;
  line: number;
  target: Extract<HandlerRef, { kind: 'local' | 'imported' }>;
  /**
   * `x.use('/prefix', make(a, b))`: the target is the function called, which may return a router;
   * when it does not, the call wraps middleware and `wrapped` (its arguments') are the candidates.
   */
  called?: { wrapped: Extract<HandlerRef, { kind: 'local' | 'imported' }>[] };
}

export interface ModuleRoutes {
  registrations: RouteRegistration[];
  uses: UseCandidate[];
  /** Top-level named functions (`function f`, `const f = () => {}`): local name -> extent. */
  functions: Map<string, SourceRange>;
  /** Functions written in an export (`exports.f = function () {}`, `module.exports = { f() {} }`): export name -> extent. */
  exportedFunctions: Map<string, SourceRange>;
  /** The name a top-level function returns (`return router;`): local name -> returned name. */
  functionReturns: Map<string, string>;
  /** The same for functions written in an export: export name -> returned name. */
  exportedReturns: Map<string, string>;
  /** The functions a top-level function returns (`(dir) => (req, res) => …`): local name -> their extents. */
  functionProducts: Map<string, SourceRange[]>;
  /** The same for functions written in an export: export name -> their extents. */
  exportedProducts: Map<string, SourceRange[]>;
}

/** Path-less registrations per module are bounded like everything read from a tree. */
const MAX_REGISTRATIONS = 5000;

export function rangeOf(node: t.Node): SourceRange | null {
  const loc = node.loc;
  if (!loc) return null;
  return { startLine: loc.start.line, startColumn: loc.start.column, endLine: loc.end.line, endColumn: loc.end.column };
}

export function moduleRoutesOf(program: t.Program, imports: ImportTable): ModuleRoutes {
  const out: ModuleRoutes = {
    registrations: [], uses: [], functions: new Map(), exportedFunctions: new Map(), functionReturns: new Map(), exportedReturns: new Map(),
    functionProducts: new Map(), exportedProducts: new Map(),
  };
  for (const statement of program.body) namedFunctions(statement, out);
  /** The functions around the node being visited, innermost last. */
  const enclosing: t.Function[] = [];
  /** Functions handed to `.on('connection', …)` where they are written: their parameter is a client's socket. */
  const connections = new Set<t.Node>();
  const topLevel = topLevelFunctions(program);
  const visit = (node: t.Node): void => {
    if (out.registrations.length >= MAX_REGISTRATIONS) return;
    if (node.type === 'CallExpression' || node.type === 'NewExpression') jobOf(node, imports, out, enclosing, topLevel);
    if (node.type === 'CallExpression') registrationOf(node, imports, out, enclosing, connections);
    const isFunction = isFunctionNode(node);
    if (isFunction) enclosing.push(node);
    forEachChild(node, visit);
    if (isFunction) enclosing.pop();
  };
  visit(program);
  return out;
}

/** The module's top-level functions by name (`function f`, `const f = () => {}`), as nodes. */
function topLevelFunctions(program: t.Program): Map<string, t.Node> {
  const out = new Map<string, t.Node>();
  for (const statement of program.body) {
    if (statement.type === 'FunctionDeclaration' && statement.id) out.set(statement.id.name, statement);
    if (statement.type !== 'VariableDeclaration') continue;
    for (const d of statement.declarations) if (d.id.type === 'Identifier' && isFunctionNode(d.init)) out.set(d.id.name, d.init);
  }
  return out;
}

/**
 * A job queue's processor (scheduledWork.ts, as the hot context reads it): `MESSAGE job 'welcome'
 * on mail` for `mail.process('welcome', (job) => …)`, `MESSAGE job 'thumbs' on Worker`.
 */
function jobOf(node: t.CallExpression | t.NewExpression, imports: ImportTable, out: ModuleRoutes, enclosing: readonly t.Function[], topLevel: ReadonlyMap<string, t.Node>): void {
  const processor = jobProcessor(node, (name) => topLevel.get(name) ?? null);
  if (processor === null) return;
  const handlers = refsOf([processor], imports, enclosing);
  if (handlers.length === 0) return;
  const receiver = node.callee.type === 'Identifier' ? node.callee.name : receiverName(node.callee) ?? calleeProperty(node.callee);
  const name = stringValue(node.arguments[0]);
  const path = `job${name !== null ? ` '${name}'` : ''}${receiver !== null ? ` on ${receiver}` : ''}`;
  out.registrations.push({ kind: 'message', method: 'MESSAGE', path, receiver, line: node.loc?.start.line ?? 0, handlers });
}

/** Enclosing functions searched for a handler's declaration, innermost first, at most. */
const MAX_ENCLOSING = 8;

/** A function named `name` declared directly in the body of one of the enclosing functions (innermost first). */
function enclosingDeclaration(name: string, enclosing: readonly t.Function[]): SourceRange | null {
  for (let i = enclosing.length - 1; i >= 0 && i >= enclosing.length - MAX_ENCLOSING; i--) {
    const body = enclosing[i]!.body;
    if (body.type !== 'BlockStatement') continue;
    for (const statement of body.body) {
      if (statement.type === 'FunctionDeclaration' && statement.id?.name === name) return rangeOf(statement);
      if (statement.type !== 'VariableDeclaration') continue;
      for (const d of statement.declarations) {
        if (d.id.type === 'Identifier' && d.id.name === name && isFunctionNode(d.init)) return rangeOf(d.init);
      }
    }
  }
  return null;
}

/** The name a function returns: `return router;` in its own body (not in a nested function), or an arrow's `=> router`. */
export function returnedName(fn: t.Function): string | null {
  if (fn.body.type === 'Identifier') return fn.body.name;
  if (fn.body.type !== 'BlockStatement') return null;
  let found: string | null = null;
  const visit = (node: t.Node): void => {
    if (found !== null || isFunctionNode(node)) return;
    if (node.type === 'ReturnStatement' && node.argument?.type === 'Identifier') found = node.argument.name;
    else forEachChild(node, visit);
  };
  for (const statement of fn.body.body) visit(statement);
  return found;
}

/**
 * The functions a function returns: an arrow's function body, or `return function …` / `return
 * (req, res) => …` / `return handler` (a function declared in its body) in its own body.
 */
function returnedFunctions(fn: t.Function): SourceRange[] {
  if (isFunctionNode(fn.body)) return [rangeOf(fn.body)].filter((r): r is SourceRange => r !== null);
  if (fn.body.type !== 'BlockStatement') return [];
  const found: SourceRange[] = [];
  const visit = (node: t.Node): void => {
    if (isFunctionNode(node) || found.length >= MAX_PRODUCTS) return;
    if (node.type === 'ReturnStatement' && node.argument) {
      const range = isFunctionNode(node.argument) ? rangeOf(node.argument)
        : node.argument.type === 'Identifier' ? enclosingDeclaration(node.argument.name, [fn]) : null;
      if (range !== null) found.push(range);
    } else forEachChild(node, visit);
  };
  for (const statement of fn.body.body) visit(statement);
  return found;
}

/** Functions a factory returns, at most (one per branch is the usual shape). */
const MAX_PRODUCTS = 8;

function namedFunctions(statement: t.Statement, out: ModuleRoutes): void {
  const declaration = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
  if (!declaration) return;
  /** What `fn` returns, under `key`: the name (a router), and the functions (a factory's products). */
  const returns = (fn: t.Function, exported: boolean, key: string): void => {
    const name = returnedName(fn);
    if (name !== null) (exported ? out.exportedReturns : out.functionReturns).set(key, name);
    const products = returnedFunctions(fn);
    if (products.length > 0) (exported ? out.exportedProducts : out.functionProducts).set(key, products);
  };
  if (declaration.type === 'FunctionDeclaration' && declaration.id) {
    const range = rangeOf(declaration);
    if (range) out.functions.set(declaration.id.name, range);
    returns(declaration, false, declaration.id.name);
    if (statement.type === 'ExportDefaultDeclaration' && range) {
      out.exportedFunctions.set('default', range);
      returns(declaration, true, 'default');
    }
    return;
  }
  if (declaration.type === 'VariableDeclaration') {
    for (const d of declaration.declarations) {
      if (d.id.type !== 'Identifier' || !isFunctionNode(d.init)) continue;
      const range = rangeOf(d.init);
      if (range) out.functions.set(d.id.name, range);
      returns(d.init, false, d.id.name);
    }
    return;
  }
  if (statement.type === 'ExportDefaultDeclaration' && isFunctionNode(declaration)) {
    const range = rangeOf(declaration);
    if (range) out.exportedFunctions.set('default', range);
    returns(declaration, true, 'default');
    return;
  }
  if (declaration.type !== 'ExpressionStatement' || declaration.expression.type !== 'AssignmentExpression') return;
  const { left, right } = declaration.expression;
  const target = exportTarget(left);
  if (target === null) return;
  if (isFunctionNode(right)) {
    const range = rangeOf(right);
    if (range) out.exportedFunctions.set(target, range);
    returns(right, true, target);
  } else if (target === 'default' && right.type === 'ObjectExpression') {
    for (const prop of right.properties) {
      if (prop.type === 'SpreadElement') continue;
      const key = propertyName(prop.key, prop.computed);
      const fn = prop.type === 'ObjectMethod' ? prop : isFunctionNode(prop.value) ? prop.value : null;
      const range = fn === null ? null : rangeOf(fn);
      if (key !== null && range !== null) out.exportedFunctions.set(key, range);
    }
  }
}

/**
 * What a handler argument names: an inline function, a function declared in a function around the
 * registration (as good as inline: its extent is known), a local name, or another module's export.
 */
function refOf(node: t.Node, imports: ImportTable, enclosing: readonly t.Function[]): HandlerRef | null {
  if (node.type === 'CallExpression') {
    const by = refOf(node.callee, imports, enclosing);
    return by !== null && (by.kind === 'local' || by.kind === 'imported') ? { kind: 'made', by } : null;
  }
  if (isFunctionNode(node)) {
    const range = rangeOf(node);
    return range === null ? null : { kind: 'inline', range };
  }
  if (node.type === 'Identifier') {
    const declared = enclosingDeclaration(node.name, enclosing);
    if (declared !== null) return { kind: 'inline', range: declared };
    const origin = imports.get(node.name);
    if (origin === undefined) return { kind: 'local', name: node.name };
    return isRelative(origin.source) ? { kind: 'imported', specifier: origin.source, exported: origin.namespace ? 'default' : origin.imported } : null;
  }
  const required = requiredModule(node);
  if (required !== null) return isRelative(required) ? { kind: 'imported', specifier: required, exported: 'default' } : null;
  if (node.type !== 'MemberExpression') return null;
  const property = propertyName(node.property, node.computed);
  if (property === null) return null;
  if (node.object.type === 'Identifier') {
    const origin = imports.get(node.object.name);
    if (origin !== undefined && isRelative(origin.source) && origin.imported === 'default') return { kind: 'imported', specifier: origin.source, exported: property };
    return null;
  }
  const inner = requiredModule(node.object);
  return inner !== null && isRelative(inner) ? { kind: 'imported', specifier: inner, exported: property } : null;
}

/** Handler arguments, looking into arrays and wrapper calls (`asyncHandler(fn)`, `fn.bind(x)`), as moduleFacts.ts does. */
function handlerNodes(args: readonly t.Node[], out: t.Node[] = [], depth = 0): t.Node[] {
  for (const arg of args) {
    if (arg.type === 'ArrayExpression') handlerNodes(arg.elements.filter((e): e is t.Expression => e !== null), out, depth);
    else if (arg.type === 'CallExpression' && requiredModule(arg) === null && depth < 2) {
      if (calleeProperty(arg.callee) === 'bind' && arg.callee.type === 'MemberExpression') out.push(arg.callee.object);
      else {
        // `asyncHandler(fn)`, `makeHandler(options)`: what is passed may be the handler, and so may what the call returns.
        out.push(arg);
        handlerNodes(arg.arguments, out, depth + 1);
      }
    } else if (arg.type === 'ObjectExpression') {
      // fastify's `app.get('/x', { handler })` and its options object.
      for (const prop of arg.properties) {
        if (prop.type === 'ObjectMethod' && propertyName(prop.key, prop.computed) === 'handler') out.push(prop);
        else if (prop.type === 'ObjectProperty' && propertyName(prop.key, prop.computed) === 'handler') out.push(prop.value);
      }
    } else out.push(arg);
  }
  return out;
}

function refsOf(args: readonly t.Node[], imports: ImportTable, enclosing: readonly t.Function[]): HandlerRef[] {
  return handlerNodes(args).map((n) => refOf(n, imports, enclosing)).filter((r): r is HandlerRef => r !== null);
}

/**
 * A path built from a template: its literal parts, and each `${…}` as a path parameter named by
 * the expression (`/${key}` -> `/:key`, `/${cfg.prefix}` -> `/:prefix`, else `:value`). A value
 * known only at run time stands for one segment, as a parameter does, in the label and when
 * requests are matched (`*` would match every path below it).
 */
function templatePath(node: t.TemplateLiteral): string {
  const used = new Map<string, number>();
  return node.quasis.map((q, i) => {
    const text = q.value.cooked ?? '';
    const expression = node.expressions[i];
    if (expression === undefined) return text;
    const base = expression.type === 'Identifier' ? expression.name
      : expression.type === 'MemberExpression' && !expression.computed && expression.property.type === 'Identifier' ? expression.property.name
      : 'value';
    // Two parameters of one name would make the pattern unreadable: key, key2.
    const seen = (used.get(base) ?? 0) + 1;
    used.set(base, seen);
    return `${text}:${seen === 1 ? base : `${base}${seen}`}`;
  }).join('');
}

/** The path a route argument spells: the literal, or '(dynamic)'. */
function pathText(node: t.Node): string {
  const literal = stringValue(node);
  if (literal !== null) return literal;
  if (node.type === 'TemplateLiteral') return templatePath(node);
  if (node.type === 'RegExpLiteral') return `/${node.pattern}/`;
  if (node.type === 'ArrayExpression') return node.elements.map((e) => (e === null ? '' : pathText(e))).join(', ');
  return '(dynamic)';
}

/** `x.route('/p').get(fn)`: the path of the `.route` call down the chain. */
function routeChainPath(node: t.Node): string | null {
  let current: t.Node = node;
  for (let depth = 0; depth < 12; depth++) {
    if (current.type !== 'CallExpression' || (current.callee.type !== 'MemberExpression')) return null;
    if (calleeProperty(current.callee) === 'route') return current.arguments[0] ? pathText(current.arguments[0]) : null;
    current = current.callee.object;
  }
  return null;
}

/** The receiver at the root of a chain (`router` in `router.route('/x').get`). */
function chainReceiver(node: t.Node): string | null {
  let current: t.Node = node;
  for (let depth = 0; depth < 12; depth++) {
    if (current.type === 'Identifier') return current.name;
    if (current.type === 'CallExpression') current = current.callee;
    else if (current.type === 'MemberExpression') current = current.object;
    else return null;
  }
  return null;
}

/**
 * `socket` in `socket.on(event, fn)` is a client's socket: a parameter of an enclosing function
 * named for one, or the parameter of a function handed to `.on('connection', …)` where it is
 * written (hotContext.ts reads the same shapes through its scopes).
 */
function isClientSocket(object: t.Node, enclosing: readonly t.Function[], connections: ReadonlySet<t.Node>): boolean {
  if (object.type !== 'Identifier') return false;
  for (let i = enclosing.length - 1; i >= 0; i--) {
    const fn = enclosing[i]!;
    if (!fn.params.some((param) => param.type === 'Identifier' && param.name === object.name)) continue;
    return isSocketParameterName(object.name) || connections.has(fn);
  }
  return false;
}

function registrationOf(node: t.CallExpression, imports: ImportTable, out: ModuleRoutes, enclosing: readonly t.Function[], connections: Set<t.Node>): void {
  const { callee, arguments: args } = node;
  const line = node.loc?.start.line ?? 0;
  const property = calleeProperty(callee);
  if (property === null || (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression')) return;
  const receiver = receiverName(callee);
  if (property === 'createServer' && callee.object.type === 'Identifier' && SERVER_MODULES.has(normalizedSource(imports, callee.object.name) ?? '')) {
    const handlers = refsOf(args.filter((a) => a.type !== 'ObjectExpression'), imports, enclosing);
    if (handlers.length > 0) out.registrations.push({ kind: 'request', method: 'REQUEST', path: null, receiver: null, line, handlers });
    return;
  }
  const spec = routeSpecRegistration(property, receiver, args);
  if (spec !== null) {
    const handlers = refsOf([spec.handler], imports, enclosing);
    if (handlers.length > 0) out.registrations.push({ kind: 'request', method: spec.method, path: spec.path ?? '(dynamic)', receiver, line, handlers });
    return;
  }
  if (HTTP_METHODS.has(property)) {
    if (receiver !== null && HTTP_CLIENT_NAME.test(receiver)) return;
    const chained = routeChainPath(callee.object);
    const hasPath = args.length > 0 && isPathLike(args[0]);
    if (chained === null && !hasPath && !(receiver !== null && ROUTER_NAME.test(receiver) && args.length > 1)) return;
    const path = chained ?? pathText(args[0]);
    const rest = chained !== null ? args : args.slice(1);
    const handlers = refsOf(rest, imports, enclosing);
    if (handlers.length === 0) return;
    const method = property === 'del' ? 'DELETE' : property.toUpperCase();
    out.registrations.push({ kind: 'request', method, path, receiver: chained !== null ? chainReceiver(callee.object) : receiver, line, handlers });
    return;
  }
  if (property === 'use') {
    if (receiver !== null && HTTP_CLIENT_NAME.test(receiver)) return;
    const prefixed = args.length > 0 && (isPathLike(args[0]) || args[0].type === 'StringLiteral');
    const prefix = prefixed ? pathText(args[0]) : '';
    const direct: HandlerRef[] = [];
    for (const arg of prefixed ? args.slice(1) : args) {
      const made = arg.type === 'CallExpression' && requiredModule(arg) === null ? refOf(arg.callee, imports, []) : null;
      const refs = refsOf([arg], imports, enclosing);
      if (made !== null && (made.kind === 'local' || made.kind === 'imported')) {
        // `use('/x', make(db))`: make may return a router (routeMap.ts decides, seeing make's module).
        const wrapped = refs.filter((r): r is Extract<HandlerRef, { kind: 'local' | 'imported' }> => r.kind === 'local' || r.kind === 'imported');
        direct.push(...refs.filter((r) => r.kind === 'inline'));
        out.uses.push({ receiver, prefix, line, target: made, called: { wrapped } });
        continue;
      }
      for (const ref of refs) {
        // What a call made inside a package's wrapper (`use(compose(makeAuth(db)))`) is middleware as is.
        if (ref.kind === 'inline' || ref.kind === 'made') direct.push(ref);
        else out.uses.push({ receiver, prefix, line, target: ref });
      }
    }
    if (direct.length > 0) out.registrations.push({ kind: 'request', method: 'USE', path: prefix === '' ? null : prefix, receiver, line, handlers: direct });
    return;
  }
  if (property === 'route' && args[0]?.type === 'ObjectExpression') {
    routeObject(args[0], receiver, line, imports, out, enclosing);
    return;
  }
  if (LISTEN_METHODS.has(property)) {
    const event = stringValue(args[0]);
    if (event === 'request') {
      const handlers = refsOf(args.slice(1), imports, enclosing);
      if (handlers.length > 0) out.registrations.push({ kind: 'request', method: 'REQUEST', path: null, receiver, line, handlers });
    } else if (event === 'connection' && acceptsClients(memberChain(callee.object))) {
      // Per client connection, not a route: what its socket's events run is (below).
      for (const arg of args.slice(1)) if (isFunctionNode(arg)) connections.add(arg);
    } else if (event !== null && (MESSAGE_EVENTS.has(event) || (isClientEvent(event) && isClientSocket(callee.object, enclosing, connections)))) {
      // A message or a stream's data, or socket.io's `socket.on('chat message', fn)`: a message its client sends.
      const handlers = refsOf(args.slice(1), imports, enclosing);
      if (handlers.length > 0) out.registrations.push({ kind: 'message', method: 'MESSAGE', path: `'${event}'${receiver !== null ? ` on ${receiver}` : ''}`, receiver, line, handlers });
    }
    return;
  }
  if (SUBSCRIBE_METHODS.has(property) && args.length > 1) {
    const handlers = refsOf(args.slice(1).filter((a) => isFunctionNode(a) || a.type === 'Identifier' || a.type === 'MemberExpression'), imports, enclosing);
    const channel = stringValue(args[0]);
    if (handlers.length > 0) out.registrations.push({ kind: 'message', method: 'MESSAGE', path: channel ?? '(dynamic)', receiver, line, handlers });
  } else if (isMessageSubscriptionMethod(property)) {
    // `bus.onMQTTMessage(this, handler)`: named for its messages (see registrationShapes.ts). A name
    // is a handler only when it names a function (`this.onMessage(msg)` hands a message along).
    const handlers = refsOf(args.filter((a) => isFunctionNode(a) || a.type === 'Identifier'), imports, enclosing)
      .filter((r) => r.kind !== 'local' || out.functions.has(r.name));
    if (handlers.length > 0) out.registrations.push({ kind: 'message', method: 'MESSAGE', path: `${property}${receiver !== null ? ` on ${receiver}` : ''}`, receiver, line, handlers });
  }
}

/** fastify's `app.route({ method: 'GET', url: '/x', handler })`. */
function routeObject(node: t.ObjectExpression, receiver: string | null, line: number, imports: ImportTable, out: ModuleRoutes, enclosing: readonly t.Function[]): void {
  let method: string | null = null;
  let path: string | null = null;
  const handlers: t.Node[] = [];
  for (const prop of node.properties) {
    if (prop.type === 'SpreadElement') continue;
    const key = propertyName(prop.key, prop.computed);
    if (prop.type === 'ObjectMethod') {
      if (key === 'handler') handlers.push(prop);
      continue;
    }
    if (key === 'method') method = prop.value.type === 'ArrayExpression' ? pathText(prop.value) : stringValue(prop.value);
    else if (key === 'url' || key === 'path') path = pathText(prop.value);
    else if (key === 'handler') handlers.push(prop.value);
  }
  const refs = refsOf(handlers, imports, enclosing);
  if (path === null || refs.length === 0) return;
  out.registrations.push({ kind: 'request', method: (method ?? 'ALL').toUpperCase(), path, receiver, line, handlers: refs });
}

function normalizedSource(imports: ImportTable, name: string): string | null {
  const source = imports.get(name)?.source;
  return source === undefined ? null : source.replace(/^node:/, '');
}
