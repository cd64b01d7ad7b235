// Where code runs, learned during the engine's single traversal: a collector visitor records
// every function, every handler registration (request, message, timer, signal) and every call
// between functions of this module; `finish()` then propagates the registrations' contexts along
// those calls and into nested function literals, hottest first.
// What the walk of one top-level statement finds is a segment of its own (HotSegment): an editor
// document keeps the segments of statements an edit did not touch and hands them back instead of
// walking those statements again, so `finish()` works from segments, in source order.
import type { NodePath, Visitor } from '@babel/traverse';
import type * as t from '@babel/types';
import type { BindingResolver } from './bindings';
import { calledExports, fieldCall, injectedCall, instanceCall, resultCall, staticCall, tableCall, type CalledExport } from './calledExports';
import { instanceTableEntriesCalled, tableEntriesCalled } from './dispatchTables';
import { isUnderTextMatch } from './textMatchBranches';
import { isDevOnly } from './devBranches';
import { evaluate } from './evaluate';
import { isMemoizedCall } from './memoizedCalls';
import { queueWorkerOf } from './workQueues';
import { jobProcessor, scheduledFunction } from './scheduledWork';
import { requiredModule } from './imports';
import {
  HOTNESS_ORDER,
  type ExecutionContext,
  type ExecutionKind,
  type HotContext,
  type ImportBinding,
  type ProjectRegistration,
  type ServingKind,
  type ServingLoader,
  type SourcePosition,
} from '../../rules/api';
import { classNameOf, type CallUse } from './project/moduleFacts';
import {
  classBodyOfInstance, functionOfBinding, isFunctionNode, memberChain, nameOf, propertyName,
} from './functionNames';
import {
  FASTIFY_REQUEST_HOOKS, HTTP_CLIENT_NAME, HTTP_METHODS, KAFKA_HANDLERS, LISTEN_METHODS, MESSAGE_EVENTS, ROUTER_NAME,
  CONNECTION_SERVER_MODULES, HOOK_BY_NAME_METHODS, HOOK_EXPORT, SERVER_MODULES, SIGNAL_EVENTS, STATE_CHANGING_METHODS, SUBSCRIBE_METHODS, TIMER_FUNCTIONS,
  calleeProperty, decoratorRegistration, firstParamName, isEventCallbackKey, isHandlerShaped, isMessageSubscriptionMethod, isPathLike, isPerEventHook,
  isClientEvent, isRouteChain, isServerConstructorName, isSocketParameterName, acceptsClients, receiverName, routeSpecRegistration, routeTableEntry, strategyVerifyOf, stringValue,
} from './registrationShapes';
import { isAdministrativeDecorator, isAdministrativePathText, isAdministrativeRoute } from './administrativeRoutes';

/** A function of the module as the engine reports it (enclosingFunction). */
export interface FunctionSpan {
  name: string | null;
  start: number;
  end: number;
  line: number;
  column: number;
}

/** How a call or a registration names its target, resolved once every function is known. */
type Target = (
  | { kind: 'node'; node: t.Node }
  | { kind: 'member'; key: string }
  | { kind: 'method'; owner: t.Node; name: string }
  /** What a call of the local function `node` returns when that is a function (`makeHandler(options)`). */
  | { kind: 'returned'; node: t.Node }
) & {
  /** Made in a loop: the callee runs per item. */
  perItem?: boolean;
  /** Made in a branch taken when a text holds given words (textMatchBranches.ts): with a child's output, occasional. */
  onMatch?: boolean;
};

/** A receiver that is a child's output stream (`child.stdout`, `this.proc.stderr`). */
const CHILD_OUTPUT = /(?:^|\.)(?:stdout|stderr)$/;

/** Names cheap enough to look up as a possible alias of a server module's createServer (see isServerFactoryAlias). */
const CREATE_SERVER_ALIAS = /server/i;

/** SvelteKit's server module, and its remote-function factories (`query` and `prerender` read; `command` and `form` change state). */
const SVELTEKIT_SERVER = '$app/server';
const SVELTEKIT_REMOTE = new Set(['query', 'command', 'form', 'prerender']);

/** Array methods whose callback runs once per element. */
const ITERATION_METHODS = new Set([
  'forEach', 'map', 'filter', 'reduce', 'reduceRight', 'some', 'every', 'find', 'findIndex', 'findLast',
  'findLastIndex', 'flatMap', 'sort',
]);
/** Receivers whose `message` events are a child's or a worker's IPC, not a stream of client messages. */
const IPC_RECEIVER = /child|worker|fork|cluster|ipc|proc/i;

interface FunctionInfo extends FunctionSpan {
  node: t.Node;
  /** The function around it while the walk is in it (the module-level pseudo-function of that walk at top level). */
  parent: FunctionInfo | null;
  /** Function literals directly nested in this one (they inherit its context). */
  nested: FunctionInfo[];
  /** A callback of forEach/map/...: runs once per element of what its parent iterates. */
  iterationCallback: boolean;
  /** Handed to `x.on/once/addListener(event, fn)`: runs when the event fires, not when its parent runs. */
  listenerCallback: boolean;
  calls: Target[];
  /** The functions it returns (`(dir) => (req, res) => …`, `return function handler() {…}`): a factory's product. */
  returns: t.Node[];
  /**
   * Calls of another module's export made here (`helpers.tidy(file)`, an imported `tidy(file)`),
   * by the local name called and the member taken: resolved to a module after the walk.
   */
  importedCalls: CalledExport[];
  /** What `this.x` means inside: a class/object node, a member chain ("Foo.prototype"), or nothing. */
  thisOwner: t.Node | string | null;
  context: ExecutionContext | null;
}

interface Registration {
  kind: ExecutionKind;
  targets: Target[];
  /** Where it is registered: the node, whose position is read when the context is asked for (nodes move with edits). */
  node: t.Node | null;
  intervalMs: number | null;
  /** A timer that repeats (setInterval, a schedule), whether or not its interval is known; false for setImmediate. */
  periodic: boolean;
  /** setTimeout: periodic only if the callback reschedules itself (checked after traversal). */
  oneShotFrom: FunctionInfo | null;
  /** Guessed from a handler's shape, not seen being registered: yields to real registrations. */
  inferred: boolean;
  /** For messages: the source delivers at a high rate (see ExecutionContext.highRate). */
  highRate: boolean;
  /** A route of a method that changes state (see ExecutionContext.changesState). */
  changesState?: boolean;
  /** An administrative route, or a child's IPC (see ExecutionContext.occasional). */
  occasional?: boolean;
  /** A raw TCP/TLS server's connection handler (see ExecutionContext.perConnection). */
  perConnection?: boolean;
  /** A child process's stdout or stderr (see ExecutionContext.childOutput). */
  childOutput?: boolean;
}

/**
 * What the walk of one top-level statement added: its functions, the calls and registrations
 * made in it, in walk order. Kept with the statement by an editor document (nothing here refers
 * to another statement except through nodes and member names, resolved in `finish()`).
 */
export interface HotSegment {
  readonly infos: FunctionInfo[];
  /** Calls made at module level; `callbacks` are those a function literal handed to a call is (start-up, unless registered). */
  readonly moduleCalls: Target[];
  readonly callbacks: Set<Target>;
  readonly registrations: Registration[];
  readonly registered: t.Node[];
  /** Handler-shaped functions: requests, unless some registration names them. */
  readonly inferred: t.Node[];
  /**
   * Handler-shaped functions that route each request among handlers chosen at run time (they call
   * a table's entries with their own `req` and `res`): a router's entry, seen as one, not guessed.
   */
  readonly routers: t.Node[];
  readonly memberKeys: [string, FunctionInfo][];
  readonly methods: [t.Node, string, FunctionInfo][];
  /** Instance methods of named classes: class name, method name (for the project's calls on injected dependencies). */
  readonly classMethods: [string, string, FunctionInfo][];
  /**
   * Members of the object a module-level function returns (`function create() { return { collect } }`,
   * `module.exports = (app) => { const svc = {}; svc.run = ...; return svc; }`): member name and
   * function, or the returned local's name (its `name.member` functions are members).
   */
  readonly returnedMembers: [string, t.Node][];
  readonly returnedNames: [string, t.Node][];
  /**
   * Parameters of a module-level function called at once with the module's exports object
   * (`(function (module) { module.hash = ... }(exports))`): inside it, `<name>.x` is `exports.x`.
   */
  readonly exportAliases: string[];
  /**
   * Exports of other modules handed to a repeating timer or a schedule (`setInterval(stats.collect,
   * 5000)`, `cron.schedule(spec, tasks.cleanup)`), with the interval: called per tick from this
   * module, as a call from a timer's callback is (see callsOut).
   */
  readonly timerExports: [CalledExport, number | null][];
  servesRequests: boolean;
  /** It creates a server, calls listen() or registers a route: the module serves requests itself. */
  serves: boolean;
}

/** What the project-wide analysis knows of this module (server/static/project/): a view of it, not a second analysis. */
export interface ProjectContext {
  /** Its exports other modules register as handlers. */
  registrations: readonly ProjectRegistration[];
  /** Another module starts it as a child process or worker thread. */
  startedAsWorker: boolean;
  /** A serving module of the project that loads it (ProjectFacts.servingLoaderOf), or null; asked when needed. */
  servingLoader: () => ServingLoader | null;
}

const NO_PROJECT_CONTEXT: ProjectContext = { registrations: [], startedAsWorker: false, servingLoader: () => null };

export interface HotContextCollector {
  visitor: Visitor;
  /** The walk enters a top-level statement: what it finds until the next one is this segment. */
  startSegment(): HotSegment;
  /** A segment an earlier walk recorded for an unchanged statement, in place of walking it again. */
  reuseSegment(segment: HotSegment): void;
  /** Call after the traversal: propagates contexts (with the project's registrations of this module's exports) and returns the finished HotContext. */
  finish(project?: ProjectContext): HotContext;
  /** Every function seen, in source order (valid after `finish()`). */
  functions(): readonly FunctionSpan[];
  /**
   * Calls of other modules' exports made by code that runs per request, per message or per tick
   * of a periodic timer here, seen registered (not inferred from a handler's shape); valid after `finish()`.
   */
  callsOut(): CallUse[];
  /**
   * What the module itself serves: 'requests' when it creates a server, calls listen() or registers
   * a route; 'messages' when it only registers message handlers (not IPC with a parent or child);
   * null otherwise (a handler inferred from a `(req, res)` shape does not count). Valid after `finish()`.
   */
  servesItself(): ServingKind | null;
}

function newSegment(): HotSegment {
  return {
    infos: [], moduleCalls: [], callbacks: new Set(), registrations: [], registered: [], inferred: [], routers: [], memberKeys: [], methods: [], classMethods: [], returnedMembers: [], returnedNames: [], exportAliases: [], timerExports: [],
    servesRequests: false, serves: false,
  };
}

const RANK = new Map<ExecutionKind, number>(HOTNESS_ORDER.map((kind, index) => [kind, index]));
const UNKNOWN: ExecutionContext = {
  kind: 'unknown', via: [], registeredAt: null, timerIntervalMs: null, periodic: false, inLoop: false, perItem: false, highRate: false, assumed: false, changesState: false,
  occasional: false,
  perConnection: false,
};
const STARTUP: ExecutionContext = { ...UNKNOWN, kind: 'startup' };

function positionOf(node: t.Node): SourcePosition | null {
  return node.loc ? { line: node.loc.start.line, column: node.loc.start.column } : null;
}

/**
 * SvelteKit's file routes (its documented convention): a `+server` file's exported `GET`, `POST`, ...
 * functions answer requests to its route; a `+page.server` / `+layout.server` file's exported `load`
 * runs per page request and its `actions` per form submission. Null for any other file.
 */
export type SvelteKitRouteFile = 'endpoint' | 'page' | null;

export function svelteKitRouteFile(filePath: string): SvelteKitRouteFile {
  const base = filePath.slice(Math.max(filePath.lastIndexOf('/'), filePath.lastIndexOf('\\')) + 1);
  if (/^\+server\.(?:js|ts|mjs|mts)$/.test(base)) return 'endpoint';
  if (/^\+(?:page|layout)\.server\.(?:js|ts|mjs|mts)$/.test(base)) return 'page';
  return null;
}

const ENDPOINT_EXPORTS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'fallback']);

/** The name a module-level function is exported by (`export function GET`, `export const GET = ...`), or null. */
function exportedNameOf(path: NodePath<t.Function>): string | null {
  const node = path.node;
  if (node.type === 'FunctionDeclaration') return path.parent.type === 'ExportNamedDeclaration' && node.id ? node.id.name : null;
  const declarator = path.parent;
  if (declarator.type !== 'VariableDeclarator' || declarator.init !== node || declarator.id.type !== 'Identifier') return null;
  return path.parentPath?.parentPath?.parent.type === 'ExportNamedDeclaration' ? declarator.id.name : null;
}

/** `export const actions = { default: async (...) => {}, save() {} }`: a member function of the exported `actions`. */
function isExportedAction(path: NodePath<t.Function>): boolean {
  const property = path.node.type === 'ObjectMethod' ? path : path.parentPath;
  if (property?.node.type !== 'ObjectProperty' && property?.node.type !== 'ObjectMethod') return false;
  const declarator = property.parentPath?.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.id.type !== 'Identifier' || declarator.id.name !== 'actions') return false;
  return property.parentPath?.parentPath?.parentPath?.parent.type === 'ExportNamedDeclaration';
}

export function createHotContextCollector(
  importOf: (localName: string) => ImportBinding | null,
  bindings: BindingResolver,
  routeFile: SvelteKitRouteFile = null,
): HotContextCollector {
  // Module-level code is a pseudo-function: it calls functions (start-up) but is no function node.
  const moduleNode: t.Noop = { type: 'Noop' };
  const moduleInfo: FunctionInfo = {
    node: moduleNode,
    name: null,
    start: 0,
    end: Number.MAX_SAFE_INTEGER,
    line: 1,
    column: 0,
    parent: null,
    nested: [],
    iterationCallback: false,
    listenerCallback: false,
    calls: [],
    returns: [],
    importedCalls: [],
    thisOwner: null,
    context: STARTUP,
  };
  const segments: HotSegment[] = [];
  /** The segment the walk is in (one before the first statement, for anything outside them). */
  let segment = newSegment();
  segments.push(segment);
  moduleInfo.calls = segment.moduleCalls;
  // Built by finish() from the segments.
  let infos: FunctionInfo[] = [];
  const byNode = new Map<t.Node, FunctionInfo>();
  const byMemberKey = new Map<string, FunctionInfo>();
  const methodsByOwner = new Map<t.Node, Map<string, FunctionInfo>>();
  /** Function nodes handed to a registration: they run in its context, not their parent's. */
  const registeredNodes = new Set<t.Node>();
  const stack: FunctionInfo[] = [moduleInfo];
  let servesRequests = false;

  function startSegment(): HotSegment {
    segment = newSegment();
    segments.push(segment);
    stack.length = 1;
    moduleInfo.calls = segment.moduleCalls;
    return segment;
  }

  function reuseSegment(kept: HotSegment): void {
    segments.push(kept);
  }

  /** The function containing `offset`; self-heals if a visitor skipped an exit. */
  function current(offset: number): FunctionInfo {
    let top = stack[stack.length - 1];
    while (stack.length > 1 && !(top.start <= offset && offset < top.end)) {
      stack.pop();
      top = stack[stack.length - 1];
    }
    return top;
  }

  function thisTarget(from: FunctionInfo, name: string): Target | null {
    const owner = from.thisOwner;
    if (owner === null) return null;
    if (typeof owner === 'string') return { kind: 'member', key: `${owner}.${name}` };
    return { kind: 'method', owner, name };
  }

  /** What a handler argument / callee designates, as a Target (null when not this module's). */
  function targetOf(path: NodePath, node: t.Node, from: FunctionInfo, depth = 0): Target | null {
    if (depth > 3) return null;
    if (isFunctionNode(node)) return { kind: 'node', node };
    if (node.type === 'Identifier') {
      const fn = functionOfBinding(bindings, path, node.name);
      return fn ? { kind: 'node', node: fn } : madeByFactory(path, node.name);
    }
    if (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') {
      const property = propertyName(node.property, node.computed);
      if (property === null) return null;
      if (node.object.type === 'ThisExpression') return thisTarget(from, property);
      if (property === 'call' || property === 'apply' || property === 'bind') return targetOf(path, node.object, from, depth + 1);
      if (node.object.type === 'Identifier') {
        const body = classBodyOfInstance(bindings, path, node.object.name);
        if (body) return { kind: 'method', owner: body, name: property };
        // `queue.push(task)` of `const queue = async.queue(worker, 1)`: runs the worker per task.
        const worker = node.type === 'MemberExpression' ? queueWorkerOf(path, node, bindings) : null;
        if (worker) return { kind: 'node', node: worker };
      }
      const chain = memberChain(node);
      return chain === null ? null : { kind: 'member', key: chain };
    }
    if (node.type === 'CallExpression' && calleeProperty(node.callee) === 'bind') {
      return targetOf(path, node.callee, from, depth + 1);
    }
    return null;
  }

  /**
   * `const handler = makeHandler(options)`: the function the local factory returns, which is what
   * runs when `handler` is called or registered (resolved once every function is walked). The
   * factory's own body ran once, where it was called: it is not a target.
   */
  function madeByFactory(path: NodePath, name: string): Target | null {
    const binding = bindings.bindingOf(path, name);
    const declarator = binding?.declarator;
    if (binding === undefined || declarator == null || declarator.id.type !== 'Identifier' || declarator.init?.type !== 'CallExpression') return null;
    return factoryCallTarget(binding.path, declarator.init);
  }

  /** `makeHandler(options)` of a function declared here: what it returns, as a Target. */
  function factoryCallTarget(path: NodePath, call: t.CallExpression): Target | null {
    if (call.callee.type !== 'Identifier') return null;
    const factory = functionOfBinding(bindings, path, call.callee.name);
    return factory ? { kind: 'returned', node: factory } : null;
  }

  /** A function `from` returns (`return function handler() {…}`, `return handler`, an arrow's function body): see FunctionInfo.returns. */
  function noteReturnedFunction(path: NodePath, returned: t.Node, from: FunctionInfo): void {
    const fn = isFunctionNode(returned) ? returned : returned.type === 'Identifier' ? functionOfBinding(bindings, path, returned.name) : null;
    if (fn !== null) from.returns.push(fn);
  }

  /** Handler targets among arguments, looking into arrays and wrapper calls (`asyncHandler(fn)`) and what a local factory returns (`makeHandler(options)`). */
  function handlerTargets(path: NodePath, args: readonly t.Node[], from: FunctionInfo, out: Target[] = [], depth = 0): Target[] {
    for (const arg of args) {
      if (arg.type === 'ArrayExpression') {
        handlerTargets(path, arg.elements.filter((e): e is t.Expression => e !== null), from, out, depth);
        continue;
      }
      if (arg.type === 'CallExpression' && depth < 2 && calleeProperty(arg.callee) !== 'bind') {
        const made = factoryCallTarget(path, arg);
        if (made !== null) out.push(made);
        handlerTargets(path, arg.arguments, from, out, depth + 1);
        continue;
      }
      const target = targetOf(path, arg, from);
      if (target) {
        out.push(target);
        if (target.kind === 'node') segment.registered.push(target.node);
        continue;
      }
      // `server.on('request', handlers[mode])`: whichever entry of the local table is chosen is registered.
      for (const node of tableEntriesCalled(path, arg, bindings)) {
        out.push({ kind: 'node', node });
        segment.registered.push(node);
      }
    }
    return out;
  }

  function register(kind: ExecutionKind, targets: Target[], call: t.Node, intervalMs: number | null = null,
    oneShotFrom: FunctionInfo | null = null, highRate = false, periodic = kind === 'timer', changesState = false, occasional = false, perConnection = false,
    childOutput = false): void {
    if (kind === 'request') segment.serves = true;
    if (targets.length > 0) {
      segment.registrations.push({
        kind, targets, node: call, intervalMs, periodic, oneShotFrom, inferred: false, highRate, changesState, occasional,
        ...(perConnection ? { perConnection } : {}), ...(childOutput ? { childOutput } : {}),
      });
    }
  }

  /** `node` is one of `modules` (http's by default; `net` and `tls` for connection servers) as this module names it. */
  function isServerModuleObject(node: t.Node, path?: NodePath, modules: ReadonlySet<string> = SERVER_MODULES): boolean {
    // `http_1.default`: the module seen through a compiler's interop helper.
    if (node.type === 'MemberExpression' && node.object.type === 'Identifier' && propertyName(node.property, node.computed) === 'default') {
      const origin = importOf(node.object.name);
      if (origin !== null) return origin.namespace && modules.has(origin.source);
    }
    if (node.type === 'Identifier') {
      const origin = importOf(node.name);
      if (origin === null && path !== undefined) {
        // TypeScript's CommonJS output: `const http_1 = __importDefault(require("http"))`.
        const declarator = bindings.bindingOf(path, node.name)?.declarator;
        const init = declarator?.type === 'VariableDeclarator' ? declarator.init : null;
        const helper = init?.type === 'CallExpression' ? init.callee : null;
        const helperName = helper?.type === 'Identifier' ? helper.name : helper ? calleeProperty(helper) : null;
        if (init?.type === 'CallExpression' && (helperName === '__importDefault' || helperName === '__importStar')) {
          const source = init.arguments[0] ? requiredModule(init.arguments[0]) : null;
          if (source !== null) return modules.has(source);
        }
      }
      return origin !== null ? modules.has(origin.source) && origin.imported === 'default' : modules.has(node.name);
    }
    if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'require') {
      const source = stringValue(node.arguments[0]);
      return source !== null && modules.has(source.replace(/^node:/, ''));
    }
    return false;
  }

  /** `http.createServer`, `http_1.default.createServer`, `https.createServer.bind(this, options)`. */
  function isServerFactory(path: NodePath, node: t.Node, depth = 0): boolean {
    if (depth > 2) return false;
    if (node.type === 'CallExpression' && calleeProperty(node.callee) === 'bind' && node.callee.type === 'MemberExpression') return isServerFactory(path, node.callee.object, depth + 1);
    if (node.type === 'ConditionalExpression') return isServerFactory(path, node.consequent, depth + 1) && isServerFactory(path, node.alternate, depth + 1);
    if (node.type !== 'MemberExpression' || propertyName(node.property, node.computed) !== 'createServer') return false;
    const object = node.object;
    if (object.type === 'MemberExpression' && propertyName(object.property, object.computed) === 'default') return isServerModuleObject(object.object, path);
    return isServerModuleObject(object, path);
  }

  /** `const createServer = secure ? https.createServer.bind(this, tls) : http.createServer`: a local bound to the server modules' createServer. */
  function isLocalServerFactory(path: NodePath, name: string): boolean {
    const declarator = bindings.bindingOf(path, name)?.declarator;
    return declarator?.type === 'VariableDeclarator' && declarator.init != null && isServerFactory(path, declarator.init);
  }

  function timerIntervalOf(path: NodePath<t.CallExpression>): number | null {
    const arg = path.node.arguments[1];
    if (!arg) return null;
    if (arg.type === 'NumericLiteral') return arg.value;
    const evaluated = evaluate(path.get('arguments.1') as NodePath, bindings);
    return evaluated.confident && typeof evaluated.value === 'number' ? evaluated.value : null;
  }

  /** Recognizes a registration; returns true when the call was one (so it is not a plain call edge). */
  function recordRegistration(path: NodePath<t.CallExpression>, from: FunctionInfo): boolean {
    const node = path.node;
    const callee = node.callee;
    const args = node.arguments;
    if (callee.type === 'Identifier') {
      if (TIMER_FUNCTIONS.has(callee.name) && bindings.bindingOf(path, callee.name) === undefined) {
        const targets = handlerTargets(path, args.slice(0, 1), from);
        // setInterval repeats whatever its interval (often read from configuration); setImmediate runs
        // once, and so does a setTimeout that waits before the function's work in a guard that
        // returns (`if (!ready) return setTimeout(() => stop(id), 250)`): the work after it runs once.
        const intervalMs = callee.name === 'setImmediate' ? null : timerIntervalOf(path);
        register('timer', targets, node, intervalMs,
          callee.name === 'setTimeout' ? from : null, false, callee.name === 'setInterval' || (callee.name === 'setTimeout' && !isWaitGuard(path)));
        if (callee.name === 'setInterval' && args.length > 0) noteTimerExports(path, args[0], intervalMs);
        return true;
      }
      // A SvelteKit remote function (`export const list = query(schema, async (args) => ...)`):
      // its function runs for every call the app's pages make to it over HTTP.
      const remote = importOf(callee.name);
      if (remote !== null && remote.source === SVELTEKIT_SERVER && SVELTEKIT_REMOTE.has(remote.imported)) {
        // The function is the last argument (a schema may come first): a literal, or a name bound to one.
        const last = args[args.length - 1];
        const handler = last !== undefined && (isFunctionNode(last) || last.type === 'Identifier') ? last : undefined;
        const targets = handler === undefined ? [] : handlerTargets(path, [handler], from);
        if (targets.length === 0) return false;
        segment.servesRequests = true;
        register('request', targets, node, null, null, false, false, remote.imported !== 'query' && remote.imported !== 'prerender');
        return true;
      }
      if (callee.name === 'createServer' || CREATE_SERVER_ALIAS.test(callee.name)) {
        const origin = callee.name === 'createServer' ? importOf('createServer') : null;
        if ((origin && SERVER_MODULES.has(origin.source)) || (origin === null && isLocalServerFactory(path, callee.name))) {
          segment.servesRequests = true;
          register('request', handlerTargets(path, args.filter(isFunctionLike), from), node);
          return true;
        }
      }
      return false;
    }
    const property = calleeProperty(callee);
    if (property === null || (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression')) return false;
    if (property === 'listen') {
      segment.servesRequests = true;
      segment.serves = true;
      return false;
    }
    const spec = routeSpecRegistration(property, receiverName(callee), args);
    if (spec !== null) {
      const handlers = handlerTargets(path, [spec.handler], from);
      if (handlers.length === 0) return false;
      segment.servesRequests = true;
      register('request', handlers, node, null, null, false, false, STATE_CHANGING_METHODS.has(spec.method.toLowerCase()),
        spec.path !== null && isAdministrativePathText(spec.path));
      return true;
    }
    if (HTTP_METHODS.has(property)) {
      if (isRouteChain(callee.object)) {
        segment.servesRequests = true;
        register('request', handlerTargets(path, args, from), node, null, null, false, false, STATE_CHANGING_METHODS.has(property), isAdministrativeRoute(args));
        return true;
      }
      if (args.length < 2) return false;
      // koa-router: get(name, path, fn); an array second argument is middleware, not a path.
      const named = args[0].type === 'StringLiteral' && !isPathLike(args[0])
        && (args[1].type === 'StringLiteral' || args[1].type === 'TemplateLiteral') && isPathLike(args[1]);
      const receiver = receiverName(callee);
      if (receiver !== null && HTTP_CLIENT_NAME.test(receiver)) return false;
      const isRouter = receiver !== null && ROUTER_NAME.test(receiver);
      if (isPathLike(args[0]) || named || isRouter) {
        // `x.get('/path', config)` with no handler is as likely an HTTP client call as a route.
        const handlerArgs = args.slice(named ? 2 : 1).filter((a) => a.type !== 'ObjectExpression');
        if (!isRouter && !handlerArgs.some(isFunctionLike)) return false;
        const handlers = handlerTargets(path, handlerArgs, from);
        if (handlers.length === 0 && !isRouter) return false;
        segment.servesRequests = true;
        register('request', handlers, node, null, null, false, false, STATE_CHANGING_METHODS.has(property), isAdministrativeRoute(args));
        return true;
      }
      return false;
    }
    if (property === 'use') {
      // An authentication strategy: its verify function runs for every request it authenticates.
      const verify = strategyVerifyOf(callee, args);
      if (verify !== null) {
        const targets = handlerTargets(path, [verify], from);
        if (targets.length === 0) return false;
        segment.servesRequests = true;
        register('request', targets, node);
        return true;
      }
      const handlers = handlerTargets(path, args.filter((a) => !isPathLike(a)), from);
      if (handlers.length === 0) return false;
      segment.servesRequests = true;
      register('request', handlers, node, null, null, false, false, false, isAdministrativeRoute(args));
      return true;
    }
    if (property === 'route' && args.length === 1 && args[0].type === 'ObjectExpression') {
      const handlers: t.Node[] = [];
      for (const prop of args[0].properties) {
        if (prop.type === 'SpreadElement') continue;
        const key = propertyName(prop.key, prop.computed);
        if (key !== 'handler' && (key === null || !FASTIFY_REQUEST_HOOKS.has(key))) continue;
        handlers.push(prop.type === 'ObjectMethod' ? prop : prop.value);
      }
      if (handlers.length === 0) return false;
      segment.servesRequests = true;
      register('request', handlerTargets(path, handlers, from), node);
      return true;
    }
    if (HOOK_BY_NAME_METHODS.has(property)) {
      // `this.register_hook('queue', 'deliver')`: the host calls this module's export `deliver` per event.
      const event = stringValue(args[0]);
      const name = stringValue(args[1]);
      if (event === null || name === null || !isPerEventHook(event)) return false;
      segment.servesRequests = true;
      // Per connection or message of the host's server: its traffic.
      register('message', [{ kind: 'member', key: `exports.${name}` }, { kind: 'member', key: `module.exports.${name}` }], node, null, null, true);
      return true;
    }
    if (property === 'addHook') {
      const hook = stringValue(args[0]);
      if (hook === null || !FASTIFY_REQUEST_HOOKS.has(hook)) return false;
      segment.servesRequests = true;
      register('request', handlerTargets(path, args.slice(1), from), node);
      return true;
    }
    if (property === 'createServer' && isServerModuleObject(callee.object)) {
      segment.servesRequests = true;
      register('request', handlerTargets(path, args.filter(isFunctionLike), from), node);
      return true;
    }
    // A TCP or TLS server (`net.createServer((socket) => …)`): its handler runs once per client
    // connection (an SMTP or IMAP session, a device), what the socket's `data` brings per message.
    if (property === 'createServer' && isServerModuleObject(callee.object, path, CONNECTION_SERVER_MODULES)) {
      segment.servesRequests = true;
      register('request', handlerTargets(path, args.filter(isFunctionLike), from), node, null, null, false, false, false, false, true);
      return true;
    }
    if (LISTEN_METHODS.has(property)) {
      const event = stringValue(args[0]);
      if (event === null || args.length < 2) return false;
      const onProcess = callee.object.type === 'Identifier' && callee.object.name === 'process' && bindings.bindingOf(path, 'process') === undefined;
      const receiver = memberChain(callee.object);
      // A terminal's keypresses (`process.stdin.on('data')` in a CLI) come at typing speed: not a service's traffic.
      const onStdin = receiver === 'process.stdin' && bindings.bindingOf(path, 'process') === undefined;
      let kind: ExecutionKind | null = null;
      if ((onProcess && SIGNAL_EVENTS.has(event)) || (onStdin && (MESSAGE_EVENTS.has(event) || event === 'keypress'))) kind = 'signal';
      else if (event === 'request') kind = 'request';
      else if (MESSAGE_EVENTS.has(event)) kind = 'message';
      // A Node-RED node's `this.on('input', function (msg, send, done) {...})`: once per message of its flow.
      else if (event === 'input' && firstParamName(args[1]) === 'msg') kind = 'message';
      // A client connecting to a server (`io.on('connection', (socket) => …)`, a WebSocket or TCP
      // server's `connection`): its handler runs once per client connection, not per message.
      if (kind === null && event === 'connection' && isClientConnectionSource(callee.object, path)) {
        segment.servesRequests = true;
        register('request', handlerTargets(path, args.slice(1), from), node, null, null, false, false, false, false, true);
        return true;
      }
      // An event a client sends over its socket (socket.io's `socket.on('chat message', fn)`): it
      // runs per message of that client. How often clients send it is not in the code (a chat's
      // messages, or an admin panel's `install`): a rate not known.
      if (kind === null && isClientEvent(event) && isClientSocket(path, callee.object, from)) {
        segment.servesRequests = true;
        register('message', handlerTargets(path, args.slice(1), from), node);
        return true;
      }
      if (kind === null) return false;
      // `process.on('message')` / `child.on('message')` is IPC with a parent or a child: a handful of
      // messages, and nobody's traffic (a module that only talks to its parent serves nothing).
      const ipc = onProcess || (receiver !== null && IPC_RECEIVER.test(receiver.split('.').pop() ?? ''));
      if (kind !== 'signal' && !(kind === 'message' && ipc)) segment.servesRequests = true;
      // A flow's messages are its node's traffic, as a socket's data is.
      // IPC runs when a process starts, stops or is told something by its parent: occasional.
      // A child's stdout or stderr (`this.childProcess.stdout.on('data', handler)`): its banner lines are tested for.
      const childOutput = kind === 'message' && receiver !== null && CHILD_OUTPUT.test(receiver) && !receiver.startsWith('process.');
      register(kind, handlerTargets(path, args.slice(1), from), node, null, null, kind === 'message' && !ipc,
        false, false, kind === 'message' && ipc, false, childOutput);
      return true;
    }
    if (SUBSCRIBE_METHODS.has(property) || property === 'consume') {
      // ioredis' subscribe(channel, (err, count) => ...) callback runs once: not a message handler.
      const handlers = args.slice(1).filter((arg) => {
        const first = firstParamName(arg);
        return isFunctionLike(arg) && first !== 'err' && first !== 'error';
      });
      const targets = handlerTargets(path, handlers, from);
      if (targets.length === 0) return false;
      segment.servesRequests = true;
      // A broker channel is named by a string (`sub.subscribe('orders', fn)`, `channel.consume(q, fn)`);
      // `DomainEvents.subscribe(SomeEvent, fn)` is an in-process event bus firing on rare events.
      const channel = args[0] !== undefined && (stringValue(args[0]) !== null || args[0].type === 'TemplateLiteral');
      register('message', targets, node, null, null, property === 'consume' || channel);
      return true;
    }
    if (isMessageSubscriptionMethod(property)) {
      // Only functions of this module: `this.onMessage(payload.msg)` hands a message, not a handler.
      const targets = handlerTargets(path, args, from).filter((target) => target.kind !== 'member');
      if (targets.length === 0) return false;
      segment.servesRequests = true;
      // Its source's rate is not known: it may wrap a busy broker or a handful of control messages.
      register('message', targets, node);
      return true;
    }
    return false;
  }

  /** What `.on('connection', fn)` is called on accepts clients (acceptsClients; a local named `process` is not the process). */
  function isClientConnectionSource(object: t.Node, path: NodePath): boolean {
    const chain = memberChain(object);
    return acceptsClients(chain) || (chain === 'process' && bindings.bindingOf(path, 'process') !== undefined);
  }

  /**
   * The receiver of `socket.on(event, fn)` is a client's socket: a parameter named for one, or the
   * parameter of a function handed to `.on('connection', …)` right there (socket.io's
   * `io.on('connection', (client) => { client.on('event', fn) })`).
   */
  function isClientSocket(path: NodePath, object: t.Node, from: FunctionInfo): boolean {
    if (object.type !== 'Identifier') return false;
    const binding = bindings.bindingOf(path, object.name);
    if (binding === undefined || binding.kind !== 'param') return false;
    if (isSocketParameterName(object.name)) return true;
    for (let info: FunctionInfo | null = from; info !== null && info.node.type !== 'Noop'; info = info.parent) {
      const fn = info.node as t.Function;
      if (!fn.params.includes(binding.identifier)) continue;
      const owner = path.findParent((each) => each.node === fn);
      const call = owner?.parentPath;
      if (owner?.listKey !== 'arguments' || call?.isCallExpression() !== true) return false;
      const callee = call.node.callee;
      return LISTEN_METHODS.has(calleeProperty(callee) ?? '') && stringValue(call.node.arguments[0]) === 'connection'
        && isClientConnectionSource(callee.type === 'MemberExpression' ? callee.object : callee, call);
    }
    return false;
  }

  /**
   * `new SMTPServer({ onData, onAuth })`, `createFtpServer(options)` with the options built in this
   * function (`const options = Object.assign({}, defaults, { onData })`): each `on<Event>` callback
   * runs per connection or message of the server.
   */
  function recordServerCallbacks(path: NodePath<t.CallExpression | t.NewExpression>, from: FunctionInfo): boolean {
    const callee = path.node.callee;
    const name = callee.type === 'Identifier' ? callee.name : calleeProperty(callee);
    if (!isServerConstructorName(name) || path.node.arguments.length === 0) return false;
    const callbacks: t.Node[] = [];
    for (const object of optionObjects(path, path.node.arguments[0], 0)) {
      for (const prop of object.properties) {
        if (prop.type === 'SpreadElement' || !isEventCallbackKey(propertyName(prop.key, prop.computed))) continue;
        callbacks.push(prop.type === 'ObjectMethod' ? prop : prop.value);
      }
    }
    const targets = handlerTargets(path, callbacks.filter(isFunctionLike), from);
    if (targets.length === 0) return false;
    segment.servesRequests = true;
    segment.serves = true;
    // Per connection or message of the server: its traffic.
    register('message', targets, path.node, null, null, true);
    return true;
  }

  /**
   * A schedule's function, a periodic timer (`cron.schedule('*\/5 * * * *', fn)`), or a job queue's
   * processor, run per job at a rate the code does not show (`queue.process((job) => …)`): see
   * scheduledWork.ts.
   */
  function recordScheduledWork(path: NodePath<t.CallExpression | t.NewExpression>, from: FunctionInfo): boolean {
    const scheduled = scheduledFunction(path.node);
    if (scheduled !== null) {
      const targets = handlerTargets(path, [scheduled], from);
      const noted = segment.timerExports.length;
      noteTimerExports(path, scheduled, null);
      if (targets.length === 0) return segment.timerExports.length > noted;
      register('timer', targets, path.node);
      return true;
    }
    const processor = jobProcessor(path.node, (name) => functionOfBinding(bindings, path, name));
    if (processor === null) return false;
    const targets = handlerTargets(path, [processor], from);
    if (targets.length === 0) return false;
    segment.servesRequests = true;
    register('message', targets, path.node);
    return true;
  }

  /** `setInterval(stats.collect, 5000)`: the other module's export runs per tick, called from here. */
  function noteTimerExports(path: NodePath, handler: t.Node, intervalMs: number | null): void {
    if (handler.type !== 'Identifier' && handler.type !== 'MemberExpression') return;
    for (const called of calledExports(path, handler, importOf, bindings)) segment.timerExports.push([called, intervalMs]);
  }

  /** The object literals an options argument is built from: itself, a local bound to one, `Object.assign` / `_.extend` of them. */
  function optionObjects(path: NodePath, node: t.Node, depth: number): t.ObjectExpression[] {
    if (depth > 3) return [];
    if (node.type === 'ObjectExpression') return [node];
    if (node.type === 'Identifier') {
      const declarator = bindings.bindingOf(path, node.name)?.declarator;
      return declarator?.type === 'VariableDeclarator' && declarator.init ? optionObjects(path, declarator.init, depth + 1) : [];
    }
    if (node.type === 'CallExpression' && /^(assign|extend|merge|defaults|defaultsDeep|assignIn)$/.test(calleeProperty(node.callee) ?? '')) {
      return node.arguments.flatMap((arg) => optionObjects(path, arg, depth + 1));
    }
    return [];
  }

  /**
   * The `(req, res)` function around a call that hands it both of its own parameters
   * (`handlers[i].call(self, req, res)`, in the function or a function nested in it), or null.
   */
  function routerOf(path: NodePath<t.CallExpression>, from: FunctionInfo): t.Node | null {
    const passed = new Set<t.Node>();
    for (const arg of path.node.arguments) {
      if (arg.type === 'Identifier') {
        const declared = bindings.bindingOf(path, arg.name)?.frame.node;
        if (declared !== undefined) passed.add(declared);
      }
    }
    for (let info: FunctionInfo | null = from; info !== null && info.node.type !== 'Noop'; info = info.parent) {
      const fn = info.node as t.Function;
      if (isHandlerShaped(fn)) return passed.has(fn.params[0]) && passed.has(fn.params[1]) ? fn : null;
    }
    return null;
  }

  function isFunctionLike(node: t.Node): boolean {
    return isFunctionNode(node) || node.type === 'Identifier' || node.type === 'MemberExpression' || node.type === 'CallExpression';
  }

  function enterFunction(path: NodePath<t.Function>): void {
    const node = path.node;
    const start = node.start ?? 0;
    const parent = current(start);
    const { name, memberKey } = nameOf(path);
    let thisOwner: FunctionInfo['thisOwner'] = null;
    // `this` in a class field initializer is the instance, arrow or not; elsewhere arrows inherit it.
    if (path.parent.type === 'ClassProperty' || path.parent.type === 'ClassPrivateProperty') thisOwner = path.parentPath?.parent ?? null;
    else if (node.type === 'ArrowFunctionExpression') thisOwner = parent.thisOwner;
    else if (node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod' || node.type === 'ObjectMethod') thisOwner = path.parent;
    else if (path.parent.type === 'ObjectProperty') thisOwner = path.parentPath?.parent ?? null;
    else if (memberKey !== null && memberKey.includes('.')) thisOwner = memberKey.slice(0, memberKey.lastIndexOf('.'));
    const info: FunctionInfo = {
      node,
      name,
      start,
      end: node.end ?? start,
      line: node.loc?.start.line ?? 1,
      column: node.loc?.start.column ?? 0,
      parent,
      nested: [],
      iterationCallback: path.listKey === 'arguments' && isIterationCall(path.parent),
      listenerCallback: path.listKey === 'arguments' && isListenerCall(path.parent),
      calls: [],
      returns: [],
      importedCalls: [],
      thisOwner,
      context: null,
    };
    segment.infos.push(info);
    if (memberKey !== null) segment.memberKeys.push([memberKey, info]);
    if (name !== null && (node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod' || node.type === 'ObjectMethod'
      || path.parent.type === 'ClassProperty' || path.parent.type === 'ObjectProperty')) {
      const owner = node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod' || node.type === 'ObjectMethod'
        ? path.parent
        : path.parentPath?.parent;
      if (owner) segment.methods.push([owner, name, info]);
      const classPath = owner?.type === 'ClassBody' ? (node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod' ? path.parentPath?.parentPath : path.parentPath?.parentPath?.parentPath) : null;
      const className = classPath && (classPath.node.type === 'ClassDeclaration' || classPath.node.type === 'ClassExpression') ? classNameOf(classPath.node, classPath.parent) : null;
      if (className !== null && !(node.type === 'ClassMethod' && (node.static || node.kind !== 'method'))) segment.classMethods.push([className, name, info]);
      // A static method, for `Notification.send()` from another module ('static send': a method name has no space).
      if (className !== null && node.type === 'ClassMethod' && node.static && node.kind === 'method') segment.classMethods.push([className, `static ${name}`, info]);
      // The constructor, for `new mod.Service()` from another module (a method cannot be named so).
      if (className !== null && node.type === 'ClassMethod' && node.kind === 'constructor') segment.classMethods.push([className, 'constructor', info]);
    }
    if (parent === moduleInfo) {
      // Module level: only callbacks handed to a call (`list.forEach(fn)`, `db.then(fn)`) run at start-up;
      // functions merely defined or exported run when someone else calls them (unknown).
      // A handler registered here (visited before its arguments) runs in the registration's context.
      // (Which functions some registration names is known once every statement is: see finish.)
      const isCallback = path.listKey === 'arguments' || path.parentKey === 'callee';
      if (isCallback) {
        const callback: Target = { kind: 'node', node };
        segment.moduleCalls.push(callback);
        segment.callbacks.add(callback);
      }
    } else {
      parent.nested.push(info);
    }
    // A controller exported to a router in another file: its parameters say what it is.
    if (isHandlerShaped(node)) segment.inferred.push(node);
    if ((node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod') && node.decorators) {
      const registration = decoratorRegistration(node.decorators);
      if (registration) {
        if (registration.kind !== 'timer') segment.servesRequests = true;
        segment.registered.push(node);
        register(registration.kind, [{ kind: 'node', node }], node, registration.intervalMs, null, registration.kind === 'message',
          registration.kind === 'timer', registration.changesState === true, registration.kind === 'request' && isAdministrativeDecorator(node.decorators));
      }
    }
    if (routeFile !== null) {
      const exported = exportedNameOf(path);
      const endpoint = routeFile === 'endpoint' && exported !== null && ENDPOINT_EXPORTS.has(exported);
      const page = routeFile === 'page' && exported === 'load';
      const action = routeFile === 'page' && isExportedAction(path);
      if (endpoint || page || action) {
        segment.servesRequests = true;
        segment.serves = true;
        segment.registered.push(node);
        register('request', [{ kind: 'node', node }], node, null, null, false, false,
          action || (endpoint && STATE_CHANGING_METHODS.has(exported!.toLowerCase())));
      }
    }
    if (KAFKA_HANDLERS.has(name ?? '') && (node.type === 'ObjectMethod' || path.parent.type === 'ObjectProperty')) {
      segment.servesRequests = true;
      segment.registered.push(node);
      register('message', [{ kind: 'node', node }], node, null, null, true);
    }
    stack.push(info);
    // `module.exports = (app) => ({ list() {...} })`: an arrow's body is what it returns.
    if (node.type === 'ArrowFunctionExpression' && node.body.type !== 'BlockStatement') {
      if (isModuleLevel(info)) noteReturned(path, node.body, info);
      noteReturnedFunction(path, node.body, info);
    }
  }

  function exitFunction(path: NodePath<t.Function>): void {
    if (stack[stack.length - 1].node === path.node) stack.pop();
  }

  /** A module-level function: the walk's or an earlier walk's module pseudo-function is its parent. */
  function isModuleLevel(info: FunctionInfo): boolean {
    return info !== moduleInfo && info.parent?.node.type === 'Noop';
  }

  /** The object a module-level function returns: its function members, for the project's calls of what a factory made. */
  function noteReturned(path: NodePath, returned: t.Node, factory: FunctionInfo): void {
    let object: t.Node | null | undefined = returned;
    if (returned.type === 'Identifier') {
      segment.returnedNames.push([returned.name, factory.node]);
      const declarator = bindings.bindingOf(path, returned.name)?.declarator;
      object = declarator?.type === 'VariableDeclarator' ? declarator.init : null;
    }
    if (object?.type !== 'ObjectExpression') return;
    for (const prop of object.properties) {
      if (prop.type === 'SpreadElement') continue;
      const key = propertyName(prop.key, prop.computed);
      if (key === null) continue;
      if (prop.type === 'ObjectMethod') segment.returnedMembers.push([key, prop]);
      else if (isFunctionNode(prop.value)) segment.returnedMembers.push([key, prop.value]);
      else if (prop.value.type === 'Identifier') {
        const fn = functionOfBinding(bindings, path, prop.value.name);
        if (fn) segment.returnedMembers.push([key, fn]);
      }
    }
  }

  /** Is `node` the module's own exports object (`exports`, `module.exports`, not a local of either name)? */
  function isModuleExports(path: NodePath, node: t.Node): boolean {
    if (node.type === 'Identifier') return node.name === 'exports' && bindings.bindingOf(path, 'exports') === undefined;
    return node.type === 'MemberExpression' && node.object.type === 'Identifier' && node.object.name === 'module'
      && propertyName(node.property, node.computed) === 'exports' && bindings.bindingOf(path, 'module') === undefined;
  }

  /** `(function (module) {...}(exports))`, `(function (api) {...}).call(this, module.exports)`: see HotSegment.exportAliases. */
  function noteExportAliases(path: NodePath<t.CallExpression>): void {
    let callee: t.Node = path.node.callee;
    let args: readonly t.Node[] = path.node.arguments;
    if (callee.type === 'MemberExpression' && propertyName(callee.property, callee.computed) === 'call' && isFunctionNode(callee.object)) {
      callee = callee.object;
      args = args.slice(1);
    }
    if (callee.type !== 'FunctionExpression' && callee.type !== 'ArrowFunctionExpression') return;
    const params = callee.params;
    args.forEach((arg, index) => {
      const param = params[index];
      if (param?.type === 'Identifier' && isModuleExports(path, arg)) segment.exportAliases.push(param.name);
    });
  }

  const visitor: Visitor = {
    Function: { enter: enterFunction, exit: exitFunction },
    ReturnStatement(path) {
      const argument = path.node.argument;
      if (!argument) return;
      const from = current(path.node.start ?? 0);
      if (isModuleLevel(from)) noteReturned(path, argument, from);
      if (from !== moduleInfo) noteReturnedFunction(path, argument, from);
    },
    CallExpression(path) {
      const node = path.node;
      const from = current(node.start ?? 0);
      // A route registered, or a function called, only outside production serves no production traffic.
      // Not across top-level statements: what this walk records is kept with its statement in the
      // editor, so it may rest only on the statement itself (a guard above is read by contextOf).
      if (isDevOnly(path, bindings, path.getFunctionParent() ?? programOf(path))) return;
      if (from === moduleInfo) noteExportAliases(path);
      if (recordRegistration(path, from) || recordServerCallbacks(path, from) || recordScheduledWork(path, from)) return;
      const callee = node.callee;
      if (callee.type !== 'Super' && callee.type !== 'V8IntrinsicIdentifier') {
        const target = targetOf(path, callee, from);
        if (target) {
          const fnPath = path.getFunctionParent();
          const perItem = isInLoop(path, fnPath);
          const onMatch = from !== moduleInfo && isUnderTextMatch(path, fnPath);
          from.calls.push(perItem || onMatch ? { ...target, ...(perItem ? { perItem } : {}), ...(onMatch ? { onMatch } : {}) } : target);
        }
        // `handlers[i].call(this, req, res)`: each function the table holds may run here.
        else if (from !== moduleInfo) {
          const entries = [...tableEntriesCalled(path, callee, bindings), ...instanceTableEntriesCalled(callee, from.thisOwner)];
          for (const fn of entries) from.calls.push({ kind: 'node', node: fn });
          const router = entries.some((fn) => isFunctionNode(fn) && isHandlerShaped(fn)) ? routerOf(path, from) : null;
          if (router !== null) segment.routers.push(router);
        }
        // A cache filled on the first run: what it calls runs once, not in the caller's context.
        if (from !== moduleInfo && !isMemoizedCall(path)) {
          from.importedCalls.push(...calledExports(path, callee, importOf, bindings), ...instanceCall(path, callee, importOf, bindings),
            ...resultCall(path, callee, importOf, bindings));
          const injected = injectedCall(callee);
          if (injected !== null) from.importedCalls.push(injected);
          const held = fieldCall(callee);
          if (held !== null) from.importedCalls.push(held);
          const ofClass = staticCall(callee, importOf);
          if (ofClass !== null) from.importedCalls.push(ofClass);
          const ofTable = tableCall(path, callee, bindings);
          if (ofTable !== null) from.importedCalls.push(ofTable);
        }
      }
      // A local function passed along (`items.map(format)`) is called by the receiver, per item for iterations.
      const iteration = isIterationCall(node);
      for (const arg of node.arguments) {
        if (arg.type !== 'Identifier') continue;
        const fn = functionOfBinding(bindings, path, arg.name);
        if (fn) from.calls.push({ kind: 'node', node: fn, perItem: iteration });
      }
    },
    NewExpression(path) {
      // `new mod.Service(req)` in a handler: the other module's constructor runs in this context.
      const from = current(path.node.start ?? 0);
      if (isDevOnly(path, bindings, path.getFunctionParent() ?? programOf(path))) return;
      if (!recordServerCallbacks(path, from)) recordScheduledWork(path, from);
      // `new Service(opts, req, res)` of a constructor function of this module: its body runs here.
      const callee = path.node.callee;
      const local = callee.type === 'Identifier' ? functionOfBinding(bindings, path, callee.name) : null;
      if (local) from.calls.push(isInLoop(path, path.getFunctionParent()) ? { kind: 'node', node: local, perItem: true } : { kind: 'node', node: local });
      if (from === moduleInfo) return;
      for (const called of calledExports(path, path.node.callee, importOf, bindings)) from.importedCalls.push({ ...called, constructs: true });
    },
    ObjectExpression(path) {
      // One entry of a route table (`{ path: 'GET /admin/mail', fn: show }`): its handler runs per
      // request of that route, wherever the table is handed (a CMS's router reads it elsewhere).
      const entry = routeTableEntry(path.node);
      if (entry === null || isDevOnly(path, bindings, path.getFunctionParent() ?? programOf(path))) return;
      const targets = handlerTargets(path, entry.handlers, current(path.node.start ?? 0));
      if (targets.length === 0) return;
      segment.servesRequests = true;
      register('request', targets, path.node, null, null, false, false, STATE_CHANGING_METHODS.has(entry.method.toLowerCase()),
        entry.path !== null && isAdministrativePathText(entry.path));
    },
    ObjectProperty(path) {
      const node = path.node;
      if (node.key.type !== 'Identifier' || !KAFKA_HANDLERS.has(node.key.name) || node.value.type !== 'Identifier') return;
      const fn = functionOfBinding(bindings, path, node.value.name);
      if (!fn) return;
      segment.servesRequests = true;
      segment.registered.push(fn);
      register('message', [{ kind: 'node', node: fn }], node, null, null, true);
    },
  };

  /** See HotContextCollector#servesItself. A child's or parent's IPC (`process.on('message')`) serves nobody's traffic. */
  function servesItself(): ServingKind | null {
    if (segments.some((each) => each.serves)) return 'requests';
    return segments.some((each) => each.registrations.some((r) => r.kind === 'message' && r.occasional !== true)) ? 'messages' : null;
  }

  /** See HotContextCollector#callsOut. */
  function callsOut(): CallUse[] {
    const out = new Map<string, CallUse>();
    const note = (use: CallUse): void => {
      const { receiver, constructs, instanceMethod, resultMethod, field, staticMethod, table } = use;
      const key = `${use.specifier}\0${use.exported}\0${receiver ?? ''}\0${constructs === true ? 'new' : ''}\0${instanceMethod ?? ''}\0${resultMethod ?? ''}\0${field ?? ''}\0${staticMethod ?? ''}\0${table ?? ''}`;
      const known = out.get(key);
      // The hottest caller decides (request before message before timer; a high-rate source first).
      // ...and a route every request runs before one only saves, uploads or removes run, or an administrator runs.
      const rank = (u: CallUse): number => (RANK.get(u.kind) ?? 99) * 8 + (u.highRate ? 0 : 4) + (u.occasional === true ? 2 : 0) + (u.changesState === true ? 1 : 0);
      if (known === undefined || rank(use) < rank(known)) out.set(key, use);
    };
    // Exports handed to a repeating timer or a schedule run per tick of this module's timer.
    for (const each of segments) {
      for (const [{ source, exported }, intervalMs] of each.timerExports) {
        const use: CallUse = { specifier: source, exported, kind: 'timer', intervalMs, highRate: false };
        if (servesRequests) use.fromServingModule = true;
        note(use);
      }
    }
    for (const info of infos) {
      const context = info.context;
      if (info.importedCalls.length === 0 || context === null || context.assumed) continue;
      if (context.kind !== 'request' && context.kind !== 'message' && context.kind !== 'timer') continue;
      // A timer counts when it repeats (a one-shot timeout is not per tick of anything).
      if (context.kind === 'timer' && !context.periodic) continue;
      for (const { source, exported, receiver, constructs, instanceMethod, resultMethod, field, staticMethod, table } of info.importedCalls) {
        const use: CallUse = {
          specifier: source, exported, kind: context.kind,
          intervalMs: context.kind === 'timer' ? context.timerIntervalMs : null, highRate: context.highRate,
        };
        if (context.changesState) use.changesState = true;
        if (context.occasional) use.occasional = true;
        if (context.perConnection) use.perConnection = true;
        if (receiver !== undefined) use.receiver = receiver;
        if (field !== undefined) use.field = field;
        if (constructs === true) use.constructs = true;
        if (instanceMethod !== undefined) use.instanceMethod = instanceMethod;
        if (resultMethod !== undefined) use.resultMethod = resultMethod;
        if (staticMethod !== undefined) use.staticMethod = staticMethod;
        if (table !== undefined) use.table = table;
        if (context.kind === 'timer' && servesRequests) use.fromServingModule = true;
        note(use);
      }
    }
    return [...out.values()];
  }

  function resolve(target: Target): FunctionInfo[] {
    let info: FunctionInfo | null | undefined;
    switch (target.kind) {
      case 'node':
        info = byNode.get(target.node);
        break;
      case 'member':
        info = byMemberKey.get(target.key);
        break;
      case 'method':
        info = methodsByOwner.get(target.owner)?.get(target.name);
        break;
      case 'returned':
        return (byNode.get(target.node)?.returns ?? []).map((fn) => byNode.get(fn)).filter((each): each is FunctionInfo => each !== undefined);
    }
    return info == null ? [] : [info];
  }

  /** Hotter kind first; within a kind, a high-rate source, then per-item execution. */
  function hotter(a: ExecutionContext, b: ExecutionContext | null): boolean {
    if (b === null) return true;
    const byKind = (RANK.get(a.kind) ?? 99) - (RANK.get(b.kind) ?? 99);
    if (byKind !== 0) return byKind < 0;
    if (a.highRate !== b.highRate) return a.highRate;
    // A registration seen beats a handler guessed from its shape, before the route's method counts.
    if (a.assumed !== b.assumed) return !a.assumed;
    if (a.occasional !== b.occasional) return !a.occasional;
    if (a.perConnection !== b.perConnection) return !a.perConnection;
    if (a.changesState !== b.changesState) return !a.changesState;
    return a.perItem && !b.perItem;
  }

  /** Breadth-first from the seed, so `via` is the shortest path; a function keeps its hottest context. */
  function propagate(seeds: FunctionInfo[], base: ExecutionContext): void {
    // `occasional`: reached through a call in a branch a child's banner line takes (base.childOutput).
    const queue: { info: FunctionInfo; via: string[]; perItem: boolean; occasional: boolean }[] = [];
    for (const seed of seeds) queue.push({ info: seed, via: seed.name !== null && seed !== moduleInfo ? [seed.name] : [], perItem: false, occasional: false });
    for (let i = 0; i < queue.length; i++) {
      const { info, via, perItem, occasional } = queue[i];
      const context: ExecutionContext = occasional ? { ...base, via, perItem, occasional } : { ...base, via, perItem };
      if (info !== moduleInfo) {
        if (!hotter(context, info.context)) continue;
        info.context = context;
      }
      for (const call of info.calls) {
        // Per item only one call deep: a helper called in a loop runs per item, but what the helper
        // calls (once per its own run) is not "per item" of every loop above it.
        for (const callee of resolve(call)) {
          if (callee !== moduleInfo) {
            queue.push({
              info: callee, via: callee.name !== null ? [...via, callee.name] : via, perItem: call.perItem === true,
              occasional: occasional || (call.onMatch === true && base.childOutput === true),
            });
          }
        }
      }
      for (const child of info.nested) {
        if (registeredNodes.has(child.node)) continue;
        queue.push({ info: child, via: child.name !== null ? [...via, child.name] : via, perItem: perItem || child.iterationCallback, occasional });
      }
    }
  }

  /**
   * Does running `seeds` reach `goal` (through calls and nested functions)? For self-rescheduling
   * timeouts. A callback handed to another registration (another timer, a listener) is not run by
   * getting there: a backoff timer that ends by arming a one-shot debounce is no poll loop.
   */
  function reaches(seeds: FunctionInfo[], goal: FunctionInfo): boolean {
    const seen = new Set<FunctionInfo>(seeds);
    const queue = [...seeds];
    for (let i = 0; i < queue.length; i++) {
      const info = queue[i];
      if (info === goal) return true;
      // Nor is a listener of any emitter (`child.on('close', respawn)`): a respawn after a crash is no poll loop.
      const next = [...info.calls.flatMap(resolve), ...info.nested.filter((child) => !registeredNodes.has(child.node) && !child.listenerCallback)];
      for (const callee of next) {
        if (!seen.has(callee)) {
          seen.add(callee);
          queue.push(callee);
        }
      }
    }
    return false;
  }

  /** The whole module's tables, from the segments in source order; kept segments' spans read again (their nodes moved). */
  function assemble(project: ProjectContext): Registration[] {
    infos = [];
    byNode.clear();
    byMemberKey.clear();
    methodsByOwner.clear();
    registeredNodes.clear();
    const moduleCalls: Target[] = [];
    const registrations: Registration[] = [];
    const classMethods = new Map<string, FunctionInfo>();
    for (const each of segments) {
      for (const [className, name, info] of each.classMethods) {
        const key = `${className}\0${name}`;
        if (!classMethods.has(key)) classMethods.set(key, info);
      }
    }
    for (const each of segments) {
      for (const node of each.registered) registeredNodes.add(node);
      if (each.servesRequests) servesRequests = true;
    }
    for (const each of segments) {
      for (const info of each.infos) {
        const node = info.node;
        info.start = node.start ?? 0;
        info.end = node.end ?? info.start;
        info.line = node.loc?.start.line ?? 1;
        info.column = node.loc?.start.column ?? 0;
        info.context = null;
        infos.push(info);
        byNode.set(node, info);
      }
      for (const [key, info] of each.memberKeys) if (!byMemberKey.has(key)) byMemberKey.set(key, info);
      for (const [owner, name, info] of each.methods) {
        let methods = methodsByOwner.get(owner);
        if (!methods) methodsByOwner.set(owner, (methods = new Map()));
        if (!methods.has(name)) methods.set(name, info);
      }
      for (const call of each.moduleCalls) {
        if (!each.callbacks.has(call) || !registeredNodes.has((call as { node: t.Node }).node)) moduleCalls.push(call);
      }
      registrations.push(...each.registrations);
    }
    // A router module that other modules mount only under administrative prefixes
    // (`app.use('/admin', require('./admin'))`): every route it registers is an administrative one,
    // whatever its own path says. Copies: a kept segment's registrations are reused by later walks.
    // Registrations proper (no highRate: not a call from another module's handler) of the module itself.
    const mounts = project.registrations.filter((r) => r.kind === 'request' && r.exported === 'default' && r.method === undefined && r.highRate === undefined);
    if (mounts.length > 0 && mounts.every((r) => r.occasional === true)) {
      for (let i = 0; i < registrations.length; i++) {
        if (registrations[i].kind === 'request' && registrations[i].node !== null) registrations[i] = { ...registrations[i], occasional: true };
      }
    }
    // What module-level factories return, by member name (a member two factories return is ambiguous: skipped).
    const returned = new Map<string, Set<FunctionInfo>>();
    const addReturned = (name: string, info: FunctionInfo | undefined): void => {
      if (info === undefined) return;
      let set = returned.get(name);
      if (set === undefined) returned.set(name, (set = new Set()));
      set.add(info);
    };
    for (const each of segments) {
      for (const [name, node] of each.returnedMembers) addReturned(name, byNode.get(node));
      for (const [holder, factoryNode] of each.returnedNames) {
        const factory = byNode.get(factoryNode);
        if (factory === undefined) continue;
        for (const [key, info] of byMemberKey) {
          const dot = key.lastIndexOf('.');
          if (key.slice(0, dot) === holder && info.start >= factory.start && info.end <= factory.end) addReturned(key.slice(dot + 1), info);
        }
      }
    }
    const returnedMember = (name: string): FunctionInfo | null => {
      const set = returned.get(name);
      return set !== undefined && set.size === 1 ? [...set][0] : null;
    };
    // Exports another module registers (a route table in one file, its handlers in this one): real
    // registrations, found by the export's local name or its `exports.x` / `module.exports.x` slot.
    const topLevel = new Map<string, FunctionInfo>();
    const exportAliases = [...new Set(segments.flatMap((each) => each.exportAliases))];
    const aliasedExport = (exported: string): FunctionInfo | undefined => {
      for (const alias of exportAliases) {
        const info = byMemberKey.get(`${alias}.${exported}`);
        if (info !== undefined) return info;
      }
      return undefined;
    };
    // Module level: the parent is a module pseudo-function (this walk's, or an earlier walk's for a kept segment).
    for (const info of infos) if (info.parent?.node.type === 'Noop' && info.name !== null && !topLevel.has(info.name)) topLevel.set(info.name, info);
    for (const registration of project.registrations) {
      const slot = registration.exported === 'default' ? 'module.exports' : `exports.${registration.exported}`;
      const method = registration.method;
      // A constructor function's methods are its prototype's (`C.prototype.run = function`), its body the constructor.
      const info = method !== undefined ? (classMethods.get(`${method.className}\0${method.name}`)
        ?? byMemberKey.get(`${method.className}.prototype.${method.name}`)
        ?? (method.name === 'constructor' ? topLevel.get(method.className) : undefined) ?? null)
        : (registration.local !== null ? topLevel.get(registration.local) : undefined)
          ?? byMemberKey.get(slot) ?? byMemberKey.get(`module.${slot}`)
          ?? (registration.holder !== undefined ? byMemberKey.get(`${registration.holder}.${registration.exported}`) : undefined)
          // `Notification.send()` of `const Notification = require('./n')`: a static method of the class the module exports.
          ?? (registration.holder !== undefined ? classMethods.get(`${registration.holder}\0static ${registration.exported}`) : undefined)
          // `module.hash = ...` inside `(function (module) {...}(exports))`.
          ?? (registration.exported !== 'default' ? aliasedExport(registration.exported) : undefined)
          // Not an export of its own: a method of the object a factory of the module returns
          // (`module.exports = create()`, `module.exports = function (app) { return { handler } }`).
          ?? (registration.exported !== 'default' ? returnedMember(registration.exported) : null);
      if (info === null) continue;
      // A timer of a module that serves ticks on the serving event loop: so does what it calls here.
      // So does a module whose exports a handler of another module calls, unless only through IPC.
      if ((registration.kind !== 'timer' && !(registration.kind === 'message' && registration.occasional === true)) || registration.fromServingModule === true) servesRequests = true;
      registrations.push({
        kind: registration.kind, targets: [{ kind: registration.returned === true ? 'returned' : 'node', node: info.node }], node: null, intervalMs: registration.intervalMs,
        periodic: registration.kind === 'timer', oneShotFrom: null, inferred: false, highRate: registration.highRate ?? registration.kind === 'message',
        changesState: registration.changesState === true,
        occasional: registration.occasional === true,
        ...(registration.perConnection === true ? { perConnection: true } : {}),
      });
    }
    // A plugin's `exports.hook_<event>` functions: its host calls them by that name per connection
    // or message (one-time events such as init_master or shutdown aside).
    for (const [key, info] of byMemberKey) {
      const slot = /^(?:module\.)?exports\.(\w+)$/.exec(key);
      const event = slot === null ? null : HOOK_EXPORT.exec(slot[1])?.[1];
      if (event === undefined || event === null || !isPerEventHook(event)) continue;
      servesRequests = true;
      registrations.push({
        kind: 'message', targets: [{ kind: 'node', node: info.node }], node: null, intervalMs: null, periodic: false, oneShotFrom: null,
        inferred: false, highRate: true,
      });
    }
    // Inferred after the real ones: they yield to them (see the ordering in finish). A router's
    // entry is no guess: every request that reaches it goes through it (see HotSegment.routers).
    const routers = new Set(segments.flatMap((each) => each.routers));
    for (const each of segments) {
      for (const node of each.inferred) {
        if (registeredNodes.has(node)) continue;
        servesRequests = true;
        registrations.push({ kind: 'request', targets: [{ kind: 'node', node }], node: null, intervalMs: null, periodic: false, oneShotFrom: null, inferred: !routers.has(node), highRate: false });
      }
    }
    moduleInfo.calls = moduleCalls;
    return registrations;
  }

  function finish(project: ProjectContext = NO_PROJECT_CONTEXT): HotContext {
    const registrations = assemble(project);
    // Started as a worker by another module, and serving nothing itself: not the server's event loop.
    const inWorker = project.startedAsWorker && !segments.some((each) => each.serves);
    // A setTimeout runs once unless its callback schedules it again with a known delay; a one-shot
    // has no interval. A computed delay is most often a backoff (`200 * retries`) of a bounded
    // retry, not a tick (pm2's endpoint retries, labelled on the tuning half).
    const oneShot = new Set<Registration>();
    for (const registration of registrations) {
      if (registration.oneShotFrom === null) continue;
      const seeds = registration.targets.flatMap(resolve);
      if (registration.intervalMs === null || !reaches(seeds, registration.oneShotFrom)) oneShot.add(registration);
    }
    const intervalMs = (registration: Registration): number | null => (oneShot.has(registration) ? null : registration.intervalMs);
    const ordered = registrations
      .map((registration, index) => ({ registration, index }))
      .sort((a, b) => {
        const byKind = (RANK.get(a.registration.kind) ?? 99) - (RANK.get(b.registration.kind) ?? 99);
        if (byKind !== 0) return byKind;
        if (a.registration.inferred !== b.registration.inferred) return a.registration.inferred ? 1 : -1;
        // A tick before a one-time timer of the same function (a wait in a guard, then a reschedule).
        const ticks = (registration: Registration): boolean => registration.periodic && !oneShot.has(registration);
        if (ticks(a.registration) !== ticks(b.registration)) return ticks(a.registration) ? -1 : 1;
        const ai = intervalMs(a.registration) ?? Number.MAX_SAFE_INTEGER;
        const bi = intervalMs(b.registration) ?? Number.MAX_SAFE_INTEGER;
        return ai !== bi ? ai - bi : a.index - b.index;
      });
    const startupRank = RANK.get('startup') ?? 0;
    let startupDone = false;
    for (const { registration } of ordered) {
      if (!startupDone && (RANK.get(registration.kind) ?? 0) >= startupRank) {
        propagate([moduleInfo], STARTUP);
        startupDone = true;
      }
      const seeds = registration.targets.flatMap(resolve).filter((info) => info !== moduleInfo);
      propagate(seeds, {
        kind: registration.kind,
        via: [],
        registeredAt: registration.node === null ? null : positionOf(registration.node),
        timerIntervalMs: registration.kind === 'timer' ? intervalMs(registration) : null,
        periodic: registration.kind === 'timer' && registration.periodic && !oneShot.has(registration),
        inLoop: false,
        perItem: false,
        highRate: registration.highRate,
        assumed: registration.inferred,
        changesState: registration.kind === 'request' && registration.changesState === true,
        occasional: registration.occasional === true,
        perConnection: registration.kind === 'request' && registration.perConnection === true,
        ...(registration.childOutput === true ? { childOutput: true } : {}),
      });
    }
    if (!startupDone) propagate([moduleInfo], STARTUP);

    // A finding asks several times (when, describe, messageIdOf): each node's answer is kept.
    const answered = new Map<t.Node, ExecutionContext>();
    let servingLoader: ServingLoader | null | undefined;
    return {
      servesRequests,
      inWorker,
      get servingLoader(): ServingLoader | null {
        if (inWorker || servesRequests) return null;
        if (servingLoader === undefined) servingLoader = project.servingLoader();
        return servingLoader;
      },
      contextOf(path: NodePath): ExecutionContext {
        let context = answered.get(path.node);
        if (context === undefined) {
          const fnPath = path.isFunction() ? path : path.getFunctionParent();
          // Inside a branch NODE_ENV keeps out of production (here or around a function it is in): no serving path.
          const base = isDevOnly(path, bindings, null) ? UNKNOWN
            : fnPath ? (byNode.get(fnPath.node)?.context ?? UNKNOWN) : STARTUP;
          context = isInLoop(path, fnPath) ? { ...base, inLoop: true } : base;
          // In a branch of a child's output handler taken when a line holds given words (its banner): occasional.
          if (context.childOutput === true && !context.occasional && isUnderTextMatch(path, fnPath)) context = { ...context, occasional: true };
          answered.set(path.node, context);
        }
        return context;
      },
    };
  }

  return { visitor, startSegment, reuseSegment, finish, functions: () => infos, callsOut, servesItself };
}

/**
 * A timer set in a guard that returns at once: `if (c) return setTimeout(…)`, `if (c) { setTimeout(…);
 * return; }`. The function waits for something and tries again; it is no tick of its own.
 */
function isWaitGuard(path: NodePath): boolean {
  const statement = path.parentPath;
  if (statement === null) return false;
  // The `return` the timer is in or followed by, then what the `if` holds: it, or the block around it.
  let inIf: NodePath | null = null;
  if (statement.node.type === 'ReturnStatement') inIf = statement;
  else if (statement.node.type === 'ExpressionStatement') {
    const outer = statement.parentPath;
    if (outer?.node.type !== 'BlockStatement') return false;
    const body = outer.node.body;
    const next = body[body.indexOf(statement.node as t.Statement) + 1];
    if (next?.type !== 'ReturnStatement' || next.argument != null) return false;
    inIf = outer;
  }
  if (inIf === null) return false;
  if (inIf.node.type === 'ReturnStatement' && inIf.parentPath?.node.type === 'BlockStatement') inIf = inIf.parentPath;
  const branch = inIf.parentPath;
  return branch?.node.type === 'IfStatement' && (branch.node.consequent === inIf.node || branch.node.alternate === inIf.node);
}

/** The program around a path (its top-level statement's parent). */
function programOf(path: NodePath): NodePath {
  let at: NodePath = path;
  while (at.parentPath !== null && at.node.type !== 'Program') at = at.parentPath;
  return at;
}

const LISTENER_METHODS = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'addEventListener']);

/** `emitter.on('close', fn)`: a call whose function argument runs when an event fires. */
function isListenerCall(node: t.Node): boolean {
  if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return false;
  const property = calleeProperty(node.callee);
  return property !== null && LISTENER_METHODS.has(property);
}

/** `items.forEach(...)`, `rows.map(...)`: a call whose function argument runs once per element. */
function isIterationCall(node: t.Node): boolean {
  if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return false;
  const property = calleeProperty(node.callee);
  return property !== null && ITERATION_METHODS.has(property);
}

/** Inside a loop body (or test/update) below its function; a `for` init runs once and does not count. */
function isInLoop(path: NodePath, fnPath: NodePath | null): boolean {
  let child: NodePath = path;
  let parent = path.parentPath;
  while (parent && parent !== fnPath) {
    const key = child.parentKey;
    switch (parent.node.type) {
      case 'ForStatement':
        if (key !== 'init') return true;
        break;
      case 'ForInStatement':
      case 'ForOfStatement':
        if (key === 'body') return true;
        break;
      case 'WhileStatement':
      case 'DoWhileStatement':
        return true;
      default:
        break;
    }
    child = parent;
    parent = parent.parentPath;
  }
  return false;
}
