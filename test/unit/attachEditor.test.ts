// The language server's half of "Hotframe: Profile Running Process…" (issue 28), over real
// JSON-RPC on the server bundle's stdio, against a real node:cluster service (4 workers, one with
// a worker_thread) under a bounded loopback load: the pick lists the primary with its workers
// grouped under it; the capture, through the engine of `hotframe attach`, gives a folder that
// loads as one merged profile (every process and thread, shares of them all) and filters to one
// process; an untrusted workspace is refused before any signal; params are checked; the editor
// closing during a capture leaves no temporary folder of it behind.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { listeningSocketsOf } from '../../server/attach/procfs';
import type { AttachResult, ProfileSummary, RunningProcesses } from '../../server/protocol/wire';
import { sleep, startClusterService, startLoad } from './attachService';
import { startStdioServer, type StdioServer } from './stdioServer';
import { tempFolders } from './tempFolders';

async function startServer(trusted: boolean): Promise<StdioServer> {
  return startStdioServer({ initializationOptions: { workspaceTrusted: trusted } });
}

describe('Profile Running Process: the language server lists, captures and merges', function () {
  this.timeout(180_000);
  // Under load 22-40 on 2 cores, 6 of 12 runs of attachCluster.test.ts and 2 of 12 of
  // attachEditor.test.ts failed: a process ended by SIGSEGV in Node's inspector.close() racing the
  // close of Hotframe's connection, and a worker's inspector port (the primary's + n) taken by
  // another socket. Both are mended (the port closed once nobody is connected, agent.ts; the ports
  // a free run below the ephemeral range, attachService.ts); the retry stays until runs at load
  // show the test holds without it.
  this.retries(1);
  // The capture's folder, which the client would move into the workspace: this test is the client.
  const temp = tempFolders();
  after(() => temp.removeAll());

  it('lists the cluster under its primary, captures every process and thread, and loads them merged with a per-process filter', async () => {
    const step = (what: string): void => void (process.env.HOTFRAME_DEBUG && console.log(`      ${new Date().toISOString()} ${what}`));
    const service = await startClusterService();
    step('service');
    const load = startLoad(service.port);
    const { connection, stop } = await startServer(true);
    step('server');
    try {
      const pids = [service.primary, ...service.workers];
      const portsBefore = new Map(pids.map((pid) => [pid, listeningSocketsOf(pid).map((s) => s.port).sort()]));
      const list: RunningProcesses = await connection.sendRequest('hotframe/runningProcesses');
      const group = list.groups.find((g) => g.root.pid === service.primary);
      assert.ok(group, `the primary ${service.primary} is a root of the pick`);
      assert.deepEqual(group.workers.map((w) => w.pid).sort(), [...service.workers].sort());
      assert.ok(group.workers.every((w) => w.worker === 'cluster'));
      assert.match(group.root.command, /clusterServer\.cjs/);

      step('listed');
      const result: AttachResult = await connection.sendRequest('hotframe/attach', { pid: service.primary, durationS: 3 });
      temp.adopt(result.folder);
      assert.equal(result.profiles, 6, result.problems.join('; '));
      assert.deepEqual(result.pauses.map((p) => p.pid).sort(), [...pids].sort());
      assert.equal(readdirSync(result.folder).filter((f) => f.endsWith('.cpuprofile')).length, 6);
      // Beside each process's main thread, the requests it served (server/attach/servingObserver.ts).
      assert.equal(readdirSync(result.folder).filter((f) => f.endsWith('.cpuprofile.serving.json')).length, 5);
      // The capture closed the inspector ports it opened.
      for (const pid of pids) assert.deepEqual(listeningSocketsOf(pid).map((s) => s.port).sort(), portsBefore.get(pid), `process ${pid}`);
      console.log(`      pause per process (start, stop): ${result.pauses.map((p) => `${p.startMs.toFixed(1)}, ${p.stopMs?.toFixed(1) ?? '?'} ms`).join('; ')}`);

      step('captured');
      const merged: ProfileSummary = await connection.sendRequest('hotframe/loadProfile', { path: result.folder, role: 'primary', pathMappings: [], roots: [] });
      assert.equal(merged.capture, true);
      assert.equal(merged.threads?.length, 6);
      assert.equal(merged.thread, undefined);
      assert.equal(merged.shareOf, '% of CPU time, all processes and threads, idle excluded');
      const threadPart = merged.threads!.find((t) => !t.id.endsWith(':0'));
      assert.ok(threadPart, `the worker thread is a part: ${merged.threads!.map((t) => t.id).join(', ')}`);
      step('loaded');
      const overview: { hotFunctions: { name: string }[] } = await connection.sendRequest('hotframe/overview');
      assert.ok(overview.hotFunctions.some((f) => f.name === 'handleRequestWork'), 'the merged hot functions hold the workers\' request handler');

      const one: ProfileSummary = await connection.sendRequest('hotframe/loadProfile', { path: result.folder, role: 'primary', pathMappings: [], roots: [], thread: threadPart.id });
      assert.equal(one.thread, threadPart.id);
      assert.equal(one.threads?.length, 6, 'every part stays offered');
      assert.ok(one.cpuMs < merged.cpuMs, `${one.cpuMs} ms of ${merged.cpuMs} ms`);
      assert.match(one.shareOf ?? '', new RegExp(`${threadPart.id} only \\(1 of 6`));
      const filtered: { hotFunctions: { name: string }[] } = await connection.sendRequest('hotframe/overview');
      assert.ok(!filtered.hotFunctions.some((f) => f.name === 'handleRequestWork'), 'the thread alone holds no request handler');
      assert.deepEqual(load.done.filter((r) => !r.ok).length, 0, 'every request succeeded');
    } finally {
      stop();
      await load.stop();
      await service.stop();
    }
  });

  it('refuses in an untrusted workspace before signalling, and refuses params that are not a pid and a duration', async () => {
    const service = await startClusterService();
    const untrusted = await startServer(false);
    const trusted = await startServer(true);
    try {
      const before = listeningSocketsOf(service.primary).map((s) => s.port);
      await assert.rejects(untrusted.connection.sendRequest('hotframe/attach', { pid: service.primary, durationS: 1 }), /trust the workspace first/);
      assert.deepEqual(listeningSocketsOf(service.primary).map((s) => s.port), before, 'no inspector was opened');
      for (const params of [{ pid: '1; rm -rf /', durationS: 1 }, { pid: 1, durationS: 1 }, { pid: service.primary, durationS: 1e9 }, { pid: service.primary }, null]) {
        await assert.rejects(trusted.connection.sendRequest('hotframe/attach', params), /attach: /, JSON.stringify(params));
      }
      await assert.rejects(trusted.connection.sendRequest('hotframe/attach', { pid: process.pid === 2 ? 3 : 2 ** 31 - 1, durationS: 1 }), /no such process|not a Node process|permission/);
    } finally {
      untrusted.stop();
      trusted.stop();
      await service.stop();
    }
  });

  it('leaves no temporary folder behind when the editor closes during a capture (shutdown, exit)', async () => {
    const target = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const server = await startServer(true);
    try {
      const serverPid = server.child.pid!;
      // The capture's scratch folder: named as Hotframe names them, its marker naming this server.
      const madeByServer = (): string[] =>
        readdirSync(tmpdir())
          .filter((name) => /^hotframe-(?:attach|record)-[A-Za-z0-9]{6}$/.test(name))
          .map((name) => join(tmpdir(), name))
          .filter((dir) => {
            try {
              return (JSON.parse(readFileSync(join(dir, '.hotframe-temporary'), 'utf8')) as { pid?: number }).pid === serverPid;
            } catch {
              return false;
            }
          });
      // Unanswered: the server ends during it.
      void server.connection.sendRequest('hotframe/attach', { pid: target.pid, durationS: 60 }).catch(() => null);
      let folders: string[] = [];
      for (let waited = 0; folders.length === 0 && waited < 30_000; waited += 100) {
        await sleep(100);
        folders = madeByServer();
      }
      assert.ok(folders.length > 0, 'the capture made its temporary folder within 30 s');
      // What the editor sends as its window closes.
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
      await server.connection.sendRequest('shutdown');
      await server.connection.sendNotification('exit');
      const code = await Promise.race([exited, sleep(20_000).then(() => 'still running')]);
      assert.equal(code, 0);
      for (const dir of folders) assert.equal(existsSync(dir), false, `${dir} is left behind`);
    } finally {
      server.stop();
      target.kill();
    }
  });
});
