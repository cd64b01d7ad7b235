// Requests per route (issue 25): the requests a Hotframe recording noted (method and path, from
// server/profile/readers/readServingLog.ts) matched to the routes of the project's route map, and
// each route's CPU time per request. Pure: a route report, the routes' patterns and the requests in.
//
// How a request is matched, as express routes it: the method (a GET route also serves HEAD, ALL
// and an http server's own handler serve every method) and the path against the route's full
// pattern (mount prefixes joined), case-insensitive, a trailing slash allowed; middleware (USE)
// matches its prefix and everything under it. Patterns are read by path-to-regexp (the matcher
// express 5's router uses); express 4's `:name?` and bare `*` are read as their express 5
// spelling. A pattern it cannot read (a regular expression, a path the source builds at run time)
// leaves its route uncounted, and says so: nothing is guessed.
//
// A request no endpoint route (anything but middleware) matches is "unmatched" (a 404, or a route
// the source analysis did not see); one that several endpoint routes match (`/tasks/:id` and
// `/tasks/new`) is counted for each, and the count of such requests is reported.
import { match, type MatchFunction } from 'path-to-regexp';

import type { RequestTally, RouteReport } from '../../protocol/wire';
import type { RequestSpan } from './routeCost';

export type { RequestTally };

/** A route's method and full path patterns (server/static/project/routeMap.ts's RouteMatch). */
export interface RoutePattern {
  route: string;
  method: string;
  /** No paths: every path. */
  paths: readonly string[];
}

export interface RequestLike {
  method: string;
  path: string;
}

/** Pattern tests at most, in all (requests with distinct method and path × routes): past it, requests are left unchecked. */
export const MAX_MATCH_TESTS = 20_000_000;

/** express 4 spellings path-to-regexp 8 refuses, as express 5 writes them. */
function express5Spelling(pattern: string): string {
  return pattern.replace(/\/:([A-Za-z_$][\w$]*)\?/g, '{/:$1}').replace(/\*(?![A-Za-z_$])/g, '*splat');
}

type PathTest = (path: string) => boolean;

function compile(pattern: string, prefix: boolean): PathTest | null {
  if (pattern.includes('(dynamic)')) return null;
  const options = { end: !prefix, decode: false as const };
  for (const spelling of [pattern, express5Spelling(pattern)]) {
    try {
      const test: MatchFunction<object> = match(spelling, options);
      return (path) => test(path) !== false;
    } catch {
      // not this spelling
    }
  }
  return null;
}

interface CompiledRoute {
  route: string;
  methods: ReadonlySet<string> | null;
  endpoint: boolean;
  /** null: every path. */
  paths: PathTest[] | null;
}

function compileRoute(pattern: RoutePattern): CompiledRoute | null {
  const method = pattern.method.toUpperCase();
  const endpoint = method !== 'USE';
  const everyMethod = method === 'USE' || method === 'ALL' || method === 'REQUEST';
  const methods = everyMethod ? null : new Set(method.split(/\s*,\s*/).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])));
  if (method === 'REQUEST' || pattern.paths.length === 0) return { route: pattern.route, methods, endpoint, paths: null };
  const paths: PathTest[] = [];
  for (const p of pattern.paths) {
    const test = compile(p, !endpoint);
    if (test === null) return null;
    paths.push(test);
  }
  return { route: pattern.route, methods, endpoint, paths };
}

/**
 * The report with each request route's `requests` and `msPerRequest` (a route of several labels
 * joined by ' | ', one handler serving them, counts a request once if any of them matches), and
 * the tally. Message handlers get no count.
 */
export function withRequestCounts(report: RouteReport, patterns: readonly RoutePattern[], requests: readonly RequestLike[], received: number): RouteReport {
  const compiled = new Map<string, CompiledRoute>();
  let unreadRoutes = 0;
  for (const p of patterns) {
    const c = compileRoute(p);
    if (c === null) unreadRoutes++;
    else compiled.set(p.route, c);
  }
  const routes = [...compiled.values()];
  // Requests with the same method and path match the same routes: matched once.
  const distinct = new Map<string, { method: string; path: string; count: number }>();
  for (const r of requests) {
    const key = `${r.method} ${r.path}`;
    const entry = distinct.get(key);
    if (entry === undefined) distinct.set(key, { method: r.method, path: r.path, count: 1 });
    else entry.count++;
  }
  const known = new Set(compiled.keys());
  // Labels of one handler serving several routes: a request matching several of them is one request.
  const shared = report.routes.filter((cost) => cost.kind === 'request' && cost.route.includes(' | ')).map((cost) => ({ label: cost.route, parts: cost.route.split(' | ') })).filter((s) => s.parts.every((part) => known.has(part)));
  const counts = new Map<string, number>();
  let unmatched = 0;
  let several = 0;
  let unchecked = 0;
  let tests = 0;
  for (const { method, path, count } of distinct.values()) {
    if (tests + routes.length > MAX_MATCH_TESTS) {
      unchecked += count;
      continue;
    }
    tests += routes.length;
    let endpoints = 0;
    const matched = new Set<string>();
    for (const route of routes) {
      if (route.methods !== null && !route.methods.has(method)) continue;
      if (route.paths !== null && !route.paths.some((test) => test(path))) continue;
      matched.add(route.route);
      counts.set(route.route, (counts.get(route.route) ?? 0) + count);
      if (route.endpoint) endpoints++;
    }
    for (const s of shared) if (s.parts.some((part) => matched.has(part))) counts.set(s.label, (counts.get(s.label) ?? 0) + count);
    if (endpoints === 0) unmatched += count;
    else if (endpoints > 1) several += count;
  }
  const costs = report.routes.map((cost) => {
    if (cost.kind !== 'request' || !cost.route.split(' | ').every((part) => known.has(part))) return cost;
    const n = counts.get(cost.route) ?? 0;
    return { ...cost, requests: n, ...(n > 0 ? { msPerRequest: cost.ms / n } : {}) };
  });
  const tally: RequestTally = { received: Math.max(received, requests.length), kept: requests.length, unmatched, several, unreadRoutes, unchecked };
  return { ...report, routes: costs, requests: tally };
}

/**
 * Each request's window and the endpoint routes (not middleware) its method and path matched,
 * for the request-window rule (requestWindows.ts). A request past the work bound matches no
 * route: its window charges nothing and keeps the samples in it from being charged.
 */
export function requestSpans(patterns: readonly RoutePattern[], requests: readonly (RequestLike & { startMs: number; endMs: number | null })[]): RequestSpan[] {
  const endpoints = patterns.flatMap((p) => {
    const c = compileRoute(p);
    return c !== null && c.endpoint ? [c] : [];
  });
  const matchedBy = new Map<string, string[]>();
  let tests = 0;
  return requests.map((r) => {
    const key = `${r.method} ${r.path}`;
    let routes = matchedBy.get(key);
    if (routes === undefined) {
      routes = [];
      if (tests + endpoints.length <= MAX_MATCH_TESTS) {
        tests += endpoints.length;
        for (const route of endpoints) {
          if (route.methods !== null && !route.methods.has(r.method)) continue;
          if (route.paths !== null && !route.paths.some((test) => test(r.path))) continue;
          routes.push(route.route);
        }
      }
      matchedBy.set(key, routes);
    }
    return { startMs: r.startMs, endMs: r.endMs, routes };
  });
}

/** The route map's routes that say which requests they serve, as patterns. */
export function patternsOf(routes: readonly { route: string; match?: { method: string; paths: readonly string[] } }[]): RoutePattern[] {
  return routes.flatMap((r) => (r.match !== undefined ? [{ route: r.route, method: r.match.method, paths: r.match.paths }] : []));
}
