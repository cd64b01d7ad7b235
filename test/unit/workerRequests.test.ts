// Requests served by an HTTP server inside a worker thread, recorded by Hotframe (issue 25): the
// recorder's preload runs in every thread (NODE_OPTIONS' --require), so the worker has its own
// profile and its own request notes beside it, and `profile --routes` of the worker's profile
// counts its requests; the main thread's notes hold none (a diagnostics channel is per thread).
// `hotframe attach` starts its observer in the main thread only: docs/profiles.md says so.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import type { Recording } from '../../server/shared/recordProfile';
import { readServingLog } from '../../server/profile/readers/readServingLog';
import { analyzeProfileFile } from '../../server/profile/analysis/report';
import { routeReportFor } from '../../server/cli/routesOutput';
import { sendRequest } from './loopbackRequest';
import { startRecordedServer, stopAndRemove } from './recordedServer';

const FIXTURE = resolve(__dirname, '../fixtures/workerServer');
const REQUESTS = 9;

describe("requests served by a worker thread's HTTP server, recorded by Hotframe", function () {
  this.timeout(120_000);
  let dir = '';
  let recording: Recording | undefined;
  let recordingDir = '';

  after(() => stopAndRemove(recording, dir, recordingDir));

  it("counts them beside the worker's profile, and none beside the main thread's", async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotframe-worker-requests-'));
    cpSync(FIXTURE, dir, { recursive: true });
    const started = await startRecordedServer([join(dir, 'server.js')], dir);
    recording = started.recording;
    try {
      for (let i = 0; i < REQUESTS; i++) await sendRequest(started.port, 'GET', `/item/${i}`);
    } finally {
      await sendRequest(started.port, 'GET', '/exit').catch(() => '');
    }
    const result = await recording.done;
    recording = undefined;
    recordingDir = result.dir;
    assert.equal(result.code, 0);
    // File names end in .<pid>.<threadId>.001.cpuprofile, as --cpu-prof names them.
    const threadOf = (path: string): number => Number(/\.(\d+)\.001\.cpuprofile$/.exec(path)?.[1]);
    const main = result.profiles.find((p) => threadOf(p.path) === 0);
    const worker = result.profiles.find((p) => threadOf(p.path) > 0);
    assert.ok(main !== undefined && worker !== undefined, result.profiles.map((p) => p.path).join(', '));
    const mainLog = readServingLog(main.path);
    const workerLog = readServingLog(worker.path);
    assert.ok(mainLog !== null && !('error' in mainLog) && workerLog !== null && !('error' in workerLog));
    assert.equal(mainLog.requestsSeen, 0);
    assert.equal(workerLog.requestsSeen, REQUESTS + 1);
    const report = routeReportFor(await analyzeProfileFile(worker.path, { root: dir }), dir, worker.path);
    const served = report.routes.find((r) => r.route === 'REQUEST (http server)');
    assert.equal(served?.requests, REQUESTS + 1, JSON.stringify(report.routes));
  });
});
