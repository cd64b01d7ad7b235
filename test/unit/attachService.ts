// The real parts of the attach tests: a node:cluster service (test/fixtures/attach/clusterServer.cjs)
// with its own event-loop measurements, a bounded loopback load, the CLI as a process.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

import { freePort } from '../freePorts';
import { REPO_ROOT } from './bundles';

const SERVER = join(REPO_ROOT, 'test/fixtures/attach/clusterServer.cjs');

export interface Stats {
  pid: number;
  maxMs: number;
  p99Ms: number;
  count: number;
  /** The longest gap between the process's 2 ms ticks beyond the 2 ms (wall), and how much of it its main thread waited for a CPU and ran. */
  stallMs: number;
  stallWaitMs: number;
  stallCpuMs: number;
  /** The most CPU time its main thread spent in one gap between two ticks: work that held its event loop. */
  busyMs: number;
}

export interface ClusterService {
  child: ChildProcessWithoutNullStreams;
  port: number;
  primary: number;
  workers: number[];
  stats(): Promise<Stats[]>;
  stop(): Promise<void>;
}

export { freePort } from '../freePorts';

/**
 * The cluster service, without --inspect, run by `node` (another Node version in
 * attachNodeVersions.test.ts). Its processes' inspector port (where SIGUSR1 opens it) is set
 * through NODE_OPTIONS=--inspect-port, which Hotframe reads from the process's environment.
 */
/** Inspector ports a cluster service takes: its primary's, one per worker (clusterServer.cjs's WORKERS), and room for a restarted one. */
const INSPECTOR_PORTS = 8;

export async function startClusterService(node = process.execPath): Promise<ClusterService> {
  const child = spawn(node, [SERVER], { stdio: 'pipe', env: { ...process.env, NODE_OPTIONS: `--inspect-port=${await freePort(INSPECTOR_PORTS)}` } });
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
  // The end of what the service said on stderr (its workers' ends), for the failure messages.
  let said = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => (said = (said + text).slice(-8000)));
  const workerEnds = (): string => said.split('\n').filter((line) => line.startsWith('worker ')).map((line) => `; ${line}`).join('');
  // How the primary ended, for the failure messages: a service that dies is not one that stalls.
  let ended: string | null = null;
  child.once('exit', (code, signal) => (ended = signal !== null ? `the primary was ended by ${signal}` : `the primary exited with code ${code}`));
  const next = (): Promise<Record<string, unknown>> => new Promise((resolve) => waiters.push(resolve));
  const ready = await within(30_000, next());
  if (ready === null) {
    child.kill('SIGKILL');
    throw new Error('the cluster service did not say it was ready within 30 s');
  }
  return {
    child,
    port: ready.port as number,
    primary: ready.primary as number,
    workers: ready.workers as number[],
    async stats() {
      const answer = next();
      child.stdin.write('stats\n');
      // Every process answers through its IPC channel, whose messages Node delivers on
      // process.nextTick: a process whose tick queue no longer runs never answers.
      const stats = await within(STATS_TIMEOUT_MS, answer);
      if (stats === null) throw new Error(`the service's processes did not all answer "stats" within ${STATS_TIMEOUT_MS} ms (${ended ?? 'one no longer runs its callbacks?'}${workerEnds()})`);
      return stats.stats as Stats[];
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.end();
      // A primary that does not end its workers and itself in time is killed with them.
      if ((await within(5000, exited)) === null) {
        for (const pid of [ready.primary as number, ...(ready.workers as number[])]) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
        await exited;
      }
    },
  };
}

export type Load = ReturnType<typeof startLoad>;

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
        response.on('error', () => {
          done.push({ at: Date.now(), ms: performance.now() - started, ok: false });
          resolve();
        });
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

/** How long the service's processes have to answer "stats". */
const STATS_TIMEOUT_MS = 15_000;

/** The promise's value, or null when it has not settled within `ms`. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The CLI as a process; killed (code null) when it runs longer than `timeoutMs`. */
export function runCli(cli: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, timeout: timeoutMs, killSignal: 'SIGKILL' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The names of the functions that have samples (or allocations) in a profile file. */
/** What a profile holds, for an assertion's message: its samples, its span and its functions. */
export function profileSummary(file: string): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes?: { callFrame: { functionName: string } }[]; samples?: number[]; startTime?: number; endTime?: number };
  const span = ((profile.endTime ?? 0) - (profile.startTime ?? 0)) / 1000;
  return `${profile.samples?.length ?? 0} samples over ${span.toFixed(0)} ms, functions ${[...functionNames(file)].join(', ')}`;
}

export function functionNames(file: string): Set<string> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes?: { callFrame: { functionName: string } }[] };
  return new Set((profile.nodes ?? []).map((n) => n.callFrame.functionName));
}

