// Requests per route, counted (issue 25): the Express server of test/fixtures/routes recorded by
// Hotframe's own recorder (`hotframe record`'s startRecording and its preload), a bounded number
// of requests sent to it on loopback, each kind a known number of times, some to no route. The
// notes the preload writes beside the profile, matched to the routes of the server's source,
// must count each route's requests exactly, the unmatched ones as such, and the CLI's text and
// JSON and the editor's Routes section must show the same counts and CPU time per request.
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { createMessageConnection, PortMessageReader, PortMessageWriter } from 'vscode-jsonrpc/node';

import { keepRecording } from '../../server/shared/recordingFiles';
import { SERVING_SUFFIX } from '../../server/shared/servingRecorder';
import { analyzeProfileFile } from '../../server/profile/analysis/report';
import { readServingLog } from '../../server/profile/readers/readServingLog';
import { NO_ROUTE, type RouteReport } from '../../server/profile/routes/routeCost';
import { routeReportFor, routesJson, routesText } from '../../server/cli/routesOutput';
import { serveProfileSession } from '../../server/lsp/profileWorker';
import { WorkerRequests } from '../../server/protocol/worker';
import { formatPerRequest } from '../../server/shared/format';
import { sendRequest } from './loopbackRequest';
import { startRecordedServer, stopAndRemove } from './recordedServer';
import type { Recording } from '../../server/shared/recordProfile';

const FIXTURE = resolve(__dirname, '../fixtures/routes');

/** What the test sends (method, path, times), and the route each one is for (null: none). */
const PLAN: { method: string; path: string; times: number; route: string | null }[] = [
  { method: 'GET', path: '/v1/tasks?rounds=20000', times: 7, route: 'GET /v1/tasks' },
  { method: 'GET', path: '/V1/Tasks/?rounds=20000', times: 2, route: 'GET /v1/tasks' },
  { method: 'GET', path: '/reports?rounds=20000', times: 5, route: 'GET /reports' },
  { method: 'POST', path: '/orders', times: 3, route: 'POST /orders' },
  { method: 'GET', path: '/nowhere', times: 4, route: null },
  { method: 'DELETE', path: '/v1/tasks', times: 2, route: null },
];

describe('requests per route of a real Express server recorded by Hotframe', function () {
  this.timeout(180_000);
  let dir = '';
  let profile = '';
  let report: RouteReport;
  let recording: Recording | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-requests-'));
    cpSync(FIXTURE, dir, { recursive: true });
    const started = await startRecordedServer([join(dir, 'server.js'), join(dir, 'spent.json')], dir);
    recording = started.recording;
    const { port } = started;
    try {
      for (const step of PLAN) for (let i = 0; i < step.times; i++) await sendRequest(port, step.method, step.path, step.method === 'POST' ? { text: '20000', contentType: 'text/plain' } : undefined);
    } finally {
      await sendRequest(port, 'GET', '/exit').catch(() => '');
    }
    const result = await started.recording.done;
    assert.equal(result.code, 0);
    // Saved as `hotframe record` saves it: the notes go with the profile, under its new name.
    [profile] = keepRecording(result.dir, [result.profiles[0]!.path], { outDir: join(dir, 'profiles'), argv: ['node', 'server.js'], startedAt: Date.now() });
    const analyzed = await analyzeProfileFile(profile, { root: dir });
    report = routeReportFor(analyzed, dir, profile);
  });

  // The recording's temporary folder too: saving removes it, a failure before that would not.
  after(() => stopAndRemove(recording, dir, recording?.dir ?? ''));

  it('keeps the notes beside the saved profile, with each request', () => {
    assert.ok(existsSync(profile + SERVING_SUFFIX), readdirSync(join(dir, 'profiles')).join(', '));
    const log = readServingLog(profile);
    assert.ok(log !== null && !('error' in log));
    const sent = PLAN.reduce((n, s) => n + s.times, 0) + 1;
    assert.equal(log.requests.length, sent);
    assert.equal(log.requestsSeen, sent);
    assert.equal(log.observer, 'diagnostics_channel');
    // Paths without their query; every response finished, after it started, inside the profile.
    assert.deepEqual(log.requests[0]!.path, '/v1/tasks');
    for (const r of log.requests) assert.ok(r.startMs >= 0 && r.endMs !== null && r.endMs >= r.startMs, JSON.stringify(r));
    // The main thread's CPU clock (Linux), read when the monitor started, at every loop tick (5 ms)
    // and when it stopped: readings going forward (how many depends on how long it served).
    if (process.platform !== 'linux') return;
    const clock = log.threadCpu;
    assert.ok(clock !== undefined && clock.atMs.length >= 2, JSON.stringify(clock?.atMs.length));
    assert.ok(clock.cpuMs.at(-1)! > clock.cpuMs[0]!, 'the thread ran while recorded');
  });

  it('counts each route exactly, middleware for every request, and the unmatched ones as such', () => {
    const expected = new Map<string, number>();
    for (const step of PLAN) if (step.route !== null) expected.set(step.route, (expected.get(step.route) ?? 0) + step.times);
    expected.set('GET /exit', 1);
    for (const [route, count] of expected) {
      const cost = report.routes.find((r) => r.route === route);
      assert.equal(cost?.requests, count, `${route}: ${JSON.stringify(cost)}`);
      assert.equal(cost.msPerRequest, cost.ms / count);
    }
    const all = PLAN.reduce((n, s) => n + s.times, 0) + 1;
    assert.equal(report.routes.find((r) => r.route === 'USE (every request)')?.requests, all);
    assert.deepEqual(report.requests, { received: all, kept: all, unmatched: 6, several: 0, unreadRoutes: 0, unchecked: 0 });
  });

  it('shows requests and CPU per request in the CLI text and JSON, with the unmatched requests on the (no route) row', () => {
    const text = routesText('p.cpuprofile', report, 20, dir);
    const tasks = report.routes.find((r) => r.route === 'GET /v1/tasks')!;
    assert.ok(text.includes(formatPerRequest(tasks.ms, 9)), text);
    assert.match(text, /9 requests · \d[\d.]* ms\/request/);
    assert.match(text, new RegExp(`^ {2}${NO_ROUTE.replace(/[()]/g, '\\$&')} .* 6 unmatched requests `, 'm'));
    assert.match(text, /^Requests: 24 received by the recorded process's HTTP servers; ms\/request = the route's CPU time/m);
    const json = routesJson(report, 20) as { requests: { unmatched: number }; perRequestOf: string; routes: { route: string; requests?: number }[] };
    assert.equal(json.requests.unmatched, 6);
    assert.equal(json.routes.find((r) => r.route === 'GET /reports')?.requests, 5);
    assert.match(json.perRequestOf, /requests/);
  });

  it("the editor's Routes section carries the same counts", async () => {
    const { port1, port2 } = new MessageChannel();
    const server = serveProfileSession(port1);
    const client = createMessageConnection(new PortMessageReader(port2), new PortMessageWriter(port2));
    client.listen();
    try {
      await client.sendRequest(WorkerRequests.load, { path: profile, role: 'primary', roots: [dir], pathMappings: [], nativeSymbols: false });
      const overview = await client.sendRequest(WorkerRequests.overview, {});
      assert.deepEqual(overview.routes, report);
    } finally {
      client.dispose();
      server.dispose();
      port1.close();
      port2.close();
    }
  });
});
