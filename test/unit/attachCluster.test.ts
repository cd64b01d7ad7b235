// `hotframe attach` on a real node:cluster service started without --inspect (4 workers, the first
// running a worker_thread) under a bounded loopback load started here: every process and the
// thread are in the result, requests keep succeeding, the added p99 latency and the pause each
// process measured on its own event loop are reported and bounded, and no inspector port is left
// open afterwards.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { listeningSocketsOf } from '../../server/attach/procfs';
import { functionNames, p99, runCli, sleep, startClusterService, startLoad } from './attachService';
import { bundles } from './bundles';

/** The bound of the issue: the pause a target sees while the profiler starts and stops. */
const PAUSE_BOUND_MS = 50;
/**
 * The longest event-loop delay each process measures on itself during the capture may exceed the
 * longest it measured in a baseline window of the same length by this much: the issue's bound,
 * with room for the load of this test (5 service processes, the load client and the attacher on
 * the machine's cores). Most of it is V8's own CpuProfiler start (it logs every code object on
 * the heap), which the agent measures and the CLI prints.
 */
const ADDED_EVENT_LOOP_DELAY_BOUND_MS = 3 * PAUSE_BOUND_MS;

describe('hotframe attach: a node:cluster service under load', function () {
  this.timeout(120_000);

  it('profiles the primary, the 4 workers and the worker thread over one window, the service serving throughout, and closes the ports it opened', async () => {
    const { cli } = await bundles();
    const service = await startClusterService();
    const load = startLoad(service.port);
    try {
      const pids = [service.primary, ...service.workers];
      const socketsBefore = new Map(pids.map((pid) => [pid, listeningSocketsOf(pid).map((s) => s.port).sort()]));
      // A baseline window of the same length as the capture, then the capture.
      await sleep(1000);
      await service.stats();
      const baselineFrom = Date.now();
      await sleep(4000);
      const baseline = await service.stats();
      const baselineTo = Date.now();
      const out = mkdtempSync(join(tmpdir(), 'hotframe-attach-'));
      const run = await runCli(cli, ['attach', String(service.primary), '--duration', '3', '--out', 'p', '--format', 'json'], out);
      const during = await service.stats();
      const captureTo = Date.now();
      await load.stop();

      assert.equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
      // The report printed is of every process and thread, merged.
      assert.equal((JSON.parse(run.stdout) as { parts: unknown[] }).parts.length, 6);
      const files = readdirSync(join(out, 'p'));
      for (const pid of pids) assert.ok(files.some((f) => f.includes(`.${pid}.0.001.cpuprofile`)), `process ${pid} has a profile: ${files.join(', ')}`);
      const thread = files.find((f) => f.includes(`.${service.workers.find((pid) => files.some((g) => g.includes(`.${pid}.1.001`)))}.1.001`));
      assert.ok(thread, `the worker thread has a profile: ${files.join(', ')}`);
      assert.equal(files.filter((f) => f.endsWith('.cpuprofile')).length, 6, files.join(', '));
      // Beside each process's main thread, the requests it served (server/attach/servingObserver.ts).
      assert.equal(files.filter((f) => f.endsWith('.cpuprofile.serving.json')).length, 5, files.join(', '));
      assert.ok(functionNames(join(out, 'p', thread)).has('threadBackgroundWork'), 'the thread profile holds the thread\'s work');
      assert.ok(
        service.workers.some((pid) => functionNames(join(out, 'p', files.find((f) => f.includes(`.${pid}.0.001.cpuprofile`))!)).has('handleRequestWork')),
        'a worker profile holds the request handler',
      );

      // Requests kept succeeding, and the added p99 stays within the bound.
      const inBaseline = load.done.filter((r) => r.at >= baselineFrom && r.at <= baselineTo);
      const inCapture = load.done.filter((r) => r.at > baselineTo && r.at <= captureTo);
      assert.ok(inCapture.length > 50, `requests were served during the capture: ${inCapture.length}`);
      assert.deepEqual(load.done.filter((r) => !r.ok).length, 0, 'every request succeeded');
      const addedP99 = p99(inCapture.map((r) => r.ms)) - p99(inBaseline.map((r) => r.ms));
      const pauses = during.map((s) => ({ pid: s.pid, maxMs: s.maxMs, baselineMaxMs: baseline.find((b) => b.pid === s.pid)?.maxMs ?? NaN }));
      console.log(`      p99 ${p99(inBaseline.map((r) => r.ms)).toFixed(1)} ms before (${inBaseline.length} requests), ${p99(inCapture.map((r) => r.ms)).toFixed(1)} ms during (${inCapture.length}); event-loop max delay per process (before -> during): ${pauses.map((p) => `${p.baselineMaxMs.toFixed(0)}->${p.maxMs.toFixed(0)} ms`).join(', ')}`);
      // The pause each process measured itself while its profiler started and stopped, as the CLI reports it.
      const reported = [...run.stderr.matchAll(/paused its main thread ([\d.]+ \w+) to start, ([\d.]+ \w+) to stop/g)].map((m) => `${m[1]} + ${m[2]}`);
      assert.equal(reported.length, pids.length, run.stderr);
      console.log(`      pause reported per process (start + stop): ${reported.join(', ')}`);
      assert.ok(addedP99 <= PAUSE_BOUND_MS, `added p99 ${addedP99.toFixed(1)} ms`);
      // The pause as each target measured it on its own event loop (its monitorEventLoopDelay
      // histogram over the capture, against its own baseline window).
      for (const p of pauses) assert.ok(p.maxMs - p.baselineMaxMs <= ADDED_EVENT_LOOP_DELAY_BOUND_MS, `process ${p.pid}: event-loop max delay ${p.baselineMaxMs.toFixed(0)} ms before, ${p.maxMs.toFixed(0)} ms during the capture`);

      // No inspector port left open: every process listens on what it listened on before.
      for (const pid of pids) assert.deepEqual(listeningSocketsOf(pid).map((s) => s.port).sort(), socketsBefore.get(pid), `process ${pid}`);

      // One view: the folder merged, each part's CPU time as its own report gives it, the whole their sum.
      const merged = await runCli(cli, ['profile', 'p', '--format', 'json'], out);
      assert.equal(merged.code, 0, merged.stderr);
      const whole = JSON.parse(merged.stdout) as { cpuMs: number; shareOf: string; parts: { id: string; ms: number; percent: number }[] };
      assert.equal(whole.shareOf, '% of CPU time, all processes and threads, idle excluded');
      assert.deepEqual(whole.parts.map((p) => p.id).sort(), files.map((f) => f.split('.').slice(3, 5).join(':')).sort());
      let sum = 0;
      for (const file of files) {
        const one = await runCli(cli, ['profile', join('p', file), '--format', 'json'], out);
        const cpuMs = (JSON.parse(one.stdout) as { cpuMs: number }).cpuMs;
        sum += cpuMs;
        const part = whole.parts.find((p) => p.id === file.split('.').slice(3, 5).join(':'))!;
        assert.ok(Math.abs(part.ms - cpuMs) < 0.01, `${file}: ${part.ms} ms in the merge, ${cpuMs} ms alone`);
      }
      assert.ok(Math.abs(whole.cpuMs - sum) < 0.05, `merged ${whole.cpuMs} ms, the parts ${sum} ms`);
      // A per-process filter: the thread alone.
      const threadId = thread.split('.').slice(3, 5).join(':');
      const filtered = await runCli(cli, ['profile', 'p', '--thread', threadId, '--format', 'json'], out);
      assert.deepEqual((JSON.parse(filtered.stdout) as { parts: { id: string }[] }).parts.map((p) => p.id), [threadId]);
    } finally {
      await load.stop();
      await service.stop();
    }
  });
});
