// Cost per route of a real application (issue 25): json-server 0.17.4, installed by exact version
// (devDependency), copied whole to a temporary folder (its source is the project --root names; its
// own node_modules stay beside it), started by its own command line on loopback under Hotframe's
// `record` path (startRecording and its preload, whose serving notes give each request's window),
// one route driven at a time by a bounded client.
// Its routers are built in functions and mounted under prefixes built at run time
// (`router.use(`/${key}`, plural(db, key, opts))`), its handlers declared inside those functions.
//
// The test measures the server's main thread itself, per route, from /proc/PID/task/PID/schedstat
// (the kernel's nanoseconds on a CPU and waiting for one, the same clock process.cpuUsage reads,
// without the other threads: a .cpuprofile samples the main thread only). The profile's figure for
// the route must be within 10% of the main thread's time while that route alone was driven. A
// .cpuprofile weighs each sample by the time since the previous one, so on a machine where the
// thread waits for a core a wait falls in a route's sample or an idle one (docs/profiles.md,
// "Routes"); the comparison holds the figure between 0.9x the thread's CPU time and 1.1x its CPU
// plus wait (recordedServer.ts's assertRoutesMatchThread), and prints both. Under CPU
// contention (the load average at or above the machine's cores, before or after the run) the
// thread's wait is spread over samples the profile charges elsewhere (idle, the sampler's own
// delays): the figures are printed and the comparison is skipped, said as such, not passed.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { startRecording, type Recording } from '../../server/shared/recordProfile';
import { analyzeProfileFile } from '../../server/profile/analysis/report';
import type { RouteReport } from '../../server/profile/routes/routeCost';
import { routeReportFor, routesText } from '../../server/cli/routesOutput';
import { freePort } from './attachService';
import { assertRoutesMatchThread, samplerLateShare, driveRoutes, stopAndRemove, untilAnswering, type DrivenRoute, type ThreadTime } from './recordedServer';

const NODE_MODULES = resolve(__dirname, '../../node_modules');
const PACKAGE = join(NODE_MODULES, 'json-server');

/** One route at a time: the request sent, how many times, and the route it is for. */
const PLAN: DrivenRoute[] = [
  { route: 'GET /db', path: '/db', times: 10 },
  { route: 'GET /:key', path: '/posts?q=nowhere-to-be-found', times: 40 },
  { route: 'GET /:key/:id', path: '/posts/7?_embed=comments', times: 60 },
];

function database(): object {
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
  const text = (i: number, n: number): string => Array.from({ length: n }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
  return {
    posts: Array.from({ length: 8000 }, (_, i) => ({ id: i + 1, title: text(i, 6), body: text(i, 30), author: { name: text(i, 2), tags: [text(i, 1), text(i + 1, 1)] } })),
    comments: Array.from({ length: 200000 }, (_, i) => ({ id: i + 1, postId: (i % 8000) + 1, body: text(i, 8) })),
    profile: { name: 'typicode' },
  };
}

describe('cost per route of a real app, json-server 0.17.4, recorded by Hotframe (measured)', function () {
  this.timeout(240_000);
  let dir = '';
  let recording: Recording | undefined;
  let measured = new Map<string, ThreadTime>();
  let report: RouteReport;
  let root = '';
  let recordingDir = '';
  const loads: number[] = [];
  let lateShare = 0;

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    loads.push(loadavg()[0]!);
    dir = mkdtempSync(join(tmpdir(), 'hotframe-json-server-'));
    root = join(dir, 'json-server');
    cpSync(PACKAGE, root, { recursive: true });
    writeFileSync(join(dir, 'db.json'), JSON.stringify(database()));
    const port = await freePort();
    recording = startRecording({
      command: [process.execPath, join(root, 'lib/cli/bin.js'), '--host', '127.0.0.1', '--port', String(port), '--quiet', 'db.json'],
      cwd: dir,
      env: { NODE_PATH: NODE_MODULES },
      stdio: 'pipe',
    });
    // Listening: a path no route serves answers (bounded: 200 tries).
    assert.ok(await untilAnswering(recording, port, '/ready-check/none/here/at/all', 200), 'json-server answered on loopback');
    measured = await driveRoutes(recording.pid!, port, PLAN);
    recording.stop();
    const result = await recording.done;
    recording = undefined;
    recordingDir = result.dir;
    loads.push(loadavg()[0]!);
    assert.ok(result.profiles.length > 0, 'the recording wrote a profile');
    lateShare = samplerLateShare(result.profiles[0]!.path);
    const analyzed = await analyzeProfileFile(result.profiles[0]!.path, { root });
    report = routeReportFor(analyzed, root, result.profiles[0]!.path);
  });

  after(() => stopAndRemove(recording, dir, recordingDir));

  it("names the routes of its routers built in functions, under their run-time prefix, where they are registered", () => {
    const at = (route: string): string[] => (report.routes.find((r) => r.route === route)?.registeredAt ?? []).map((r) => `${r.file.slice(root.length + 1)}:${r.line}`);
    assert.deepEqual(at('GET /:key/:id'), ['lib/server/router/plural.js:271']);
    assert.ok(at('GET /:key').includes('lib/server/router/plural.js:270'), JSON.stringify(report.routes.map((r) => r.route)));
    assert.deepEqual(at('GET /db'), ['lib/server/router/index.js:50']);
  });

  it("charges each route its requests' work that no frame of it claims, by the recording's request windows; GET /db's requests, which /:key matches too, by the route whose frames ran in them", () => {
    const windows = report.requestWindows;
    assert.ok(windows !== undefined && windows.chargedMs > 0, JSON.stringify(windows));
    // Every request but the readiness checks (no route serves them) has its route.
    assert.ok(windows.placed >= PLAN.reduce((n, step) => n + step.times, 0), JSON.stringify(windows));
    for (const { route } of PLAN) assert.ok((report.routes.find((r) => r.route === route)?.byRequestWindowsMs ?? 0) > 0, route);
  });

  // Without the thread's clock (the samples alone), on 2026-11-29 with the request windows (load
  // 1.4-2.2): GET /db -6.0%, -0.5%, -3.6%; GET /:key -20.7%, -8.6%, -13.3%; GET /:key/:id -22.9%,
  // -16.1%, -21.9% of the main thread's CPU. The light routes' (3-5 ms a request) missing part was
  // not in the profile's non-idle samples at all: the kernel's side of the loop's polls and socket
  // reads is sampled as idle. The recording's notes now read the thread's own CPU clock every loop
  // tick, and the CPU no sample shows in a span where only one route's requests were open is that
  // route's `unsampledMs` (server/profile/routes/unsampledCpu.ts), which the comparison adds.
  // That difference is the span's clock minus all its non-idle samples, and the samples just
  // outside the windows (parsing the next request's headers, ending the last response) had been
  // charged nowhere: GET /:key/:id -1% to -12% (six runs; CI failed on -11.7%). With them charged
  // to the span's route, on 2026-11-29: light routes -6.0% to +0.2% in 16 runs, all but one ±1.6%.
  it("charges each route, driven alone, its main thread's time within 10% (the samples and the thread's CPU they do not show)", function () {
    assertRoutesMatchThread(this, report, PLAN, measured, loads, routesText('json-server', report, 12, root), lateShare);
  });
});
