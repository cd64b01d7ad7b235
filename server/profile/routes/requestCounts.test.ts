import { strict as assert } from 'node:assert';

import { MAX_MATCH_TESTS, patternsOf, requestSpans, withRequestCounts } from './requestCounts';
import type { RouteReport } from '../../protocol/wire';

const cost = (route: string, ms: number, kind: 'request' | 'message' = 'request'): RouteReport['routes'][number] => ({ route, kind, ms, percent: ms / 10, registeredAt: [] });
const report = (...routes: RouteReport['routes']): RouteReport => ({ cpuMs: 1000, shareBasis: { unit: 'ms' }, routes, noRoute: { ms: 0, percent: 0 }, unresolvedHandlers: 0 });
const req = (method: string, path: string) => ({ method, path });

describe('withRequestCounts', () => {
  it('matches methods and express paths (parameters, mounts, case, trailing slash, HEAD on GET)', () => {
    const routes = [
      { route: 'GET /v1/tasks/:id', match: { method: 'GET', paths: ['/v1/tasks/:id'] } },
      { route: 'POST /v1/tasks', match: { method: 'POST', paths: ['/v1/tasks'] } },
      { route: 'USE /v1', match: { method: 'USE', paths: ['/v1'] } },
      { route: 'USE (every request)', match: { method: 'USE', paths: [] } },
    ];
    const out = withRequestCounts(report(cost('GET /v1/tasks/:id', 30), cost('POST /v1/tasks', 0), cost('USE /v1', 5), cost('USE (every request)', 1)), patternsOf(routes), [
      req('GET', '/v1/tasks/1'), req('HEAD', '/V1/TASKS/2/'), req('GET', '/v1/tasks'), req('POST', '/v1/tasks'), req('GET', '/v1x/tasks/1'), req('PUT', '/v1/tasks/1'),
    ], 6);
    const by = new Map(out.routes.map((r) => [r.route, r]));
    assert.equal(by.get('GET /v1/tasks/:id')?.requests, 2);
    assert.equal(by.get('GET /v1/tasks/:id')?.msPerRequest, 15);
    assert.equal(by.get('POST /v1/tasks')?.requests, 1);
    assert.equal(by.get('POST /v1/tasks')?.msPerRequest, 0, 'no sample on the route: 0 ms per request, as the samples say');
    // The prefix matches at a segment boundary only: /v1x is not under /v1.
    assert.equal(by.get('USE /v1')?.requests, 5);
    assert.equal(by.get('USE (every request)')?.requests, 6);
    assert.deepEqual(out.requests, { received: 6, kept: 6, unmatched: 3, several: 0, unreadRoutes: 0, unchecked: 0 });
  });

  it("reads express 4's optional parameters and bare wildcards; leaves regular expressions and dynamic paths uncounted", () => {
    const routes = [
      { route: 'GET /a/:id?', match: { method: 'GET', paths: ['/a/:id?'] } },
      { route: 'GET /files/*', match: { method: 'GET', paths: ['/files/*'] } },
      { route: 'GET /n/(\\d+)', match: { method: 'GET', paths: ['/n/(\\d+)'] } },
      { route: 'GET (dynamic)', match: { method: 'GET', paths: ['(dynamic)'] } },
    ];
    const out = withRequestCounts(report(cost('GET /a/:id?', 1), cost('GET /files/*', 1), cost('GET /n/(\\d+)', 1), cost('GET (dynamic)', 1)), patternsOf(routes), [req('GET', '/a'), req('GET', '/a/3'), req('GET', '/files/x/y'), req('GET', '/n/4')], 4);
    const by = new Map(out.routes.map((r) => [r.route, r]));
    assert.equal(by.get('GET /a/:id?')?.requests, 2);
    assert.equal(by.get('GET /files/*')?.requests, 1);
    assert.equal(by.get('GET /n/(\\d+)')?.requests, undefined);
    assert.equal(by.get('GET (dynamic)')?.requests, undefined);
    assert.equal(out.requests?.unreadRoutes, 2);
    assert.equal(out.requests?.unmatched, 1);
  });

  it('counts a request matched by several routes for each, and says how many; one handler of several routes counts it once', () => {
    const routes = [
      { route: 'GET /t/:id', match: { method: 'GET', paths: ['/t/:id'] } },
      { route: 'GET /t/new', match: { method: 'GET', paths: ['/t/new'] } },
      { route: 'REQUEST (http server)', match: { method: 'REQUEST', paths: [] } },
    ];
    const out = withRequestCounts(report(cost('GET /t/:id | GET /t/new', 20), cost('REQUEST (http server)', 4), cost("MESSAGE 'message' on sub", 3, 'message')), patternsOf(routes), [req('GET', '/t/new'), req('GET', '/t/1'), req('POST', '/x')], 10);
    const by = new Map(out.routes.map((r) => [r.route, r]));
    assert.equal(by.get('GET /t/:id | GET /t/new')?.requests, 2);
    assert.equal(by.get('REQUEST (http server)')?.requests, 3);
    assert.equal(by.get("MESSAGE 'message' on sub")?.requests, undefined);
    // /t/new: two routes and the server's handler; /t/1: one route and the handler.
    assert.deepEqual(out.requests, { received: 10, kept: 3, unmatched: 0, several: 2, unreadRoutes: 0, unchecked: 0 });
  });

  it('bounds the matching work: past it, requests are counted as unchecked', () => {
    const routes = Array.from({ length: 2000 }, (_, i) => ({ route: `GET /r${i}`, match: { method: 'GET', paths: [`/r${i}`] } }));
    const distinct = Math.floor(MAX_MATCH_TESTS / routes.length) + 5;
    const requests = Array.from({ length: distinct }, (_, i) => req('POST', `/p${i}`));
    const out = withRequestCounts(report(), patternsOf(routes), requests, requests.length);
    assert.equal(out.requests?.unchecked, 5);
    assert.equal(out.requests?.unmatched, distinct - 5);
  });
});

describe('requestSpans', () => {
  it('gives each request its window and the endpoint routes (never middleware) its method and path matched', () => {
    const routes = patternsOf([
      { route: 'GET /db', match: { method: 'GET', paths: ['/db'] } },
      { route: 'GET /:key', match: { method: 'GET', paths: ['/:key'] } },
      { route: 'USE (every request)', match: { method: 'USE', paths: [] } },
      { route: 'POST /:key', match: { method: 'POST', paths: ['/:key'] } },
    ]);
    const spans = requestSpans(routes, [
      { method: 'GET', path: '/db', startMs: 1, endMs: 2 },
      { method: 'GET', path: '/posts', startMs: 3, endMs: null },
      { method: 'GET', path: '/a/b/c', startMs: 4, endMs: 5 },
    ]);
    assert.deepEqual(spans, [
      { startMs: 1, endMs: 2, routes: ['GET /db', 'GET /:key'] },
      { startMs: 3, endMs: null, routes: ['GET /:key'] },
      { startMs: 4, endMs: 5, routes: [] },
    ]);
  });
});
