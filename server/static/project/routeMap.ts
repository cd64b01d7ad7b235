// The project's routes (issue 25): every module's route facts (routeFacts.ts) joined into one map
// of "this function, in this file at this extent, is a handler or middleware of that route".
// Routers mounted elsewhere get their prefix (`app.use('/v1', require('./routes/tasks'))`, the
// router `module.exports = router` there), and routers a function builds and returns, mounted by
// calling it (`router.use(`/${key}`, plural(db, key))`); a name passed to `use` that is not a
// router is middleware. A handler named but not found (a package's function, a dynamic expression) is
// counted, never guessed.
import * as path from 'node:path';
import { collectImports } from '../imports';
import { parseSource } from '../parse';
import { collectSourceFiles } from '../../shared/sourceFiles';
import { ProjectIndex, readModuleFromDisk } from '../projectIndex';
import { moduleFactsOf } from './moduleFacts';
import { moduleRoutesOf, type HandlerRef, type ModuleRoutes, type SourceRange } from './routeFacts';
import type { Resolver } from './projectFacts';

export type { SourceRange };

/** One function serving one route. */
export interface RouteHandlerSpan {
  /** 'GET /v1/tasks', 'USE /v1', 'REQUEST (http server)', "MESSAGE 'message' on sub". */
  route: string;
  kind: 'request' | 'message';
  registeredAt: { file: string; line: number };
  /** The function's file (absolute) and extent. */
  file: string;
  range: SourceRange;
}

/**
 * Which requests a route serves, to count them (server/profile/routes/requestCounts.ts): its
 * method ('GET', 'ALL', 'USE' for middleware, 'REQUEST' for an http server's own handler) and its
 * full path patterns as written (mount prefixes joined); no paths: every path.
 */
export interface RouteMatch {
  method: string;
  paths: string[];
}

export interface RouteMap {
  handlers: RouteHandlerSpan[];
  /** Routes with their registration lines, including those whose handlers were not found. */
  routes: { route: string; kind: 'request' | 'message'; registeredAt: { file: string; line: number }[]; match?: RouteMatch }[];
  /** Handlers named by a registration that lead to no function of the project (a package's, a dynamic one). */
  unresolvedHandlers: number;
}

interface Module {
  routes: ModuleRoutes;
  exports: ReadonlyMap<string, string | null>;
}

/** Mount chains longer than this are not followed (cycles are cut earlier). */
const MAX_MOUNT_DEPTH = 8;
/** Prefixes one router may be mounted under that are named in its routes. */
const MAX_PREFIXES = 4;

/** Parses each file and reads its route facts; files that cannot be read or parsed are skipped. */
export function readModules(files: readonly string[], readText: (file: string) => string | null): Map<string, Module> {
  const modules = new Map<string, Module>();
  for (const file of files) {
    const text = readText(file);
    if (text === null) continue;
    const parsed = parseSource(file, text);
    if (!parsed.ast) continue;
    const imports = collectImports(parsed.ast.program);
    modules.set(path.resolve(file), { routes: moduleRoutesOf(parsed.ast.program, imports), exports: moduleFactsOf(parsed.ast.program, imports, '').exports });
  }
  return modules;
}

export function joinPath(prefix: string, route: string): string {
  if (prefix === '' || prefix === '/') return route === '' ? '/' : route;
  if (route === '' || route === '/') return prefix;
  return `${prefix.replace(/\/+$/, '')}/${route.replace(/^\/+/, '')}`;
}

/** The route map of the project's modules. */
export function routeMapOf(modules: ReadonlyMap<string, Module>, resolve: Resolver): RouteMap {
  const resolveSafe = (from: string, specifier: string): string | null => {
    try {
      return resolve(from, specifier);
    } catch {
      return null;
    }
  };
  /** Receivers that get registrations, per file: the candidates for a router. */
  const receivers = new Map<string, Set<string>>();
  for (const [file, { routes }] of modules) {
    const set = new Set<string>();
    for (const r of routes.registrations) if (r.receiver !== null) set.add(r.receiver);
    for (const u of routes.uses) if (u.receiver !== null) set.add(u.receiver);
    receivers.set(file, set);
  }
  /** (file, local name) a reference leads to. */
  const targetOf = (file: string, ref: Extract<HandlerRef, { kind: 'local' | 'imported' }>): { file: string; local: string | null; exported: string | null } | null => {
    if (ref.kind === 'local') return { file, local: ref.name, exported: null };
    const target = resolveSafe(file, ref.specifier);
    if (target === null) return null;
    const exports = modules.get(target)?.exports;
    return { file: target, local: exports?.get(ref.exported) ?? null, exported: ref.exported };
  };
  // Mount edges: child router (file, receiver) <- parent (file, receiver) under a prefix.
  const parents = new Map<string, { file: string; receiver: string | null; prefix: string }[]>();
  const middleware: { file: string; line: number; prefix: string; receiver: string | null; ref: Exclude<HandlerRef, { kind: 'inline' }> }[] = [];
  /** The name the called function returns, when it is a router of its file (`return router;`). */
  const routerReturned = (target: { file: string; local: string | null; exported: string | null }): string | null => {
    const facts = modules.get(target.file)?.routes;
    if (facts === undefined) return null;
    const name = (target.exported !== null ? facts.exportedReturns.get(target.exported) : undefined)
      ?? (target.local !== null ? facts.functionReturns.get(target.local) : undefined);
    return name !== undefined && receivers.get(target.file)?.has(name) === true ? name : null;
  };
  const mount = (router: { file: string; receiver: string }, parent: { file: string; receiver: string | null; prefix: string }): void => {
    const key = `${router.file}\0${router.receiver}`;
    const list = parents.get(key) ?? [];
    list.push(parent);
    parents.set(key, list);
  };
  for (const [file, { routes }] of modules) {
    for (const use of routes.uses) {
      const target = targetOf(file, use.target);
      const parent = { file, receiver: use.receiver, prefix: use.prefix };
      if (use.called !== undefined) {
        const returned = target === null ? null : routerReturned(target);
        if (target !== null && returned !== null) mount({ file: target.file, receiver: returned }, parent);
        else {
          // Not a router: what it returns is middleware (`use(session(options))`), and so may be what it wraps.
          middleware.push({ file, line: use.line, prefix: use.prefix, receiver: use.receiver, ref: { kind: 'made', by: use.target } });
          for (const ref of use.called.wrapped) middleware.push({ file, line: use.line, prefix: use.prefix, receiver: use.receiver, ref });
        }
      } else if (target !== null && target.local !== null && receivers.get(target.file)?.has(target.local) === true) {
        mount({ file: target.file, receiver: target.local }, parent);
      } else middleware.push({ file, line: use.line, prefix: use.prefix, receiver: use.receiver, ref: use.target });
    }
  }
  const prefixCache = new Map<string, string[]>();
  const prefixesOf = (file: string, receiver: string | null, chain: readonly string[]): string[] => {
    if (receiver === null) return [''];
    const key = `${file}\0${receiver}`;
    const cached = prefixCache.get(key);
    if (cached !== undefined) return cached;
    // A mount that leads back into the chain is a cycle: no prefix comes through it.
    if (chain.includes(key) || chain.length > MAX_MOUNT_DEPTH) return [];
    const mounts = parents.get(key);
    if (mounts === undefined) return [''];
    const found = new Set<string>();
    for (const mount of mounts) {
      for (const above of prefixesOf(mount.file, mount.receiver, [...chain, key])) found.add(joinPath(above, mount.prefix));
    }
    const result = found.size === 0 && chain.length === 0 ? [''] : [...found].slice(0, MAX_PREFIXES);
    if (chain.length === 0) prefixCache.set(key, result);
    return result;
  };
  const matchOf = (method: string, routePath: string | null, file: string, receiver: string | null): RouteMatch => {
    if (method === 'REQUEST') return { method, paths: [] };
    const prefixes = prefixesOf(file, receiver, []);
    const paths = [...new Set(prefixes.map((p) => (routePath === null ? p : joinPath(p, routePath))))].filter((p) => p !== '');
    return { method, paths: method !== 'USE' && paths.length === 0 ? ['/'] : paths };
  };
  const labelOf = (match: RouteMatch): string => {
    if (match.method === 'REQUEST') return 'REQUEST (http server)';
    if (match.method === 'USE') return match.paths.length === 0 ? 'USE (every request)' : `USE ${match.paths.join(', ')}`;
    return `${match.method} ${match.paths.join(', ')}`;
  };
  const handlers: RouteHandlerSpan[] = [];
  const routes = new Map<string, RouteMap['routes'][number]>();
  let unresolvedHandlers = 0;
  /** Where a handler is: its extent, or for what a call made, the extents of what the called function returns. */
  const place = (file: string, ref: HandlerRef): { file: string; ranges: SourceRange[] } | null => {
    if (ref.kind === 'inline') return { file, ranges: [ref.range] };
    const target = targetOf(file, ref.kind === 'made' ? ref.by : ref);
    if (target === null) return null;
    const module = modules.get(target.file);
    if (module === undefined) return null;
    const { routes: facts } = module;
    const ranges = ref.kind === 'made'
      ? (target.exported !== null ? facts.exportedProducts.get(target.exported) : undefined) ?? (target.local !== null ? facts.functionProducts.get(target.local) : undefined)
      : [(target.exported !== null ? facts.exportedFunctions.get(target.exported) : undefined) ?? (target.local !== null ? facts.functions.get(target.local) : undefined)]
        .filter((range): range is SourceRange => range !== undefined);
    return ranges === undefined || ranges.length === 0 ? null : { file: target.file, ranges };
  };
  const add = (route: string, kind: 'request' | 'message', match: RouteMatch | null, file: string, line: number, refs: readonly HandlerRef[]): void => {
    const entry = routes.get(route) ?? { route, kind, registeredAt: [], ...(match !== null ? { match } : {}) };
    if (!entry.registeredAt.some((r) => r.file === file && r.line === line)) entry.registeredAt.push({ file, line });
    routes.set(route, entry);
    for (const ref of refs) {
      const at = place(file, ref);
      if (at === null) unresolvedHandlers++;
      else for (const range of at.ranges) handlers.push({ route, kind, registeredAt: { file, line }, file: at.file, range });
    }
  };
  for (const [file, { routes: facts }] of modules) {
    for (const r of facts.registrations) {
      if (r.kind === 'message') add(`MESSAGE ${r.path ?? ''}`.trim(), r.kind, null, file, r.line, r.handlers);
      else {
        const match = matchOf(r.method, r.path, file, r.receiver);
        add(labelOf(match), r.kind, match, file, r.line, r.handlers);
      }
    }
  }
  for (const m of middleware) {
    const match = matchOf('USE', m.prefix === '' ? null : m.prefix, m.file, m.receiver);
    add(labelOf(match), 'request', match, m.file, m.line, [m.ref]);
  }
  return { handlers, routes: [...routes.values()], unresolvedHandlers };
}

/** Source files read for routes under the roots, at most. */
export const MAX_ROUTE_FILES = 20_000;

/** The route map of the source files under `roots` (node_modules and git-ignored files left out). */
export function projectRouteMap(roots: readonly string[]): RouteMap {
  const files = collectSourceFiles([...roots], roots[0] ?? process.cwd()).slice(0, MAX_ROUTE_FILES);
  const index = new ProjectIndex();
  return routeMapOf(readModules(files, readModuleFromDisk), (from, specifier) => index.resolve(from, specifier));
}
