import * as assert from 'node:assert/strict';
import { profileSummary } from '../../test/unit/profileSummary';
import type { CallSite, FunctionCost, Insight, OverviewResult } from '../../server/protocol/wire';
import { MAX_ITEMS, overviewChildren, overviewRow, type OverviewNode } from './overview';

const profile = profileSummary({ samples: 1000, durationMs: 1200, gcPercent: 2, cpuMs: 1000 });

function fn(name: string, totalMs: number, extra: Partial<FunctionCost> = {}): FunctionCost {
  return { name, file: `/app/${name}.js`, line: 3, column: 1, selfSamples: totalMs / 2, totalSamples: totalMs, selfMs: totalMs / 2, totalMs, selfPercent: totalMs / 20, totalPercent: totalMs / 10, category: 'user', ...extra };
}

const site: CallSite = {
  function: 'listTasks',
  file: '/app/routes/tasks.js',
  line: 12,
  samples: 300,
  ms: 300,
  percent: 30,
  libraries: [{ name: 'completeMany', file: '/app/node_modules/mongoose/lib/query.js', line: 40, category: 'dependency', samples: 250, ms: 250 }],
};

const insight: Insight = { id: 'gc-pressure', seed: '001', title: 'GC is *busy*', message: 'Raise --max-semi-space-size.', samples: 100, ms: 100, percent: 10, location: null, shareBasis: { unit: 'ms' } };

function overview(over: Partial<OverviewResult> = {}): OverviewResult {
  return { profile, baseline: null, allocation: null, hotFunctions: [fn('parse', 420), fn('(idle)', 900, { category: 'idle' })], callSites: [site], insights: [insight], ...over };
}

describe('overview tree (client/presentation/overview.ts)', () => {
  it('shows the sections with their counts; idle is no cost to review; unresolved files only when there are some', () => {
    const sections = overviewChildren(overview());
    assert.deepEqual(sections.map((s) => overviewRow(s, overview())).map((r) => [r.label, r.description, r.collapsible]), [
      ['Hot functions', '1', 'expanded'],
      ['User call sites', '1', 'collapsed'],
      ['Insights', '1', 'expanded'],
    ]);
    const missing = overview({ profile: { ...profile, unresolvedFiles: ['/srv/a.js'], unresolvedCount: 1 } });
    const last = overviewChildren(missing).at(-1)!;
    assert.deepEqual(overviewRow(last, missing), { label: 'Unresolved files', description: '1', collapsible: 'collapsed', tooltip: 'Frames name these files, but they were not found locally. Add a hotframe.pathMappings entry.' });
    assert.deepEqual(overviewChildren(missing, last), [{ kind: 'unresolved', file: '/srv/a.js' }]);
    // A summary lists the costliest files only; the others are counted under them.
    const many = overview({ profile: { ...profile, unresolvedFiles: ['/srv/a.js'], unresolvedCount: 3 } });
    const section = overviewChildren(many).at(-1)!;
    assert.equal(overviewRow(section, many).description, '3');
    assert.deepEqual(overviewChildren(many, section), [
      { kind: 'unresolved', file: '/srv/a.js' },
      { kind: 'message', label: '2 more, with fewer samples (hotframe profile FILE --format json lists every one)' },
    ]);
  });

  it('caps a section at the top items, the rest behind the flame graph', () => {
    const many = overview({ hotFunctions: Array.from({ length: MAX_ITEMS + 3 }, (_, i) => fn(`f${i}`, 100 - i)) });
    const functions = overviewChildren(many, overviewChildren(many)[0]);
    assert.equal(functions.length, MAX_ITEMS + 1);
    assert.deepEqual(functions.at(-1), { kind: 'more', count: 3 });
    assert.deepEqual(overviewRow(functions.at(-1)!, many), { label: '3 more…', tooltip: 'Everything is in the flame graph', collapsible: 'none', target: { flameGraph: true } });
  });

  it('says so when a section is empty', () => {
    const empty = overview({ hotFunctions: [fn('(idle)', 900, { category: 'idle' })], callSites: [], insights: [] });
    const [functions, sites, insights] = overviewChildren(empty).map((s) => overviewChildren(empty, s));
    assert.deepEqual([functions, sites, insights], [[{ kind: 'message', label: 'No samples outside idle' }], [{ kind: 'message', label: 'No library cost attributed' }], [{ kind: 'message', label: 'Nothing stands out' }]]);
  });

  it('draws a function with the editor note figures, and opens its line', () => {
    const row = overviewRow({ kind: 'function', value: fn('parse', 420) }, overview());
    assert.deepEqual(row, {
      label: 'parse',
      description: 'self 210 ms · total 420 ms · 42.0% CPU',
      tooltip: '/app/parse.js:3\nself 210 ms (21.0% of CPU time, idle excluded)\ntotal 420 ms (42.0% of CPU time, idle excluded)\n210 self samples, 420 total (user)',
      collapsible: 'none',
      icon: 'symbol-function',
      target: { open: { file: '/app/parse.js', line: 3 } },
    });
    // Native frames and node:internal have no file to open.
    assert.equal(overviewRow({ kind: 'function', value: fn('native', 10, { file: 'node:internal/fs' }) }, overview()).target, undefined);
  });

  it('draws an allocation profile in bytes, never as time', () => {
    const heap = overview({ profile: { ...profile, unit: 'bytes', shareBasis: { unit: 'bytes' }, cpuMs: 1024 * 1024 } });
    const row = overviewRow({ kind: 'function', value: fn('buildGarbage', 512 * 1024, { totalPercent: 50, selfPercent: 25, inferred: true }) }, heap);
    assert.equal(row.description, 'allocates 512 KiB · 50.0% of bytes');
    assert.equal(row.tooltip, '/app/buildGarbage.js:3 (placed by its name: no URL in the profile)\nself 256 KiB · 25.0% of bytes, total 512 KiB · 50.0% of bytes');
  });

  it('draws a call site with the libraries beneath it, and an insight as markdown', () => {
    const o = overview();
    const node: OverviewNode = { kind: 'callSite', value: site };
    assert.deepEqual(overviewRow(node, o), {
      label: 'listTasks',
      description: '300 ms · 30.0% CPU · tasks.js:12',
      tooltip: '/app/routes/tasks.js:12\nLibrary time beneath this call: 300 ms (30.0% of CPU time, idle excluded), 300 samples',
      collapsible: 'collapsed',
      icon: 'call-outgoing',
      target: { open: { file: '/app/routes/tasks.js', line: 12 } },
    });
    const [library] = overviewChildren(o, node);
    assert.deepEqual(overviewRow(library!, o).description, '250 ms · 25.0% CPU · dependency');
    const row = overviewRow({ kind: 'insight', value: insight }, o);
    assert.deepEqual([row.label, row.description, row.tooltip, row.markdownTooltip, row.target], ['GC is *busy*', '100 ms · 10.0% CPU', '100 ms (10.0% of CPU time, idle excluded)\n\nRaise --max-semi-space-size.', true, undefined]);
  });

  it('lists the routes that ran with their CPU time and share, then (no route); a click opens the registration', () => {
    const routes: OverviewResult['routes'] = {
      cpuMs: 1000,
      shareBasis: { unit: 'ms' },
      routes: [
        { route: 'GET /v1/tasks', kind: 'request', ms: 289, percent: 28.9, registeredAt: [{ file: '/app/routes/tasks.js', line: 116 }] },
        { route: 'GET /a | GET /b', kind: 'request', ms: 11, percent: 1.1, registeredAt: [{ file: '/app/a.js', line: 3 }, { file: '/app/a.js', line: 4 }], shared: true },
        { route: 'GET /healthz', kind: 'request', ms: 0, percent: 0, registeredAt: [{ file: '/app/server.js', line: 35 }] },
      ],
      noRoute: { ms: 700, percent: 70 },
      unresolvedHandlers: 0,
    };
    const o = overview({ routes });
    const section = overviewChildren(o).find((n) => n.kind === 'section' && n.id === 'routes')!;
    assert.deepEqual(overviewRow(section, o).label, 'Routes');
    // The heading counts the routes listed, against those registered: not 3 above two routes.
    assert.equal(overviewRow(section, o).description, '2 of 3 ran');
    // Another program profiled: none of the known routes ran, and the heading says so above (no route).
    const idle = overview({ routes: { ...routes, routes: routes.routes.map((r) => ({ ...r, ms: 0, percent: 0 })) } });
    const idleSection = overviewChildren(idle).find((n) => n.kind === 'section' && n.id === 'routes')!;
    assert.equal(overviewRow(idleSection, idle).description, '0 of 3 ran');
    assert.deepEqual(overviewChildren(idle, idleSection).map((n) => n.kind), ['noRoute']);
    const rows = overviewChildren(o, section).map((n) => overviewRow(n, o));
    assert.deepEqual(rows.map((r) => [r.label, r.description]), [
      ['GET /v1/tasks', '289 ms · 28.9% CPU'],
      ['GET /a | GET /b', '11.0 ms · 1.10% CPU'],
      ['(no route)', '700 ms · 70.0% CPU'],
    ]);
    assert.deepEqual(rows[0]!.target, { open: { file: '/app/routes/tasks.js', line: 116 } });
    assert.match(rows[0]!.tooltip!, /^289 ms \(28\.9% of CPU time, idle excluded\) with this route's handler/);
    assert.match(rows[1]!.tooltip!, /cannot be told apart/);
    // No route registered in the workspace: no section.
    assert.ok(!overviewChildren(overview({ routes: { ...routes, routes: [] } })).some((n) => n.kind === 'section' && n.id === 'routes'));
  });

  it("with a Hotframe recording's request counts: requests and CPU per request on each route, unmatched requests on (no route)", () => {
    const routes: OverviewResult['routes'] = {
      cpuMs: 1000,
      shareBasis: { unit: 'ms' },
      routes: [
        { route: 'GET /v1/tasks', kind: 'request', ms: 289, percent: 28.9, registeredAt: [{ file: '/app/routes/tasks.js', line: 116 }], requests: 40, msPerRequest: 289 / 40 },
        { route: 'GET /healthz', kind: 'request', ms: 0, percent: 0, registeredAt: [{ file: '/app/server.js', line: 35 }], requests: 3, msPerRequest: 0 },
        { route: 'GET /never', kind: 'request', ms: 0, percent: 0, registeredAt: [{ file: '/app/server.js', line: 36 }], requests: 0 },
      ],
      noRoute: { ms: 700, percent: 70 },
      unresolvedHandlers: 0,
      requests: { received: 45, kept: 45, unmatched: 2, several: 0, unreadRoutes: 0, unchecked: 0 },
    };
    const o = overview({ routes });
    const section = overviewChildren(o).find((n) => n.kind === 'section' && n.id === 'routes')!;
    const rows = overviewChildren(o, section).map((n) => overviewRow(n, o));
    assert.deepEqual(rows.map((r) => [r.label, r.description]), [
      ['GET /v1/tasks', '289 ms · 28.9% CPU · 40 requests · 7.22 ms/request'],
      ['GET /healthz', '0.00 ms · 0.00% CPU · 3 requests · 0.00 ms/request'],
      ['(no route)', '700 ms · 70.0% CPU · 2 unmatched requests'],
    ]);
    assert.match(rows[0]!.tooltip!, /\n40 requests · 7\.22 ms\/request \(ms\/request = the route's CPU time/);
  });

  it("with a recording's request windows: the part of a route's time they charged, and what they could not, in the tooltips", () => {
    const routes: OverviewResult['routes'] = {
      cpuMs: 1000,
      shareBasis: { unit: 'ms' },
      routes: [{ route: 'GET /v1/tasks', kind: 'request', ms: 289, percent: 28.9, registeredAt: [{ file: '/app/routes/tasks.js', line: 116 }], requests: 40, msPerRequest: 289 / 40, byRequestWindowsMs: 61 }],
      noRoute: { ms: 700, percent: 70 },
      unresolvedHandlers: 0,
      requests: { received: 40, kept: 40, unmatched: 0, several: 0, unreadRoutes: 0, unchecked: 0 },
      requestWindows: { chargedMs: 61, overlappedMs: 12, requests: 40, placed: 40 },
    };
    const o = overview({ routes });
    const section = overviewChildren(o).find((n) => n.kind === 'section' && n.id === 'routes')!;
    const rows = overviewChildren(o, section).map((n) => overviewRow(n, o));
    assert.match(rows[0]!.tooltip!, /\n61\.0 ms of it by its requests' windows: samples with no endpoint route on the stack/);
    assert.match(rows[1]!.tooltip!, /nor inside the request windows of one route alone \(12\.0 ms fell while requests of several routes were open\)/);
  });

  it('shows nothing before an overview arrives', () => {
    assert.deepEqual(overviewRow({ kind: 'message', label: 'x' }, null), { label: 'x', collapsible: 'none' });
  });
});
