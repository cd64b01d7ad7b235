// `hotframe attach` on a real pm2 cluster (issue 28): pm2 (the npm package, an exact devDependency)
// runs test/fixtures/attach/pm2App.cjs with 3 instances on loopback, its daemon and state in a
// temp PM2_HOME. Attached to the pm2 daemon for 3 s: every worker is in the result, requests keep
// succeeding, no inspector port is left open. The editor's pick groups the workers under the
// daemon. pm2 is killed in after().
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { listeningSocketsOf } from '../../server/attach/procfs';
import { listNodeProcesses } from '../../server/attach/processList';
import { freePort, functionNames, runCli, startLoad } from './attachService';
import { bundles, REPO_ROOT } from './bundles';

const PM2 = join(REPO_ROOT, 'node_modules/pm2/bin/pm2');
const APP = join(REPO_ROOT, 'test/fixtures/attach/pm2App.cjs');
const INSTANCES = 3;

describe('hotframe attach: a real pm2 cluster', function () {
  this.timeout(180_000);
  const home = mkdtempSync(join(tmpdir(), 'hotframe-pm2-'));
  let env: NodeJS.ProcessEnv;
  const pm2 = (...args: string[]): Promise<{ stdout: string }> => promisify(execFile)(process.execPath, [PM2, ...args], { env, timeout: 60_000 });

  before(async () => {
    // The inspector port SIGUSR1 opens in each process: a free one (9229 may be taken on a shared machine).
    env = { ...process.env, PM2_HOME: home, PORT: String(await freePort()), NODE_OPTIONS: `--inspect-port=${await freePort(8)}` };
    await pm2('start', APP, '-i', String(INSTANCES), '--name', 'hotframe-test', '--no-autorestart');
  });

  after(async () => {
    try {
      await pm2('kill');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('profiles every worker of the pm2 daemon over one window, the app serving throughout, the pick grouping them', async () => {
    const daemon = Number(readFileSync(join(home, 'pm2.pid'), 'utf8').trim());
    let workers: number[] = [];
    // pm2 start returns when the processes are forked; wait until each is online.
    for (let tries = 0; tries < 100; tries++) {
      const list = JSON.parse((await pm2('jlist')).stdout) as { pid: number; pm2_env: { status: string } }[];
      workers = list.filter((p) => p.pm2_env.status === 'online' && p.pid > 0).map((p) => p.pid);
      if (workers.length === INSTANCES) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(workers.length, INSTANCES, 'every pm2 instance is online');

    // The editor's pick: the workers under the daemon, known as pm2's.
    const group = listNodeProcesses().groups.find((g) => g.root.pid === daemon);
    assert.ok(group, `the pm2 daemon ${daemon} is a root of the pick`);
    assert.deepEqual(group.workers.map((w) => w.pid).sort(), [...workers].sort());
    assert.ok(group.workers.every((w) => w.worker === 'pm2'));

    const port = Number(env.PORT);
    const load = startLoad(port, 3, 20_000);
    try {
      // Every worker answers before the capture (the load spreads over them).
      await new Promise((resolve) => setTimeout(resolve, 500));
      const portsBefore = new Map([daemon, ...workers].map((pid) => [pid, listeningSocketsOf(pid).map((s) => s.port).sort()]));
      const { cli } = await bundles();
      const out = mkdtempSync(join(tmpdir(), 'hotframe-attach-pm2-'));
      const before = load.done.length;
      const run = await runCli(cli, ['attach', String(daemon), '--duration', '3', '--out', 'p', '--format', 'json'], out);
      const served = load.done.length - before;
      await load.stop();
      assert.equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
      const files = readdirSync(join(out, 'p'));
      for (const pid of workers) {
        const file = files.find((f) => f.includes(`.${pid}.0.001.cpuprofile`));
        assert.ok(file, `worker ${pid} has a profile: ${files.join(', ')}; ${run.stderr}`);
      }
      assert.ok(files.some((f) => f.includes(`.${daemon}.0.001.cpuprofile`)), 'the daemon too');
      assert.ok(
        workers.some((pid) => functionNames(join(out, 'p', files.find((f) => f.includes(`.${pid}.0.001.cpuprofile`))!)).has('pm2RequestWork')),
        'a worker profile holds the request handler',
      );
      assert.ok(served > 20, `requests were served during the capture: ${served}`);
      assert.equal(load.done.filter((r) => !r.ok).length, 0, 'every request succeeded');
      const reported = [...run.stderr.matchAll(/paused its main thread ([\d.]+ \w+) to start, ([\d.]+ \w+) to stop/g)].map((m) => `${m[1]} + ${m[2]}`);
      console.log(`      ${served} requests during the capture; pause reported per process (start + stop): ${reported.join(', ')}`);
      for (const [pid, ports] of portsBefore) assert.deepEqual(listeningSocketsOf(pid).map((s) => s.port).sort(), ports, `process ${pid}: no inspector port left open`);
      rmSync(out, { recursive: true, force: true });
    } finally {
      await load.stop();
    }
  });
});
