// `hotframe attach` on a real node:cluster service started without --inspect (4 workers, the first
// running a worker_thread) under a bounded loopback load started here: every process and the
// thread are in the result, requests keep succeeding, the added p99 latency and the pause each
// process measured on its own event loop are reported and bounded, and no inspector port is left
// open afterwards.
import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { listeningSocketsOf } from '../../server/attach/procfs';
import { functionNames, p99, profileSummary, runCli, sleep, startClusterService, startLoad, type ClusterService, type Load, type Stats } from './attachService';
import { bundles } from './bundles';
import { tempFolders } from './tempFolders';

/**
 * The bound of the issue: the pause a target sees while the profiler starts and stops. Each
 * process measures it on itself (test/fixtures/attach/clusterServer.cjs) as the most CPU time its
 * main thread spent between two ticks of a 2 ms timer (read from /proc/thread-self/schedstat): the
 * work that held its event loop, over the capture, against the same figure over a baseline window
 * of the same length in the same run. Its wall gaps are printed beside it and not bounded: on this
 * test's 2-core machine, shared with other jobs (load 7-27 over five runs), a process with no
 * profiler attached saw longest gaps of 14-136 ms, all but 0-2 ms of it waiting for a CPU, and
 * 101 ms-2.2 s during the capture (the profiled threads' samplers add their load), again nearly all waiting (docs/cli.md, "What the target sees").
 */
const PAUSE_BOUND_MS = 50;

describe('hotframe attach: a node:cluster service under load', function () {
  this.timeout(120_000);
  // Under load 22-40 on 2 cores, 6 of 12 runs of attachCluster.test.ts and 2 of 12 of
  // attachEditor.test.ts failed: a process ended by SIGSEGV in Node's inspector.close() racing the
  // close of Hotframe's connection, and a worker's inspector port (the primary's + n) taken by
  // another socket. Both are mended (the port closed once nobody is connected, agent.ts; the ports
  // a free run below the ephemeral range, attachService.ts); the retry stays until runs at load
  // show the test holds without it.
  this.retries(1);
  // Stopped here too, so that a test that timed out leaves no process behind (mocha would wait for it).
  let started: { service: ClusterService; load: Load } | null = null;
  const temp = tempFolders();
  afterEach(async () => {
    await started?.load.stop();
    await started?.service.stop();
    started = null;
    temp.removeAll();
  });

  it('profiles the primary, the 4 workers and the worker thread over one window, the service serving throughout, and closes the ports it opened', async () => {
    const { cli } = await bundles();
    const service = await startClusterService();
    const load = startLoad(service.port);
    started = { service, load };
    const pids = [service.primary, ...service.workers];
    const socketsBefore = new Map(pids.map((pid) => [pid, listeningSocketsOf(pid).map((s) => s.port).sort()]));
    // A baseline window of the same length as the capture, then the capture.
    await sleep(1000);
    await service.stats();
    const baselineFrom = Date.now();
    await sleep(4000);
    const baseline = await service.stats();
    const baselineTo = Date.now();
    const out = temp.make('hotframe-attach-');
    const run = await runCli(cli, ['attach', String(service.primary), '--duration', '3', '--out', 'p', '--format', 'json'], out);
    const during = await service.stats();
    const captureTo = Date.now();
    await load.stop();

    assert.equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
    // The report printed is of every process and thread, merged.
    assert.equal((JSON.parse(run.stdout) as { parts: unknown[] }).parts.length, 6, run.stderr);
    const files = readdirSync(join(out, 'p'));
    for (const pid of pids) assert.ok(files.some((f) => f.includes(`.${pid}.0.001.cpuprofile`)), `process ${pid} has a profile: ${files.join(', ')}`);
    const thread = files.find((f) => f.includes(`.${service.workers.find((pid) => files.some((g) => g.includes(`.${pid}.1.001`)))}.1.001`));
    assert.ok(thread, `the worker thread has a profile: ${files.join(', ')}`);
    assert.equal(files.filter((f) => f.endsWith('.cpuprofile')).length, 6, files.join(', '));
    // Beside each process's main thread, the requests it served (server/attach/servingObserver.ts).
    assert.equal(files.filter((f) => f.endsWith('.cpuprofile.serving.json')).length, 5, files.join(', '));
    // ... and the worker thread's line says its own servers' requests are not counted when attached.
    assert.match(run.stderr, /, thread 1; requests its own servers received are not counted when attached \(record to count them\)/, run.stderr);
    assert.ok(functionNames(join(out, 'p', thread)).has('threadBackgroundWork'), `the thread profile holds the thread's work: ${profileSummary(join(out, 'p', thread))}`);
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
    const pauses = during.map((s) => ({ during: s, before: baseline.find((b) => b.pid === s.pid)! }));
    console.log(`      p99 ${p99(inBaseline.map((r) => r.ms)).toFixed(1)} ms before (${inBaseline.length} requests), ${p99(inCapture.map((r) => r.ms)).toFixed(1)} ms during (${inCapture.length})`);
    const figure = (s: Stats): string => `${s.busyMs.toFixed(1)} busy (longest gap ${s.stallMs.toFixed(0)}: ${s.stallWaitMs.toFixed(0)} waiting for a CPU, ${s.stallCpuMs.toFixed(0)} on it)`;
    console.log(`      pause per process, ms, before -> during the capture:\n${pauses.map((p) => `        ${p.during.pid}: ${figure(p.before)} -> ${figure(p.during)}`).join('\n')}`);
    // The pause each process measured itself while its profiler started and stopped, as the CLI reports it.
    const reported = [...run.stderr.matchAll(/paused its main thread ([\d.]+ \w+) to start, ([\d.]+ \w+) to stop/g)].map((m) => `${m[1]} + ${m[2]}`);
    assert.equal(reported.length, pids.length, run.stderr);
    console.log(`      pause reported per process (start + stop): ${reported.join(', ')}`);
    // The agent's own reading of its main thread's CPU time in those pauses, printed beside them, is within the bound too.
    const work = [...run.stderr.matchAll(/to stop \(([\d.]+) (ms|s) and ([\d.]+) (ms|s) of it on its CPU, the rest waiting for one\)/g)];
    assert.equal(work.length, pids.length, run.stderr);
    console.log(`      of it on the main thread's CPU (start + stop): ${work.map((m) => `${m[1]} ${m[2]} + ${m[3]} ${m[4]}`).join(', ')}`);
    for (const m of work) for (const [value, unit] of [[m[1], m[2]], [m[3], m[4]]]) assert.ok(Number(value) * (unit === 's' ? 1000 : 1) <= PAUSE_BOUND_MS, m[0]);
    assert.ok(addedP99 <= PAUSE_BOUND_MS, `added p99 ${addedP99.toFixed(1)} ms`);
    // The pause each target measured on its own event loop while its profiler started and stopped
    // (its main thread's work in one gap), beyond what it saw in the baseline window.
    for (const p of pauses) assert.ok(p.during.busyMs - p.before.busyMs <= PAUSE_BOUND_MS, `process ${p.during.pid}: paused ${figure(p.before)} ms before, ${figure(p.during)} ms during the capture`);

    // No inspector port left open: every process listens on what it listened on before.
    for (const pid of pids) assert.deepEqual(listeningSocketsOf(pid).map((s) => s.port).sort(), socketsBefore.get(pid), `process ${pid}`);

    // One view: the folder merged, each part's CPU time as its own report gives it, the whole their sum.
    const merged = await runCli(cli, ['profile', 'p', '--format', 'json'], out);
    assert.equal(merged.code, 0, merged.stderr);
    const whole = JSON.parse(merged.stdout) as { cpuMs: number; shareOf: string; parts: { id: string; ms: number; percent: number }[] };
    assert.equal(whole.shareOf, '% of CPU time, all processes and threads, idle excluded');
    const profiles = files.filter((f) => f.endsWith('.cpuprofile'));
    assert.deepEqual(whole.parts.map((p) => p.id).sort(), profiles.map((f) => f.split('.').slice(3, 5).join(':')).sort());
    let sum = 0;
    for (const file of profiles) {
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
  });

  // Runtime.evaluate of the agent's code where the inspector's interrupt landed (mid-statement in
  // the target) left, in about 4 of 8 captures of this service under load, a worker whose
  // process.nextTick callbacks never ran again: its IPC and its sockets stalled for good
  // (InspectorSession.evaluateString now runs the code at a microtask checkpoint).
  it('leaves every process running its callbacks: after each of 5 captures under load, every process answers over IPC and every request succeeds', async () => {
    const { cli } = await bundles();
    const service = await startClusterService();
    const load = startLoad(service.port);
    started = { service, load };
    const out = temp.make('hotframe-attach-repeat-');
    for (let capture = 1; capture <= 5; capture++) {
      const run = await runCli(cli, ['attach', String(service.primary), '--duration', '1', '--out', `p${capture}`, '--format', 'json'], out);
      assert.equal(run.code, 0, `capture ${capture}: exit ${run.code}: ${run.stderr}`);
      // Each process answers "stats" through IPC, which Node delivers on process.nextTick (bounded: attachService.ts).
      const stats = await service.stats();
      assert.deepEqual(stats.map((s) => s.pid).sort(), [service.primary, ...service.workers].sort(), `capture ${capture}: every process answered`);
    }
    await load.stop();
    assert.deepEqual(load.done.filter((r) => !r.ok).length, 0, 'every request succeeded');
  });
});
