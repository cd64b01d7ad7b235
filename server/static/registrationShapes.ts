// The call shapes that register handlers (express/koa/fastify routes, message listeners, NestJS
// decorators): constants and pure AST tests used by the hot-context collector.
import type * as t from '@babel/types';
import type { ExecutionKind } from '../../rules/api';
import { isFunctionNode, propertyName } from './functionNames';

export const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'all', 'options', 'head']);
/**
 * Route methods (as registration calls, decorators and route tables spell them) whose requests
 * change state: a save, an upload, a removal. How often they run is not in the code (see
 * ExecutionContext.changesState).
 */
export const STATE_CHANGING_METHODS = new Set(['post', 'put', 'patch', 'delete', 'del']);
export const LISTEN_METHODS = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);
export const MESSAGE_EVENTS = new Set(['message', 'pmessage', 'messageBuffer', 'data', 'line']);
export const SIGNAL_EVENTS = new Set(['SIGTERM', 'SIGINT', 'SIGHUP', 'exit', 'beforeExit']);
export const SUBSCRIBE_METHODS = new Set(['subscribe', 'pSubscribe', 'sSubscribe', 'SUBSCRIBE', 'PSUBSCRIBE']);
export const TIMER_FUNCTIONS = new Set(['setInterval', 'setTimeout', 'setImmediate']);
export const SERVER_MODULES = new Set(['http', 'https', 'http2']);
/** Modules whose createServer takes a handler run per client connection (a socket), not per HTTP request. */
export const CONNECTION_SERVER_MODULES = new Set(['net', 'tls']);
export const KAFKA_HANDLERS = new Set(['eachMessage', 'eachBatch']);
/**
 * `client.onMessage(fn)`, `eventBus.onMQTTMessage(owner, fn)`: a subscription named for the messages
 * it delivers (a wrapper of a broker's or a socket's `message` event), not an event of its own.
 */
const MESSAGE_SUBSCRIPTION = /^on(?:[A-Z][A-Za-z0-9]*)?Message$/;

export function isMessageSubscriptionMethod(property: string): boolean {
  return MESSAGE_SUBSCRIPTION.test(property);
}
/**
 * Events of a connection's or a socket's own life, and those Node's streams and emitters fire of
 * themselves: `disconnect`, `close`, `error`, `ping`. Any other event a client's socket is listened
 * for is one the client sends (see isClientEvent).
 */
const SOCKET_LIFECYCLE_EVENT = /^(?:connect(?:ed|ion|_error|_timeout)?|disconnect(?:ed|ing)?|reconnect(?:ed|ing|_attempt|_error|_failed)?|closed?|end|error|timeout|drain|finish|ready|open|lookup|secureConnect|session|keylog|pipe|unpipe|readable|upgrade|headers|response|unexpected-response|ping|pong|newListener|removeListener|online|offline|warning|exit|spawn|listening)$/;

/**
 * `socket.on('chat message', fn)`, `socket.on('order:create', fn)`: an event a client sends over
 * its socket (socket.io's events are named by the application), not the socket's own life and not
 * a stream's `data` or a `message` (MESSAGE_EVENTS, registered as such already).
 */
export function isClientEvent(event: string): boolean {
  return event.length > 0 && !SOCKET_LIFECYCLE_EVENT.test(event) && !MESSAGE_EVENTS.has(event) && event !== 'request' && event !== 'input';
}

/**
 * A parameter named for a client's socket (`socket`, `clientSocket`): socket.io's convention for
 * what its `connection` event hands over, and what a module of handlers takes
 * (`module.exports = (io, socket) => { socket.on('order:create', create) }`).
 */
export function isSocketParameterName(name: string): boolean {
  return /socket$/i.test(name);
}

/**
 * Receivers whose `connection` event is a database pool's (a pooled connection opened, a few per
 * process), not a client connecting to a server.
 */
const POOL_RECEIVER = /pool|knex|sequelize|mysql|pg$|db$|database/i;

/**
 * `<receiver>.on('connection', fn)` is a client connecting to a server (`io`, `wss`, a TCP server):
 * not `process`, not a database pool. `receiver` is the member chain it is called on (`this.pool`).
 */
export function acceptsClients(receiver: string | null): boolean {
  return receiver !== 'process' && !POOL_RECEIVER.test(receiver ?? '');
}

/** Fastify hooks that run per request (onReady/onClose run once). */
export const FASTIFY_REQUEST_HOOKS = new Set([
  'onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse', 'onError',
  'onTimeout', 'onRequestAbort',
]);
/** Receivers that are routers even when the route path is not a literal (`app.get(PATHS.x, fn)`). */
export const ROUTER_NAME = /^(app|router|routes?|server|fastify)$/i;
/** Receivers of `.get('/path', ...)` that are HTTP clients or caches, not routers. */
export const HTTP_CLIENT_NAME = /^(axios|request|got|superagent|needle|https?|fetch|ky|\$|client|httpClient|agent|cache|redis|memcached?)$/i;

export function calleeProperty(callee: t.Node): string | null {
  if (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') return null;
  return propertyName(callee.property, callee.computed);
}

export function stringValue(node: t.Node | undefined): string | null {
  if (!node) return null;
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked ?? null;
  return null;
}

/** A route path: '/x', '*', `/x/${id}`, /regex/, ['/a', '/b']. */
export function isPathLike(node: t.Node | undefined): boolean {
  if (!node) return false;
  switch (node.type) {
    case 'StringLiteral':
      return node.value.startsWith('/') || node.value === '*' || node.value.startsWith('(');
    case 'TemplateLiteral': {
      const head = node.quasis[0].value.cooked ?? '';
      return head.startsWith('/') || (head === '' && node.expressions.length > 0);
    }
    case 'RegExpLiteral':
    case 'ArrayExpression':
      return true;
    default:
      return false;
  }
}

/** `'GET /user/:id'`: a route written as one string, method then path, as CMS routers and route tables spell it. */
const ROUTE_SPEC = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|ALL)\s+(\/\S*)$/;
/** Methods that add a route to a router of the app's own by its pattern (`router.addRoute(/.*\/, fn)`). */
const ADD_ROUTE_METHODS = new Set(['addRoute']);
/** Calls that send a request named the same way (`client.request('GET /repos')`): a client, not a route. */
const REQUEST_SENDING_METHODS = new Set(['request', 'fetch', 'call', 'invoke', 'send']);

/**
 * A route added with its method and path in one string, or through an `addRoute` method with a
 * path: `router.addRoute('POST /user/login', loginUser, options, next)`, `router.addRoute(/.*\/, menu)`.
 * The handler is the argument right after the route (what follows are options and callbacks of the
 * registration itself). Null when the call is not that shape.
 */
export function routeSpecRegistration(property: string, receiver: string | null, args: readonly t.Node[]): { method: string; path: string | null; handler: t.Node } | null {
  if (args.length < 2 || REQUEST_SENDING_METHODS.has(property) || (receiver !== null && HTTP_CLIENT_NAME.test(receiver))) return null;
  const handler = args[1];
  if (!isFunctionNode(handler) && handler.type !== 'Identifier' && handler.type !== 'MemberExpression') return null;
  const spec = ROUTE_SPEC.exec(stringValue(args[0]) ?? '');
  if (spec !== null) return { method: spec[1], path: spec[2], handler };
  if (!ADD_ROUTE_METHODS.has(property) || !isPathLike(args[0])) return null;
  const path = args[0].type === 'RegExpLiteral' ? `/${args[0].pattern}/` : stringValue(args[0]);
  return { method: 'ALL', path, handler };
}

/**
 * Keys under which a route table entry holds its handler (`{ path: 'GET /x', fn: show }`, hapi's
 * `handler`). Not `callback`: a client's request options carry one too (`{ method, url, callback }`).
 */
const ROUTE_HANDLER_KEYS = new Set(['handler', 'fn', 'action', 'controller', 'handle']);
/** Keys under which a route table entry holds its path, when the method is its own key. */
const ROUTE_PATH_KEYS = new Set(['path', 'url', 'route', 'uri', 'pattern']);

/**
 * An object literal that is one entry of a route table: a route written as one string
 * (`{ path: 'GET /admin/mail', fn: show }`), or an HTTP method and a path under their own keys
 * (`{ method: 'POST', path: '/tasks', handler: create }`). A path alone is not enough: `{ path:
 * '/tmp/x', callback: done }` is as likely a file. The handlers are the values under handler keys.
 */
export function routeTableEntry(node: t.ObjectExpression): { method: string; path: string | null; handlers: t.Node[] } | null {
  let method: string | null = null;
  let path: string | null = null;
  let spec: RegExpExecArray | null = null;
  const handlers: t.Node[] = [];
  for (const prop of node.properties) {
    if (prop.type === 'SpreadElement') continue;
    const key = propertyName(prop.key, prop.computed);
    if (key === null) continue;
    if (prop.type === 'ObjectMethod') {
      if (ROUTE_HANDLER_KEYS.has(key)) handlers.push(prop);
      continue;
    }
    const text = stringValue(prop.value);
    spec ??= text === null ? null : ROUTE_SPEC.exec(text);
    if (key === 'method' && text !== null && (HTTP_METHODS.has(text.toLowerCase()) || text === '*')) method = text.toUpperCase();
    else if (ROUTE_PATH_KEYS.has(key) && text !== null && isPathLike(prop.value)) path = text;
    else if (ROUTE_HANDLER_KEYS.has(key)) handlers.push(prop.value);
  }
  if (handlers.length === 0) return null;
  if (spec !== null) return { method: spec[1], path: spec[2], handlers };
  return method !== null && path !== null ? { method, path, handlers } : null;
}

/** NestJS-style decorators that make a method a handler: `@Get()`, `@MessagePattern()`, `@Interval(500)`. */
export const REQUEST_DECORATORS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'All', 'Options', 'Head', 'Query', 'Mutation']);
export const MESSAGE_DECORATORS = new Set(['MessagePattern', 'EventPattern', 'SubscribeMessage', 'Process', 'RabbitSubscribe']);

export function decoratorRegistration(decorators: readonly t.Decorator[]): { kind: ExecutionKind; intervalMs: number | null; changesState?: boolean } | null {
  for (const decorator of decorators) {
    const expression = decorator.expression;
    const callee = expression.type === 'CallExpression' ? expression.callee : expression;
    if (callee.type !== 'Identifier') continue;
    if (REQUEST_DECORATORS.has(callee.name)) return { kind: 'request', intervalMs: null, changesState: STATE_CHANGING_METHODS.has(callee.name.toLowerCase()) };
    if (MESSAGE_DECORATORS.has(callee.name)) return { kind: 'message', intervalMs: null };
    if (callee.name === 'Interval' && expression.type === 'CallExpression') {
      const ms = expression.arguments[expression.arguments.length - 1];
      return { kind: 'timer', intervalMs: ms && ms.type === 'NumericLiteral' ? ms.value : null };
    }
    if (callee.name === 'Cron') return { kind: 'timer', intervalMs: null };
  }
  return null;
}

/** Innermost receiver name of `a.b.get(...)` -> 'b'; `this.router.get` -> 'router'. */
export function receiverName(callee: t.Node): string | null {
  if (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') return null;
  const object = callee.object;
  if (object.type === 'Identifier') return object.name;
  if (object.type === 'MemberExpression') return propertyName(object.property, object.computed);
  return null;
}

/** `router.route('/x').get(a).post(b)`: is `.route(...)` somewhere down the chain? */
export function isRouteChain(node: t.Node): boolean {
  let current: t.Node = node;
  for (let depth = 0; depth < 12; depth++) {
    if (current.type !== 'CallExpression') return false;
    const property = calleeProperty(current.callee);
    if (property === 'route') return true;
    if (current.callee.type !== 'MemberExpression') return false;
    current = current.callee.object;
  }
  return false;
}

export function firstParamName(node: t.Node): string | null {
  if (!isFunctionNode(node)) return null;
  const param = node.params[0];
  return param && param.type === 'Identifier' ? param.name : null;
}

/** Parameter pairs that only request handlers have: express `(req, res)`, fastify `(request, reply)`, koa `(ctx, next)`. */
const HANDLER_PARAMS: readonly [RegExp, RegExp][] = [
  [/^req(uest)?$/, /^res(ponse)?$|^reply$/],
  [/^ctx$/, /^next$/],
];

/** `(req, res[, next])`-shaped functions are request handlers wherever they are registered. */
export function isHandlerShaped(node: t.Function): boolean {
  // Exactly the handler arity: `(request, response, apiId, config, ...)` in a library is not a handler.
  if (node.params.length < 2 || node.params.length > 3) return false;
  const [first, second, third] = node.params;
  if (first.type !== 'Identifier' || second.type !== 'Identifier') return false;
  if (third && !(third.type === 'Identifier' && /^(next|done|cb|callback)$/.test(third.name))) return false;
  return HANDLER_PARAMS.some(([a, b]) => a.test(first.name) && b.test(second.name));
}

/**
 * Calls that register one of the module's own exports by its name, as a plugin host's API does
 * (`this.register_hook('queue', 'deliver')`): the host calls `exports.deliver` when the event fires.
 */
export const HOOK_BY_NAME_METHODS = new Set(['register_hook', 'registerHook']);
/** An export named `hook_<event>`: a plugin host calls it by that name when the event fires. */
export const HOOK_EXPORT = /^hook_(\w+)$/;
/**
 * Hook events that fire once per process (start-up, a reload, shutdown), not per connection or
 * message: `init_master`, `init_child`, `shutdown`, `load_config`.
 */
const ONE_TIME_HOOK_EVENT = /^(init|shutdown|load|reload|config|start|stop|exit|ready|close|boot|setup)(_|$)/i;

/** A hook event that fires per connection or message (not one-time, as far as its name tells). */
export function isPerEventHook(event: string): boolean {
  return !ONE_TIME_HOOK_EVENT.test(event);
}

/**
 * A server constructed with its per-connection callbacks in an options object
 * (`new SMTPServer({ onData, onAuth })`, `createFtpServer({ onLogin })`): the callee's name ends
 * in Server. `http.createServer` is a registration of its own.
 */
export function isServerConstructorName(name: string | null): boolean {
  return name !== null && /^(create)?[A-Z]?\w*Server$/.test(name) && name !== 'createServer';
}

/** `onData`, `onConnect`, `onMessage`: an options key naming a callback the server calls per event. */
export function isEventCallbackKey(key: string | null): boolean {
  return key !== null && /^on[A-Z]\w*$/.test(key) && !/^on(Ready|Listen|Listening|Start|Started|Close|Closed|Shutdown|Init|Error|Exit)$/.test(key);
}

/** An authentication middleware's strategy constructor (Passport's convention: `new LocalStrategy(options, verify)`). */
const STRATEGY_CONSTRUCTOR = /Strategy$/;
/** The middleware strategies are registered with (`passport.use(strategy)`). */
const STRATEGY_REGISTRY = /^passport$/i;

/**
 * `passport.use(new LocalStrategy({ ... }, verify))`, `passport.use('name', new Strategy(verify))`,
 * `auth.use(new BearerStrategy(verify))`: the verify function the strategy calls for every request
 * it authenticates (its last argument, not an options object). The strategy is recognised by the
 * registry's name or by a constructor named `...Strategy`; nothing else a `use` is handed counts.
 */
export function strategyVerifyOf(callee: t.Node, args: readonly t.Node[]): t.Node | null {
  if (calleeProperty(callee) !== 'use') return null;
  const strategy = args[args.length - 1];
  if (strategy?.type !== 'NewExpression' || strategy.arguments.length === 0) return null;
  const ctor = strategy.callee;
  const ctorName = ctor.type === 'Identifier' ? ctor.name : ctor.type === 'MemberExpression' ? propertyName(ctor.property, ctor.computed) : null;
  const registry = receiverName(callee);
  if (!(ctorName !== null && STRATEGY_CONSTRUCTOR.test(ctorName)) && !(registry !== null && STRATEGY_REGISTRY.test(registry))) return null;
  const verify = strategy.arguments[strategy.arguments.length - 1];
  return verify.type === 'ObjectExpression' || verify.type === 'SpreadElement' || verify.type === 'ArgumentPlaceholder' ? null : verify;
}
