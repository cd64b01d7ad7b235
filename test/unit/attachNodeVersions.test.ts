// `hotframe attach` on targets that run another Node version than the tool (issue 28: targets run
// Node 18 or later). scripts/fetch-node.mjs (run by `npm test` before the tests) brings each version
// into .vscode-test; the same node:cluster service as attachCluster.test.ts runs on it, under a
// bounded loopback load, and the CLI (on the machine's Node) attaches to its primary.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { listeningSocketsOf } from '../../server/attach/procfs';
import { functionNames, runCli, sleep, startClusterService, startLoad } from './attachService';
import { bundles, REPO_ROOT } from './bundles';

/** The versions scripts/fetch-node.mjs pins (read from it, so the two cannot disagree). */
function otherNodes(): { version: string; binary: string }[] {
  const listed = spawnSync(process.execPath, ['--input-type=module', '-e', `import { OTHER_NODES, nodeBinary } from ${JSON.stringify(join(REPO_ROOT, 'scripts', 'fetch-node.mjs'))}; process.stdout.write(JSON.stringify(OTHER_NODES.map((n) => ({ version: n.version, binary: nodeBinary(n.version) }))));`], { encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  return JSON.parse(listed.stdout) as { version: string; binary: string }[];
}

describe('hotframe attach: targets on other Node versions', function () {
  this.timeout(120_000);

  for (const { version, binary } of otherNodes()) {
    it(`profiles every process and the worker thread of a cluster running Node ${version}, and closes the ports it opened`, async function () {
      if (process.platform !== 'linux' || process.arch !== 'x64') this.skip(); // fetch-node.mjs fetches Linux x64 builds only
      assert.ok(existsSync(binary), `Node ${version} is not at ${binary}: run node scripts/fetch-node.mjs (npm test runs it first)`);
      const { cli } = await bundles();
      const service = await startClusterService(binary);
      const load = startLoad(service.port, 2, 20_000);
      const out = mkdtempSync(join(tmpdir(), 'hotframe-attach-node-'));
      try {
        const pids = [service.primary, ...service.workers];
        // The service really runs on that version: each process's executable is that binary.
        for (const pid of pids) assert.equal(readlinkSync(`/proc/${pid}/exe`), realpathSync(binary));
        const socketsBefore = new Map(pids.map((pid) => [pid, listeningSocketsOf(pid).map((s) => s.port).sort()]));
        await sleep(500);
        const run = await runCli(cli, ['attach', String(service.primary), '--duration', '2', '--out', 'p', '--format', 'json'], out);
        await load.stop();
        assert.equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
        const files = readdirSync(join(out, 'p'));
        for (const pid of pids) assert.ok(files.some((f) => f.includes(`.${pid}.0.001.cpuprofile`)), `process ${pid} has a profile: ${files.join(', ')}`);
        const thread = files.find((f) => /\.\d+\.1\.001\.cpuprofile$/.test(f));
        assert.ok(thread, `the worker thread has a profile: ${files.join(', ')}`);
        assert.ok(functionNames(join(out, 'p', thread)).has('threadBackgroundWork'), "the thread profile holds the thread's work");
        assert.equal(files.filter((f) => f.endsWith('.cpuprofile')).length, 6, files.join(', '));
        assert.equal(files.filter((f) => f.endsWith('.cpuprofile.serving.json')).length, 5, files.join(', '));
        assert.ok(load.done.length > 0 && load.done.every((r) => r.ok), 'requests kept succeeding');
        for (const pid of pids) assert.deepEqual(listeningSocketsOf(pid).map((s) => s.port).sort(), socketsBefore.get(pid), `process ${pid} listens on what it did before`);
      } finally {
        await load.stop();
        await service.stop();
        rmSync(out, { recursive: true, force: true });
      }
    });
  }
});
