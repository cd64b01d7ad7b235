import { strict as assert } from 'node:assert';
import { fork } from 'node:child_process';
import { once } from 'node:events';

import { groupProcesses, listNodeProcesses, workerKindOf, type RunningNode } from './processList';

const node = (pid: number, ppid: number, worker?: 'cluster' | 'pm2'): RunningNode => ({ pid, ppid, command: `node ${pid}.js`, ...(worker ? { worker } : {}) });

describe('groupProcesses', () => {
  it('puts cluster workers under their primary and pm2 workers under the daemon; a Node child that is no worker stands alone', () => {
    // 100: pm2 daemon, 101/102 its workers; 200 a cluster primary, 201 its worker; 300 a service
    // started from a terminal below an editor's Node process 50 (no worker: its own root).
    const nodes = [node(201, 200, 'cluster'), node(100, 1), node(102, 100, 'pm2'), node(300, 50), node(101, 100, 'pm2'), node(200, 50), node(50, 1)];
    assert.deepEqual(
      groupProcesses(nodes).map((g) => [g.root.pid, g.workers.map((w) => w.pid)]),
      [[50, []], [100, [101, 102]], [200, [201]], [300, []]],
    );
  });

  it('shows a worker whose parent is not listed, or is a worker itself, on its own', () => {
    const groups = groupProcesses([node(10, 9, 'cluster'), node(20, 1), node(21, 20, 'pm2'), node(22, 21, 'cluster')]);
    assert.deepEqual(groups.map((g) => [g.root.pid, g.workers.map((w) => w.pid)]), [[10, []], [20, [21]], [22, []]]);
  });

  it('knows a worker by the environment its parent gave it', () => {
    assert.equal(workerKindOf(['PATH=/bin', 'NODE_UNIQUE_ID=3']), 'cluster');
    assert.equal(workerKindOf(['pm_id=0']), 'pm2');
    assert.equal(workerKindOf(['pm2_env={"pm_id":0}', 'NODE_UNIQUE_ID=1']), 'pm2');
    assert.equal(workerKindOf(['PATH=/bin', 'X=pm_id=1']), null);
  });
});

describe('listNodeProcesses (real /proc)', () => {
  it('lists a running Node child with its command line, never this process itself', async function () {
    if (process.platform !== 'linux') this.skip();
    const child = fork('-e', ['setInterval(() => {}, 1000)'], { execArgv: [], stdio: 'ignore' });
    try {
      await once(child, 'spawn');
      const { groups } = listNodeProcesses();
      const all = groups.flatMap((g) => [g.root, ...g.workers]);
      assert.ok(!all.some((n) => n.pid === process.pid), 'this process is not offered');
      const found = all.find((n) => n.pid === child.pid);
      assert.ok(found, `pid ${child.pid} listed`);
      assert.match(found.command, /setInterval/);
      assert.equal(found.ppid, process.pid);
    } finally {
      child.kill();
    }
  });
});
