// The pause `hotframe attach` causes in the processes it profiles (issue 28), measured in the
// targets themselves: a node:cluster service (test/fixtures/attach/clusterServer.cjs: a primary,
// 2 workers, a worker_thread in the first; no --inspect) under a bounded loopback load, each
// process with its own event-loop delay histogram (perf_hooks.monitorEventLoopDelay). For each
// capture (3 s), the longest delay each process saw during it, against a baseline window of the
// same length just before; and, as the floor set by V8, how long Profiler.start alone holds a
// Node process's main thread (its CpuProfiler logs every code object on the heap).
//
// Old and new in one run: HOTFRAME_BENCH_BASE=<a built checkout> alternates its dist/cli.js with
// this one's on the same service. HOTFRAME_BENCH_ROUNDS (default 3).
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const base = process.env.HOTFRAME_BENCH_BASE || null;
const ROUNDS = Number(process.env.HOTFRAME_BENCH_ROUNDS || 3);
const result = (row) => console.log(JSON.stringify({ bench: 'attachPause', ...row }));
const progress = (text) => console.log(`attachPause: ${text}`);
const out = mkdtempSync(join(tmpdir(), 'hotframe-bench-attach-'));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startService() {
  const child = spawn(process.execPath, [join(root, 'test/fixtures/attach/clusterServer.cjs')], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, WORKERS: '2', NODE_OPTIONS: `--inspect-port=${await freePort()}` },
  });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (line) => waiting.shift()?.(JSON.parse(line)));
  const next = () => new Promise((resolve) => waiting.push(resolve));
  const ready = await next();
  return {
    ...ready,
    async stats() {
      const answer = next();
      child.stdin.write('stats\n');
      return (await answer).stats;
    },
    stop: () => new Promise((resolve) => {
      child.once('exit', resolve);
      child.stdin.end();
    }),
  };
}

function startLoad(port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  let stopped = false;
  let count = 0;
  const one = () => new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/', agent }, (response) => {
      response.resume();
      response.on('end', resolve);
    });
    request.setTimeout(10_000, () => request.destroy());
    request.on('error', resolve);
  });
  const loops = [0, 1].map(async () => {
    while (!stopped && count++ < 200_000) await one();
  });
  return async () => {
    stopped = true;
    await Promise.all(loops);
    agent.destroy();
  };
}

function attach(checkout, pid) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(checkout, 'dist/cli.js'), 'attach', String(pid), '--duration', '3', '--format', 'json', '--out', join(out, `${Date.now()}`)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Profiler.start alone, in a fresh Node process with the http stack loaded, as V8 performs it. */
function profilerStartAlone() {
  const code = `require('node:http'); const s = new (require('node:inspector').Session)(); s.connect(); s.post('Profiler.enable');
const t = performance.now(); s.post('Profiler.start'); const ms = performance.now() - t; s.post('Profiler.stop', () => console.log(ms));`;
  const run = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  return Number(run.stdout.trim());
}

const service = await startService();
const stopLoad = startLoad(service.port);
const added = { new: [], base: [] };
const reported = { new: [], base: [] };
try {
  await sleep(1000);
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 === 0 ? ['new', 'base'] : ['base', 'new']) {
      if (which === 'base' && base === null) continue;
      await service.stats();
      await sleep(4000);
      const before = await service.stats();
      const run = await attach(which === 'new' ? root : base, service.primary);
      const during = await service.stats();
      if (run.code !== 0) throw new Error(`attach failed: ${run.stderr}`);
      for (const s of during) added[which].push(s.maxMs - (before.find((b) => b.pid === s.pid)?.maxMs ?? 0));
      reported[which].push(...[...run.stderr.matchAll(/paused its main thread ([\d.]+ \w+) to start, ([\d.]+ \w+) to stop/g)].map((m) => `${m[1]}+${m[2]}`));
    }
  }
} finally {
  await stopLoad();
  await service.stop();
  rmSync(out, { recursive: true, force: true });
}
const alone = Array.from({ length: 3 }, profilerStartAlone);
const load = loadavg().map((l) => l.toFixed(2)).join(' ');
const spread = (xs) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)} ms`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
progress(`added event-loop max delay per process, new: ${added.new.map((x) => x.toFixed(0)).join(', ')} ms; reported start+stop: ${reported.new.join(', ')}`);
if (base !== null) progress(`base: ${added.base.map((x) => x.toFixed(0)).join(', ')} ms; reported: ${reported.base.join(', ')}`);
progress(`Profiler.start alone (V8's floor): ${alone.map((x) => x.toFixed(1)).join(', ')} ms; load ${load}`);
result({ metric: 'attach: added event-loop max delay in each target (cluster of 3 processes + a thread, under load), median', value: median(added.new), unit: 'ms', spread: spread(added.new), ...(base !== null ? { base: median(added.base), baseSpread: spread(added.base) } : {}), limit: '<= 50', pass: median(added.new) <= 50, load });
result({ metric: "V8's Profiler.start alone in a Node process (the floor of the start's pause)", value: Math.min(...alone), unit: 'ms', spread: spread(alone), load });
