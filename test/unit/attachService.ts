// The real parts of the attach tests: a node:cluster service (test/fixtures/attach/clusterServer.cjs)
// with its own event-loop measurements, a bounded loopback load, the CLI as a process.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';

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

/** A port free now, for the service's inspector: other programs on a shared machine may hold 9229. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The cluster service, without --inspect, run by `node` (another Node version in
 * attachNodeVersions.test.ts). Its processes' inspector port (where SIGUSR1 opens it) is set
 * through NODE_OPTIONS=--inspect-port, which Hotframe reads from the process's environment.
 */
export async function startClusterService(node = process.execPath): Promise<ClusterService> {
  const child = spawn(node, [SERVER], { stdio: 'pipe', env: { ...process.env, NODE_OPTIONS: `--inspect-port=${await freePort()}` } });
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

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The names of the functions that have samples (or allocations) in a profile file. */
export function functionNames(file: string): Set<string> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes?: { callFrame: { functionName: string } }[] };
  return new Set((profile.nodes ?? []).map((n) => n.callFrame.functionName));
}

