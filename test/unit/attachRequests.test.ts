// Requests per route of an attached process (issue 25 with issue 28's attach): the Express server
// of test/fixtures/routes, started by the test without any preload or --inspect (its inspector
// port set free by NODE_OPTIONS=--inspect-port, where SIGUSR1 opens it), on the machine's Node
// and on each other version scripts/fetch-node.mjs pins (Node 18). `hotframe attach PID` captures
// it while the test sends a known number of requests per route on loopback; the notes written
// beside the main thread's profile must count each route exactly in `hotframe profile --routes`
// (of the profile, and of the capture's folder) and in the editor's Routes section (the folder loaded),
// and afterwards nothing of the monitor is left in the server: no global, no subscriber on the
// HTTP diagnostics channels (checked through the server's inspector, opened by the test).
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { closeExpression } from '../../server/attach/agent';
import { InspectorSession, targetUrl } from '../../server/attach/inspectorClient';
import { listeningSocketsOf } from '../../server/attach/procfs';
import { observerPresentExpression } from '../../server/attach/servingObserver';
import { SERVING_SUFFIX } from '../../server/shared/servingRecorder';
import { freePort, sleep } from './attachService';
import { bundles, REPO_ROOT } from './bundles';
import { sendRequest } from './loopbackRequest';
import { MessageChannel } from 'node:worker_threads';
import { createMessageConnection, PortMessageReader, PortMessageWriter } from 'vscode-jsonrpc/node';
import { serveProfileSession } from '../../server/lsp/profileWorker';
import { WorkerRequests } from '../../server/protocol/worker';

const FIXTURE = resolve(__dirname, '../fixtures/routes');
const NODE_MODULES = resolve(__dirname, '../../node_modules');

/** What the test sends during the capture (method, path, times), and the route each is for (null: none). */
const PLAN: { method: string; path: string; times: number; route: string | null }[] = [
  { method: 'GET', path: '/v1/tasks?rounds=2000', times: 6, route: 'GET /v1/tasks' },
  { method: 'GET', path: '/reports?rounds=2000', times: 4, route: 'GET /reports' },
  { method: 'POST', path: '/orders', times: 3, route: 'POST /orders' },
  { method: 'GET', path: '/nowhere', times: 2, route: null },
];

function otherNodes(): { version: string; binary: string }[] {
  const listed = spawnSync(process.execPath, ['--input-type=module', '-e', `import { OTHER_NODES, nodeBinary } from ${JSON.stringify(join(REPO_ROOT, 'scripts', 'fetch-node.mjs'))}; process.stdout.write(JSON.stringify(OTHER_NODES.map((n) => ({ version: n.version, binary: nodeBinary(n.version) }))));`], { encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  return JSON.parse(listed.stdout) as { version: string; binary: string }[];
}

interface Server {
  child: ChildProcessWithoutNullStreams;
  port: number;
  inspectorPort: number;
}

async function startServer(node: string, dir: string): Promise<Server> {
  const inspectorPort = await freePort();
  const child = spawn(node, [join(dir, 'server.js'), join(dir, 'spent.json')], { cwd: dir, env: { ...process.env, NODE_PATH: NODE_MODULES, NODE_OPTIONS: `--inspect-port=${inspectorPort}` }, stdio: 'pipe' });
  child.stderr.resume();
  const port = await new Promise<number>((done, fail) => {
    child.stdout.once('data', (chunk: Buffer) => done(JSON.parse(chunk.toString()).port as number));
    child.once('exit', () => fail(new Error('the server exited before listening')));
  });
  return { child, port, inspectorPort };
}

/** Evaluates `expression` in the server through its inspector, opened (SIGUSR1) and closed again by the test. */
async function evaluateInServer(server: Server, expression: string): Promise<string> {
  server.child.kill('SIGUSR1');
  let url = '';
  for (let tries = 0; url === '' && tries < 100; tries++) url = await targetUrl('127.0.0.1', server.inspectorPort, 1000).catch(() => sleep(50).then(() => ''));
  assert.ok(url !== '', 'the inspector opened');
  const session = await InspectorSession.connect(url, 10_000);
  try {
    const answer = await session.evaluateString(expression, 10_000);
    await session.evaluateString(closeExpression({ pollMs: 20, giveUpMs: 10_000, fallbackMs: 500 }), 10_000);
    return answer;
  } finally {
    await session.close();
    for (let tries = 0; tries < 100 && listeningSocketsOf(server.child.pid!).some((s) => s.port === server.inspectorPort); tries++) await sleep(50);
  }
}

/** What of a request observer is in the server: ours under its symbol, and the HTTP channels' subscribers. */
const OBSERVED = `JSON.stringify({
  ours: ${observerPresentExpression()},
  start: require('node:diagnostics_channel').channel('http.server.request.start').hasSubscribers,
  finish: require('node:diagnostics_channel').channel('http.server.response.finish').hasSubscribers,
})`;

describe('hotframe attach: requests per route of the attached process', function () {
  this.timeout(180_000);

  for (const { version, binary } of [{ version: process.version.slice(1), binary: process.execPath }, ...otherNodes()]) {
    it(`counts each route's requests exactly on Node ${version}, shows CPU per request, and leaves no observer behind`, async function () {
      if (process.platform !== 'linux') this.skip(); // attaching by pid opens the inspector with SIGUSR1 (Linux /proc)
      assert.ok(existsSync(binary), `Node ${version} is not at ${binary}: run node scripts/fetch-node.mjs (npm test runs it first)`);
      const { cli } = await bundles();
      const dir = mkdtempSync(join(tmpdir(), 'hotframe-attach-requests-'));
      cpSync(FIXTURE, dir, { recursive: true });
      const server = await startServer(binary, dir);
      try {
        assert.deepEqual(JSON.parse(await evaluateInServer(server, OBSERVED)), { ours: 'absent', start: false, finish: false }, 'nothing observes the server before');
        // A request before the capture: not in its window, so in no count.
        await sendRequest(server.port, 'GET', '/v1/tasks?rounds=2000');
        const attach = spawn(process.execPath, [cli, 'attach', String(server.child.pid), '--duration', '4', '--out', 'p', '--root', dir, '--format', 'json'], { cwd: dir, env: { ...process.env, HOTFRAME_DEBUG: '1' } });
        let stderr = '';
        attach.stdout.resume();
        const started = new Promise<void>((done) => attach.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes(`started process ${server.child.pid}`)) done();
        }));
        const exited = new Promise<number | null>((done) => attach.on('close', done));
        await Promise.race([started, exited]);
        for (const step of PLAN) for (let i = 0; i < step.times; i++) await sendRequest(server.port, step.method, step.path, step.method === 'POST' ? { text: '2000', contentType: 'text/plain' } : undefined);
        assert.equal(await exited, 0, stderr);
        assert.ok(stderr.indexOf(`stopped process ${server.child.pid}`) > stderr.indexOf(`started process ${server.child.pid}`), `every request was sent within the capture: ${stderr}`);

        const files = readdirSync(join(dir, 'p'));
        const profile = files.find((f) => f.endsWith('.cpuprofile'));
        assert.ok(profile !== undefined && files.includes(profile + SERVING_SUFFIX), `the notes are beside the profile: ${files.join(', ')}`);
        const routes = spawnSync(process.execPath, [cli, 'profile', join('p', profile), '--routes', '--root', dir, '--format', 'json'], { cwd: dir, encoding: 'utf8' });
        assert.equal(routes.status, 0, routes.stderr);
        const json = JSON.parse(routes.stdout) as { requests: Record<string, number>; routes: { route: string; ms: number; requests?: number; msPerRequest?: number }[] };
        const sent = PLAN.reduce((n, s) => n + s.times, 0);
        assert.deepEqual(json.requests, { received: sent, kept: sent, unmatched: 2, several: 0, unreadRoutes: 0, unchecked: 0 });
        for (const step of PLAN) {
          if (step.route === null) continue;
          const route = json.routes.find((r) => r.route === step.route);
          assert.equal(route?.requests, step.times, `${step.route}: ${JSON.stringify(route)}`);
          assert.ok(route.msPerRequest !== undefined && Math.abs(route.msPerRequest - route.ms / step.times) < 0.01, JSON.stringify(route));
        }
        assert.equal(json.routes.find((r) => r.route === 'USE (every request)')?.requests, sent);
        const text = spawnSync(process.execPath, [cli, 'profile', join('p', profile), '--routes', '--root', dir], { cwd: dir, encoding: 'utf8' });
        assert.match(text.stdout, /GET \/reports .* 4 requests · \d[\d.]* ms\/request/);
        // The capture's folder, as the editor opens it and `hotframe profile FOLDER` reads it: the same counts.
        const folder = spawnSync(process.execPath, [cli, 'profile', 'p', '--routes', '--root', dir, '--format', 'json'], { cwd: dir, encoding: 'utf8' });
        assert.equal(folder.status, 0, folder.stderr);
        assert.deepEqual((JSON.parse(folder.stdout) as typeof json).requests, json.requests);
        const { port1, port2 } = new MessageChannel();
        const worker = serveProfileSession(port1);
        const client = createMessageConnection(new PortMessageReader(port2), new PortMessageWriter(port2));
        client.listen();
        try {
          await client.sendRequest(WorkerRequests.load, { path: join(dir, 'p'), role: 'primary', roots: [dir], pathMappings: [], nativeSymbols: false });
          const overview = await client.sendRequest(WorkerRequests.overview, {});
          assert.deepEqual(overview.routes?.requests, json.requests);
          assert.equal(overview.routes?.routes.find((r) => r.route === 'GET /v1/tasks')?.requests, 6);
        } finally {
          client.dispose();
          worker.dispose();
          port1.close();
          port2.close();
        }

        assert.deepEqual(JSON.parse(await evaluateInServer(server, OBSERVED)), { ours: 'absent', start: false, finish: false }, 'nothing observes the server after');
        assert.ok((await sendRequest(server.port, 'GET', '/reports?rounds=10')).length > 0, 'the server still answers');
      } finally {
        await sendRequest(server.port, 'GET', '/exit').catch(() => '');
        if (server.child.exitCode === null) await new Promise((done) => server.child.once('exit', done));
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
