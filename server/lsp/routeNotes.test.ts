import { strict as assert } from 'node:assert';
import { routeHover, routeNotesIn } from './routeNotes';
import type { RouteNotes } from '../protocol/wire';

const routes: RouteNotes = {
  report: {
    cpuMs: 1000,
    shareBasis: { unit: 'ms' },
    routes: [
      { route: 'GET /v1/tasks', kind: 'request', ms: 289, percent: 28.9, registeredAt: [{ file: '/app/routes/tasks.js', line: 20 }] },
      { route: 'GET /a | GET /b', kind: 'request', ms: 10, percent: 1, registeredAt: [{ file: '/app/x.js', line: 3 }, { file: '/app/x.js', line: 4 }], shared: true },
    ],
    noRoute: { ms: 701, percent: 70.1 },
    unresolvedHandlers: 0,
  },
  handlers: [
    { route: 'GET /v1/tasks', file: '/app/routes/tasks.js', startLine: 9, endLine: 18 },
    { route: 'USE (every request)', file: '/app/routes/tasks.js', startLine: 1, endLine: 30 },
    { route: 'GET /a', file: '/app/x.js', startLine: 10, endLine: 12 },
    { route: 'GET /b', file: '/app/x.js', startLine: 10, endLine: 12 },
  ],
};

describe('route notes and hovers (server/lsp/routeNotes.ts)', () => {
  it('lists the registrations of one file with their route figures', () => {
    assert.deepEqual(routeNotesIn(routes, '/app/x.js'), [
      { line: 3, route: 'GET /a | GET /b', ms: 10, percent: 1 },
      { line: 4, route: 'GET /a | GET /b', ms: 10, percent: 1 },
    ]);
    assert.deepEqual(routeNotesIn(routes, '/app/other.js'), []);
  });

  it("names the route of the innermost handler holding the line, with its figures; none outside handlers", () => {
    const md = (text: string): string => text.replace(/[/|]/g, (c) => `\\${c}`);
    assert.equal(routeHover(routes, '/app/routes/tasks.js', 12, md), 'Serves GET \\/v1\\/tasks: 289 ms (28.9% of CPU time, idle excluded) in this profile.');
    assert.equal(routeHover(routes, '/app/routes/tasks.js', 25, md), 'Serves USE (every request).');
    assert.equal(routeHover(routes, '/app/x.js', 11, md), 'Serves GET \\/a \\| GET \\/b: 10.0 ms (1.00% of CPU time, idle excluded) in this profile.');
    assert.equal(routeHover(routes, '/app/x.js', 2, md), null);
  });
});
