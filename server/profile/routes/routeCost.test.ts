import { strict as assert } from 'node:assert';
import { HandlerLookup, NO_ROUTE, routeReportOf, type RouteHandler, type RouteInputs } from './routeCost';

const range = (startLine: number, startColumn: number, endLine: number, endColumn: number) => ({ startLine, startColumn, endLine, endColumn });

// Functions: 0 idle, 1 express internals, 2 middleware, 3 handler A, 4 closure inside A, 5 a library, 6 handler B (shared by two routes), 7 the garbage collector.
const FUNCS = [
  { file: '', line: 0, column: 0, idle: true },
  { file: '/n/express/router.js', line: 10, column: 1, idle: false },
  { file: '/app.js', line: 3, column: 9, idle: false },
  { file: '/app.js', line: 10, column: 15, idle: false },
  { file: '/app.js', line: 12, column: 20, idle: false },
  { file: '/n/lib.js', line: 1, column: 1, idle: false },
  { file: '/b.js', line: 1, column: 1, idle: false },
  { file: '', line: 0, column: 0, idle: false, gc: true },
];
const HANDLERS: RouteHandler[] = [
  { route: 'USE (every request)', kind: 'request', file: '/app.js', range: range(3, 8, 6, 1) },
  { route: 'GET /a', kind: 'request', file: '/app.js', range: range(10, 14, 15, 1) },
  { route: 'GET /b', kind: 'request', file: '/b.js', range: range(1, 0, 5, 1) },
  { route: 'GET /c', kind: 'request', file: '/b.js', range: range(1, 0, 5, 1) },
];

/** Nodes: [parent, func, selfMs]; node 0 is the root. */
function inputs(nodes: [number, number, number][]): RouteInputs {
  return {
    tree: {
      count: nodes.length + 1,
      parent: Int32Array.from([-1, ...nodes.map((n) => n[0])]),
      func: Int32Array.from([-1, ...nodes.map((n) => n[1])]),
      selfMs: Float64Array.from([0, ...nodes.map((n) => n[2])]),
    },
    functionAt: (f) => FUNCS[f] ?? null,
    handlers: HANDLERS,
    routes: [
      { route: 'USE (every request)', kind: 'request', registeredAt: [{ file: '/app.js', line: 3 }] },
      { route: 'GET /a', kind: 'request', registeredAt: [{ file: '/app.js', line: 10 }] },
      { route: 'GET /b', kind: 'request', registeredAt: [{ file: '/b.js', line: 9 }] },
      { route: 'GET /c', kind: 'request', registeredAt: [{ file: '/b.js', line: 10 }] },
      { route: 'GET /never', kind: 'request', registeredAt: [{ file: '/b.js', line: 11 }] },
    ],
    cpuMs: 100,
    shareBasis: { unit: 'ms' },
    unresolvedHandlers: 0,
  };
}

/**
 * The request-window tests' profile: in order, 1 ms each, express (no route), middleware, A,
 * express, express, B, express, GC; a route map where the middleware is USE.
 */
function windowedInputs(): RouteInputs {
  const tree = inputs([
    [0, 1, 0], // 1 express
    [1, 2, 0], // 2 middleware
    [1, 3, 0], // 3 handler A
    [1, 6, 0], // 4 handler B | C
    [0, 7, 0], // 5 the collector
  ]).tree;
  const order = [1, 2, 3, 1, 1, 4, 1, 5];
  const selfMs = new Float64Array(tree.count);
  order.forEach((n) => (selfMs[n] += 1));
  const timeline = { node: Int32Array.from(order), atMs: Float64Array.from(order.map((_, i) => i)), endMs: order.length };
  const base = inputs([]);
  return { ...base, tree: { ...tree, selfMs }, timeline, cpuMs: 8, routes: base.routes.map((r) => (r.route.startsWith('USE') ? { ...r, match: { method: 'USE' } } : r)) };
}

describe('cost per route (pure)', () => {
  it('finds the innermost extent holding a function position (V8 columns are 1-based)', () => {
    const lookup = new HandlerLookup(HANDLERS);
    assert.equal(lookup.routeAt('/app.js', 10, 15), 'GET /a');
    assert.equal(lookup.routeAt('/app.js', 10, 14), null, 'column 13 (0-based) is before the handler');
    assert.equal(lookup.routeAt('/app.js', 12, 20), 'GET /a', 'a closure written in the handler');
    assert.equal(lookup.routeAt('/b.js', 1, 1), 'GET /b | GET /c');
    assert.equal(lookup.routeAt('/other.js', 1, 1), null);
  });

  it('charges a sample to the innermost handler on its stack, the rest to (no route), idle to nothing', () => {
    const report = routeReportOf(inputs([
      [0, 0, 50], // 1: idle
      [0, 1, 10], // 2: express, no route
      [2, 2, 5], // 3: middleware
      [3, 1, 1], // 4: next() inside the middleware: still the middleware's
      [4, 3, 20], // 5: handler A, called from the middleware's next()
      [5, 5, 30], // 6: a library called by A
      [0, 4, 7], // 7: A's closure resumed from the microtask queue
      [2, 6, 17], // 8: B's handler
    ]));
    const ms = Object.fromEntries(report.routes.map((r) => [r.route, r.ms]));
    assert.deepEqual(ms, { 'GET /a': 57, 'GET /b | GET /c': 17, 'USE (every request)': 6, 'GET /never': 0 });
    assert.deepEqual(report.noRoute, { ms: 20, percent: 20 });
    assert.ok(Math.abs(report.routes[0]!.percent - 57) < 1e-9);
    const shared = report.routes.find((r) => r.route === 'GET /b | GET /c')!;
    assert.equal(shared.shared, true);
    assert.deepEqual(shared.registeredAt, [{ file: '/b.js', line: 9 }, { file: '/b.js', line: 10 }]);
    assert.ok(!report.routes.some((r) => r.route === NO_ROUTE));
  });

  it('with no handlers, every sample is (no route)', () => {
    const report = routeReportOf({ ...inputs([[0, 1, 100]]), handlers: [], routes: [] });
    assert.deepEqual(report.routes, []);
    assert.deepEqual(report.noRoute, { ms: 100, percent: 100 });
  });

  it("charges a stackless garbage-collector sample to the route of the sample before it, through a run of them; never one after idle or unrouted code", () => {
    // Nodes: 1 express (no route), 2 handler A under it, 3 the collector (a child of the root, no stack), 4 idle.
    const tree = inputs([
      [0, 1, 0],
      [1, 3, 0],
      [0, 7, 0],
      [0, 0, 0],
    ]).tree;
    // In order, 1 ms each: A, GC, GC, express, GC, idle, GC, A, GC (the last lasts until endMs: 2 ms).
    const order = [2, 3, 3, 1, 3, 4, 3, 2, 3];
    const selfMs = new Float64Array(tree.count);
    order.forEach((n, i) => (selfMs[n] += i === order.length - 1 ? 2 : 1));
    const timeline = { node: Int32Array.from(order), atMs: Float64Array.from(order.map((_, i) => i)), endMs: order.length + 1 };
    const base = { ...inputs([]), tree: { ...tree, selfMs }, cpuMs: 9 };
    const withOrder = routeReportOf({ ...base, timeline });
    const a = (r: typeof withOrder) => r.routes.find((x) => x.route === 'GET /a')!.ms;
    // A's own 2 ms, the two collections after it and the last one (2 ms): 6 ms.
    assert.equal(a(withOrder), 6);
    assert.equal(withOrder.noRoute.ms, 3, 'express 1 ms, the collection after it and the one after idle');
    // Without the samples' order (pprof), a collection stays (no route).
    const unordered = routeReportOf(base);
    assert.equal(a(unordered), 2);
    assert.equal(unordered.noRoute.ms, 7);
  });

  it("with a recording's requests, charges samples no endpoint frame claims to the route whose requests alone were open, and says how much", () => {
    const routed = windowedInputs();
    // A request for GET /a over [0, 4), one for GET /b over [5, 8).
    const report = routeReportOf(routed, [
      { startMs: 0, endMs: 4, routes: ['GET /a'] },
      { startMs: 5, endMs: 8, routes: ['GET /b'] },
    ]);
    const row = (route: string) => report.routes.find((r) => r.route === route)!;
    assert.equal(row('GET /a').ms, 4, 'its own 1 ms, express before it, the middleware, express after it');
    assert.equal(row('GET /a').byRequestWindowsMs, 3);
    assert.equal(row('GET /b | GET /c').ms, 3, "its own 1 ms, express after it, and the collection after that (no route before it: charged by the window)");
    assert.equal(row('USE (every request)').ms, 0);
    assert.equal(report.noRoute.ms, 1, 'the express sample at 4 ms, between the windows');
    assert.deepEqual(report.requestWindows, { chargedMs: 5, overlappedMs: 0, requests: 2, placed: 2 });
    // Without requests the stacks alone: A 1, B 1, middleware 1, no route 5.
    const plain = routeReportOf(routed);
    assert.equal(plain.routes.find((r) => r.route === 'GET /a')!.ms, 1);
    assert.equal(plain.noRoute.ms, 5);
    assert.equal(plain.requestWindows, undefined);
  });

  it("with the thread's clock, charges a route the samples no endpoint frame claims around its windows, in the clock's spans where its requests alone were open", () => {
    // windowedInputs' samples, 1 ms each: express, middleware, A, express, express, B, express, GC.
    // GET /a's request over [1, 4): the express sample at 0 ms (Node reading its headers) is before
    // its start. The clock's spans [0, 4.5) and [4.5, 8), each all CPU, all of it sampled.
    const routed = windowedInputs();
    const requests = [
      { startMs: 1, endMs: 4, routes: ['GET /a'] },
      { startMs: 5, endMs: 8, routes: ['GET /b'] },
    ];
    const row = (report: ReturnType<typeof routeReportOf>, route: string) => report.routes.find((r) => r.route === route)!;
    const withoutClock = routeReportOf(routed, requests);
    assert.equal(row(withoutClock, 'GET /a').ms, 3, 'its own, the middleware and express after it, in its window');
    assert.equal(withoutClock.noRoute.ms, 2, 'the express samples at 0 and 4 ms, outside the windows');
    const report = routeReportOf(routed, requests, { atMs: [0, 4.5, 8], cpuMs: [0, 4.5, 8] });
    assert.equal(row(report, 'GET /a').ms, 4.5, 'and the express sample at 0 ms and the first half of the one at 4 ms, in its span');
    assert.equal(row(report, 'GET /a').byRequestWindowsMs, 3.5);
    assert.equal(row(report, 'GET /b | GET /c').ms, 3.5, 'and the second half of the sample at 4 ms, in its span');
    assert.equal(report.noRoute.ms, 0);
    assert.equal(report.requestWindows!.chargedMs, 6);
    assert.deepEqual(report.requestWindows!.unsampled, { threadMs: 8, unsampledMs: 0, chargedMs: 0 });
  });
});
