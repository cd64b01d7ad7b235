// Cost per route of the demo service (issue 25): examples/demo-app (express 5, mongoose 8 on its
// fake MongoDB, ioredis on a redis-server the test starts on loopback) started by its
// own command line under Hotframe's `record` path (startRecording and its preload, whose serving
// notes give each request's window), one route driven at a time by a bounded client. FIXED=1: the
// stats timer spawns its commands asynchronously (as found, its execSync holds the thread while
// it sleeps in a child's wait, which a profile counts as running and the thread's CPU does not).
//
// As in routesRealApp.test.ts, the test measures the server's main thread itself, per route, from
// /proc/PID/task/PID/schedstat (on a CPU, and waiting for one), and the profile's figure for the
// route must lie between 0.9x the first and 1.1x their sum (recordedServer.ts says why: a
// .cpuprofile's weights are wall time, so a wait falls in a route's sample or an idle one). With the load average
// at or above the machine's cores, the figures are printed and the comparison is skipped, said as
// such, not passed. The fake MongoDB runs in the test's process (MONGODB_URI), as a database runs
// outside the service: started inside the demo (its default), its socket handler is a message
// handler of the project, whose samples the stacks charge to that handler, not to the route whose
// queries it answers, while the thread's time holds both.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';

import { startRecording, type Recording } from '../../server/shared/recordProfile';
import { analyzeProfileFile } from '../../server/profile/analysis/report';
import type { RouteReport } from '../../server/profile/routes/routeCost';
import { routeReportFor, routesText } from '../../server/cli/routesOutput';
import { freePort, sleep } from './attachService';
import { assertRoutesMatchThread, samplerLateShare, driveRoutes, stopAndRemove, untilAnswering, type DrivenRoute, type ThreadTime } from './recordedServer';

const DEMO = resolve(__dirname, '../../examples/demo-app');
const NODE_MODULES = resolve(__dirname, '../../node_modules');
const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';

interface FakeMongo {
  uri: string;
  close(): Promise<void>;
}
// Plain CommonJS of the demo, typed here at the one place this test uses it.
const { startFakeMongo } = require(resolve(DEMO, 'fake-mongo')) as { startFakeMongo(options: { port: number }): Promise<FakeMongo> };

/** One route at a time: the request sent, how many times, and the route it is for. */
const PLAN: DrivenRoute[] = [
  { route: 'GET /v1/projects/:projectId/tasks', method: 'GET', path: '/v1/projects/3/tasks', times: 30 },
  { route: 'GET /v1/projects/:projectId/board', method: 'GET', path: '/v1/projects/7/board', times: 30 },
  { route: 'GET /v1/projects/:projectId/reports/tags', method: 'GET', path: '/v1/projects/12/reports/tags', times: 30 },
];

describe('cost per route of the demo service, recorded by Hotframe (measured)', function () {
  this.timeout(240_000);
  let redis: ChildProcess | undefined;
  let mongo: FakeMongo | undefined;
  let recording: Recording | undefined;
  let recordingDir = '';
  let measured = new Map<string, ThreadTime>();
  let report: RouteReport;
  const loads: number[] = [];
  let lateShare = 0;

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    loads.push(loadavg()[0]!);
    const [redisPort, httpPort, mongoPort] = [await freePort(), await freePort(), await freePort()];
    mongo = await startFakeMongo({ port: mongoPort });
    redis = spawn(REDIS_SERVER, ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    let redisError = '';
    redis.on('error', (error) => (redisError = `${REDIS_SERVER}: ${error.message}`));
    recording = startRecording({
      command: [process.execPath, 'server.js'],
      cwd: DEMO,
      env: { NODE_PATH: NODE_MODULES, PORT: String(httpPort), REDIS_PORT: String(redisPort), MONGODB_URI: mongo.uri, FIXED: '1' },
      stdio: 'pipe',
    });
    // Listening (Redis connected, the fake MongoDB up): /healthz answers (bounded: 300 tries).
    assert.ok(await untilAnswering(recording, httpPort, '/healthz', 300), `the demo answered on loopback ${redisError}`);
    measured = await driveRoutes(recording.pid!, httpPort, PLAN);
    recording.stop();
    const result = await recording.done;
    recording = undefined;
    recordingDir = result.dir;
    loads.push(loadavg()[0]!);
    assert.ok(result.profiles.length > 0, 'the recording wrote a profile');
    lateShare = samplerLateShare(result.profiles[0]!.path);
    const analyzed = await analyzeProfileFile(result.profiles[0]!.path, { root: DEMO });
    report = routeReportFor(analyzed, DEMO, result.profiles[0]!.path);
  });

  after(async () => {
    await stopAndRemove(recording, recordingDir);
    if (mongo !== undefined) await Promise.race([mongo.close(), sleep(10_000)]);
    if (redis !== undefined && redis.exitCode === null) {
      const exited = new Promise((done) => redis!.once('exit', done));
      redis.kill();
      await Promise.race([exited, sleep(10_000)]);
    }
  });

  it("charges each route, driven alone, its main thread's time within 10% (CPU, up to CPU and wait)", function () {
    assertRoutesMatchThread(this, report, PLAN, measured, loads, routesText('demo-app', report, 12, DEMO), lateShare);
  });
});
