// A server started under Hotframe's own recorder (`hotframe record`'s startRecording and its
// preload) for the measured tests: the server prints `{"port":N}` on stdout once it listens;
// the answer is that port and the recording, or an error with what the server printed when it
// exits first. `stopAndRemove` is the measured tests' `after`: the recording stopped (bounded
// wait) and the folders removed. `driveRoutes` and `assertRoutesMatchThread` are the per-route
// measurement the routes tests share: each route driven alone, the server's main thread measured
// by the kernel, the profile's figure compared with it.
import { strict as assert } from 'node:assert';
import { readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

import type { RouteReport } from '../../server/profile/routes/routeCost';
import { startRecording, type Recording } from '../../server/shared/recordProfile';
import { sleep } from './attachService';
import { sendRequest } from './loopbackRequest';

const NODE_MODULES = resolve(__dirname, '../../node_modules');

export async function startRecordedServer(args: readonly string[], cwd: string): Promise<{ port: number; recording: Recording }> {
  let output = '';
  let portFound: (port: number) => void = () => {};
  const listening = new Promise<number>((done) => (portFound = done));
  const recording = startRecording({
    command: [process.execPath, ...args],
    cwd,
    env: { NODE_PATH: NODE_MODULES },
    stdio: 'pipe',
    onOutput: (text, stream) => {
      if (stream !== 'stdout') return;
      output += text;
      const line = /\{"port":\d+\}/.exec(output);
      if (line !== null) portFound((JSON.parse(line[0]) as { port: number }).port);
    },
  });
  const port = await Promise.race([listening, recording.done.then(() => Promise.reject(new Error(`the server exited before listening: ${output}`)))]);
  return { port, recording };
}

/** Stops a recording still running (waiting at most 20 s for it to end) and removes the folders named ('' is none). */
export async function stopAndRemove(recording: Recording | undefined, ...dirs: string[]): Promise<void> {
  if (recording !== undefined) {
    recording.stop();
    await Promise.race([recording.done, sleep(20_000)]);
  }
  for (const dir of dirs) if (dir !== '') rmSync(dir, { recursive: true, force: true });
}

/** One route driven alone: the request sent (GET unless said), how many times, and the route it is for. */
export interface DrivenRoute {
  route: string;
  method?: string;
  path: string;
  times: number;
}

/** The main thread's time over one route's requests: on a CPU, and waiting for one. */
export interface ThreadTime {
  cpuMs: number;
  waitMs: number;
}

/** The main thread's ns on a CPU and ns waiting for one (Linux schedstat). */
function mainThreadNs(pid: number): { cpu: number; wait: number } {
  const [cpu, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
  return { cpu: cpu!, wait: wait! };
}

/**
 * Each route of the plan driven alone, in order, on the server `pid` listening on `port`: its main
 * thread's time per route. Every request is measured, the first (its code compiled) too: the
 * profile holds them all.
 */
export async function driveRoutes(pid: number, port: number, plan: readonly DrivenRoute[]): Promise<Map<string, ThreadTime>> {
  const measured = new Map<string, ThreadTime>();
  for (const step of plan) {
    const before = mainThreadNs(pid);
    for (let i = 0; i < step.times; i++) await sendRequest(port, step.method ?? 'GET', step.path);
    const after = mainThreadNs(pid);
    measured.set(step.route, { cpuMs: (after.cpu - before.cpu) / 1e6, waitMs: (after.wait - before.wait) / 1e6 });
  }
  return measured;
}

/**
 * The share of a .cpuprofile's time carried by samples that came late: what each gap holds beyond
 * three of the profiler's usual intervals (the median). When the profiler's sampling thread waits
 * for a core, the sample after the gap carries the whole gap, also any part the main thread slept
 * in it; the thread's clock cannot see that, so this much of a route's figure may be no time of
 * the thread at all.
 */
export function samplerLateShare(profilePath: string): number {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as { timeDeltas?: number[] };
  const deltas = (profile.timeDeltas ?? []).filter((d) => d > 0);
  if (deltas.length < 10) return 0;
  const median = [...deltas].sort((a, b) => a - b)[Math.floor(deltas.length / 2)]!;
  let late = 0;
  let total = 0;
  for (const d of deltas) {
    total += d;
    late += Math.max(0, d - 3 * median);
  }
  return late / total;
}

/**
 * Each driven route's figure in the report between its main thread's time on a CPU and its time on
 * or waiting for one, with 10% either side; above, also the share of the figure the profile's late
 * samples may carry (`lateShare`, samplerLateShare). A .cpuprofile weighs each sample by the wall time since
 * the previous one: on a quiet machine that is the thread's CPU time, and when the thread waits for
 * a core, the wait falls into whichever sample follows it, a route's or an idle one. So the thread's
 * CPU bounds the route's figure from below and its CPU plus wait from above; on a quiet machine the
 * two meet and the test holds the figure within 10% of the CPU. Both are printed, with `routesText`.
 * The figure is the samples' plus the thread's CPU no sample shows (`unsampledMs`, by the thread's
 * own clock in the recording's notes): a light route's kernel work is sampled as idle.
 * With the load average at or above the machine's cores (any of `loads`), the figures are printed
 * and the test is skipped, said as such, not passed.
 */
export function assertRoutesMatchThread(test: Mocha.Context, report: RouteReport, plan: readonly DrivenRoute[], measured: ReadonlyMap<string, ThreadTime>, loads: readonly number[], routesText: string, lateShare: number): void {
  const rows = plan.map(({ route }) => {
    const cost = report.routes.find((r) => r.route === route);
    assert.ok(cost !== undefined, `${route}: ${JSON.stringify(report.routes.map((r) => r.route))}`);
    const { cpuMs, waitMs } = measured.get(route)!;
    const runnableMs = cpuMs + waitMs;
    // The samples' figure and the thread's CPU by its own clock that no sample shows (a Hotframe recording on Linux).
    const ms = cost.ms + (cost.unsampledMs ?? 0);
    const text = `${route}: profile ${cost.ms.toFixed(1)} ms + ${(cost.unsampledMs ?? 0).toFixed(1)} ms unsampled; main thread ${cpuMs.toFixed(1)} ms on a CPU (${(100 * (ms - cpuMs) / cpuMs).toFixed(1)}%), ` +
      `${runnableMs.toFixed(1)} ms on or waiting for one (${(100 * (ms - runnableMs) / runnableMs).toFixed(1)}%)`;
    return { ms, cpuMs, runnableMs, text };
  });
  console.log(`      ${rows.map((r) => r.text).join('\n      ')}`);
  console.log(`      the profile's late samples carry ${(100 * lateShare).toFixed(1)}% of its time`);
  console.log(routesText.split('\n').map((l) => `      ${l}`).join('\n'));
  skipUnderLoad(test, loads, 'the thread');
  for (const row of rows) {
    assert.ok(row.cpuMs > 150, `${row.text}: too little work to measure`);
    const upper = 1.1 * row.runnableMs + lateShare * row.ms;
    assert.ok(row.ms >= 0.9 * row.cpuMs && row.ms <= upper, `${row.text}: outside [0.9 x CPU, 1.1 x CPU and wait + the late samples' ${(100 * lateShare).toFixed(1)}%]`);
  }
}

/**
 * With the load average at or above the machine's cores (any of `loads`), says so and skips the
 * test, said as such, not passed: `who` waited for a CPU, and a sample after the wait carries it.
 */
export function skipUnderLoad(test: Mocha.Context, loads: readonly number[], who: string): void {
  const busiest = Math.max(...loads);
  if (busiest < availableParallelism()) return;
  console.log(`      load average ${busiest.toFixed(1)} on ${availableParallelism()} cores: ${who} waited for a CPU, the comparison is not made`);
  test.skip();
}

/**
 * Whether the recorded server answers `probe` on loopback `port`: a try, then 100 ms, at most
 * `tries` times, and none once its recording has ended (the server exited).
 */
export async function untilAnswering(recording: Recording, port: number, probe: string, tries: number): Promise<boolean> {
  let ended = false;
  void recording.done.then(() => (ended = true));
  for (let i = 0; i < tries && !ended; i++) {
    if (await sendRequest(port, 'GET', probe).then(() => true, () => sleep(100).then(() => false))) return true;
  }
  return false;
}
